# -*- coding: ascii -*-
import torch

x = "é"  # expect: HG904
y = torch.version.cuda
