"""Edits that take a suppression out of a comment, and the proof that nothing else changed.

A comment that holds only the suppression (and its reason) goes away with the blanks before it,
or with its whole line when it stands alone; a suppression after other comment text is cut from
that text. The proof: with every comment replaced by a blank, the old and the new file have the
same tokens on the same logical lines (line numbers may move; nothing the compiler reads does).
"""

from __future__ import annotations

import re

from ..core.findings import Edit
from ..core.suppressions import opener_length
from ..cpp.scanner import scan

_BLANKS = b" \t\f\v"
_NEWLINE = re.compile(rb"\r\n|\r|\n")
_CONTINUATION = re.compile(rb"\\(?:\r\n|\n|\r)")


def removal(data: bytes, comment: tuple[int, int], directive: tuple[int, int]) -> Edit:
    """The edit that removes the suppression `directive` found in `comment`."""
    start, end = comment
    opener = data[start + opener_length(data, start) : directive[0]].strip(_BLANKS + b"*/")
    if opener:
        return _cut_from_text(data, comment, directive)
    line_start = _line_start(data, start)
    line_end = _line_end(data, end)
    alone = not data[line_start:start].strip(_BLANKS) and not data[end:line_end].strip(_BLANKS)
    if alone and not _continues_previous(data, line_start):
        newline = _NEWLINE.match(data, line_end)
        return Edit(line_start, newline.end() if newline else line_end, b"")
    if not data[end:line_end].strip(_BLANKS):
        return Edit(_skip_blanks_back(data, start), end, b"")
    after = end
    while after < len(data) and data[after] in _BLANKS:
        after += 1
    glued = start > 0 and data[start - 1] not in _BLANKS and after == end
    return Edit(start, after, b" " if glued else b"")


def _cut_from_text(data: bytes, comment: tuple[int, int], directive: tuple[int, int]) -> Edit:
    """`// note; hipify-guard: ignore[X] reason` -> `// note;` (and `/* note; */` for blocks)."""
    start, end = comment
    content_end = end - 2 if data.startswith(b"/*", start) and data.endswith(b"*/", 0, end) else end
    while content_end > directive[1] and data[content_end - 1] in _BLANKS:
        content_end -= 1
    return Edit(_skip_blanks_back(data, directive[0]), content_end, b"")


def _skip_blanks_back(data: bytes, pos: int) -> int:
    while pos > 0 and data[pos - 1] in _BLANKS:
        pos -= 1
    return pos


def _line_start(data: bytes, pos: int) -> int:
    return max(data.rfind(b"\n", 0, pos), data.rfind(b"\r", 0, pos)) + 1


def _line_end(data: bytes, pos: int) -> int:
    newline = _NEWLINE.search(data, pos)
    return newline.start() if newline else len(data)


def _continues_previous(data: bytes, line_start: int) -> bool:
    """Whether the line starting at `line_start` is a continuation of the one before it."""
    before = data[max(0, line_start - 3) : line_start]
    return bool(re.search(rb"\\(?:\r\n|\n|\r)\Z", before))


def same_code(old: bytes, new: bytes) -> bool:
    """Whether two C/C++ files read the same to a compiler, comments aside (line numbers aside)."""
    return _code_lines(old) == _code_lines(new)


def _code_lines(data: bytes) -> list[bytes]:
    pieces = []
    position = 0
    for start, end in scan(data).comments:
        pieces += [data[position:start], b" "]
        position = end
    pieces.append(data[position:])
    text = _CONTINUATION.sub(b"", b"".join(pieces))
    return [b" ".join(line.split()) for line in _NEWLINE.split(text) if line.strip()]
