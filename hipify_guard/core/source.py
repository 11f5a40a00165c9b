"""Positions in a file's bytes: offsets to 1-based lines and columns, and line texts."""

from __future__ import annotations

import bisect
import re

BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


class LineIndex:
    """Maps byte offsets of one file to (line, column), both 1-based.

    Lines end at LF, CRLF or a lone CR, as in GCC and Clang. Columns count characters of the
    line decoded as UTF-8 (an invalid byte counts as one), and a leading BOM is not a column.
    """

    def __init__(self, data: bytes) -> None:
        self.data = data
        if b"\r" in data:
            self.starts = [0, *(m.end() for m in _LINE_BREAK.finditer(data))]
        else:
            self.starts = [0, *(m.end() for m in re.finditer(rb"\n", data))]
        self.text_start = len(BOM) if data.startswith(BOM) else 0

    def line_of(self, offset: int) -> int:
        """The 1-based line number that contains `offset`."""
        return bisect.bisect_right(self.starts, offset)

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) of `offset`."""
        line = self.line_of(offset)
        start = max(self.starts[line - 1], self.text_start)
        column = len(self.data[start:offset].decode("utf-8", "replace")) + 1 if offset > start else 1
        return line, column

    def line_text(self, line: int) -> str:
        """The text of a 1-based line without its line break (undecodable bytes escaped)."""
        start = max(self.starts[line - 1], self.text_start)
        end = self.starts[line] if line < len(self.starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n").decode("utf-8", "backslashreplace")
