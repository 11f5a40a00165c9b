"""The build-file reader's view of the project's walk (`project_walk`): its build files, source files and folders.

Left out: `.git` and other tool folders, build trees (`build/`, `build-*/`, `cmake-build-*/`, any
folder with a `CMakeCache.txt`), git submodules (the paths `.gitmodules` names) and vendored copies
(`third_party/`, `3rdparty/`, `vendor/` ...): their build files describe other projects. Folders
and build files `.gitignore` ignores are left out too (as by the check's own walk); symlinked
folders are not followed.
"""

from __future__ import annotations

import os
import re

from ..core.records import record
from ..walk.project_walk import DIR, FILE, LINK, Scan, walk_of
from .bazel_reader import BAZEL_FILES, BAZELRC, folder_platform
from .rocm_ci import CI_EXTENSIONS, is_rocm_ci_script
from .source_paths import SOURCE_EXTENSIONS

_SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache", "node_modules", ".tox", ".venv",
                      "venv", ".eggs", "site-packages", "build", "_build", "_deps", "third_party", "third-party",
                      "thirdparty", "3rdparty", "3rd_party", "3rd-party", "vendor", "vendored", "external_deps"})
_BUILD_TREE = re.compile(r"(?:cmake-)?build[-_.].*|.*\.egg-info")
_HEADER_TEMPLATE = re.compile(r".*\.(?:h|hh|hpp|hxx|H|cuh)(?:\.cmake)?\.in|.*\.(?:h|hh|hpp|hxx|H)\.cmake")


@record(slots=True)
class Tree:
    """What the walk found: build files and source files (root-relative, `/`), and each folder's subfolders."""

    cmake: tuple[str, ...]
    headers: tuple[str, ...]
    setup_py: tuple[str, ...]
    kernel_builds: tuple[str, ...]  # Hugging Face kernel-builder `build.toml` files
    sources: tuple[str, ...]
    folders: dict[str, tuple[str, ...]]
    starlark: tuple[str, ...] = ()  # `.bzl` files, whose source lists a CMake build may read
    rocm_ci: tuple[str, ...] = ()  # the project's ROCm CI scripts (`rocm_ci`)
    bazel: tuple[str, ...] = ()  # Bazel `BUILD` files in a platform's folder, the root's `.bazelrc` (`bazel_reader`)


def walk(root: str, notes: list[str]) -> Tree:
    """The build-file reader's view of the project's walk (see the module docstring)."""
    cmake, headers, setup_py, kernel_builds, sources, starlark, rocm_ci, bazel = [], [], [], [], [], [], [], []
    folders: dict[str, tuple[str, ...]] = {}
    submodules = _submodules(root)

    def enter(folder: str, name: str, scan: Scan) -> bool:
        path = f"{folder}/{name}" if folder else name
        return not (name in _SKIPPED or _built_in(folder, scan) or _BUILD_TREE.fullmatch(name) or path in submodules
                    or name in scan.ignored)

    for folder, scan in walk_of(root).folders(enter):
        if scan.error:
            notes.append(f"{folder or '.'}: cannot read folder: {scan.error}; skipped")
            continue
        if _built_in(folder, scan):
            continue
        prefix = folder + "/" if folder else ""
        children = []
        for name, kind in zip(scan.names, scan.kinds):  # (every entry of the tree: few calls each)
            if kind == DIR:
                if enter(folder, name, scan):
                    children.append(name)
            elif name.rpartition(".")[2].lower() in SOURCE_EXTENSIONS:
                sources.append(prefix + name)  # (sources only match patterns: an ignored one costs nothing)
            elif name.endswith(".bzl") and kind in (FILE, LINK) and name not in scan.ignored:
                starlark.append(prefix + name)
            elif name.endswith(CI_EXTENSIONS) and kind in (FILE, LINK) and is_rocm_ci_script(prefix + name):
                rocm_ci.append(prefix + name)
            elif name in BAZEL_FILES and kind in (FILE, LINK) and name not in scan.ignored and folder_platform(prefix + name):
                bazel.append(prefix + name)
            elif name == BAZELRC and not folder and kind in (FILE, LINK):
                bazel.append(name)
            elif name.endswith((".txt", ".cmake", ".in", ".py", ".toml")) and kind in (FILE, LINK) and (
                    name not in scan.ignored):
                if name == "CMakeLists.txt" or (name.endswith(".cmake") and not _HEADER_TEMPLATE.fullmatch(name)):
                    cmake.append(prefix + name)
                elif _HEADER_TEMPLATE.fullmatch(name):
                    headers.append(prefix + name)
                elif name == "setup.py":
                    setup_py.append(prefix + name)
                elif name == "build.toml":
                    kernel_builds.append(prefix + name)
        folders[folder] = tuple(children)
    return Tree(tuple(sorted(cmake)), tuple(sorted(headers)), tuple(sorted(setup_py)), tuple(sorted(kernel_builds)),
                tuple(sorted(sources)), folders, tuple(sorted(starlark)), tuple(sorted(rocm_ci)),
                tuple(sorted(bazel)))


def _built_in(folder: str, scan: Scan) -> bool:
    """Whether the folder is a CMake build tree (the root never counts as one)."""
    return bool(folder) and "CMakeCache.txt" in scan.names


def _submodules(root: str) -> frozenset[str]:
    """The paths `.gitmodules` gives its submodules (other projects, with their own build files)."""
    try:
        with open(os.path.join(root, ".gitmodules"), encoding="utf-8", errors="replace") as stream:
            text = stream.read(1 << 20)
    except OSError:
        return frozenset()
    return frozenset(match.group(1).strip().strip("/") for match in re.finditer(r"(?m)^\s*path\s*=\s*(.+?)\s*$", text))


