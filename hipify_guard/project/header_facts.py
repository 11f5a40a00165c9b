"""What the project headers a file includes define (spec §11.3, §11.4): thresholds (llama.cpp's
`common.cuh` defines `CUDART_HMAX 11070`, and the files that include it test `CUDART_VERSION >=
CUDART_HMAX`) and shims (FBGEMM's `using __nv_fp8_e4m3 = __hip_fp8_e4m3;`, ggml's `#define
__shfl_sync` in `vendors/hip.h`).

Starting from a file, its `#include "..."` headers are followed (found in the including file's
folder, then in the project's `include/` and top folders, never outside the project; `<...>`
ones found in those two project folders, as `<mscclpp/device.hpp>` is), at most
MAX_HEADERS of them, each read once per run. A header's object-like definitions of integer
constants at its file level (or inside its include guard) are its thresholds; a name defined
with two values, or under a condition, is left free. Its definitions in code some ROCm model
compiles (`model.definitions`) are its shims.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

from ..core.reading import read_file
from ..cpp.groups import GroupTree
from ..cpp.scanner import scan
from ..model.analysis import FileAnalysis
from ..model.definitions import definitions_of
from ..model.local_macros import LocalMacros
from ..model.platforms import UNDEFINED
from ..model.settings import Settings
from .header_memo import Included, Reads, facts_key, keep_facts, kept_facts
from ..walk.project_walk import DIR, Scan, run_memo, walk_of

MAX_HEADERS = 64
MAX_SIBLINGS = 400  # files of a header's folder read to find what includes it
_TEMPLATES = ("", ".in", ".cmake.in", ".cmake")  # a configured header is read from its template
_HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp", ".tcc", ".in", ".cmake")
_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu", ".hip", *_HEADER_SUFFIXES[:-2])
_NOT_WALKED = frozenset({"build", "__pycache__", "node_modules", "third_party", "3rdparty"})
_TEMPLATE_SUFFIXES = (".in", ".cmake")
_CMAKEDEFINE = re.compile(rb"^[ \t]*#[ \t]*cmakedefine(?:01)?[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)', re.M)


class HeaderFacts(NamedTuple):
    """What the project headers a file includes say of some names."""

    values: dict[str, int]  # thresholds: integer definitions at file level
    defined: frozenset[str]  # defined for ROCm (in code some ROCm model compiles): shims
    cuda_only: frozenset[str]  # macros defined, but only where no ROCm model goes
    rocm_only: frozenset[str]  # macros surely defined in every ROCm model, not surely on CUDA
    # (mscclpp's `MSCCLPP_DEVICE_HIP`, defined under `defined(__HIP_PLATFORM_AMD__)`)
    reached: tuple[tuple[str, str], ...] = ()  # (macro, how the file sees it) for those of configured headers


def included_facts(path: str, names: Iterable[str], root: str, settings: Settings) -> HeaderFacts:
    """What the project headers `path` includes (transitively) say of `names` (from the run's
    memo while every file and folder they were found from is unchanged: `header_memo`)."""
    wanted = frozenset(names)
    start = os.path.realpath(path)
    memo = run_memo()
    key = facts_key(start, wanted, root, settings) if memo is not None else None
    first = _includes(start, root).headers  # (the file itself matters only by what it includes)
    if key is not None:
        kept = kept_facts(memo, key, first, lambda: _index_digest(root))
        if kept is not None:
            return HeaderFacts(*kept)
    facts, reads = _included_facts(start, wanted, root, settings)
    if key is not None:
        keep_facts(memo, key, (facts.values, facts.defined, facts.cuda_only, facts.rocm_only, facts.reached), reads,
                   first, lambda: _index_digest(root))
    return facts


def _included_facts(start: str, wanted: frozenset[str], root: str, settings: Settings) -> tuple[HeaderFacts, Reads]:
    """The facts, and what they were found from."""
    configured = {define.name for define in settings.profile.configured_rocm}
    values: dict[str, int] = {}
    defined: set[str] = set()
    elsewhere: set[str] = set()  # #defined only off ROCm, so far
    rocm_side: set[str] = set()
    seen: set[str] = set()
    reads = Reads(set())
    queue = [start]
    while queue and len(seen) < MAX_HEADERS and wanted - values.keys() - defined - rocm_side:
        current = queue.pop(0)
        included = _includes(current, root)
        reads.add(included)
        for header in included.headers:
            if header in seen:
                continue
            seen.add(header)
            reads.files.add(header)
            queue.append(header)
            for name, value in _thresholds(header).items():
                if name in wanted:
                    values.setdefault(name, value)
            rocm_side |= _configured(header, configured & wanted)
            open_names = frozenset(wanted - values.keys() - defined)
            if open_names:
                for_rocm, off_rocm = _definitions_in(header, settings, open_names)
                defined |= for_rocm
                elsewhere |= off_rocm
                rocm_side |= _rocm_switches(header, settings, for_rocm)
    reached = [(name, "it includes the configured header that defines it") for name in sorted(configured & rocm_side)]
    missing = configured & wanted - rocm_side
    if missing and start.endswith(_HEADER_SUFFIXES):
        through, why = _through_includers(start, frozenset(missing), root, reads)
        rocm_side |= through
        reached += [(name, why) for name in sorted(through)]
    facts = HeaderFacts(values, frozenset(defined), frozenset(elsewhere - defined - values.keys()),
                        frozenset(rocm_side), tuple(reached))
    return facts, reads


def _through_includers(path: str, names: frozenset[str], root: str, reads: Reads) -> tuple[set[str], str]:
    """Which of `names` (macros of configured headers) every file of the header's folder that
    includes it sees first, through the configured header it includes (magma's `.cuh` kernels,
    included by `.cu` files that include `magma_internal.h`): none when no file there includes it.
    The folder and its files read are added to `reads`."""
    folder, name = os.path.split(path)
    reads.folders.add(folder)
    siblings = _siblings(folder)
    reads.files.update(siblings)
    includers = [sibling for sibling in siblings if sibling != path and name in _included_names(sibling)]
    if not includers:
        return set(), ""
    seen = set(names)
    for includer in includers:
        seen &= _configured_through(includer, frozenset(seen), root, reads)
        if not seen:
            break
    example = os.path.relpath(includers[0], root).replace(os.sep, "/")
    count = f"{len(includers)} file{'s' if len(includers) > 1 else ''}, such as {example}"
    return seen, f"every file of its folder that includes it ({count}) includes the configured header that defines it"


def _configured_through(path: str, names: frozenset[str], root: str, reads: Reads) -> set[str]:
    """Which of `names` a configured header that `path` includes (transitively) `#cmakedefine`s."""
    found: set[str] = set()
    seen: set[str] = set()
    queue = [path]
    while queue and len(seen) < MAX_HEADERS and names - found:
        included = _includes(queue.pop(0), root)
        reads.add(included)
        for header in included.headers:
            if header not in seen:
                seen.add(header)
                reads.files.add(header)
                queue.append(header)
                found |= _configured(header, set(names))
    return found


@lru_cache(maxsize=256)
def _siblings(folder: str) -> tuple[str, ...]:
    """The C/C++/CUDA files of a folder (at most MAX_SIBLINGS)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return ()
    return tuple(entry.path for entry in entries if entry.name.endswith(_SOURCE_SUFFIXES) and entry.is_file())[
        :MAX_SIBLINGS]


