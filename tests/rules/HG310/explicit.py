"""HG310: kernels compiled with C10_USE_ROCM_KERNEL_ASSERT keep their asserts on ROCm: nothing to report."""
import pytest
import torch
from torch.utils.cpp_extension import load_inline

module = load_inline("checked", cpp_sources="", cuda_sources="", extra_cuda_cflags=["-DC10_USE_ROCM_KERNEL_ASSERT"])


def test_kernel_assert() -> None:
    with pytest.raises(RuntimeError, match="device-side assert"):
        module.check_bounds(torch.zeros(2, device="cuda"), 5)
        torch.cuda.synchronize()
