"""`defined(__CUDACC_VER_MAJOR__)` asks "is this nvcc", not "which CUDA" (spec §11.1).

nvcc and NVRTC define `__CUDACC_VER_MAJOR__`, `__CUDACC_VER_MINOR__` and `__CUDACC_VER_BUILD__`
exactly when they define `__CUDACC__`, and no other compiler does: whether one of them is defined
tells the compiler, like `defined(__CUDACC__)`, an explicit CUDA test. Only their values are CUDA
versions. `CUDA_VERSION` and `CUDART_VERSION` come from CUDA's headers (and PyTorch's hipify
renames `CUDA_VERSION`), so whether they are defined stays a version question.
"""

from __future__ import annotations

from ..cpp.nodes import Defined, Identifier, Node, walk
from .platform_names import is_nvidia_compiler_macro


def is_identity_test(node: Node, cuda_macros: frozenset[str]) -> bool:
    """Whether `node` is `defined(X)` of such a macro: a test of the compiler, not of a version."""
    return isinstance(node, Defined) and node.name in cuda_macros and is_nvidia_compiler_macro(node.name)


def version_names(node: Node, cuda_macros: frozenset[str]) -> frozenset[str]:
    """The CUDA version macros `node` asks a version question of: every one it reads, except
    those it only tests with `defined` as the compiler's identity."""
    return frozenset(item.name for item in walk(node)
                     if isinstance(item, (Identifier, Defined)) and item.name in cuda_macros
                     and not is_identity_test(item, cuda_macros))
