"""The comments of a Python file, as `tokenize` sees them: never a `#` inside a string."""

from __future__ import annotations

import tokenize

from .source import PythonSource


def comments(source: PythonSource) -> tuple[tuple[int, int], ...]:
    """(start, end) byte spans of every comment, in file order; what precedes a tokenize error."""
    lines = iter(source.lines())
    found = []
    try:
        for token in tokenize.tokenize(lambda: next(lines, b"")):
            if token.type == tokenize.COMMENT:
                found.append((source.char_offset(*token.start), source.char_offset(*token.end)))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        pass  # (a file that does not parse: its suppressions up to the error still count)
    return tuple(found)
