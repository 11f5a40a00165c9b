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
from .analysis import FileAnalysis

# One alternative per lexeme; only group `id` is reported. Unterminated comments and raw strings
# run to the end of the segment (the scanner reports them; such a file is never rewritten).
_LEXEME = re.compile(
    rb'(?:u8|[uUL])?R"([^()\\ \t\v\f\r\n"]{0,16})\((?:.*?\)\1"|.*)'  # raw string
    rb"|(?P<id>[A-Za-z_][A-Za-z0-9_]*)"
    rb"|\.?[0-9](?:[eEpP][+-]|'?[0-9A-Za-z_.])*"  # pp-number, digit separators included
    rb"|/\*(?:.*?\*/|.*)"
    rb"|//(?:\\(?:\r\n|\n|\r)|[^\r\n])*"
    rb'|"(?:[^"\\\r\n]|\\(?:\r\n|[\s\S]))*"?'
    rb"|'(?:[^'\\\r\n]|\\(?:\r\n|[\s\S]))*'?",
    re.S,
)
_DEFINE_HEAD = re.compile(rb"[ \t\f\v]*[A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\))?")
_MACRO_NAME = re.compile(rb"[ \t\f\v]*([A-Za-z_][A-Za-z0-9_]*)")
# Declarations that give a name its meaning in this file: `using N =`, `typedef ... N;`,
# `struct/class/union/enum N {` (or `:` or `;`).
_DECLARATION = re.compile(
    rb"\busing\s+([A-Za-z_]\w*)\s*="
    rb"|\btypedef\b[^;{}()]*?\b([A-Za-z_]\w*)\s*;"
    rb"|\b(?:struct|class|union|enum(?:\s+class)?)\s+([A-Za-z_]\w*)\s*[{:;]"
)


def identifiers(data: bytes, start: int, end: int, names: Container[bytes]) -> Iterator[tuple[int, bytes]]:
    """(offset, name) of each identifier in `names` within data[start:end], outside comments and literals."""
    for match in _LEXEME.finditer(data, start, end):
        token = match["id"]
        if token is not None and token in names:
            yield match.start(), token


def segments(file: FileAnalysis) -> dict[int, list[tuple[int, int]]]:
    """The code segments of every arm's own group, keyed by the hash offset of its directive.

    Code inside a nested conditional belongs to the nested arm, not to the enclosing one.
    File-level code (outside every conditional) is not included. Of the other directives only
    `#define` contributes: its replacement list (a macro defined in a branch calls what it
    names wherever it is expanded); `#include`, `#pragma`, `#error` lines hold no calls.
    """
    data, tree = file.data, file.tree
    found: dict[int, list[tuple[int, int]]] = {}

    def add(arm: Arm | None, start: int, end: int) -> None:
        if arm is not None and start < end:
            found.setdefault(arm.directive.hash, []).append((start, end))

    directives = file.scan.directives
    for index, directive in enumerate(directives):
        if directive.kind == "define":
            head = _DEFINE_HEAD.match(data, directive.keyword[1], directive.argument[1])
            if head is not None:
                add(tree.enclosing(directive.hash), head.end(), directive.argument[1])
        following = directives[index + 1].hash if index + 1 < len(directives) else len(data)
        add(tree.enclosing(directive.end), directive.end, following)
    return found


def declared_names(file: FileAnalysis) -> set[bytes]:
    """Names this file defines itself: `#define` macros and simple type declarations.

    A CUDA name the file defines (`typedef unsigned long long cudaGraphConditionalHandle;` in
    a ROCm shim, `using cusparseMatDescr = ...`) is the project's own, not a use of the API.
    Comments are not skipped here: a declaration in a comment only makes the rules quieter.
    """
    data = file.data
    names: set[bytes] = set()
    for directive in file.scan.directives:
        if directive.kind == "define":
            name = _MACRO_NAME.match(data, directive.keyword[1], directive.argument[1])
            if name is not None:
                names.add(name.group(1))
    for match in _DECLARATION.finditer(data):
        names.add(match.group(match.lastindex or 0))
    return names

