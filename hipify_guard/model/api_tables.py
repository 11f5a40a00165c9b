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
from typing import Protocol

from .hip_headers import HipHeaders, load_hip_headers
from .mapping import ApiFact, Facts, load_table
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
_FORM = 1  # the layout of `plain()`: a store keyed by the tool build never mixes two


class TableStore(Protocol):
    """Where the plain form of the tables is kept between runs."""

    def load(self) -> object | None:
        """What `keep` was given last (None: nothing, or nothing that verifies)."""

    def keep(self, plain: object) -> None:
        """Keep `plain` (best effort)."""


class ApiTables:
    """What a check run reads of the three tables."""

    def __init__(self, facts: Facts, names: frozenset[bytes], torch: TorchTable, hip: HipHeaders,
                 newest_hip: tuple[int, int, int]) -> None:
        self.facts = facts  # HIPIFY's facts by name (`MappingTable.api_facts`)
        self.names = names  # every identifier HIPIFY's or PyTorch's table knows, keywords left out
        self.torch = torch
        self.hip = hip
        self.newest_hip = newest_hip  # `MappingTable.newest_hip`

    @classmethod
    def from_tsv(cls) -> ApiTables:
        """The tables made from the shipped TSVs."""
        hipify, torch = load_table(), load_torch_table()
        found = set(hipify.api_facts)
        found.update(name.encode() for name in torch.keys | torch.hip_names if name.isidentifier())
        return cls(hipify.api_facts, frozenset(found - _KEYWORDS), torch, load_hip_headers(), hipify.newest_hip)

    def plain(self) -> tuple:
        """The tables as plain values (for a store; `from_plain` makes them again)."""
        facts = {name: (fact.name, fact.hip, fact.added) if isinstance(fact, ApiFact) else fact
                 for name, fact in dict.items(self.facts)}
        return (_FORM, facts, self.names, self.torch.rows, self.hip.rows, self.newest_hip)

    @classmethod
    def from_plain(cls, plain: object) -> ApiTables | None:
        """The tables of `plain()`'s values; None when `plain` is not such a value."""
        if not (isinstance(plain, tuple) and len(plain) == 6 and plain[0] == _FORM):
            return None
        _, facts, names, torch, hip, newest = plain
        return cls(Facts(facts), names, TorchTable.from_rows(torch), HipHeaders.from_rows(hip), newest)


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