@lru_cache(maxsize=4096)
def _included_names(path: str) -> frozenset[str]:
    """The file names (last path part) a file's `#include` lines name."""
    try:
        data = read_file(path)[0]
    except OSError:
        return frozenset()
    return frozenset(os.path.basename((quoted or angled).decode("utf-8", "surrogateescape"))
                     for quoted, angled in _INCLUDE.findall(data))


@lru_cache(maxsize=4096)
def _includes(path: str, root: str) -> Included:
    """The project headers a file's `#include "..."` lines name, as real paths under `root`, and
    where they were looked for."""
    try:
        data = read_file(path)[0]
    except OSError:
        return Included((), frozenset(), False)
    angled = (os.path.join(root, "include"), root)
    quoted = (os.path.dirname(path), *angled)
    headers = []
    folders = set()
    indexed = False
    for name, system in _INCLUDE.findall(data):
        text = (name or system).decode("utf-8", "surrogateescape")
        found = None
        for folder in quoted if name else angled:
            for template in _TEMPLATES:
                joined = os.path.join(folder, text + template)
                folders.add(os.path.dirname(joined))
                if os.path.isfile(joined) and ((candidate := os.path.realpath(joined)) + os.sep).startswith(
                        os.path.join(root, "")):
                    found = candidate
                    break
            if found is not None:
                break
        if found is None:  # an include folder of the build's (`-Icore/src`): the one project file of that name
            found = _unique_header(root, text)
            indexed = True
        if found is not None:
            headers.append(found)
    return Included(tuple(headers), frozenset(folders), indexed)


