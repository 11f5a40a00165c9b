"""Identifier tokens of the C/C++ code between directives, and which arm's group holds them.

A *code segment* is a stretch of bytes between two directives, or the replacement list of a
`#define`. The scanner already skips comments and literals to find directives, so a segment
always starts and ends outside them; here one regular expression walks a segment lexeme by
lexeme (comments, string and character literals, raw strings, numbers with digit separators,
identifiers) with the scanner's lexical rules, and only identifiers are kept.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator

from ..cpp.groups import Arm
from ..cpp.scanner import Directive
from .analysis import FileAnalysis

# One alternative per lexeme; only group `id` is reported. Unterminated comments and raw strings
# run to the end of the segment (the scanner reports them; such a file is never rewritten).
_LEXEMES = (
    rb'(?:u8|[uUL])?R"([^()\\ \t\v\f\r\n"]{0,16})\((?:.*?\)\1"|.*)'  # raw string
    rb"|(?P<id>[A-Za-z_][A-Za-z0-9_]*)"
    rb"|(?P<number>\.?[0-9](?:[eEpP][+-]|'?[0-9A-Za-z_.])*)"  # pp-number, digit separators included
    rb"|/\*(?:.*?\*/|.*)"
    rb"|//(?:\\(?:\r\n|\n|\r)|[^\r\n])*"
    rb'|"(?:[^"\\\r\n]|\\(?:\r\n|[\s\S]))*"?'
    rb"|'(?:[^'\\\r\n]|\\(?:\r\n|[\s\S]))*'?"
)
_LEXEME = re.compile(_LEXEMES, re.S)
# The same lexemes, and punctuators (the few two-byte ones a declaration's shape depends on).
_TOKEN = re.compile(_LEXEMES + rb"|(?P<punct>::|->|==|!=|<=|&&|\|\||[^\sA-Za-z0-9_])", re.S)
NUMBER = b"0"  # what `tokens` yields for every number
_MEMBER_ACCESS = re.compile(rb"(?:->|\.)[ \t\f\v\r\n]*\Z")  # what ends just before a member's name
_DEFINE_HEAD = re.compile(rb"[ \t\f\v]*([A-Za-z_][A-Za-z0-9_]*)(?:\([^)]*\))?")


def identifiers(data: bytes, start: int, end: int, names: Container[bytes]) -> Iterator[tuple[int, bytes]]:
    """(offset, name) of each identifier in `names` within data[start:end], outside comments and literals."""
    for match in _LEXEME.finditer(data, start, end):
        token = match["id"]
        if token is not None and token in names:
            yield match.start(), token


def api_names(data: bytes, start: int, end: int, names: Container[bytes]) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, name) of each use of a name in `names` within data[start:end]: the identifier
    itself, or a member named after it with `_` appended (`DriverAPI::get()->cuMemMap_(...)`: PyTorch
    reaches the CUDA driver API through members its c10/cuda/driver_api.h declares as `name##_`);
    comments and literals are left out."""
    for match in _LEXEME.finditer(data, start, end):
        token = match["id"]
        if token is None:
            continue
        if token in names:
            yield match.start(), match.end(), token
        elif token[-1:] == b"_" and token[:-1] in names and is_member(data, match.start(), start):
            yield match.start(), match.end(), token[:-1]


def is_member(data: bytes, offset: int, start: int = 0) -> bool:
    """Whether the name at `offset` follows `->` or `.` (spaces between allowed; not before `start`)."""
    return _MEMBER_ACCESS.search(data, max(start, offset - 16), offset) is not None


def tokens(data: bytes, start: int, end: int) -> Iterator[tuple[int, bytes]]:
    """(offset, token) of the identifiers, numbers (as NUMBER) and punctuators in data[start:end];
    comments and literals are left out."""
    for match in _TOKEN.finditer(data, start, end):
        kind = match.lastgroup
        if kind == "id" or kind == "punct":
            yield match.start(), match.group(kind)
        elif kind == "number":
            yield match.start(), NUMBER


def define_head(data: bytes, directive: Directive) -> tuple[bytes, int] | None:
    """The name a `#define` defines and where its replacement list starts (after the parameters)."""
    head = _DEFINE_HEAD.match(data, directive.keyword[1], directive.argument[1])
    return None if head is None else (head.group(1), head.end())


def define_bodies(file: FileAnalysis) -> dict[int, bytes]:
    """The start offset of each `#define`'s replacement list (a segment of `segments`) -> the macro's name."""
    heads = (define_head(file.data, directive) for directive in file.scan.directives if directive.kind == "define")
    return {start: name for name, start in filter(None, heads)}


def segments(file: FileAnalysis) -> dict[int, list[tuple[int, int]]]:
    """The code segments of every arm's own group, keyed by the hash offset of its directive, in
    file order; made once per file (`FileAnalysis.kept`).

    Blank stretches are left out. Code inside a nested conditional belongs to the nested arm, not to the enclosing one.
    File-level code (outside every conditional) is not included. Of the other directives only
    `#define` contributes: its replacement list (a macro defined in a branch calls what it
    names wherever it is expanded); `#include`, `#pragma`, `#error` lines hold no calls.
    """
    return file.kept(segments, lambda: _segments(file))


def _segments(file: FileAnalysis) -> dict[int, list[tuple[int, int]]]:
    data, tree = file.data, file.tree
    found: dict[int, list[tuple[int, int]]] = {}

    def add(arm: Arm | None, start: int, end: int) -> None:
        if arm is not None and start < end and not data[start:end].isspace():
            found.setdefault(arm.directive.hash, []).append((start, end))

    directives = file.scan.directives
    for index, directive in enumerate(directives):
        head = define_head(data, directive) if directive.kind == "define" else None
        if head is not None:
            add(tree.enclosing(directive.hash), head[1], directive.argument[1])
        following = directives[index + 1].hash if index + 1 < len(directives) else len(data)
        add(tree.enclosing(directive.end), directive.end, following)
    return found
