"""Project thresholds from included headers (spec §11.3): llama.cpp's `common.cuh` defines
`CUDART_HMAX 11070`, and the files that include it test `CUDART_VERSION >= CUDART_HMAX`.

Starting from a file, its `#include "..."` headers are followed (found in the including file's
folder, then in the project's `include/` and top folders, never outside the project), at most
MAX_HEADERS of them, each read once per run. A header's object-like definitions of integer
constants at its file level (or inside its include guard) are its thresholds; a name defined
with two values, or under a condition, is left free.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from ..core.reading import read_file
from ..cpp.groups import GroupTree
from ..cpp.scanner import scan
from ..model.local_macros import LocalMacros

MAX_HEADERS = 64
_QUOTED = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.M)


def included_thresholds(path: str, names: Iterable[str], root: str) -> dict[str, int]:
    """The values that the project headers `path` includes give `names`."""
    wanted = set(names)
    found: dict[str, int] = {}
    seen: set[str] = set()
    queue = [os.path.realpath(path)]
    while queue and len(seen) < MAX_HEADERS and wanted - found.keys():
        current = queue.pop(0)
        for header in _includes(current, root):
            if header not in seen:
                seen.add(header)
                queue.append(header)
                for name, value in _thresholds(header).items():
                    if name in wanted and name not in found:
                        found[name] = value
    return found


@lru_cache(maxsize=4096)
def _includes(path: str, root: str) -> tuple[str, ...]:
    """The project headers a file's `#include "..."` lines name, as real paths under `root`."""
    try:
        data = read_file(path)[0]
    except OSError:
        return ()
    folders = (os.path.dirname(path), os.path.join(root, "include"), root)
    headers = []
    for name in _QUOTED.findall(data):
        text = name.decode("utf-8", "surrogateescape")
        for folder in folders:
            candidate = os.path.realpath(os.path.join(folder, text))
            if os.path.isfile(candidate) and (candidate + os.sep).startswith(os.path.join(root, "")):
                headers.append(candidate)
                break
    return tuple(headers)


@lru_cache(maxsize=4096)
def _thresholds(path: str) -> Mapping[str, int]:
    """A header's file-level integer definitions (one definition per name)."""
    try:
        data = read_file(path)[0]
    except OSError:
        return {}
    directives = scan(data).directives
    local = LocalMacros(data, directives, GroupTree(directives), {})
    return {name: events[0].value for name, events in local.events.items()
            if len(events) == 1 and events[0].arm is None and isinstance(events[0].value, int)}
