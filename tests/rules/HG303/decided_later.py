"""HG303 is not reported for a comparison whose value a later operand of its `and` decides on
ROCm: torchao's `_is_sm_10x() and is_cuda_version_at_least(12, 8)` runs the capability test
first, but the version test is false wherever `torch.version.cuda` is None, so the capability's
value never matters there. A private helper counts when every call of it in the file is decided
that way; one called where its value matters (or a public one, which other modules may call) is
still reported."""
import torch


def cuda_at_least(major: int, minor: int) -> bool:
    version = torch.version.cuda
    if version is None:
        return False
    return tuple(map(int, version.split(".")[:2])) >= (major, minor)


def _is_sm_10x() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability()[0] == 10


def _is_sm_90() -> bool:
    return torch.cuda.get_device_capability()[0] == 9  # expect: HG303


def is_sm_120() -> bool:
    return torch.cuda.get_device_capability()[0] == 12  # expect: HG303


FAST_KERNELS = _is_sm_10x() and cuda_at_least(12, 8)
SLOW_KERNELS = not _is_sm_10x() and cuda_at_least(12, 8)
HOPPER_KERNELS = _is_sm_90() and torch.cuda.is_available()
NEWEST = is_sm_120() and cuda_at_least(12, 8)
FP8 = torch.cuda.get_device_capability() >= (8, 9) and cuda_at_least(12, 0)
