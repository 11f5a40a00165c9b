"""Repository-relative paths, shared by SARIF, GitLab reports and baseline fingerprints.

The root is the git work tree that contains the current directory (the nearest folder upwards
with a `.git` folder or file), or the current directory when there is none. A file outside the
root keeps its absolute path. A file's own project (`project_root_of`: whose build files judge
it) never depends on the current directory.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote


@lru_cache(maxsize=1 << 16)
def work_tree_root(start: str) -> str | None:
    """The git work tree root that contains `start` (an absolute folder), or None (kept per
    folder, each answered from its parent's: a walk costs one `stat` per folder)."""
    if os.path.exists(os.path.join(start, ".git")):
        return start
    parent = os.path.dirname(start)
    return None if parent == start else work_tree_root(parent)


def project_root() -> str:
    """The root that repo-relative paths are relative to (see the module docstring)."""
    here = os.getcwd()
    return work_tree_root(here) or here


def project_root_of(path: str) -> str | None:
    """The root of the project a file belongs to, wherever the tool runs: its git work tree, else
    the outermost folder of the unbroken chain of folders with a build file or a configuration
    that starts at the nearest such folder above it; None for a file of no project (a lone file)."""
    return _project_root(os.path.dirname(os.path.abspath(path)))


_BUILD_MARKERS = ("CMakeLists.txt", "setup.py", "pyproject.toml", "setup.cfg", ".hipify-guard.toml",
                  "hipify-guard.toml", "build.toml")


@lru_cache(maxsize=1 << 16)
def _project_root(folder: str) -> str | None:
    tree = work_tree_root(folder)
    if tree is not None:
        return tree
    nearest = _nearest_marked(folder)
    while nearest is not None and _marked(os.path.dirname(nearest)) and os.path.dirname(nearest) != nearest:
        nearest = os.path.dirname(nearest)
    return nearest


@lru_cache(maxsize=1 << 16)
def _nearest_marked(folder: str) -> str | None:
    if _marked(folder):
        return folder
    parent = os.path.dirname(folder)
    return None if parent == folder else _nearest_marked(parent)


@lru_cache(maxsize=1 << 16)
def _marked(folder: str) -> bool:
    """Whether the folder holds a build file or a configuration file."""
    return any(os.path.isfile(os.path.join(folder, name)) for name in _BUILD_MARKERS)


def repo_relative(filename: str) -> str:
    """`filename` (relative to the current directory, or absolute) relative to the root, with `/`."""
    absolute = os.path.abspath(filename)
    root = project_root()
    relative = os.path.relpath(absolute, root)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return Path(absolute).as_posix()
    return Path(relative).as_posix()


def artifact_uri(filename: str) -> str:
    """A URI for SARIF: repo-relative and percent-encoded, or `file://` for files outside the root."""
    path = repo_relative(filename)
    encoded = quote(os.fsencode(path), safe="/")  # the name's own bytes: a non-UTF-8 name becomes %FF
    return f"file://{encoded}" if path.startswith("/") else encoded


def root_uri() -> str:
    """The root as a `file://` URI that ends in `/` (SARIF's `originalUriBaseIds`)."""
    return "file://" + quote(os.fsencode(Path(project_root()).as_posix().rstrip("/") + "/"), safe="/")
