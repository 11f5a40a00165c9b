"""The API tables as a check run reads them, made once per tool build and then loaded in one read.

A check run asks the three shipped tables (HIPIFY's, PyTorch's hipify's, HIP's headers') only for
HIPIFY's facts per name, the names worth finding in code, the newest HIP version HIPIFY knows and
single rows of the other two. Made from the TSVs that costs ~60 ms (12,000 names merged from
9,000 rows, three tables split and checked); kept as plain values by a `TableStore` (the user
cache, sealed: `project.table_cache`) it costs one read and a few ms. Without a store, or when
the store has nothing, the tables are made from the TSVs (and given to the store).
"""

from __future__ import annotations

import functools
import re
from typing import Protocol

from .hip_headers import HipHeaders, load_hip_headers
from .mapping import Facts, load_table
from .torch_mapping import TorchTable, load_torch_table

# C and C++ keywords: never an API use, whatever a table maps to them (`cusolver_int_t` -> `int`).
_KEYWORDS = frozenset(
    b"alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class const "
    b"consteval constexpr constinit const_cast continue decltype default delete do double dynamic_cast "
    b"else enum explicit export extern false float for friend goto if inline int long mutable namespace "
    b"new noexcept nullptr operator private protected public register reinterpret_cast return short "
    b"signed sizeof static static_assert static_cast struct switch template this thread_local throw "
    b"true try typedef typeid typename union unsigned using virtual void volatile wchar_t while".split()
)
_FORM = 4  # the layout of `plain()`: a store keyed by the tool build never mixes two
# The names of an API (spec §14.6): CUDA's and HIP's runtime, driver and library names, their
# device intrinsics and types (`__shfl_down`, `__half2float`, `half`); not C/C++ library names
# (`exp`, `max`, `uint32_t`), which HIPIFY's device-functions table and HIP's headers list too but
# which say nothing about ROCm. Names of the other HIPIFY tables (cuSPARSE's `csrilu02Info_t`) are APIs.
API_NAME = re.compile(
    r"(?!__\w*__$)(?:cu(?:da|blas|sparse|solver|fft|rand|dnn|tensor|file|pti)|cu[A-Z]|CU[A-Z_]|nv[A-Za-z]|NV[A-Z_]|__nv"
    r"|nccl|NCCL|hip|HIP|roc[a-z]|miopen|MIOPEN|__(?!builtin_)[A-Za-z]|half2?$|bfloat16|cooperative_groups)")
_DEVICE_FUNCTIONS = "CUDA DEVICE API"  # HIPIFY's table of device functions (C library names among them)


class TableStore(Protocol):
    """Where the plain form of the tables is kept between runs."""

    def load(self) -> object | None:
        """What `keep` was given last (None: nothing, or nothing that verifies)."""

    def keep(self, plain: object) -> None:
        """Keep `plain` (best effort)."""


class ApiTables:
    """What a check run reads of the three tables."""

    def __init__(self, facts: Facts, names: frozenset[bytes], torch: TorchTable, hip: HipHeaders,
                 newest_hip: tuple[int, int, int], library_apis: frozenset[bytes]) -> None:
        self.facts = facts  # HIPIFY's facts by name (`MappingTable.api_facts`)
        # every identifier HIPIFY's or PyTorch's table knows and the CUDA spellings HIP's headers
        # declare (the opt-in `__any_sync`, spec §14.2), keywords left out
        self.names = names
        self.library_apis = library_apis  # names of a HIPIFY table other than its device functions'
        self.torch = torch
        self.hip = hip
        self.newest_hip = newest_hip  # `MappingTable.newest_hip`

    @classmethod
    def from_tsv(cls) -> ApiTables:
        """The tables made from the shipped TSVs."""
        hipify, torch, hip = load_table(), load_torch_table(), load_hip_headers()
        found = set(hipify.api_facts)
        found.update(name.encode() for name in torch.keys | torch.hip_names if name.isidentifier())
        found.update(name.encode() for name in hip.keys
                     if API_NAME.match(name) and not name.startswith(("hip", "HIP")) and name.isidentifier())
        libraries = hipify.cuda_names_outside(_DEVICE_FUNCTIONS)
        return cls(hipify.api_facts, frozenset(found - _KEYWORDS), torch, hip, hipify.newest_hip, libraries)

    def plain(self) -> tuple:
        """The tables as plain values (for a store; `from_plain` makes them again)."""
        return (_FORM, self.facts.packed(), self.names, self.torch.rows, self.torch.hip_names, self.hip.rows, self.newest_hip,
                self.library_apis)

    @classmethod
    def from_plain(cls, plain: object) -> ApiTables | None:
        """The tables of `plain()`'s values; None when `plain` is not such a value."""
        if not (isinstance(plain, tuple) and len(plain) == 8 and plain[0] == _FORM):
            return None
        _, facts, names, torch, torch_hip_names, hip, newest, library_apis = plain
        return cls(Facts(facts), names, TorchTable.from_plain(torch, torch_hip_names), HipHeaders.from_rows(hip), newest,
                   library_apis)


_store: TableStore | None = None


def use_store(store: TableStore | None) -> None:
    """Keep the tables' plain form in `store` from now on (None: make them from the TSVs each run)."""
    global _store
    _store = store
    api_tables.cache_clear()


@functools.lru_cache(maxsize=1)
def api_tables() -> ApiTables:
    """The tables: from the store when it has them, else made from the TSVs (and kept there)."""
    if _store is not None:
        kept = ApiTables.from_plain(_store.load())
        if kept is not None:
            return kept
    tables = ApiTables.from_tsv()
    if _store is not None:
        _store.keep(tables.plain())
    return tables
