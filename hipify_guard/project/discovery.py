"""Find the source files to check under the given paths.

Folders are walked in sorted order. The walk respects `.gitignore` files (from the git work tree
root down, plus `.git/info/exclude`) and the exclusion patterns, skips symlinked folders and
symlinked files that point outside the given root, and never leaves the given roots. Files named
on the command line are always checked, unless `force_exclude` is set and they match `exclude`.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.diagnostics import ToolMessage
from . import config
from .paths import work_tree_root

DEFAULT_EXTENSIONS = frozenset(config.DEFAULT_EXTENSIONS)
_SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache"})

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

_NAME = operator.attrgetter("name")
Excluder = Callable[[str, bool], bool]  # (path as walked, is a folder) -> excluded?
NameTest = Callable[[str, bool], bool]  # (name of an entry in the current folder, is a folder) -> ignored?


class Exclusion:
    """Exclusion patterns with `.gitignore` syntax, relative to `base` (a bare name matches anywhere)."""

    def __init__(self, patterns: Iterable[str], base: str = ".") -> None:
        self.patterns = tuple(patterns)
        self.base = os.path.abspath(base)
        self.spec = _gitignore_spec(self.patterns)

    def __call__(self, path: str, is_dir: bool) -> bool:
        """Whether `path` (relative to the current folder, or absolute) matches; paths outside `base` never do."""
        relative = os.path.relpath(os.path.abspath(path), self.base)
        if relative == os.curdir or relative.split(os.sep, 1)[0] == os.pardir:
            return False
        return bool(self.spec.check_file(Path(relative).as_posix() + ("/" if is_dir else "")).include)


def discover(paths: Iterable[str], extensions: frozenset[str] = DEFAULT_EXTENSIONS, *,
             exclude: Excluder | None = None, force_exclude: bool = False, respect_gitignore: bool = True,
             notes: list[ToolMessage] | None = None) -> Iterator[tuple[str, str]]:
    """(shown name, path) of every file to check: given files as they are, folders walked.

    Only files with one of `extensions` are taken from folders. Folders that cannot be read are
    reported in `notes` and skipped.
    """
    excluded = exclude or (lambda path, is_dir: False)
    for given in paths:
        is_dir = os.path.isdir(given)
        if force_exclude and excluded(given, is_dir):
            continue
        if is_dir:
            ignore = GitIgnore.above(given) if respect_gitignore else None
            yield from _walk(given, extensions, excluded, ignore, notes if notes is not None else [])
        else:
            yield given, given


def _walk(root: str, extensions: frozenset[str], excluded: Excluder, ignore: GitIgnore | None,
          notes: list[ToolMessage]) -> Iterator[tuple[str, str]]:
    real_root = os.path.realpath(root)
    pending: list[tuple[str, GitIgnore | None]] = [(root, ignore)]
    while pending:
        folder, rules = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=_NAME)
        except OSError as error:
            notes.append(ToolMessage(folder, f"cannot read folder: {error.strerror or error}; skipped"))
            continue
        rules = rules.entering(folder) if rules is not None else None
        ignored = rules.matcher(folder) if rules is not None else None
        subfolders = []
        for entry in entries:  # (the loop of every file of the tree: few calls per entry)
            name = entry.name
            if entry.is_dir(follow_symlinks=False):
                if name not in _SKIPPED_FOLDERS and not _dropped(entry, True, excluded, ignored):
                    subfolders.append((entry.path, rules))
                continue
            dot = name.rfind(".")  # the suffix as pathlib sees it, without pathlib's cost (11k files: 60 ms)
            if not 0 < dot < len(name) - 1 or name[dot + 1 :].lower() not in extensions:
                continue
            path = entry.path
            if _wanted(entry, real_root) and not excluded(path, False) and not (ignored and ignored(name, False)):
                yield path, path
        pending.extend(reversed(subfolders))


def _dropped(entry: os.DirEntry[str], is_dir: bool, excluded: Excluder, ignored: NameTest | None) -> bool:
    return excluded(entry.path, is_dir) or (ignored is not None and ignored(entry.name, is_dir))


def _wanted(entry: os.DirEntry[str], real_root: str) -> bool:
    """A regular file (its extension is wanted); a symlink only when it points inside the root."""
    try:
        if not entry.is_file():  # broken symlinks too
            return False
    except OSError:  # a symlink loop (ELOOP): no file behind it
        return False
    if entry.is_symlink():
        target = os.path.realpath(entry.path)
        return os.path.commonpath([target, real_root]) == real_root
    return True


class GitIgnore:
    """The `.gitignore` files that apply in one folder, from the outermost to the innermost."""

    def __init__(self, specs: tuple[tuple[str, GitIgnoreSpec], ...], read: frozenset[str]) -> None:
        self.specs = specs
        self.read = read  # folders whose .gitignore is already among `specs` (or absent)

    @classmethod
    def above(cls, root: str) -> GitIgnore:
        """The rules for walking `root`: those of its ancestors up to the work tree root.

        When those rules ignore `root` itself, it was named on purpose: only the
        `.gitignore` files inside it apply.
        """
        absolute = os.path.abspath(root)
        top = work_tree_root(absolute) or absolute
        chain = [Path(top) / parent for parent in reversed(Path(absolute).relative_to(top).parents)]
        rules = cls(_exclude_file(top), frozenset())
        for folder in chain:
            rules = rules.entering(str(folder))
        if absolute != top and rules.ignores(absolute, True):
            return cls((), frozenset())
        return rules

    def entering(self, folder: str) -> GitIgnore:
        """The rules inside `folder`: these plus its own `.gitignore`, if any."""
        absolute = os.path.abspath(folder)
        if absolute in self.read:
            return self
        spec = _spec(os.path.join(absolute, ".gitignore"))
        specs = self.specs + ((absolute, spec),) if spec is not None else self.specs
        return GitIgnore(specs, self.read | {absolute})

    def matcher(self, folder: str) -> NameTest | None:
        """For the entries of `folder` (these must be the rules inside it): (name, is_dir) -> ignored?

        None when no `.gitignore` applies. Paths relative to each file's folder are prefixed once
        per folder instead of computed per entry (10k files: 0.5 s -> 0.1 s).
        """
        if not self.specs:
            return None
        absolute = os.path.abspath(folder)
        prefixes = [(_prefix(absolute, spec_folder), spec) for spec_folder, spec in self.specs]

        def ignored(name: str, is_dir: bool) -> bool:
            decision = None
            for prefix, spec in prefixes:
                include = spec.check_file(prefix + name + ("/" if is_dir else "")).include
                if include is not None:
                    decision = include
            return bool(decision)

        return ignored

    def ignores(self, path: str, is_dir: bool) -> bool:
        """The last decision of the innermost file with a matching pattern."""
        if not self.specs:
            return False
        absolute = os.path.abspath(path)
        decision = None
        for folder, spec in self.specs:
            relative = Path(os.path.relpath(absolute, folder)).as_posix() + ("/" if is_dir else "")
            include = spec.check_file(relative).include
            if include is not None:
                decision = include
        return bool(decision)


def _prefix(folder: str, spec_folder: str) -> str:
    """`folder` relative to `spec_folder`, with `/` separators and a trailing `/` ("" when equal)."""
    return "" if folder == spec_folder else Path(os.path.relpath(folder, spec_folder)).as_posix() + "/"


def _exclude_file(top: str) -> tuple[tuple[str, GitIgnoreSpec], ...]:
    spec = _spec(os.path.join(top, ".git", "info", "exclude"))
    return ((top, spec),) if spec is not None else ()


def _spec(path: str) -> GitIgnoreSpec | None:
    """The patterns of an ignore file; None when it is absent, unreadable or has only comments."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as stream:
            spec = _gitignore_spec(stream.read().splitlines())
    except OSError:
        return None
    return spec if any(pattern.include is not None for pattern in spec.patterns) else None


def _gitignore_spec(lines: Iterable[str]) -> GitIgnoreSpec:
    """Compiled `.gitignore` patterns (pathspec is imported only when some are needed)."""
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)
