"""HG107 across the checked files: a near miss of a known macro that some checked file #defines
is no misspelling.

Check runs learn the tree's defines from the files' own jobs: each job reports the near misses
its file #defines (`near_miss_defines`: a cheap byte search, each name judged once per process,
confirmed by the scanner, which knows comments and strings) and the names its HG107 findings
take to be defined nowhere (`assumed_undefined`), so a file's result depends on its bytes only
and is cached as such. After the run, a file whose findings assumed a name that another file
defines is checked again knowing it (`project.settle_defines`). Fix and diff runs write as they
go, so they read every file once before (`tree_near_miss_defines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..core.reading import read_file
from .spelling import judged

if TYPE_CHECKING:
    from ..core.findings import Finding
    from ..cpp.scanner import Directive

MISSPELLING = "HG107"
_DEFINE = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)")  # `^` with re.M is 10x slower
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_judged: dict[frozenset[str], dict[bytes, bool]] = {}  # known macros -> name -> is a near miss


def near_miss_defines(data: bytes, known: frozenset[str]) -> frozenset[str]:
    """The near misses of `known` that `data` #defines (not in comments or strings)."""
    memo = _judged.setdefault(known, {})
    candidates = {name.decode("ascii") for name in set(_DEFINE.findall(data)) if judged(name, known, memo)}
    if not candidates:
        return frozenset()
    from ..cpp.scanner import scan  # (a rare file: a run whose files the cache answers never scans)

    return frozenset(defined_names(data, scan(data).directives) & candidates)


def tree_near_miss_defines(paths: Iterable[str], known: frozenset[str]) -> frozenset[str]:
    """The near misses of `known` that some file among `paths` #defines."""
    found: set[str] = set()
    for path in paths:
        try:
            data = read_file(path)[0]  # not open(): a FIFO would block the run
        except OSError:
            continue  # the main pass reports unreadable files
        found |= near_miss_defines(data, known)
    return frozenset(found)


def assumed_undefined(data: bytes, findings: Sequence[Finding]) -> frozenset[str]:
    """The names that HG107 findings (each spans its name) take to be defined nowhere."""
    return frozenset(data[f.start : f.end].decode("ascii", "replace") for f in findings if f.code == MISSPELLING)


def defined_names(data: bytes, directives: Iterable[Directive]) -> set[str]:
    """The names of the #define directives among `directives`."""
    names = set()
    for directive in directives:
        if directive.kind == "define":
            match = _NAME.match(data, *directive.argument)
            if match:
                names.add(match.group().decode("ascii"))
    return names
