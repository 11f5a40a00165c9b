"""HG305 through aliases and imports."""
from torch.version import hip

import torch

cuda = torch.version.cuda
if cuda and cuda > "12.0":  # expect: HG305
    pass
if hip and hip < "6.10":  # expect: HG305
    pass
