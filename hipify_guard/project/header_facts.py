"""What the project headers a file includes define (spec §11.3, §11.4): thresholds (llama.cpp's
`common.cuh` defines `CUDART_HMAX 11070`, and the files that include it test `CUDART_VERSION >=
CUDART_HMAX`) and shims (FBGEMM's `using __nv_fp8_e4m3 = __hip_fp8_e4m3;`, ggml's `#define
__shfl_sync` in `vendors/hip.h`).

Starting from a file, the project headers it includes are followed (`header_includes`), at most
MAX_HEADERS of them, nearest first, each read once per run; for a header, what the files that
pull it in put in front of it counts too where its own includes say nothing (`header_includers`).
A header's object-like definitions of integer constants at its file level (or inside its include
guard) are its thresholds; a name defined with two values, or under a condition, is left free. Its definitions in code some ROCm model
compiles (`model.definitions`) are its shims; a macro it `#define`s only where no ROCm model goes
is undefined on ROCm (cutlass's `CUTLASS_ARCH_MMA_SM90_SUPPORTED`), and so is one defined only
under such macros (the names around a definition are looked for too: `_guards`). Only headers
that mention a name still looked for are analysed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from ..core.reading import read_file
from ..cpp.groups import GroupTree
from ..cpp.scanner import scan
from ..model.analysis import FileAnalysis
from ..model.api_knowledge import is_api
from ..model.definitions import definitions_of
from ..model.local_macros import LocalMacros
from ..model.platforms import UNDEFINED
from ..model.settings import Settings
from .header_includers import include_lines, pulled_in_by
from .header_includes import HEADER_SUFFIXES, file_bytes, includes, index_digest
from .header_memo import Reads, facts_key, keep_facts, kept_facts
from ..walk.project_walk import run_memo

MAX_HEADERS = 256  # (cutlass: cutlass/arch/config.h is the 182nd header a test's includes reach)
ALIAS_ONLY = "alias:"  # a name asked only whether the headers define it for ROCm as another API
_GUARD_ROUNDS = 4  # links of a chain of macros defined under one another that are followed
_TEMPLATE_SUFFIXES = (".in", ".cmake")
_CMAKEDEFINE = re.compile(rb"^[ \t]*#[ \t]*cmakedefine(?:01)?[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)


class HeaderFacts(NamedTuple):
    """What the project headers a file includes say of some names."""

    values: dict[str, int]  # thresholds: integer definitions at file level
    defined: frozenset[str]  # defined for ROCm (in code some ROCm model compiles): shims
    cuda_only: frozenset[str]  # macros defined, but only where no ROCm model goes
    rocm_only: frozenset[str]  # macros surely defined in every ROCm model, not surely on CUDA
    # (mscclpp's `MSCCLPP_DEVICE_HIP`, defined under `defined(__HIP_PLATFORM_AMD__)`)
    reached: tuple[tuple[str, str], ...] = ()  # (macro, how the file sees it) for those of configured headers
    aliases: tuple[tuple[str, str, str], ...] = ()  # (defined name, an API a definition makes it, "path:line")


def included_facts(path: str, names: Iterable[str], root: str, settings: Settings) -> HeaderFacts:
    """What the project headers `path` includes (transitively) say of `names` (from the run's
    memo while every file and folder they were found from is unchanged: `header_memo`)."""
    asked = frozenset(names)
    plain = frozenset(name for name in asked if not name.startswith(ALIAS_ONLY))
    alias_only = frozenset(name[len(ALIAS_ONLY):] for name in asked - plain) - plain
    wanted = plain | alias_only
    start = os.path.realpath(path)
    memo = run_memo()
    key = facts_key(start, asked, root, settings) if memo is not None else None
    first = includes(start, root).headers  # (the file itself matters only by what it includes)
    if key is not None:
        kept = kept_facts(memo, key, first, lambda: index_digest(root), include_lines)
        if kept is not None:
            return HeaderFacts(*kept)
    facts, reads = _included_facts(start, wanted, root, settings)
    if alias_only:
        facts = _aliases_only(facts, alias_only)
    if key is not None:
        keep_facts(memo, key, tuple(facts), reads,
                   first, lambda: index_digest(root))
    return facts


def _aliases_only(facts: HeaderFacts, names: frozenset[str]) -> HeaderFacts:
    """The facts without what they say of `names` but that the headers define them as another
    API for ROCm (an alias is evidence of what the name is there; a stand-in's value is not)."""
    aliased = frozenset(name for name, _, _ in facts.aliases)
    dropped = names - aliased
    return facts._replace(values={name: value for name, value in facts.values.items() if name not in dropped},
                          defined=facts.defined - dropped, cuda_only=facts.cuda_only - dropped,
                          rocm_only=facts.rocm_only - dropped)


def _included_facts(start: str, wanted: frozenset[str], root: str, settings: Settings) -> tuple[HeaderFacts, Reads]:
    """The facts, and what they were found from: what the file includes says, and for a header,
    what every file that pulls it in puts in front of it says of the names left (`header_includers`)."""
    reads = Reads(set())
    included = includes(start, root)
    reads.add(included)
    facts = _facts_from(included.headers, wanted, root, settings, reads)
    configured = {define.name for define in settings.profile.configured_rocm}
    reached = [(name, "it includes the configured header that defines it") for name in sorted(configured & facts.rocm_only)]
    missing = wanted - facts.values.keys() - facts.defined - facts.cuda_only - facts.rocm_only
    through = _through_includers(start, missing, root, settings, reads) if missing and start.endswith(
        HEADER_SUFFIXES) else None
    if through is not None:
        more, why = through
        reached += [(name, why) for name in sorted(configured & more.rocm_only)]
        facts = HeaderFacts({**facts.values, **more.values}, facts.defined | more.defined,
                            facts.cuda_only | more.cuda_only, facts.rocm_only | more.rocm_only,
                            aliases=facts.aliases)
    return facts._replace(reached=tuple(reached)), reads


def _through_includers(path: str, names: frozenset[str], root: str, settings: Settings,
                       reads: Reads) -> tuple[HeaderFacts, str] | None:
    """What every file that pulls the header in puts in front of it says of `names`, and how the
    header sees it (None: nothing in its folder pulls it in)."""
    pulled = pulled_in_by(path, root, reads)
    if not pulled:
        return None
    each: list[HeaderFacts] = []
    for includer in pulled:
        each.append(_facts_from(includer.before, names, root, settings, reads))
        latest = each[-1]
        names &= latest.values.keys() | latest.defined | latest.cuda_only | latest.rocm_only
        if not names:
            break
    values = {name: value for name, value in each[0].values.items()
              if name in names and all(facts.values.get(name) == value for facts in each)}
    common = [frozenset.intersection(*(getattr(facts, kind) for facts in each)) & names
              for kind in ("defined", "cuda_only", "rocm_only")]
    example = os.path.relpath(pulled[0].path, root).replace(os.sep, "/")
    count = f"{len(pulled)} file{'s' if len(pulled) > 1 else ''}, such as {example}"
    why = f"every file of its folder that pulls it in ({count}) puts the configured header that defines it in front"
    return HeaderFacts(values, *common), why


def _facts_from(first: tuple[str, ...], wanted: frozenset[str], root: str, settings: Settings,
                reads: Reads) -> HeaderFacts:
    """What the headers `first` and those they include (transitively, nearest first) say of
    `wanted`; what they were found from is added to `reads`. A name a header defines for ROCm only
    under conditions on other free names (cute's `CUTE_ARCH_TCGEN05_MXF4NVF4_MMA_ENABLED`, under
    `defined(CUTLASS_ARCH_MMA_SM100A_ENABLED) || ...`) is looked for with them: where the headers
    define those only off ROCm (cutlass/arch/config.h, under `__CUDACC_VER_MAJOR__` tests), so is it."""
    configured = {define.name for define in settings.profile.configured_rocm}
    values: dict[str, int] = {}
    sites: dict[str, dict[str, frozenset[str]]] = {}  # name -> header defining it for ROCm -> free names it is under
    aliases: dict[str, list[tuple[str, str]]] = {}  # name -> (API a definition for ROCm makes it, where)
    elsewhere: set[str] = set()  # #defined only off ROCm, so far
    rocm_side: set[str] = set()
    seen: set[str] = set()
    looked_for = set(wanted)
    queue = list(first)
    while queue and len(seen) < MAX_HEADERS and _unsettled(looked_for, values, sites, rocm_side):
        header = queue.pop(0)
        if header in seen:
            continue
        seen.add(header)
        reads.files.add(header)
        included = includes(header, root)
        reads.add(included)
        queue += included.headers
        rocm_side |= _configured(header, configured & wanted)
        open_names = frozenset(name for name in _unsettled(looked_for, values, sites, rocm_side)
                               if name.encode() in file_bytes(header))
        if not open_names:
            continue
        for name, value in _thresholds(header).items():
            if name in open_names:
                values.setdefault(name, value)
        for_rocm, off_rocm = _definitions_in(header, settings, open_names - values.keys())
        elsewhere |= off_rocm
        for name in for_rocm:
            aliases.setdefault(name, []).extend(_aliased_apis(header, settings, name, root))
            free = _guards(header, settings, name)
            sites.setdefault(name, {})[header] = free
            looked_for |= free
        rocm_side |= _rocm_switches(header, settings, for_rocm)
    _settle_guards(sites, elsewhere, settings)
    defined = frozenset(name for name in wanted if sites.get(name))
    return HeaderFacts({name: value for name, value in values.items() if name in wanted}, defined,
                       frozenset(wanted & elsewhere - defined - values.keys()), frozenset(rocm_side & wanted),
                       aliases=tuple((name, *alias) for name in sorted(defined)
                                     for alias in dict.fromkeys(aliases.get(name, ()))))


def _unsettled(names: set[str], values: dict[str, int], sites: dict[str, dict[str, frozenset[str]]],
               rocm_side: set[str]) -> set[str]:
    """The names still looked for: without a value, not a ROCm switch, and not defined for ROCm
    where no other free name decides it."""
    return {name for name in names if name not in values and name not in rocm_side
            and not any(not free for free in sites.get(name, {}).values())}


def _settle_guards(sites: dict[str, dict[str, frozenset[str]]], elsewhere: set[str], settings: Settings) -> None:
    """Names whose every ROCm definition sits under names the headers define only off ROCm are
    defined only off ROCm too (`sites` and `elsewhere` updated; chains of them, a few links deep)."""
    for _ in range(_GUARD_ROUNDS):
        off = frozenset(elsewhere - sites.keys())
        if not off:
            return
        knowing = replace(settings, header_cuda_only=settings.header_cuda_only | off)
        changed = False
        for name, headers in list(sites.items()):
            for header, free in list(headers.items()):
                if free & off and name not in _definitions_in(header, knowing, frozenset({name}))[0]:
                    del headers[header]
            if not headers:
                del sites[name]
                elsewhere.add(name)
                changed = True
        if not changed:
            return


def _guards(path: str, settings: Settings, name: str) -> frozenset[str]:
    """The names the conditions around the header's `#define`s of `name` test that no ROCm model
    fixes and the header does not define itself (empty: nothing else decides them)."""
    header = _analysis(path, settings)
    if header is None:
        return frozenset()
    local = header.local_macros
    fixed = frozenset().union(*(model.fixed for model in header.rocm_models))
    found: set[str] = set()
    for event in local.events.get(name, ()):
        for term, _ in header.path_below_guard(event.arm):
            found |= term.names
    return frozenset(found - fixed - local.events.keys())


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


def _aliased_apis(path: str, settings: Settings, name: str, root: str) -> list[tuple[str, str]]:
    """(API, "path:line") of each of the header's definitions of `name` for ROCm that makes it
    another name for a CUDA or HIP API (`Definitions.alias_sites`)."""
    header = _analysis(path, settings)
    if header is None:
        return []
    where = os.path.relpath(path, root).replace(os.sep, "/")
    return [(target, f"{where}:{header.lines.line_of(offset)}")
            for target, offset in definitions_of(header).alias_sites(name.encode("ascii")) if is_api(target)]


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
    data = file_bytes(path)
    directives = scan(data).directives
    local = LocalMacros(data, directives, GroupTree(directives), {})
    return {name: events[0].value for name, events in local.events.items()
            if len(events) == 1 and events[0].arm is None and isinstance(events[0].value, int)}
