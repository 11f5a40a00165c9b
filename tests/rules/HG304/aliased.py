"""HG304 through one alias."""
import torch

version = torch.backends.cudnn.version()
if version < 7000:  # expect: HG304
    pass
