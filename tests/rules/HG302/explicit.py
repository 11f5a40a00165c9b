"""HG302: tests that say what ROCm does (the HIP note's own CUDA test is `torch.version.cuda`, for
truth or against None), that ROCm never evaluates, or where None itself decides: nothing to report."""
import torch
from packaging.version import Version
from torch.utils.cpp_extension import IS_HIP_EXTENSION

if torch.version.cuda is not None and Version(torch.version.cuda) >= Version("11.8"):
    pass
while torch.version.cuda and float(torch.version.cuda) < 12.0:
    break
if torch.version.cuda is not None and (
        Version(torch.version.cuda) >= Version("12.4")):
    pass
if not (torch.version.cuda and torch.version.cuda.startswith("11")):
    legacy = False
SUPPORTS_FP8 = torch.version.cuda is not None and int(torch.version.cuda.split(".")[0]) >= 12
mode = "graphs" if torch.version.cuda in ("12.1", "12.4") else "eager"  # None is in neither: not a stand-in
if not torch.version.cuda == "11.8":
    pass
CUDA_MAJOR = int(torch.version.cuda.split(".")[0]) if torch.version.cuda else 0
if torch.version.cuda and CUDA_MAJOR >= 12:
    pass
if torch.version.cuda is not None and Version(torch.version.cuda) >= Version("11.8") and torch.version.hip is None:
    pass
if not IS_HIP_EXTENSION and CUDA_MAJOR >= 11:
    pass
if torch.version.hip:
    pass
elif CUDA_MAJOR >= 11:  # ROCm never gets here
    pass
IS_ROCM = torch.version.hip is not None
if IS_ROCM or CUDA_MAJOR >= 11:
    pass
