"""What HIP 6.3's headers declare about arguments and members, loaded from rules/hip_signatures.tsv.

scripts/gen_hip_signatures.py read the vendored headers with libclang: each overload's parameter
types, and for each struct, class or union the data members code outside it can name. A CUDA
branch that passes `cudaMemLocation` where `hipMemAdvise` takes an `int` device, or reads `.x` of
a `half` (HIP's `__half` keeps its bits protected), uses the CUDA form HIP lacks (spec §14.5).
"""

from __future__ import annotations

import functools

from .tsv import read_table

TSV_NAME = "hip_signatures.tsv"
COLUMNS = ("kind", "name", "detail")
# Parameter types an aggregate (a struct, class or union) never converts to.
SCALARS = frozenset({"bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
                     "long", "unsigned long", "long long", "unsigned long long", "size_t", "float", "double",
                     "hipDevice_t", "unsigned"})


class HipSignatures:
    """Overloads by function name, public data members by type name."""

    def __init__(self, lines: list[str]) -> None:
        self.functions: dict[str, list[tuple[str, ...]]] = {}
        self.types: dict[str, frozenset[str]] = {}
        for line in lines:
            kind, name, detail = line.split("\t")
            parts = tuple(part for part in detail.split(", ") if part)
            if kind == "function":
                self.functions.setdefault(name, []).append(parts)
            else:
                self.types[name] = frozenset(parts)

    def parameter_types(self, function: str, index: int) -> set[str] | None:
        """The types HIP's overloads of `function` take at position `index` (None: HIP declares no
        overload with that many parameters, or no such function)."""
        found = {overload[index] for overload in self.functions.get(function, ()) if index < len(overload)}
        return found or None


@functools.lru_cache(maxsize=1)
def load_hip_signatures() -> HipSignatures:
    """The table shipped with hipify-guard (loaded once, on first use)."""
    return HipSignatures(read_table(TSV_NAME, COLUMNS))
