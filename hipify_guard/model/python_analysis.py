"""One Python file, analysed: its syntax tree, comments, names and what ROCm reaches; the one
object the HG3xx rules read (the Python counterpart of `analysis.FileAnalysis`).

Everything is computed on demand, so a file whose rules find nothing to look at never pays for
`tokenize` (comments) or the flow model.
"""

from __future__ import annotations

import ast
from functools import cached_property

from ..core.languages import PYTHON
from ..core.recent import Recent
from ..core.source import LineIndex
from ..python.comments import comments
from ..python.source import PythonSource
from .python_flow import PlatformFlow
from .python_module_values import Bindings
from .python_symbols import Symbols
from .settings import Settings


_kept_sources: Recent[tuple[PythonSource, Symbols]] = Recent(256 << 10)  # (`keep_source`)


class PythonFile:
    """The facts the Python rules read about one file."""

    language = PYTHON

    def __init__(self, filename: str, data: bytes, settings: Settings) -> None:
        self.filename = filename
        self.data = data
        self.settings = settings
        kept = _kept_sources.get(data)
        if kept is not None:  # the same bytes analysed before in this run (`keep_source`)
            self.__dict__["source"], self.__dict__["symbols"] = kept

    def keep_source(self) -> None:
        """Keep what the bytes alone decide (the syntax tree and what its names denote) for the
        next analysis of the same bytes in this process (`core.recent`)."""
        _kept_sources.keep(self.data, (self.source, self.symbols))

    @cached_property
    def source(self) -> PythonSource:
        """The parsed file (`source.tree` is None when it does not parse)."""
        return PythonSource(self.data)

    @property
    def tree(self) -> ast.Module | None:
        """The syntax tree, None when the file does not parse."""
        return self.source.tree

    @cached_property
    def comments(self) -> tuple[tuple[int, int], ...]:
        """(start, end) of every comment, as `tokenize` sees them."""
        return comments(self.source)

    @cached_property
    def symbols(self) -> Symbols:
        """What names and attribute chains denote."""
        return Symbols(self.source)

    @cached_property
    def flow(self) -> PlatformFlow:
        """What ROCm reaches, and the value of platform tests there."""
        return PlatformFlow(self.source, self.symbols, self.settings.python, project=self.settings.python_project,
                            bindings=self.bindings)

    @cached_property
    def cuda_flow(self) -> PlatformFlow:
        """What CUDA reaches (code only ROCm runs is written for ROCm on purpose)."""
        return PlatformFlow(self.source, self.symbols, self.settings.python, rocm=False,
                            project=self.settings.python_project, bindings=self.bindings)

    @cached_property
    def bindings(self) -> Bindings:
        """What the module's statements bind (both flows ask)."""
        return Bindings(self.source)

    @cached_property
    def lines(self) -> LineIndex:
        """Offsets to lines and columns."""
        return LineIndex(self.data)

    def span(self, node: ast.AST) -> tuple[int, int]:
        """The byte span of a node."""
        return self.source.span(node)

    def text(self, start: int, end: int) -> str:
        """Bytes of the file as text (undecodable bytes escaped)."""
        return self.data[start:end].decode("utf-8", "backslashreplace")

    def shown(self, node: ast.AST, limit: int = 70) -> str:
        """A node's code for a message: on one line (blanks and line breaks as one space), cut at
        `limit` characters."""
        text = " ".join(self.text(*self.span(node)).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def nodes(self, *kinds: type[ast.AST]) -> list[ast.AST]:
        """Every node of the given kinds (exact types), in no particular order; none when the file
        does not parse."""
        return [node for kind in kinds for node in self.source.nodes(kind)]
