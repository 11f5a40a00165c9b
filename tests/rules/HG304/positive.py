"""HG304: cuDNN's version compared where ROCm can reach it (MIOpen's there)."""
import torch
from torch.backends import cudnn

if torch.backends.cudnn.version() >= 8500:  # expect: HG304
    pass
FUSED = cudnn.version() // 100 >= 85  # expect: HG304
if torch.backends.cudnn.version() is not None:  # a test for cuDNN at all: nothing to report
    pass