def _unique_header(root: str, name: str) -> str | None:
    """The one header of the project whose path ends with `name` (`Kokkos_Core.hpp` in
    `core/src/`, `RAJA/config.hpp` as `include/RAJA/config.hpp.in`), or None (none, or several)."""
    wanted = name.replace(os.sep, "/").lstrip("./")
    candidates = [path for template in _TEMPLATES for path in _headers_named(root).get(posixpath.basename(wanted + template), ())
                  if path.replace(os.sep, "/").endswith("/" + wanted + template)]
    return candidates[0] if len(candidates) == 1 else None


@lru_cache(maxsize=16)
def _headers_named(root: str) -> dict[str, tuple[str, ...]]:
    """The project's headers by file name (from the project's walk, when first asked); each path
    with its links resolved."""
    found: dict[str, list[str]] = {}
    real_root = os.path.realpath(root)

    def enter(folder: str, name: str, listing: Scan) -> bool:
        return name not in _NOT_WALKED and not name.startswith(".")

    for folder, listing in walk_of(root).folders(enter):
        real_folder = os.path.join(real_root, folder) if folder else real_root
        for name, kind in zip(listing.names, listing.kinds):
            if kind != DIR and name.endswith(_HEADER_SUFFIXES):
                found.setdefault(name, []).append(listing.links.get(name) or os.path.join(real_folder, name))
    return {name: tuple(sorted(paths)) for name, paths in found.items()}


@lru_cache(maxsize=16)
def _index_digest(root: str) -> bytes:
    """A digest of the project's header index: kept facts that asked it hold while it is the same."""
    text = "\n".join(f"{name}\0{chr(0).join(paths)}" for name, paths in sorted(_headers_named(root).items()))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]


def _definitions_in(path: str, settings: Settings, names: frozenset[str]) -> tuple[set[str], set[str]]:
    """Which of `names` the header defines in code some ROCm model compiles, and which it
    `#define`s only where no ROCm model goes."""
    header = _analysis(path, settings)
    if header is None:
        return set(), set()
    definitions = definitions_of(header)
    for_rocm = {name for name in names if definitions.defines(name.encode())}
    off_rocm = {name for name in names - for_rocm if definitions.defines_macro_somewhere(name.encode())}
    return for_rocm, off_rocm


def _rocm_switches(path: str, settings: Settings, names: set[str]) -> set[str]:
    """Which of `names` the header `#define`s where every ROCm model surely goes and CUDA need not."""
    header = _analysis(path, settings)
    if header is None:
        return set()
    local = header.local_macros
    found = set()
    for name in names:
        for event in local.events.get(name, ()):
            if event.value is not UNDEFINED and all(
                    local.taken(event.arm, model, header.path_below_guard) for model in header.rocm_models) and (
                    local.taken(event.arm, header.cuda, header.path_below_guard) is not True):
                found.add(name)
    return found


@lru_cache(maxsize=256)
def _analysis(path: str, settings: Settings) -> FileAnalysis | None:
    """The header, analysed under the including file's settings (kept: its definitions refer to it weakly)."""
    try:
        data = read_file(path)[0]
    except OSError:
        return None
    return FileAnalysis(path, data, settings)


def _configured(path: str, names: set[str]) -> set[str]:
    """Which of `names` (those every ROCm build sets true for `#cmakedefine`) a configured
    header's template `#cmakedefine`s: the including file sees them defined."""
    if not names or not path.endswith(_TEMPLATE_SUFFIXES):
        return set()
    return names & _cmakedefined(path)


@lru_cache(maxsize=1024)
def _cmakedefined(path: str) -> frozenset[str]:
    try:
        data = read_file(path)[0]
    except OSError:
        return frozenset()
    return frozenset(match.decode("ascii") for match in _CMAKEDEFINE.findall(data))


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
