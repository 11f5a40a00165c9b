"""Bazel `BUILD` files in a platform's folder: the macros their targets define for that platform.

jax builds its GPU plugins from `jaxlib/cuda/BUILD` and `jaxlib/rocm/BUILD`; the shared header
`jaxlib/gpu/vendor.h` tests `#if defined(JAX_GPU_CUDA)` / `#elif defined(JAX_GPU_HIP)`, and each
folder's `cc_library` passes one of them with `defines = ["JAX_GPU_HIP=1"]`. A target's `defines`
reach everything that depends on it, so they count for the whole project, on the platform the
folder is named for (a folder part that is only a ROCm word, `rocm`, `hip`, `amd`, or only a CUDA
word, `cuda`, `nvidia`). `local_defines` (the target's own sources) and folders named for no
platform are not read. Nothing is evaluated: only literal strings in the lists count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .build_conditions import CUDA, CUDA_WORDS, ROCM, ROCM_WORDS
from .build_facts import Definition, Evidence, ReaderResult
from .build_flags import macro

BAZEL_FILES = ("BUILD", "BUILD.bazel")
_DEFINES = re.compile(r"(?<![\w.])defines\s*=\s*\[([^\]]*)\]")
_STRING = re.compile(r"""["']([^"'\n]*)["']""")


def read_bazel(paths: Sequence[str], read: Callable[[str], str | None]) -> ReaderResult:
    """The definitions of the `BUILD` files `paths` (root-relative) that sit in a platform's folder."""
    definitions = []
    files = []
    for path in paths:
        platform = folder_platform(path)
        text = read(path) if platform is not None else None
        if not text:
            continue
        files.append(path)
        for match in _DEFINES.finditer(text):
            for item in _STRING.finditer(match.group(1)):
                defined = macro(item.group(1))
                if defined is None:
                    continue
                line = text.count("\n", 0, match.start(1) + item.start()) + 1
                evidence = Evidence(path, line, text.splitlines()[line - 1].strip()[:200])
                condition = f"the targets of {path.rpartition('/')[0]}/"
                definitions.append(Definition(*defined, platform, True, condition, evidence))
    return ReaderResult(definitions=tuple(definitions), files=tuple(files))


def folder_platform(path: str) -> str | None:
    """ROCM or CUDA when a folder of the root-relative `path` is named for one platform only."""
    found = {ROCM if part.lower() in ROCM_WORDS else CUDA for part in path.split("/")[:-1]
             if part.lower() in ROCM_WORDS or part.lower() in CUDA_WORDS}
    return found.pop() if len(found) == 1 else None
