"""A test module that skips itself on ROCm at module level (torchao's MoE training tests: `if
is_ROCM(): pytest.skip(..., allow_module_level=True)`) runs none of its tests there, so the
capability test before the skip decides nothing on ROCm: not reported. (module_skip_cuda.py: the
same skip on CUDA leaves the module ROCm's.)"""
import pytest
import torch

if not torch.cuda.is_available() or torch.cuda.get_device_capability() < (8, 9):
    pytest.skip("needs SM89+", allow_module_level=True)

if torch.version.hip is not None:
    pytest.skip("not supported on ROCm", allow_module_level=True)


def test_fp8() -> None:
    assert torch.cuda.get_device_capability()[0] == 9
