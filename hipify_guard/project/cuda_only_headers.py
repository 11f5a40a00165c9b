"""Headers only the CUDA build compiles, by the sources around them (build files list sources, not
headers): a header is CUDA-only when

- every source file beside it is CUDA-only (FBGEMM's `cutlass_extensions/<kernel>/`), or
- it is included, and only by CUDA-only sources, among the files of its folder, of the folder
  above it and of the folders below it (kineto's `CuptiActivity.h`, included by the CUPTI sources
  beside it; vLLM's `marlin/sparse/common/mma.h`, included by `marlin/sparse/marlin_24_cuda_kernel.cu`;
  SageAttention's `csrc/mma.cuh`, included as `"../mma.cuh"` by the kernels of `csrc/qattn/`).

A header a ROCm-only source includes, or one the build files name for ROCm, never is. The result
is kept in the run's memo with the status of every folder listed and file read (`header_memo`):
a warm run stats them instead of reading them again.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re

from ..core.reading import read_file
from .header_memo import Reads, keep_facts, kept_facts
from ..walk.project_walk import run_memo

SOURCES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip")
HEADERS = (".h", ".cuh", ".hpp", ".hh", ".hxx", ".inl", ".ipp", ".tcc")
MAX_INCLUDERS_READ = 400  # files read per run to find what includes the headers of a folder
_ROUNDS = 4
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\r\n]+)[>"]', re.M)


def cuda_only_headers(root: str, cuda_only: frozenset[str], rocm_only: frozenset[str]) -> dict[str, str]:
    """Root-relative CUDA-only headers, each with why (see the module doc)."""
    memo = run_memo()
    text = "\0".join(("cuda-only-headers", root, *sorted(cuda_only), "\1", *sorted(rocm_only)))
    key = hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]
    kept = kept_facts(memo, key, (), bytes) if memo is not None else None
    if isinstance(kept, tuple):
        return dict(kept)
    reads = Reads(set())
    found = _cuda_only_headers(root, cuda_only, rocm_only, reads)
    if memo is not None:
        keep_facts(memo, key, tuple(sorted(found.items())), reads, (), bytes)
    return found


def _cuda_only_headers(root: str, cuda_only: frozenset[str], rocm_only: frozenset[str], reads: Reads) -> dict[str, str]:
    """As cuda_only_headers; the folders listed and files read are added to `reads`."""
    budget: dict[str, _Includes | None] = {}
    folders: dict[str, list[str]] = {}
    for name in cuda_only:
        folders.setdefault(posixpath.dirname(name), []).append(name)
    listings: dict[str, list[str]] = {}
    found: dict[str, str] = {}
    for folder in sorted(folders):
        listed = _listing(root, folder, listings)
        sources = [name for name in listed if name.endswith(SOURCES)]
        if sources and all(name in cuda_only for name in sources):
            why = f"every source beside it is CUDA-only ({len(sources)}, such as {sources[0]})"
            found.update((name, why) for name in listed if name.endswith(HEADERS) and name not in rocm_only)
    for _ in range(_ROUNDS):  # a header only CUDA-only headers include is CUDA-only too
        more = _included_only_by(root, folders, listings, cuda_only | found.keys(), rocm_only, found, budget)
        if not more:
            break
        found.update(more)
    reads.folders.update(os.path.join(root, folder) for folder in listings)
    reads.files.update(os.path.join(root, name) for name in budget)
    return found


def _included_only_by(root: str, folders: dict[str, list[str]], listings: dict[str, list[str]],
                      cuda_only: frozenset[str], rocm_only: frozenset[str], known: dict[str, str],
                      budget: dict[str, _Includes | None]) -> dict[str, str]:
    """Headers of the folders of CUDA-only sources, of their subfolders and of the folder above
    them that only CUDA-only files of the header's folder, the folder above and the folders below
    include."""
    found: dict[str, str] = {}
    places = {place for folder in folders
              for place in (folder, posixpath.dirname(folder) if folder else folder, *_below(root, folder))}
    for place in sorted(places):
        headers = [name for name in _listing(root, place, listings) if name.endswith(HEADERS)
                   and name not in known and name not in found and name not in rocm_only]
        if not headers:
            continue
        around = [name for where in {place, posixpath.dirname(place), *_below(root, place)}
                  for name in _listing(root, where, listings) if name.endswith(SOURCES + HEADERS)]
        includes = {name: _included(root, name, budget) for name in around}  # (read once: `budget` memo)
        if None in includes.values():
            continue  # a file past the budget may include any of them
        for header in headers:
            includers = [name for name, named in includes.items() if name != header and named.names(header)]
            if includers and all(name in cuda_only for name in includers):
                found[header] = (f"only CUDA-only sources include it ({len(includers)}, such as {includers[0]})")
    return found


class _Includes:
    """What the `#include` lines of one file name, indexed for `names`."""

    __slots__ = ("beside", "by_name")

    def __init__(self, includer: str, included: frozenset[str]) -> None:
        folder = posixpath.dirname(includer)
        self.beside = frozenset(posixpath.normpath(posixpath.join(folder, item)) for item in included)
        self.by_name: dict[str, list[str]] = {}  # the included names by their last part
        for item in included:
            self.by_name.setdefault(posixpath.basename(item), []).append(item)

    def names(self, header: str) -> bool:
        """Whether an include line names the root-relative `header`: resolved beside the includer
        (`"../mma.cuh"`), or by its last path parts (`<marlin/sparse/common/mma.h>`)."""
        return header in self.beside or any(
            header.endswith(item) for item in self.by_name.get(posixpath.basename(header), ()))


def _included(root: str, name: str, budget: dict[str, _Includes | None]) -> _Includes | None:
    """What a file's `#include` lines name (kept in `budget`, which holds at most MAX_INCLUDERS_READ
    files; None past that, or for a file that cannot be read: it may include anything)."""
    if name in budget:
        return budget[name]
    if len(budget) >= MAX_INCLUDERS_READ:
        return None
    try:
        data = read_file(os.path.join(root, name))[0]
    except OSError:
        budget[name] = None
        return None
    included = frozenset(match.decode("utf-8", "surrogateescape") for match in _INCLUDE.findall(data))
    budget[name] = _Includes(name, included)
    return budget[name]


def _listing(root: str, folder: str, listings: dict[str, list[str]]) -> list[str]:
    """The files of a folder (listed once per run: `listings`)."""
    if folder not in listings:
        listings[folder] = _listed(root, folder)
    return listings[folder]


def _listed(root: str, folder: str) -> list[str]:
    try:
        entries = sorted(entry.name for entry in os.scandir(os.path.join(root, folder)) if entry.is_file())
    except OSError:
        return []
    return [posixpath.join(folder, entry) if folder else entry for entry in entries]


def _below(root: str, folder: str) -> list[str]:
    """The folders directly below `folder`."""
    try:
        names = sorted(entry.name for entry in os.scandir(os.path.join(root, folder))
                       if entry.is_dir() and not entry.name.startswith("."))
    except OSError:
        return []
    return [posixpath.join(folder, name) if folder else name for name in names]
