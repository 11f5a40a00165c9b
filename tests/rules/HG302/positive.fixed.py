"""HG302: CUDA version tests whose ROCm value a stand-in for torch.version.cuda's None decides."""
import torch
from packaging.version import Version

CUDA_MAJOR = int(torch.version.cuda.split(".")[0]) if torch.version.cuda else 0
if CUDA_MAJOR >= 12 and torch.version.hip is None:  # expect: HG302
    fast = True
if CUDA_MAJOR < 12 or torch.version.hip is not None:  # expect: HG302
    legacy = True
if Version(torch.version.cuda or "0") >= Version("11.8") and torch.version.hip is None:  # expect: HG302
    pass
while float(torch.version.cuda or 0) < 12.0 or torch.version.hip is not None:  # expect: HG302
    break
version = torch.version.cuda or "0.0"
mode = "graphs" if Version(version) >= Version("12.1") and torch.version.hip is None else "eager"  # expect: HG302


def cuda_version() -> tuple[int, int]:
    if torch.version.cuda is None:
        return (0, 0)
    major, minor = torch.version.cuda.split(".")[:2]
    return int(major), int(minor)


SUPPORTS_FP8 = cuda_version() >= (12, 0) and torch.version.hip is None  # expect: HG302


def supports_graphs() -> bool:
    return cuda_version() >= (11, 0) and torch.version.hip is None  # expect: HG302
