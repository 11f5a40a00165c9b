"""Headers no ROCm build compiles because every file that includes them does so where no ROCm
model goes (spec §11.1, issue 25): Kokkos' desul `Fetch_Op.hpp` includes `Fetch_Op_CUDA.hpp`
only under `#ifdef DESUL_HAVE_CUDA_ATOMICS`, which `Macros.hpp` defines only with `__CUDACC__`,
and `Fetch_Op_CUDA.hpp` includes `cuda/CUDA_asm.hpp`: neither is compiled on ROCm, so the
CUDA version guards of `CUDA_asm.hpp` are nobody's there.

The includers are looked for where `cuda_only_headers` looks (the header's folder, the folder
above, the folders below: at most MAX_FILES files read). Each is judged under the checked file's
settings with what the build files say of the includer (`Own`: kineto's `CuptiActivityProfiler.cpp`
is a source only the CUDA build compiles; `ActivityProfilerController.cpp` includes the CUPTI
profiler under `HAS_CUPTI`, which only the CUDA build defines) and what its own included headers
say of the names around its `#include` (`knowing`); an includer that is itself a header may be
CUDA-only the same way, a few links up.
A header nothing there includes is not CUDA-only by this.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from ..model.analysis import FileAnalysis
from ..model.settings import Settings
from .cuda_only_headers import HEADERS, SOURCES
from .header_includes import file_bytes
from .header_memo import Reads, facts_key, keep_facts, kept_facts
from ..walk.project_walk import run_memo

_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)')  # (lines checked where found)
MAX_FILES = 400  # files read, per header, to find what includes it
MAX_LINKS = 3  # includers that are headers followed up this many links
Knowing = Callable[[Settings, str, Iterable[str]], Settings]  # `workspace.with_header_facts`
Own = Callable[[str], "Settings | None"]  # an includer's settings; None: only the CUDA build compiles it


def cuda_only_by_includers(path: str, root: str, settings: Settings, knowing: Knowing, own: Own) -> str:
    """Why no ROCm build compiles the header `path` (absolute): "" when some may (kept in the
    run's memo with the status of every folder listed and file read)."""
    memo = run_memo()
    key = facts_key(os.path.realpath(path), frozenset({"\0cuda-only-includes"}), root, settings) if memo else None
    kept = kept_facts(memo, key, (), bytes) if key is not None else None
    if isinstance(kept, str):
        return kept
    reads = Reads(set())
    why = _why(os.path.realpath(path), root, settings, knowing, own, reads, frozenset())
    if key is not None:
        keep_facts(memo, key, why, reads, (), bytes)
    return why


def _why(path: str, root: str, settings: Settings, knowing: Knowing, own: Own, reads: Reads,
         above: frozenset[str]) -> str:
    includers = _includers(path, root, reads)
    if not includers:
        return ""
    for includer, offsets in includers:
        includer_settings = own(includer)
        if includer_settings is None:
            continue
        if not _off_rocm(includer, offsets, includer_settings, knowing) and not (
                len(above) < MAX_LINKS and includer.endswith(HEADERS) and includer not in above
                and _why(includer, root, settings, knowing, own, reads, above | {path})):
            return ""
    first = os.path.relpath(includers[0][0], root).replace(os.sep, "/")
    count = f"{len(includers)} file{'s' if len(includers) > 1 else ''}, such as {first}"
    return f"every file that includes it ({count}) does so where no ROCm build goes"


def _off_rocm(includer: str, offsets: tuple[int, ...], settings: Settings, knowing: Knowing) -> bool:
    """Whether no ROCm model reaches any of the includer's `#include`s at `offsets`, knowing what
    its own included headers say of the names of the conditions around them."""
    file = FileAnalysis(includer, file_bytes(includer), settings)
    arms = [file.tree.enclosing(offset) for offset in offsets]
    if any(arm is None for arm in arms):
        return False
    names = {name for arm in arms for term, _ in file.path(arm) for name in term.names}
    file = FileAnalysis(includer, file.data, knowing(settings, includer, names))
    return not any(file.reachable_on_rocm(arm, inside=True) for arm in arms)


def _includers(path: str, root: str, reads: Reads) -> list[tuple[str, tuple[int, ...]]]:
    """The files around the header that include it, each with the offsets of those `#include`s
    (none when more than MAX_FILES files would have to be read: any of them may include it)."""
    folder, name = os.path.split(path)
    places = {folder, os.path.dirname(folder), *_below(folder)}
    candidates = sorted(file for place in places for file in _listing(place)
                        if file != path and file.endswith(SOURCES + HEADERS))
    reads.folders.update(places)
    if len(candidates) > MAX_FILES:
        return []
    reads.files.update(candidates)
    found = []
    wanted = name.encode("utf-8", "surrogateescape")
    for candidate in candidates:
        if wanted not in file_bytes(candidate):
            continue
        offsets = tuple(offset for offset, included in _includes(candidate) if wanted in included
                        and _names(included.decode("utf-8", "surrogateescape"), candidate, path))
        if offsets:
            found.append((candidate, offsets))
    return found


def _names(included: str, includer: str, header: str) -> bool:
    """Whether an include line's path names `header`: beside the includer (`"../mma.cuh"`), or by
    its last path parts (`<desul/atomics/cuda/CUDA_asm.hpp>`)."""
    joined = posixpath.normpath(posixpath.join(os.path.dirname(includer).replace(os.sep, "/"), included))
    ending = "/" + included.lstrip("./")
    return joined == header.replace(os.sep, "/") or header.replace(os.sep, "/").endswith(ending)


@lru_cache(maxsize=4096)
def _includes(path: str) -> tuple[tuple[int, bytes], ...]:
    """(offset of the `#`, the path it names) of each `#include` line of a file."""
    data = file_bytes(path)
    found = []
    for match in _INCLUDE.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        if not data[line_start : match.start()].strip(b" \t"):  # (not `// #include ...`)
            found.append((match.start(), match.group(1) or match.group(2)))
    return tuple(found)


@lru_cache(maxsize=1024)
def _listing(folder: str) -> tuple[str, ...]:
    try:
        return tuple(sorted(entry.path for entry in os.scandir(folder) if entry.is_file()))
    except OSError:
        return ()


@lru_cache(maxsize=1024)
def _below(folder: str) -> tuple[str, ...]:
    try:
        return tuple(sorted(entry.path for entry in os.scandir(folder)
                            if entry.is_dir() and not entry.name.startswith(".")))
    except OSError:
        return ()
