# -*- coding: latin-1 -*-
"""HG904: bytes that are not valid in the declared encoding... here they are: é."""
import torch

x = torch.version.cuda.split(".")
