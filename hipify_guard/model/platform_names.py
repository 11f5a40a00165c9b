"""What a macro's name says about the platform (spec §11.1): a project's "this is the ROCm build"
and "this is the CUDA build" macros, and the macros only NVIDIA's compilers define.

A *build macro* is a verb followed only by platform words: `GGML_USE_HIP`, `MAGMA_HAVE_HIP`,
`USE_AMD_ROCM`, `KOKKOS_ENABLE_HIP`, `HYPRE_USING_HIP`, `WITH_HIP` on the ROCm side;
`MFEM_USE_CUDA`, `KOKKOS_ENABLE_CUDA` on the CUDA side. A name with more words after the platform
(`USE_ROCM_KERNEL_ASSERT`, `GGML_HIP_NO_VMM`) is a feature switch, not the build. The words before
the verb are the name's *prefix* (`GGML`): a CUDA-side name means "not ROCm" only where the
project shows the ROCm side of the same prefix, since PyTorch and its extensions define `USE_CUDA`
and `WITH_CUDA` in their ROCm builds too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

ROCM, CUDA = "rocm", "cuda"
_ROCM_WORDS = frozenset({"HIP", "ROCM", "AMD", "HCC", "AMDGPU", "HIPBLAS"})
_CUDA_WORDS = frozenset({"CUDA", "NVCC", "NVIDIA", "CUBLAS"})
_VERBS = frozenset({"USE", "USES", "HAVE", "HAS", "ENABLE", "ENABLED", "USING", "WITH", "BUILD", "BUILDING", "IS",
                    "COMPILING", "COMPILE"})
# Defined only by NVIDIA's compilers (nvcc, NVRTC, nvc++), and `__CUDA__` only by clang compiling
# CUDA (in HIP mode clang defines `__HIP__` instead; checked with Debian's clang 15 and hipcc 5.2):
# never on any ROCm route.
NVIDIA_COMPILER_MACROS = frozenset({"__NVCC__", "__CUDACC__", "__CUDA_ARCH__", "__NVCOMPILER", "__CUDA_ARCH_LIST__",
                                    "__CUDA__"})
_NVIDIA_COMPILER_PREFIXES = ("__CUDACC_", "__CUDA_ARCH_", "__NVCOMPILER_", "__NVCC_")
_WORD = re.compile(r"[A-Z0-9]+(?![a-z])|[A-Z]?[a-z0-9]+")


class BuildMacro(NamedTuple):
    """A name that reads as a GPU build switch: its side (ROCM or CUDA) and its prefix."""

    side: str
    prefix: str


@lru_cache(maxsize=4096)
def build_macro(name: str) -> BuildMacro | None:
    """The build switch a name reads as, or None (`GGML_USE_HIP` -> (ROCM, "GGML"))."""
    words = [word.upper() for part in name.strip("_").split("_") for word in _WORD.findall(part)]
    for index in range(len(words) - 2, -1, -1):
        if words[index] in _VERBS:
            platform = set(words[index + 1 :])
            if platform and platform <= _ROCM_WORDS:
                return BuildMacro(ROCM, "_".join(words[:index]))
            if platform and platform <= _CUDA_WORDS:
                return BuildMacro(CUDA, "_".join(words[:index]))
            return None
    return None


def is_nvidia_compiler_macro(name: str) -> bool:
    """Whether only NVIDIA's compilers define `name` (`__NVCC__`, `__CUDACC_RTC__`,
    `__CUDA_ARCH_FEAT_SM90_ALL`): a test of it is an explicit CUDA test."""
    return name in NVIDIA_COMPILER_MACROS or name.startswith(_NVIDIA_COMPILER_PREFIXES)
