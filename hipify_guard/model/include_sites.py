"""A file's `#include` directives and the path condition each one sits under, from the tool's scanner.

No compiler runs: the directives come from `scanner.scan`, the conditions from the file's
`GroupTree` (via `FileAnalysis`), so an include is followed only when its path condition is
satisfiable under a build's models (`include_graph`).
"""

from __future__ import annotations

import os
import re

from ..core.records import record
from ..core.reading import read_file
from ..core.source import LineIndex
from .analysis import FileAnalysis, Literal
from .settings import Settings

INCLUDE_KINDS = frozenset({"include", "include_next", "import"})
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


@record(slots=True)
class Site:
    """One `#include` of a file."""

    name: str  # the header name between the delimiters ("" for a computed `#include MACRO`)
    angle: bool  # `<...>` (else `"..."`)
    line: int
    condition: tuple[Literal, ...]  # its path condition (empty: unconditional)
    text: tuple[tuple[str, bytes, bool], ...] = ()  # the condition as text: equal texts, equal answers


@record(slots=True)
class Source:
    """What the include graph needs of one file."""

    folder: str  # where `"..."` includes are searched first
    sites: tuple[Site, ...]
    names: frozenset[str]  # every identifier in its conditional directives


EMPTY_SOURCE = Source("", (), frozenset())


def read_source(path: str, settings: Settings) -> Source:
    """The include sites of the file at `path` (an unreadable file has none)."""
    try:
        data = read_file(path)[0]  # not open(): a FIFO would block the run
    except OSError:
        return EMPTY_SOURCE
    return source_of(path, data, settings)


def source_of(path: str, data: bytes, settings: Settings) -> Source:
    """The include sites and condition names of a file's bytes."""
    file = FileAnalysis(path, data, settings)
    directives = file.scan.directives
    includes = [directive for directive in directives if directive.kind in INCLUDE_KINDS]
    conditionals = [directive for directive in directives if directive.is_conditional]
    lines = _lines(data, [directive.hash for directive in includes])
    sites = []
    for directive, line in zip(includes, lines):
        name, angle = _header(data[slice(*directive.argument)])
        arm = file.tree.enclosing(directive.hash) if conditionals else None
        condition = tuple(file.path(arm)) if arm is not None else ()
        sites.append(Site(name, angle, line, condition, _text(data, condition)))
    names = frozenset(match.group().decode("ascii") for directive in conditionals
                      for match in _IDENTIFIER.finditer(data, *directive.argument))
    return Source(os.path.dirname(path), tuple(sites), names)


def _text(data: bytes, condition: tuple[Literal, ...]) -> tuple[tuple[str, bytes, bool], ...]:
    """(node kind, source text, wanted value) of each literal: `#ifdef X` and `#if X` differ by kind."""
    return tuple((type(item.node).__name__, data[slice(*item.node.span)], wanted) for item, wanted in condition)


def _lines(data: bytes, offsets: list[int]) -> list[int]:
    """The 1-based lines of increasing offsets (a LineIndex only for files with CR line ends)."""
    if b"\r" in data:
        index = LineIndex(data)
        return [index.line_of(offset) for offset in offsets]
    lines, line, position = [], 1, 0
    for offset in offsets:
        line += data.count(b"\n", position, offset)
        position = offset
        lines.append(line)
    return lines


def _header(argument: bytes) -> tuple[str, bool]:
    """("name", is angle) of an include's argument; ("", False) for a computed include."""
    text = argument.strip()
    if len(text) >= 2 and text[:1] == b"<" and b">" in text:
        return text[1:text.index(b">")].decode("utf-8", "surrogateescape"), True
    if len(text) >= 2 and text[:1] == b'"' and b'"' in text[1:]:
        return text[1:text.index(b'"', 1)].decode("utf-8", "surrogateescape"), False
    return "", False
