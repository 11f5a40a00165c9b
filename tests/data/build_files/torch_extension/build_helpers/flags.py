"""Compiler flags shared by the extension's builds (imported by setup.py)."""

from torch.utils.cpp_extension import ROCM_HOME

nvcc_args = ["-O3"]


def common_flags():
    flags = list(nvcc_args)
    if ROCM_HOME is not None:
        flags.append("-DEXT_ROCM_HOME_FOUND")
    return flags
