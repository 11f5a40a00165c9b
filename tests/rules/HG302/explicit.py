"""HG302: tests that say what ROCm does, or that ROCm never evaluates: nothing to report."""
import torch
from packaging.version import Version
from torch.utils.cpp_extension import IS_HIP_EXTENSION

if torch.version.cuda is not None and Version(torch.version.cuda) >= Version("11.8") and torch.version.hip is None:
    pass
if (torch.version.cuda is not None and Version(torch.version.cuda) >= Version("11.8")) or torch.version.hip is not None:
    pass
if not IS_HIP_EXTENSION and torch.version.cuda and float(torch.version.cuda) >= 11.0:
    pass
if torch.version.hip:
    pass
elif torch.version.cuda and float(torch.version.cuda) >= 11.0:  # ROCm never gets here
    pass
if torch.version.cuda is not None:  # a platform test, not a version test
    pass
if torch.version.cuda is not None and torch.cuda.get_device_capability() >= (8, 9):
    pass
IS_ROCM = torch.version.hip is not None
if IS_ROCM or (torch.version.cuda and float(torch.version.cuda) >= 11.0):
    pass
