"""What the project headers a file includes define (spec §11.3, §11.4): thresholds (llama.cpp's
`common.cuh` defines `CUDART_HMAX 11070`, and the files that include it test `CUDART_VERSION >=
CUDART_HMAX`) and shims (FBGEMM's `using __nv_fp8_e4m3 = __hip_fp8_e4m3;`, ggml's `#define
__shfl_sync` in `vendors/hip.h`).

Starting from a file, its `#include "..."` headers are followed (found in the including file's
folder, then in the project's `include/` and top folders, never outside the project), at most
MAX_HEADERS of them, each read once per run. A header's object-like definitions of integer
constants at its file level (or inside its include guard) are its thresholds; a name defined
with two values, or under a condition, is left free. Its definitions in code some ROCm model
compiles (`model.definitions`) are its shims.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from ..core.reading import read_file
from ..cpp.groups import GroupTree
from ..cpp.scanner import scan
from ..model.analysis import FileAnalysis
from ..model.definitions import definitions_of
from ..model.local_macros import LocalMacros
from ..model.settings import Settings

MAX_HEADERS = 64
_QUOTED = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.M)


def included_facts(path: str, names: Iterable[str], root: str, settings: Settings) -> tuple[dict[str, int], frozenset[str]]:
    """The values that the project headers `path` includes give `names` (thresholds), and those
    of `names` they define for ROCm (shims)."""
    wanted = set(names)
    values: dict[str, int] = {}
    defined: set[str] = set()
    seen: set[str] = set()
    queue = [os.path.realpath(path)]
    while queue and len(seen) < MAX_HEADERS and wanted - values.keys() - defined:
        current = queue.pop(0)
        for header in _includes(current, root):
            if header in seen:
                continue
            seen.add(header)
            queue.append(header)
            for name, value in _thresholds(header).items():
                if name in wanted:
                    values.setdefault(name, value)
            open_names = wanted - values.keys() - defined
            if open_names:
                defined |= _shims(header, settings, frozenset(open_names))
    return values, frozenset(defined)


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


def _shims(path: str, settings: Settings, names: frozenset[str]) -> set[str]:
    """Which of `names` the header defines in code some ROCm model compiles."""
    header = _analysis(path, settings)
    if header is None:
        return set()
    definitions = definitions_of(header)
    return {name for name in names if definitions.defines(name.encode())}


@lru_cache(maxsize=256)
def _analysis(path: str, settings: Settings) -> FileAnalysis | None:
    """The header, analysed under the including file's settings (kept: its definitions refer to it weakly)."""
    try:
        data = read_file(path)[0]
    except OSError:
        return None
    return FileAnalysis(path, data, settings)


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
