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
    """Values kept by file bytes in this process while the files kept total at most `budget`
    bytes, the oldest dropped first (what is kept is a multiple of the bytes: a Python syntax tree
    takes some 50 times its file's size; a pre-commit run's files fit, while a cold check of a
    tree, whose second checks come after thousands of first ones, holds little for long)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._kept: dict[bytes, T] = {}
        self._size = 0

    def get(self, data: bytes) -> T | None:
        """What was kept for these bytes, if anything."""
        return self._kept.get(data)

    def keep(self, data: bytes, value: T) -> None:
        """Keep `value` for these bytes (nothing for a file larger than the budget)."""
        if data in self._kept or len(data) > self.budget:
            return
        while self._size + len(data) > self.budget:
            oldest = next(iter(self._kept))
            del self._kept[oldest]
            self._size -= len(oldest)
        self._kept[data] = value
        self._size += len(data)
