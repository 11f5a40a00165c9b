# Triton's active target names its backend "hip" on ROCm (gpt-oss-triton-kernels' opt_flags.py):
# a helper called only where the backend is "cuda" never runs there, and a test of the backend
# decides which branch ROCm takes.
import torch
import triton


def nvidia_flags():
    return torch.cuda.get_device_capability()[0] >= 9


def amd_flags():
    return 1


def make_flags():
    backend = triton.runtime.driver.active.get_current_target().backend
    if backend == "hip":
        return amd_flags()
    if backend == "cuda":
        return nvidia_flags()
    raise ValueError(backend)


def block_size(n):
    if triton.runtime.driver.active.get_current_target().backend == "hip":
        n = max(n, 64)
    return n if torch.cuda.get_device_capability()[0] >= 9 else 32  # expect: HG303
