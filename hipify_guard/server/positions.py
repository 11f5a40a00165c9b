"""Positions as the editor counts them: LSP lines (ended by CR LF, LF or CR, as the checker's
lines are) and characters in the negotiated encoding (UTF-16 code units unless the client
offered UTF-8 or UTF-32), converted to and from the API's 1-based code-point columns."""

from __future__ import annotations

import bisect
import re

from lsprotocol.types import Position, PositionEncodingKind

UTF8, UTF16, UTF32 = PositionEncodingKind.Utf8.value, PositionEncodingKind.Utf16.value, PositionEncodingKind.Utf32.value
BOM = "\ufeff"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Lines:
    """A document's text split into lines, with conversions for one position encoding."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0, *(match.end() for match in _LINE_BREAK.finditer(text))]

    def line(self, index: int) -> str:
        """The text of the 0-based line `index`, without its line break."""
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[index] : end].rstrip("\r\n")

    def at(self, row: int, column: int) -> Position:
        """The editor's position of the API's 1-based `row` and code-point `column` (a BOM is no column)."""
        index = min(max(row, 1), len(self.starts)) - 1
        line = self.line(index)
        characters = column - 1 + (index == 0 and line.startswith(BOM))
        return Position(index, units(line[: max(characters, 0)], self.encoding))

    def at_offset(self, offset: int) -> Position:
        """The editor's position of a code-point offset into the text."""
        index = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[index]
        return Position(index, units(self.line(index)[: offset - start], self.encoding))

    def offset(self, position: Position) -> int:
        """The code-point offset of an editor's position (past a line's end: its end)."""
        if position.line >= len(self.starts):
            return len(self.text)
        line = self.line(position.line)
        return self.starts[position.line] + characters(line, position.character, self.encoding)

    def row(self, position: Position) -> int:
        """The API's 1-based row of an editor's position."""
        return min(position.line, len(self.starts) - 1) + 1


def units(text: str, encoding: str) -> int:
    """How many code units of `encoding` the text takes."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def characters(line: str, count: int, encoding: str) -> int:
    """How many code points of `line` its first `count` code units cover (a split character counts)."""
    if encoding == UTF32 or line.isascii():
        return min(max(count, 0), len(line))
    taken = 0
    for index, character in enumerate(line):
        if taken >= count:
            return index
        taken += units(character, encoding)
    return len(line)
