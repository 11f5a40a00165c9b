"""The lines of a file's conditional directives, found with one regex pass over its bytes: the
shared input of the rules' byte screens (HG104, HG107), which test them before any scan."""

from __future__ import annotations

import re

# `#`, what the scanner allows before the keyword, a conditional keyword, the rest of the line.
_CONDITIONAL_LINE = re.compile(
    rb"#(?:[ \t\f\v]|\\(?:\r\n|\n|\r)|/\*(?:[^*]|\*+[^*/])*\*+/)*(?:el)?if(?:n?def)?\b([^\r\n]*)"
)


def conditional_lines(data: bytes) -> tuple[bytes | None, ...]:
    """For rule screens: what follows the keyword of each `#if`/`#elif`/`#ifdef`/... on its line,
    or None where the condition may go on past the line (a backslash, an open `/*`) or is not
    ASCII. A `#` in a comment or a string only adds lines. Kept for the last `data` asked about
    (the screens of one file ask in turn)."""
    if _last_lines[0] is not data:
        _last_lines[:] = data, tuple(map(_line_rest, _CONDITIONAL_LINE.findall(data)))
    return _last_lines[1]


def _line_rest(rest: bytes) -> bytes | None:
    opened = rest.rfind(b"/*")
    if b"\\" in rest or (opened >= 0 and rest.find(b"*/", opened + 2) < 0) or not rest.isascii():
        return None
    return rest


def forget() -> None:
    """Drop the lines kept for the last file (called once its screens are done: no file's bytes
    outlive its check)."""
    _last_lines[:] = None, ()


_last_lines: list = [None, ()]
