"""Which rules run: select/ignore by code prefix, the longest matching prefix wins (flake8, ruff).

A rule that is off by default (catalogue `off-by-default`) runs only when a select prefix names
it (`HG306`, `HG3`): `ALL` does not.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import NamedTuple

ALL = "ALL"


class Selection(NamedTuple):
    """Codes or prefixes to select and to ignore; `ALL` matches every code."""

    select: tuple[str, ...] = (ALL,)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()

    def enabled(self, code: str, off_by_default: bool = False) -> bool:
        """True when the longest matching select prefix is longer than the longest ignore one (and,
        for a rule that is off by default, is a prefix, not ALL)."""
        chosen = _longest(code, (*self.select, *self.extend_select))
        dropped = _longest(code, self.ignore)
        return chosen >= (1 if off_by_default else 0) and chosen > dropped

    def codes(self, available: Iterable[str], off_by_default: Collection[str] = ()) -> list[str]:
        """The enabled codes among `available`, in order (`off_by_default`: the codes that need naming)."""
        return [code for code in available if self.enabled(code, code in off_by_default)]


def _longest(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix of `code` in `prefixes` (ALL counts as 0), or -1."""
    best = -1
    for prefix in prefixes:
        if prefix == ALL:
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


def validate(prefixes: Iterable[str], known: Iterable[str]) -> list[str]:
    """The prefixes that match no known code (and are not ALL)."""
    codes = list(known)
    return [p for p in prefixes if p != ALL and not any(code.startswith(p) for code in codes)]
