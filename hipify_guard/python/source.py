"""Python source bytes -> an `ast` tree with byte offsets for its positions, or why it does not parse.

`ast` columns count UTF-8 bytes of the decoded line and `tokenize` columns count characters;
both become offsets into the file's own bytes, whatever its encoding (a PEP 263 declaration or
a BOM) and its line ends (LF, CRLF, lone CR, as Python reads them).
"""

from __future__ import annotations

import ast
import gc
import io
import re
import tokenize
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

from ..core.records import record
from ..core.source import BOM

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
# Fields that never hold a node worth indexing: names and flags, and the operator and context
# leaves (shared instances such as `ast.Load()`).
_NOT_CHILDREN = frozenset({"ctx", "op", "ops", "id", "attr", "name", "arg", "module", "asname", "type_comment",
                           "kind", "conversion", "level", "is_async", "simple"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_UTF8 = frozenset({"utf-8", "utf-8-sig"})


@contextmanager
def _no_collector() -> Iterator[None]:
    """The cyclic garbage collector paused: syntax trees and their indexes hold no reference
    cycles, and its passes over millions of new nodes cost a quarter of a parse."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@record(slots=True)
class SyntaxProblem:
    """Why the bytes are no Python the `ast` module reads, and where (byte offsets)."""

    message: str
    start: int
    end: int


class PythonSource:
    """One file's bytes parsed: `tree` (None when it does not parse, then `problem` says why)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.encoding = "utf-8"
        self.tree: ast.Module | None = None
        self.problem: SyntaxProblem | None = None
        self._parse()

    def _parse(self) -> None:
        try:
            self.encoding = tokenize.detect_encoding(io.BytesIO(self.data).readline)[0]
            text = self.data.decode(self.encoding)
        except SyntaxError as error:  # a bad or unknown PEP 263 declaration, or a BOM that contradicts it
            self.problem = SyntaxProblem(f"cannot decode the file: {error.msg}", 0, 0)
            return
        except UnicodeDecodeError as error:
            start = min(error.start, len(self.data))
            self.problem = SyntaxProblem(f"the bytes are not valid {self.encoding} ({error.reason})", start, start + 1)
            return
        try:
            with warnings.catch_warnings(), _no_collector():  # (invalid escapes: a SyntaxWarning on stderr)
                warnings.simplefilter("ignore")
                self.tree = ast.parse(text)
        except SyntaxError as error:
            self.problem = self._syntax_problem(error)
        except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes, absurd nesting
            message = str(error) if isinstance(error, ValueError) else "the code is nested too deeply"
            self.problem = SyntaxProblem(message, 0, 0)

    def _syntax_problem(self, error: SyntaxError) -> SyntaxProblem:
        line = min(max(error.lineno or 1, 1), len(self.starts))
        start = self.char_offset(line, max((error.offset or 1) - 1, 0))
        return SyntaxProblem(error.msg, start, min(start + 1, self._line_end(line), len(self.data)))

    # -- positions ------------------------------------------------------------------------------

    @cached_property
    def starts(self) -> list[int]:
        """The byte offset of each line's start (after a BOM on the first line): only computed
        for a file that has something to report."""
        data = self.data
        return [len(BOM) if data.startswith(BOM) else 0, *(m.end() for m in _LINE_BREAK.finditer(data))]

    def offset(self, line: int, column: int) -> int:
        """The byte offset of an `ast` position: 1-based line, column in UTF-8 bytes of the line."""
        start = self.starts[min(line, len(self.starts)) - 1]
        if self.encoding in _UTF8 or self.data[start : start + column].isascii():
            return min(start + column, len(self.data))
        prefix = self._text(line).encode("utf-8")[:column].decode("utf-8", "ignore")
        return start + len(prefix.encode(self.encoding, "replace"))

    def char_offset(self, line: int, column: int) -> int:
        """The byte offset of a `tokenize` position: 1-based line, column in characters."""
        start = self.starts[min(line, len(self.starts)) - 1]
        if self.data[start : start + column].isascii():
            return min(start + column, self._line_end(line))
        return start + len(self._text(line)[:column].encode(self.encoding, "replace"))

    def span(self, node: ast.expr | ast.stmt) -> tuple[int, int]:
        """The bytes of a node: from its first to its last token (enclosing parentheses excluded)."""
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def _text(self, line: int) -> str:
        start = self.starts[line - 1]
        return self.data[start : self._line_end(line)].decode(self.encoding, "replace")

    def _line_end(self, line: int) -> int:
        return self.starts[line] if line < len(self.starts) else len(self.data)

    # -- structure ------------------------------------------------------------------------------

    @property
    def parents(self) -> dict[int, ast.AST]:
        """The parent of every node of the tree (operators and contexts aside), by the node's id."""
        return self._index[1]

    def nodes(self, kind: type[ast.AST]) -> list[ast.AST]:
        """Every node of exactly this type, in no particular order (none when the file does not parse)."""
        return self._index[0].get(kind, [])

    @cached_property
    def _index(self) -> tuple[dict[type, list[ast.AST]], dict[int, ast.AST]]:
        """One walk of the tree for every question: the nodes by type, and their parents.

        Faster than `ast.walk` (no generator per node; per type, only the fields that may hold
        nodes), and it skips the operator and context leaves (`ast.Add()`, `ast.Load()`: shared
        instances that nothing asks about).
        """
        by_type: dict[type, list[ast.AST]] = {}
        parents: dict[int, ast.AST] = {}
        stack = [self.tree] if self.tree is not None else []
        node_type, fields_of = ast.AST, _CHILD_FIELDS
        with _no_collector():
            self._walk(stack, by_type, parents, node_type, fields_of)
        return by_type, parents

    @staticmethod
    def _walk(stack: list[ast.AST], by_type: dict[type, list[ast.AST]], parents: dict[int, ast.AST],
              node_type: type, fields_of: dict[type, tuple[str, ...]]) -> None:
        while stack:
            node = stack.pop()
            kind = type(node)
            found = by_type.get(kind)
            if found is None:
                found = by_type[kind] = []
                fields_of.setdefault(kind, tuple(name for name in kind._fields if name not in _NOT_CHILDREN))
            found.append(node)
            for name in fields_of[kind]:
                value = getattr(node, name, None)
                if type(value) is list:
                    for child in value:
                        if isinstance(child, node_type):
                            parents[id(child)] = node
                            stack.append(child)
                elif isinstance(value, node_type):
                    parents[id(value)] = node
                    stack.append(value)

    def lines(self) -> list[bytes]:
        """The physical lines with their line ends, as Python splits them (for `tokenize`)."""
        ends = [*self.starts[1:], len(self.data)]
        return [self.data[start:end] for start, end in zip([0, *self.starts[1:]], ends)]
