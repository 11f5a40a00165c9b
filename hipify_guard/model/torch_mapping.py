"""What PyTorch's hipify renames (the `torch-hipify` model), loaded from rules/torch_hipify_map.tsv."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .tsv import KeyedRows, read_table

TSV_NAME = "torch_hipify_map.tsv"
COLUMNS = ("cuda", "hip", "table", "unsupported")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class TorchMapping(NamedTuple):
    """One rename of PyTorch's hipify: `cuda` becomes `hip` (a name, or text such as `hipArray *`)."""

    cuda: str
    hip: str
    table: str  # the table of cuda_to_hip_mappings.py that holds it
    unsupported: bool  # marked HIP_UNSUPPORTED: renamed to a name HIP does not have

    @property
    def hip_name(self) -> str:
        """The name the renamed code uses (`hipArray` of `hipArray *`, `f` of `ns::f`)."""
        return self.hip if self.hip.isidentifier() else _name_in(self.hip)


class TorchTable(KeyedRows):
    """PyTorch's hipify renames by CUDA name (a name in several tables keeps its last row, as in
    PyTorch's hipify)."""

    def get(self, name: str) -> TorchMapping | None:
        """The rename of CUDA name `name`, if PyTorch's hipify has one."""
        cells = self.cells(name)
        if cells is None:
            return None
        cuda, hip, table, unsupported = cells
        return TorchMapping(cuda, hip, table, unsupported == "1")

    @classmethod
    def from_plain(cls, rows: dict[str, str], hip_names: frozenset[str]) -> TorchTable:
        """The table of `rows` whose `hip_names` are known (a store keeps both: indexing the rows
        for them costs a check run 20 million instructions)."""
        table = cls.from_rows(rows)
        table.__dict__["hip_names"] = hip_names  # (the cached property's value)
        return table

    def by_hip(self, name: str) -> tuple[TorchMapping, ...]:
        """The renames whose HIP name is `name`."""
        return tuple(m for cuda in self._hip_index.get(name, ()) if (m := self.get(cuda)) is not None)

    @functools.cached_property
    def hip_names(self) -> frozenset[str]:
        """Every name renamed code uses."""
        return frozenset(self._hip_index)

    @functools.cached_property
    def _hip_index(self) -> dict[str, tuple[str, ...]]:
        index: dict[str, list[str]] = {}
        for cuda in self._rows:
            hip = self.cells(cuda)[1]
            index.setdefault(hip if hip.isidentifier() else _name_in(hip), []).append(cuda)
        return {hip: tuple(cudas) for hip, cudas in index.items()}


def _name_in(text: str) -> str:
    """The name renamed code uses: `hipArray` of `hipArray *`, `f` of `ns::f`."""
    names = _IDENTIFIER.findall(text)
    return names[-1] if names else text


@functools.lru_cache(maxsize=1)
def load_torch_table() -> TorchTable:
    """PyTorch's hipify table shipped with hipify-guard (loaded once)."""
    return TorchTable(read_table(TSV_NAME, COLUMNS))
