"""A call of a module-level function of the file is what its reachable `return`s give on the
platform: vLLM's `get_flash_attn_version()` returns None on ROCm (the try-import of a CUDA-only
module fails, here CuTe DSL's `cutlass`, there the CUDA build's `vllm.vllm_flash_attn`;
`current_platform.is_xpu()` is false on a ROCm GPU), so
`get_flash_attn_version() == 3 and <capability test>` stops before the capability there. A
function that may return something else decides nothing."""
import torch
from vllm.platforms import current_platform


def get_flash_attn_version():
    if current_platform.is_xpu():
        return 2
    try:
        from cutlass.cute import is_fa_version_supported
        version = 3 if is_fa_version_supported(3) else 2
        return version
    except ImportError:
        return None


def preferred_version(default):
    if current_platform.is_xpu():
        return None
    return default


def supports_fp8() -> bool:
    return get_flash_attn_version() == 3 and torch.cuda.get_device_capability()[0] == 9


def prefers_fp8(default) -> bool:
    return preferred_version(default) == 3 and torch.cuda.get_device_capability()[0] == 9  # expect: HG303
