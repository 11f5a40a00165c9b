"""One walk of a project's tree for the build-file reader: its build files, source files and folders.

Left out: `.git` and other tool folders, build trees (`build/`, `build-*/`, `cmake-build-*/`, any
folder with a `CMakeCache.txt`), git submodules (the paths `.gitmodules` names) and vendored copies
(`third_party/`, `3rdparty/`, `vendor/` ...): their build files describe other projects. Folders
and build files `.gitignore` ignores are left out too (as by the check's own walk); symlinked
folders are not followed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from .discovery import GitIgnore
from .source_paths import SOURCE_EXTENSIONS

_SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache", "node_modules", ".tox", ".venv",
                      "venv", ".eggs", "site-packages", "build", "_build", "_deps", "third_party", "third-party",
                      "thirdparty", "3rdparty", "3rd_party", "3rd-party", "vendor", "vendored", "external_deps"})
_BUILD_TREE = re.compile(r"(?:cmake-)?build[-_.].*|.*\.egg-info")
_HEADER_TEMPLATE = re.compile(r".*\.(?:h|hh|hpp|hxx|H|cuh)(?:\.cmake)?\.in|.*\.(?:h|hh|hpp|hxx|H)\.cmake")


@dataclass(frozen=True, slots=True)
class Tree:
    """What the walk found: build files and source files (root-relative, `/`), and each folder's subfolders."""

    cmake: tuple[str, ...]
    headers: tuple[str, ...]
    setup_py: tuple[str, ...]
    kernel_builds: tuple[str, ...]  # Hugging Face kernel-builder `build.toml` files
    sources: tuple[str, ...]
    folders: dict[str, tuple[str, ...]]
    starlark: tuple[str, ...] = ()  # `.bzl` files, whose source lists a CMake build may read


def walk(root: str, notes: list[str]) -> Tree:
    """One walk of the tree: build files, source files and folders (see the module docstring)."""
    cmake, headers, setup_py, kernel_builds, sources, starlark = [], [], [], [], [], []
    folders: dict[str, tuple[str, ...]] = {}
    submodules = _submodules(root)
    pending: list[tuple[str, GitIgnore]] = [("", GitIgnore.above(root))]
    while pending:
        folder, rules = pending.pop()
        absolute = os.path.join(root, folder) if folder else root
        prefix = folder + "/" if folder else ""
        try:
            entries = list(os.scandir(absolute))
        except OSError as error:
            notes.append(f"{folder or '.'}: cannot read folder: {error.strerror or error}; skipped")
            continue
        if folder and any(entry.name == "CMakeCache.txt" for entry in entries):
            continue  # a CMake build tree
        if any(entry.name == ".gitignore" for entry in entries):
            rules = rules.entering(os.path.join(absolute, ".gitignore"))
        ignored = rules.matcher()
        children = []
        for entry in entries:  # (every entry of the tree: few calls each)
            name = entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                skipped = name in _SKIPPED or _BUILD_TREE.fullmatch(name) or prefix + name in submodules
                if not skipped and not (ignored and ignored(name, True)):
                    children.append(name)
            elif name.rpartition(".")[2].lower() in SOURCE_EXTENSIONS:
                sources.append(prefix + name)  # (sources only match patterns: an ignored one costs nothing)
            elif name.endswith(".bzl") and _wanted(entry, ignored):
                starlark.append(prefix + name)
            elif name.endswith((".txt", ".cmake", ".in", ".py", ".toml")) and _wanted(entry, ignored):
                if name == "CMakeLists.txt" or (name.endswith(".cmake") and not _HEADER_TEMPLATE.fullmatch(name)):
                    cmake.append(prefix + name)
                elif _HEADER_TEMPLATE.fullmatch(name):
                    headers.append(prefix + name)
                elif name == "setup.py":
                    setup_py.append(prefix + name)
                elif name == "build.toml":
                    kernel_builds.append(prefix + name)
        children.sort()
        folders[folder] = tuple(children)
        pending.extend((prefix + name, rules.below(name)) for name in reversed(children))
    return Tree(tuple(sorted(cmake)), tuple(sorted(headers)), tuple(sorted(setup_py)), tuple(sorted(kernel_builds)),
                tuple(sorted(sources)), folders, tuple(sorted(starlark)))


def _wanted(entry: os.DirEntry[str], ignored: Callable[[str, bool], bool] | None) -> bool:
    """A regular file (or a link to one) that `.gitignore` does not ignore."""
    try:
        return entry.is_file() and not (ignored and ignored(entry.name, False))
    except OSError:
        return False


def _submodules(root: str) -> frozenset[str]:
    """The paths `.gitmodules` gives its submodules (other projects, with their own build files)."""
    try:
        with open(os.path.join(root, ".gitmodules"), encoding="utf-8", errors="replace") as stream:
            text = stream.read(1 << 20)
    except OSError:
        return frozenset()
    return frozenset(match.group(1).strip().strip("/") for match in re.finditer(r"(?m)^\s*path\s*=\s*(.+?)\s*$", text))


