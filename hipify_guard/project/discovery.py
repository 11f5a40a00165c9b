"""Find the source files to check under the given paths.

Folders are walked in sorted order. The walk respects `.gitignore` files (from the git work tree
root down, plus `.git/info/exclude`) and the exclusion patterns, skips symlinked folders and
symlinked files that point outside the given root, and never leaves the given roots. Files named
on the command line are always checked, unless `force_exclude` is set and they match `exclude`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..engine.diagnostics import ToolMessage
from . import config
from ..walk.ignore_patterns import IgnorePatterns
from ..walk.project_walk import DIR, LINK, OTHER, walk_of

DEFAULT_EXTENSIONS = frozenset(config.DEFAULT_EXTENSIONS)
_SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache"})

Excluder = Callable[[str, bool], bool]  # (path as walked, is a folder) -> excluded?
FolderExcluder = Callable[[str, tuple[str, ...]], Excluder | None]  # a walked folder and its entries' names -> the test of them (None: none)


class Exclusion:
    """Exclusion patterns with `.gitignore` syntax, relative to `base` (a bare name matches anywhere)."""

    def __init__(self, patterns: Iterable[str], base: str = ".") -> None:
        self.patterns = tuple(patterns)
        self.base = os.path.abspath(base)
        self.spec = IgnorePatterns(self.patterns)
        self._cwd = ""
        self._prefixes: dict[str, str | None] = {}  # a folder as written -> `_prefix` (in `_cwd`)

    def __call__(self, path: str, is_dir: bool) -> bool:
        """Whether `path` (relative to the current folder, or absolute) matches; paths outside `base` never do."""
        head, slash, name = path.rpartition(os.sep)
        if name in ("", os.curdir, os.pardir):  # not a folder's entry
            relative = self._relative(path)
            relative = None if relative == "." else relative
        else:
            prefix = self._prefix(head or slash or os.curdir)
            relative = None if prefix is None else prefix + name
        return relative is not None and bool(self.spec.decide(relative + ("/" if is_dir else "")))

    def _relative(self, path: str) -> str | None:
        """`path` from `base`, `/`-separated ("." for `base`); None outside `base`."""
        relative = os.path.relpath(os.path.abspath(path), self.base)
        return None if relative.split(os.sep, 1)[0] == os.pardir else Path(relative).as_posix()

    def _prefix(self, folder: str) -> str | None:
        """What precedes the names of `folder`'s entries: its path from `base` and `/` ("" at
        `base`; None outside it). Once per folder, from its parent's when known (a walk)."""
        if os.getcwd() != self._cwd:
            self._cwd, self._prefixes = os.getcwd(), {}
        if folder in self._prefixes:
            return self._prefixes[folder]
        head, slash, name = folder.rpartition(os.sep)
        parent = self._prefixes.get(head or slash or os.curdir) if name not in ("", os.curdir, os.pardir) else None
        if parent is not None:
            prefix: str | None = parent + name + "/"
        else:
            relative = self._relative(folder)
            prefix = None if relative is None else "" if relative == "." else relative + "/"
        self._prefixes[folder] = prefix
        return prefix


def discover(paths: Iterable[str], extensions: frozenset[str] = DEFAULT_EXTENSIONS, *,
             exclude: Excluder | None = None, exclude_in: FolderExcluder | None = None, force_exclude: bool = False,
             notes: list[ToolMessage] | None = None) -> Iterator[tuple[str, str]]:
    """(shown name, path) of every file to check: given files as they are, folders walked.

    Only files with one of `extensions` are taken from folders. Folders that cannot be read are
    reported in `notes` and skipped. `exclude_in`, when given, says once per walked folder how
    to test its entries (a folder whose configuration excludes nothing costs no call per entry);
    else `exclude` tests every entry.
    """
    in_folder = exclude_in or (lambda folder, names: exclude)
    for given in paths:
        is_dir = os.path.isdir(given)
        if force_exclude and exclude is not None and exclude(given, is_dir):
            continue
        if is_dir:
            yield from _walk(given, extensions, in_folder, notes if notes is not None else [])
        else:
            yield given, given


def _walk(root: str, extensions: frozenset[str], in_folder: FolderExcluder,
          notes: list[ToolMessage]) -> Iterator[tuple[str, str]]:
    """The files to check below the folder `root`, from its walk (`project_walk`: scanned once per
    run, folder by folder only where it changed since the last run), each path spelled from
    `root` as given: files in name order, then each subfolder in name order."""
    walk = walk_of(os.path.normpath(os.path.abspath(root)))
    real_root = os.path.realpath(root)
    pending = [("", root)]
    while pending:
        folder, path = pending.pop()
        scan = walk.scans[folder]
        if scan.error:
            notes.append(ToolMessage(path, f"cannot read folder: {scan.error}; skipped"))
            continue
        excluded = in_folder(path, scan.names)
        ignored = scan.ignored
        prefix = folder + "/" if folder else ""
        subfolders = []
        for name, kind in zip(scan.names, scan.kinds):  # (the loop of every file of the tree: few calls per entry)
            if kind == DIR:
                if name not in _SKIPPED_FOLDERS and name not in ignored and not (
                        excluded is not None and excluded(os.path.join(path, name), True)):
                    subfolders.append((prefix + name, os.path.join(path, name)))
                continue
            dot = name.rfind(".")
            if not 0 < dot < len(name) - 1 or name[dot + 1 :].lower() not in extensions or kind == OTHER:
                continue
            if kind == LINK and os.path.commonpath([scan.links[name], real_root]) != real_root:
                continue
            entry = os.path.join(path, name)
            if not (excluded is not None and excluded(entry, False)) and name not in ignored:
                yield entry, entry
        pending.extend(reversed(subfolders))
