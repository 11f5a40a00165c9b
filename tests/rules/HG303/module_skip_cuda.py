"""A module-level skip under a test false on ROCm (here: only on CUDA) leaves the module ROCm's:
its capability tests are reported (module_skip.py: the skip on ROCm)."""
import pytest
import torch

if not torch.cuda.is_available() or torch.cuda.get_device_capability() < (8, 9):  # expect: HG303
    pytest.skip("needs SM89+", allow_module_level=True)

if torch.version.cuda is not None and torch.version.cuda < "12":
    pytest.skip("needs CUDA 12", allow_module_level=True)


def test_fp8() -> None:
    assert torch.cuda.get_device_capability()[0] == 9  # expect: HG303
