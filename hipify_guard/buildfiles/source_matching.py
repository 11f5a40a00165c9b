"""Glob patterns of build files (gitignore syntax, anchored at the root) matched against a tree's files."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from fnmatch import fnmatchcase

_GLOB = re.compile(r"[*?\[]")


class Matcher:
    """Root-relative glob patterns (gitignore syntax, anchored) matched against the tree's source files."""

    def __init__(self, files: Sequence[str]) -> None:
        self.files = files
        self.known = frozenset(files)
        self.cache: dict[str, tuple[str, ...]] = {}
        self.by_name: dict[str, list[str]] = {}
        for name in files:
            self.by_name.setdefault(name.rpartition("/")[2], []).append(name)

    def __call__(self, pattern: str) -> tuple[str, ...]:
        if pattern not in self.cache:
            self.cache[pattern] = self._match(pattern)
        return self.cache[pattern]

    def mentioned(self, pattern: str, exclude: Sequence[str] = ()) -> tuple[str, ...]:
        """The files `pattern` matches and none of `exclude` does."""
        found = self(pattern)
        if not exclude:
            return found
        taken_out = {name for other in exclude for name in self(other)}
        return tuple(name for name in found if name not in taken_out)

    def _match(self, pattern: str) -> tuple[str, ...]:
        if not _GLOB.search(pattern):
            return (pattern,) if pattern in self.known else ()
        folder, _, name = pattern.rpartition("/")
        if not _GLOB.search(folder) or folder.endswith("**") and not _GLOB.search(folder[:-2]):
            return self._in_folder(folder, name)  # `dir/*.cu`, `dir/**/*.cu`, `**/x*.cc`: no regular expression
        regex = re.compile(glob_regex(pattern))
        return tuple(path for path in self._below(pattern[:_GLOB.search(pattern).start()].rpartition("/")[0])
                     if regex.fullmatch(path))

    def _in_folder(self, folder: str, name: str) -> tuple[str, ...]:
        """Files named like `name` in `folder` (`dir/**`: at any depth below `dir`; `**`: anywhere)."""
        deep = folder.endswith("**")
        folder = folder[:-2].rstrip("/") if deep else folder
        if not _GLOB.search(name):
            candidates = [path for path in self.by_name.get(name, ()) if path.startswith(folder + "/") or not folder]
        else:
            candidates = [path for path in self._below(folder) if fnmatchcase(path.rpartition("/")[2], name)]
        if deep:
            return tuple(candidates)
        return tuple(path for path in candidates if path.rpartition("/")[0] == folder)

    def _below(self, folder: str) -> list[str]:
        """The files below `folder` ("" for all), from the sorted list."""
        if not folder:
            return list(self.files)
        start, end = bisect_left(self.files, folder + "/"), bisect_left(self.files, folder + "0")  # ("0" follows "/")
        return list(self.files[start:end])


def glob_regex(pattern: str) -> str:
    """A regular expression for a gitignore-style glob: `**/` any folders, `*` and `?` within a name, `[...]`."""
    out, index = [], 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        elif pattern[index] == "[" and "]" in pattern[index + 2:]:
            end = pattern.index("]", index + 2)
            body = pattern[index + 1:end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            index = end + 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return "".join(out)


