"""Sources commented out of a ROCm build's source list: a file that build does not compile.

rccl's `CMakeLists.txt`, the ROCm build, lists its sources one by one and keeps NCCL's files it
does not build as comments in the same list (`# src/misc/cudawrap.cc`, beside `src/misc/rocmwrap.cc`);
NCCL's own make build, which compiles them for CUDA, stays in the tree. A source file that a
ROCm-building CMake file names only in such a comment line, and no build file names otherwise,
is the CUDA side's: ROCm's rules do not run on it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from .build_conditions import CUDA
from .build_facts import Evidence, SourceFact
from .source_paths import is_header

_COMMENTED_PATH = re.compile(r"^[ \t]*#[ \t]*([A-Za-z0-9_./+-]+\.[A-Za-z0-9]+)[ \t]*$", re.M)
_CONDITION = "commented out of the ROCm build's source list"


def commented_sources(cmake_files: Sequence[str], texts: Callable[[str], str | None], sources: frozenset[str],
                      claimed: dict[str, set[str | None]]) -> list[SourceFact]:
    """CUDA-only facts for the tree's source files that a ROCm-building CMake file names only in a
    comment line of their own (`cmake_files`: those files; `claimed`: what the build files name)."""
    facts = []
    for path in cmake_files:
        text = texts(path) or ""
        folder = posixpath.dirname(path)
        for match in _COMMENTED_PATH.finditer(text):
            named = match.group(1).removeprefix("./")
            found = next((candidate for candidate in (posixpath.normpath(posixpath.join(folder, named)), named)
                          if candidate in sources), None)
            if found is None or is_header(found) or found in claimed:
                continue
            line = text.count("\n", 0, match.start()) + 1
            facts.append(SourceFact(found, CUDA, _CONDITION, Evidence(path, line, match.group(0).strip()), (found,)))
    return facts
