"""The `.gitignore` rules that apply in a folder: those of the enclosing git work tree from its root
down, nested ones and `.git/info/exclude`, each pattern file read with `ignore_patterns`."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .ignore_patterns import IgnorePatterns
from .paths import work_tree_root

NameTest = Callable[[str, bool], bool]  # (name of an entry in the current folder, is a folder) -> ignored?


class GitIgnore:
    """The ignore files that apply in one folder, from the outermost to the innermost, each with
    the folder's path relative to that file's folder (`/`-separated, a final `/`; "" for its own)."""

    def __init__(self, specs: tuple[tuple[str, IgnorePatterns], ...]) -> None:
        self.specs = specs

    @classmethod
    def above(cls, root: str) -> GitIgnore:
        """The rules for walking `root`: those of its ancestors up to the work tree root.

        When those rules ignore `root` itself, it was named on purpose: only the
        `.gitignore` files inside it apply.
        """
        absolute = os.path.abspath(root)
        top = work_tree_root(absolute) or absolute
        rules, folder = cls(_exclude_file(top)), top
        for name in Path(absolute).relative_to(top).parts:
            rules = rules.entering(os.path.join(folder, ".gitignore"))
            if folder == os.path.dirname(absolute) and rules.ignores(name, True):
                return cls(())
            rules, folder = rules.below(name), os.path.join(folder, name)
        return rules

    def entering(self, ignore_file: str | None) -> GitIgnore:
        """The rules inside the folder of `ignore_file` (its `.gitignore`; None: it has none):
        these plus that file's patterns."""
        spec = _spec(ignore_file) if ignore_file is not None else None
        return GitIgnore((*self.specs, ("", spec))) if spec is not None else self

    def below(self, name: str) -> GitIgnore:
        """These rules for the subfolder `name` (before its own `.gitignore`)."""
        if not self.specs:
            return self
        return GitIgnore(tuple((prefix + name + "/", spec) for prefix, spec in self.specs))

    def matcher(self) -> NameTest | None:
        """For the entries of this folder: (name, is_dir) -> ignored? None when no ignore file applies."""
        if not self.specs:
            return None
        return self.ignores

    def ignores(self, name: str, is_dir: bool) -> bool:
        """Whether the entry `name` of this folder is ignored: the innermost file with a
        matching pattern decides, by its last such pattern."""
        tail = name + "/" if is_dir else name
        for prefix, spec in reversed(self.specs):
            decision = spec.decide(prefix + tail)
            if decision is not None:
                return decision
        return False


def _exclude_file(top: str) -> tuple[tuple[str, IgnorePatterns], ...]:
    spec = _spec(os.path.join(top, ".git", "info", "exclude"))
    return (("", spec),) if spec is not None else ()


def _spec(path: str) -> IgnorePatterns | None:
    """The patterns of an ignore file; None when it is absent, unreadable or has only comments."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as stream:
            spec = IgnorePatterns(stream.read().splitlines())
    except OSError:
        return None
    return spec or None
