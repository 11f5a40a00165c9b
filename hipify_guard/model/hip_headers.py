"""What HIP's own headers declare (ROCm 6.3), loaded from rules/hip_headers.tsv.

HIP declares many CUDA spellings itself (`__float2bfloat16`, `__hmax2`, `__shfl_xor_sync`), some
only when the build opts in with a macro (`HIP_ENABLE_WARP_SYNC_BUILTINS`). `since` is the ROCm
release from which HIP's headers have declared the name without a break, from their release
history (scripts/gen_hip_history.py): the headers carry no per-API version themselves.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .tsv import KeyedRows, read_table

TSV_NAME = "hip_headers.tsv"
COLUMNS = ("name", "header", "opt_in", "since", "evidence")


class Declaration(NamedTuple):
    """A name HIP's headers declare: where, under which opt-in macros, and since which release."""

    name: str
    header: str  # relative to the include folder: `hip/amd_detail/amd_hip_bf16.h`
    opt_in: tuple[str, ...]  # macros the build must define for the declaration (() = none)
    since: tuple[int, ...] | None  # (major, minor, patch)
    evidence: str  # the tag and header where `since` starts ("" when there is no release)


class HipHeaders(KeyedRows):
    """The declarations by name."""

    def get(self, name: str) -> Declaration | None:
        """What HIP's headers say about `name`, if they declare it."""
        cells = self.cells(name)
        if cells is None:
            return None
        name, header, opt_in, since, evidence = cells
        release = tuple(int(part) for part in since.split(".")) if since else None
        return Declaration(name, header, tuple(opt_in.split()), release, evidence)


@functools.lru_cache(maxsize=1)
def load_hip_headers() -> HipHeaders:
    """HIP's header declarations shipped with hipify-guard (loaded once)."""
    return HipHeaders(read_table(TSV_NAME, COLUMNS))
