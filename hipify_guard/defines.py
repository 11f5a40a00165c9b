"""HG107's pre-pass: which near misses of known macros are #defined somewhere in the checked files.

A misspelled macro is only a bug when nothing defines it. The pre-pass reads every file once,
finds `#define NAME` lines with a cheap byte search, keeps the names that are near misses of a
known macro (usually none), and confirms them with the scanner, which knows comments and
strings. The result is a small set that goes into `Settings.project_defines`, so the per-file
check stays a pure function of (file bytes, settings).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .reading import read_file
from .scanner import Directive, scan
from .spelling import near_miss

_DEFINE = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)")  # `^` with re.M is 10x slower
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def near_miss_defines(paths: Iterable[str], known: frozenset[str]) -> frozenset[str]:
    """The near misses of `known` that some file among `paths` #defines."""
    judged: dict[bytes, bool] = {}
    found: set[str] = set()
    for path in paths:
        try:
            data = read_file(path)[0]  # not open(): a FIFO would block the run
        except OSError:
            continue  # the main pass reports unreadable files
        candidates = set()
        for match in _DEFINE.finditer(data):
            name = match.group(1)
            if name not in judged:
                judged[name] = near_miss(name.decode("ascii"), known) is not None
            if judged[name]:
                candidates.add(name)
        if candidates:
            found |= defined_names(data, scan(data).directives) & {name.decode("ascii") for name in candidates}
    return frozenset(found)


def defined_names(data: bytes, directives: Iterable[Directive]) -> set[str]:
    """The names of the #define directives among `directives`."""
    names = set()
    for directive in directives:
        if directive.kind == "define":
            match = _NAME.match(data, *directive.argument)
            if match:
                names.add(match.group().decode("ascii"))
    return names
