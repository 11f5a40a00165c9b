"""HG301: dominating checks that keep ROCm away from the use: nothing to report."""
import sys

import pytest
import torch
from torch.utils.cpp_extension import IS_HIP_EXTENSION

if torch.version.cuda:
    a = torch.version.cuda.split(".")
if torch.version.cuda is not None:
    b = float(torch.version.cuda)
c = torch.version.cuda is not None and int(torch.version.cuda.split(".")[0]) >= 12
d = float(torch.version.cuda) if torch.version.cuda else 0.0
e = torch.version.hip or torch.version.cuda.split(".")

if torch.version.hip:
    f = torch.version.hip.split(".")
else:
    f = torch.version.cuda.split(".")

if torch.version.hip is not None:
    g = 0
elif torch.version.cuda is not None:
    g = float(torch.version.cuda)

if not IS_HIP_EXTENSION:
    h = torch.version.cuda.split(".")

if torch.cuda.is_available() and torch.version.hip:
    i = 1
elif torch.cuda.is_available() and torch.version.cuda:
    i = float(torch.version.cuda)


def early_return() -> float:
    if torch.version.hip:
        return 0.0
    return float(torch.version.cuda)


def early_raise() -> float:
    if torch.version.cuda is None:
        raise RuntimeError("CUDA only")
    return float(torch.version.cuda)


def asserted() -> float:
    assert torch.version.cuda is not None, "CUDA only"
    return float(torch.version.cuda)


def in_a_loop(items: list[str]) -> list[float]:
    found = []
    for item in items:
        if torch.version.hip is not None:
            continue
        found.append(float(torch.version.cuda))
    return found


def exits() -> float:
    if torch.version.hip:
        sys.exit("not for ROCm")
    return float(torch.version.cuda)


def caught() -> float:
    try:
        return float(torch.version.cuda)
    except TypeError:
        return 0.0


def vllm_style(current_platform) -> float:
    if current_platform.is_rocm():
        return 0.0
    return float(torch.version.cuda)


def apex_style(is_rocm_pytorch) -> float:
    if is_rocm_pytorch():
        return 0.0
    return float(torch.version.cuda)


@pytest.mark.skipif(torch.version.hip is not None, reason="CUDA only")
def test_cuda_only() -> None:
    assert float(torch.version.cuda) > 10


def skipped_inside() -> None:
    if torch.version.hip:
        pytest.skip("CUDA only")
    assert float(torch.version.cuda) > 10


def fp8_support() -> bool:
    """TransformerEngine's pattern: every AMD GPU reports a capability of (9, 0) or more."""
    if torch.cuda.get_device_capability() >= (9, 0):
        return True
    return float(torch.version.cuda) >= 12.1


def check_cuda_mismatch() -> None:
    """DeepSpeed's pattern: a helper the file calls only where ROCm is excluded."""
    print(torch.version.cuda.split("."))


def build(is_rocm_pytorch) -> None:
    if not is_rocm_pytorch():
        check_cuda_mismatch()
