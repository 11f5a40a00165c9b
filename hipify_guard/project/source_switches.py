"""The build switches a project's sources test (spec §11.1): `GGML_USE_HIP`, `KOKKOS_ENABLE_CUDA`,
each with the first conditional directive that tests it and how many do.

One inference for `init` and `check`: `init` writes the ROCm-side switches and the CUDA-side ones
whose prefix has a ROCm side among them; `check` takes a CUDA-side name for the CUDA build's where
the project tests the ROCm side of its prefix anywhere (kokkos-kernels tests `KOKKOS_ENABLE_CUDA`
in files that never name `KOKKOS_ENABLE_HIP`; other files of it do).

Every C/C++ file below the root is read once per run (the walk is the project's, remembered);
the result is kept in the run's memo with the status of every file read (`header_memo`): a warm
run stats them instead of reading them again.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache

from ..core.records import record
from ..core.languages import CPP, language_of
from ..core.reading import read_file
from ..model.platform_names import ROCM, build_macro
from .discovery import DEFAULT_EXTENSIONS, discover
from .header_memo import Reads, keep_facts, kept_facts
from ..walk.project_walk import run_memo

HIP_OWN = frozenset({"__HIP_PLATFORM_AMD__", "USE_ROCM"})  # ROCm's own macros, counted for the rewrites
# A conditional directive's text (not anchored: the line start is checked for the few that name a platform).
_CONDITION = re.compile(rb"#[ \t]*(?:el)?if(?:n?def)?\b([^\r\n]*)")
_PLATFORM_WORDS = (b"hip", b"rocm", b"amd", b"hcc", b"cuda", b"nvcc", b"nvidia", b"cublas")  # (lower case)
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


@record(slots=True)
class Tested:
    """A switch the sources test: the first directive that does (`path:line: text`) and how many do."""

    first: str
    count: int


@lru_cache(maxsize=16)
def tested_switches(root: str) -> dict[str, Tested]:
    """The build switches (by name) and ROCm's own macros the conditional directives below `root`
    (an absolute folder) test (found once per run; the result is shared: not to be changed)."""
    memo = run_memo()
    files = tuple(path for name, path in discover([root], DEFAULT_EXTENSIONS) if language_of(name) == CPP)
    text = "\0".join(("source-switches", root, *files))
    key = hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]
    kept = kept_facts(memo, key, (), bytes) if memo is not None else None
    if isinstance(kept, tuple):
        return {name: Tested(first, count) for name, first, count in kept}
    found = _scan(root, files)
    if memo is not None:
        plain = tuple((name, item.first, item.count) for name, item in sorted(found.items()))
        keep_facts(memo, key, plain, Reads(set(files)), (), bytes)
    return found


def rocm_side(switches: dict[str, Tested]) -> frozenset[str]:
    """The ROCm-side build switches among them (`KOKKOS_ENABLE_HIP`)."""
    return frozenset(name for name in switches if (switch := build_macro(name)) and switch.side == ROCM)


def _scan(root: str, files: tuple[str, ...]) -> dict[str, Tested]:
    firsts: dict[str, str] = {}
    counts: dict[str, int] = {}
    for path in files:
        try:
            data = read_file(path)[0]
        except OSError:
            continue
        for match in _CONDITION.finditer(data):
            lowered = match.group(1).lower()
            if not any(word in lowered for word in _PLATFORM_WORDS):
                continue
            line_start = data.rfind(b"\n", 0, match.start()) + 1
            if data[line_start : match.start()].strip(b" \t"):
                continue
            for word in _NAME.findall(match.group(1)):
                macro = word.decode("ascii")
                if macro not in HIP_OWN and build_macro(macro) is None:
                    continue
                counts[macro] = counts.get(macro, 0) + 1
                if macro not in firsts:
                    where = os.path.relpath(path, root).replace(os.sep, "/")
                    line = data.count(b"\n", 0, match.start()) + 1
                    end = data.find(b"\n", match.start())
                    text = data[line_start : end if end != -1 else len(data)]
                    firsts[macro] = f"{where}:{line}: {text.strip().decode('utf-8', 'replace')}"
    return {name: Tested(firsts[name], counts[name]) for name in firsts}
