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
    takes some 60 times its file's size; a pre-commit run's files fit, while a cold check of a
    tree, whose second checks come after thousands of first ones, holds little for long)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._kept: dict[bytes, T] = {}
        self._lengths: dict[int, int] = {}  # length -> how many kept files have it
        self._size = 0

    def get(self, data: bytes) -> T | None:
        """What was kept for these bytes, if anything (a file of no kept length is not hashed:
        every analysis of a scan asks)."""
        return self._kept.get(data) if len(data) in self._lengths else None

    def keep(self, data: bytes, value: T) -> None:
        """Keep `value` for these bytes (nothing for a file larger than the budget)."""
        if len(data) > self.budget or data in self._kept:
            return
        while self._size + len(data) > self.budget:
            oldest = next(iter(self._kept))
            del self._kept[oldest]
            self._count(len(oldest), -1)
        self._kept[data] = value
        self._count(len(data), 1)

    def _count(self, length: int, change: int) -> None:
        self._size += length * change
        left = self._lengths.get(length, 0) + change
        if left:
            self._lengths[length] = left
        else:
            del self._lengths[length]
