"""Jinja templates named like C/C++ sources (FBGEMM's `codegen/**/*_template.cu`): their text is
C/C++ only once rendered. Where the tags only repeat or choose whole stretches of code, the
directives of the template are those of every rendering, and it is checked like any source (a
condition with a tag in it is left unjudged: `parser`). Where a tag writes a directive itself
(`{{ "#ifdef X" if a else "#else" }}`), the template's `#if`/`#endif` do not pair up, and the file
is not judged at all.

A template is told by a statement tag alone on its line (`{%- for x in xs %}`, `{% endif %}`),
outside comments: no C/C++ line starts with `{%` and ends with `%}`.
"""

from __future__ import annotations

import re

from .groups import GroupTree
from .scanner import scan

_STATEMENT_LINE = re.compile(rb"^[ \t]*\{%[-+]?[ \t].*%\}[ \t]*(?://[^\r\n]*)?\r?$", re.MULTILINE)


def unrendered(data: bytes) -> str:
    """Why a Jinja template is not judged (its directives do not pair up), else ""."""
    if b"{%" not in data:
        return ""
    found = scan(data)
    tags = (match.start() for match in _STATEMENT_LINE.finditer(data))
    tag = next((offset for offset in tags if not _in_comment(offset, found.comments)), None)
    if tag is None:
        return ""
    problems = GroupTree(found.directives).problems
    if not problems:
        return ""
    first = problems[0]
    return (f"not judged: a Jinja template (a `{{% ... %}}` tag on line {_line(data, tag)}) whose tags write "
            f"directives ({first.message} on line {_line(data, first.directive.hash)}), C/C++ only once it is "
            f"rendered; skipped")


def _in_comment(offset: int, comments: tuple[tuple[int, int], ...]) -> bool:
    return any(start <= offset < end for start, end in comments)


def _line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1
