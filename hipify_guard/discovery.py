"""Find the source files to check under the given paths."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

DEFAULT_EXTENSIONS = frozenset({
    "c", "h", "cc", "cp", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tcc",
    "cu", "cuh", "hip",
})
_SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache"})


def discover(paths: Iterable[str], extensions: frozenset[str] = DEFAULT_EXTENSIONS) -> Iterator[tuple[str, str]]:
    """(shown name, path) of every file to check: given files as they are, folders walked.

    Folders are walked in sorted order, without following symlinked folders or leaving the
    given roots; only files with one of `extensions` are taken from them.
    """
    for given in paths:
        if os.path.isdir(given):
            yield from _walk(given, extensions)
        else:
            yield given, given


def _walk(root: str, extensions: frozenset[str]) -> Iterator[tuple[str, str]]:
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        subfolders = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in _SKIPPED_FOLDERS:
                    subfolders.append(entry.path)
            elif _wanted(entry.name, extensions) and entry.is_file():
                yield entry.path, entry.path
        pending.extend(reversed(subfolders))


def _wanted(name: str, extensions: frozenset[str]) -> bool:
    suffix = Path(name).suffix
    return bool(suffix) and suffix[1:].lower() in extensions
