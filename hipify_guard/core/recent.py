"""What a front end found in a file's bytes, kept for the next analysis of the same bytes.

A check run checks some files again once the project around them is asked (the headers a C/C++
file includes, the modules a Python file imports: `project.workspace.settle_header_facts`,
`project.python_facts`); the second analysis takes what the bytes alone decide (directives,
groups and parsed conditions; a syntax tree and its names) from the first, and nothing is scanned
or parsed twice.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    """Values kept by file bytes in this process, at most `size` of them, the oldest dropped first
    (a 10-file pre-commit run keeps them all; in a cold check of the real trees, whose second
    checks come after thousands of first ones, 256 held 20 MB at the peak)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[bytes, T] = {}

    def get(self, data: bytes) -> T | None:
        """What was kept for these bytes, if anything."""
        return self._kept.get(data)

    def keep(self, data: bytes, value: T) -> None:
        """Keep `value` for these bytes."""
        if data not in self._kept and len(self._kept) >= self.size:
            del self._kept[next(iter(self._kept))]
        self._kept[data] = value
