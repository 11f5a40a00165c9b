"""Headers only the CUDA build compiles, by the sources around them (build files list sources, not
headers): a header is CUDA-only when

- every source file beside it is CUDA-only (FBGEMM's `cutlass_extensions/<kernel>/`), or
- it is included, and only by CUDA-only sources, among the files of its folder, of the folder
  above it and of the folders below it (kineto's `CuptiActivity.h`, included by the CUPTI sources
  beside it; vLLM's `marlin/sparse/common/mma.h`, included by `marlin/sparse/marlin_24_cuda_kernel.cu`;
  SageAttention's `csrc/mma.cuh`, included as `"../mma.cuh"` by the kernels of `csrc/qattn/`).

A header a ROCm-only source includes, or one the build files name for ROCm, never is. The result
is kept in the run's memo with the status of every folder listed and file read, and what they
held (`header_memo`): a warm run stats them instead of reading them again, and a file edited since
(a pre-commit run's) is read again for its `#include` lines, a folder changed since listed again.
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

Listing = tuple[list[str], list[str]]  # a folder's files and the folders in it


def cuda_only_headers(root: str, cuda_only: frozenset[str], rocm_only: frozenset[str]) -> dict[str, str]:
    """Root-relative CUDA-only headers, each with why (see the module doc)."""
    memo = run_memo()
    text = "\0".join(("cuda-only-headers", root, *sorted(cuda_only), "\1", *sorted(rocm_only)))
    key = hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]
    kept = kept_facts(memo, key, (), bytes, _part) if memo is not None else None
    if isinstance(kept, tuple):
        return dict(kept)
    tree = _Tree(root)
    found = _cuda_only_headers(tree, cuda_only, rocm_only)
    if memo is not None:
        keep_facts(memo, key, tuple(sorted(found.items())), tree.reads(), (), bytes)
    return found


def _cuda_only_headers(tree: _Tree, cuda_only: frozenset[str], rocm_only: frozenset[str]) -> dict[str, str]:
    """As cuda_only_headers; what was listed and read is kept in `tree`."""
    folders: dict[str, list[str]] = {}
    for name in cuda_only:
        folders.setdefault(posixpath.dirname(name), []).append(name)
    found: dict[str, str] = {}
    for folder in sorted(folders):
        listed = tree.files(folder)
        sources = [name for name in listed if name.endswith(SOURCES)]
        if sources and all(name in cuda_only for name in sources):
            why = f"every source beside it is CUDA-only ({len(sources)}, such as {sources[0]})"
            found.update((name, why) for name in listed if name.endswith(HEADERS) and name not in rocm_only)
    for _ in range(_ROUNDS):  # a header only CUDA-only headers include is CUDA-only too
        more = _included_only_by(tree, folders, cuda_only | found.keys(), rocm_only, found)
        if not more:
            break
        found.update(more)
    return found


def _included_only_by(tree: _Tree, folders: dict[str, list[str]], cuda_only: frozenset[str],
                      rocm_only: frozenset[str], known: dict[str, str]) -> dict[str, str]:
    """Headers of the folders of CUDA-only sources, of their subfolders and of the folder above
    them that only CUDA-only files of the header's folder, the folder above and the folders below
    include."""
    found: dict[str, str] = {}
    places = {place for folder in folders
              for place in (folder, posixpath.dirname(folder) if folder else folder, *tree.below(folder))}
    for place in sorted(places):
        headers = [name for name in tree.files(place) if name.endswith(HEADERS)
                   and name not in known and name not in found and name not in rocm_only]
        if not headers:
            continue
        around = [name for where in sorted({place, posixpath.dirname(place), *tree.below(place)})
                  for name in tree.files(where) if name.endswith(SOURCES + HEADERS)]
        includes = {name: tree.included(name) for name in around}
        if None in includes.values():
            continue  # a file past the budget may include any of them
        for header in headers:
            includers = [name for name, named in includes.items() if name != header and named.names(header)]
            if includers and all(name in cuda_only for name in includers):
                found[header] = (f"only CUDA-only sources include it ({len(includers)}, such as {includers[0]})")
    return found


class _Tree:
    """The folders below a project's root, each listed once, and what the `#include` lines of
    their files name, each read once (at most MAX_INCLUDERS_READ files); names are root-relative."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.listings: dict[str, Listing] = {}
        self.includes: dict[str, _Includes | None] = {}  # None: not readable
        self.parts: dict[str, object] = {}  # absolute paths: what was taken from them (`Reads.parts`)

    def files(self, folder: str) -> list[str]:
        """The files of `folder`."""
        return self._listing(folder)[0]

    def below(self, folder: str) -> list[str]:
        """The folders directly below `folder`."""
        return self._listing(folder)[1]

    def included(self, name: str) -> _Includes | None:
        """What the file's `#include` lines name; None past the budget, or for a file that cannot
        be read (it may include anything)."""
        if name not in self.includes:
            if len(self.includes) >= MAX_INCLUDERS_READ:
                return None
            path = os.path.join(self.root, name)
            named = self.parts[path] = _included_names(path)
            self.includes[name] = None if named is None else _Includes(name, named)
        return self.includes[name]

    def reads(self) -> Reads:
        """The folders listed and the files read, with what was taken from them (only that)."""
        return Reads(set(), {os.path.join(self.root, folder) for folder in self.listings}, parts=self.parts)

    def _listing(self, folder: str) -> Listing:
        if folder not in self.listings:
            path = os.path.join(self.root, folder)
            files, folders = self.parts[path] = _listed(path)
            self.listings[folder] = ([posixpath.join(folder, name) if folder else name for name in files],
                                     [posixpath.join(folder, name) if folder else name for name in folders])
        return self.listings[folder]


def _part(path: str) -> object:
    """What is taken from a folder or a file (`_listed`, `_included_names`)."""
    return _listed(path) if os.path.isdir(path) else _included_names(path)


def _listed(folder: str) -> Listing:
    """The names of the files of `folder` and of the folders in it (not hidden ones), sorted."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return [], []
    return (sorted(entry.name for entry in entries if entry.is_file()),
            sorted(entry.name for entry in entries if entry.is_dir() and not entry.name.startswith(".")))


def _included_names(path: str) -> frozenset[str] | None:
    """What the `#include` lines of a file name (None when it cannot be read)."""
    try:
        data = read_file(path)[0]
    except OSError:
        return None
    return frozenset(match.decode("utf-8", "surrogateescape") for match in _INCLUDE.findall(data))


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
