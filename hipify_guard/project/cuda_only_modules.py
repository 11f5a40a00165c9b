"""Project Python modules that cannot be imported on ROCm (issue 25): a module whose own code, or
the code of a package it is in, imports a CUDA-only module (`PythonPlatforms.cuda_modules`:
CuTe DSL's `cutlass` ...) unconditionally at module level, directly or through other project
modules imported that way (flash-attention's `tests/cute/test_flash_attn.py` imports
`flash_attn.cute.testing`; the package `flash_attn/cute/__init__.py` imports `.interface`, which
imports `cutlass`). An import inside `try`, `if` or a function is not followed: the module may
run without it.

Modules resolve as `python_references.module_file` does: relative to the importer's package for
`.x`, else from the importer's folder and each folder above it up to the project root; importing
`a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first.
"""

from __future__ import annotations

import ast
import os
from functools import lru_cache

from ..core.reading import read_file
from ..model.python_platform import PythonPlatforms
from ..python.names import imported_modules
from ..walk.project_walk import run_memo
from ..walk.run_reads import Status
from ..walk.run_reads import status as file_status
from .cache import racy_after

MAX_DEPTH = 4  # project modules followed from the importing file
_INIT = "__init__.py"


class Answers:
    """What the files of one run that ask share: each module's answer, and the files each import
    runs (resolved once per folder and name: a module's imports are followed at each depth)."""

    def __init__(self) -> None:
        self.reasons: dict[tuple[str, int, str, PythonPlatforms], str] = {}
        self._files: dict[tuple[str, str, str], list[str]] = {}

    def executed_files(self, importer: str, module: str, root: str) -> list[str]:
        """`executed_files(importer, module, root)`, which depends on the importer's folder only."""
        key = (os.path.dirname(importer), module, root)
        found = self._files.get(key)
        if found is None:
            found = self._files[key] = executed_files(importer, module, root)
        return found


def cuda_only_import(importer: str, module: str, root: str, platforms: PythonPlatforms,
                     answers: Answers | None = None) -> str:
    """Why importing `module` (as spelled in `importer`; "." for the importer's own package) fails
    on ROCm, citing the import of the CUDA-only module ("": it may not). `answers` keeps each
    module's answer for the files of one run that ask (their imports are not read again)."""
    answers = answers or Answers()
    files = own_packages(importer, root) if module == "." else answers.executed_files(importer, module, root)
    return _first_cuda_import(files, root, platforms, MAX_DEPTH, answers)


def executed_files(importer: str, module: str, root: str) -> list[str]:
    """The project files (real paths) importing `module` from `importer` runs, the packages'
    `__init__.py` first and the module last; [] when it is no project module."""
    relative = module.lstrip(".")
    level = len(module) - len(relative)
    parts = relative.split(".") if relative else []
    if not parts:
        return []
    for base in _bases(importer, level, root):
        candidate = os.path.join(base, *parts)
        for target in (candidate + ".py", os.path.join(candidate, _INIT)):
            if os.path.isfile(target):
                packages = [os.path.join(base, *parts[:count], _INIT) for count in range(1, len(parts))]
                found = [path for path in packages if os.path.isfile(path)] + [target]
                return list(dict.fromkeys(os.path.realpath(path) for path in found))
    return []


def own_packages(path: str, root: str) -> list[str]:
    """The `__init__.py` files of the packages the file at `path` is in, outermost first (up to
    `root`; the file itself when it is one is left out)."""
    found = []
    folder = os.path.dirname(os.path.abspath(path))
    while folder.startswith(root) and os.path.isfile(os.path.join(folder, _INIT)):
        init = os.path.realpath(os.path.join(folder, _INIT))
        if init != os.path.realpath(path):
            found.append(init)
        parent = os.path.dirname(folder)
        if folder == root or parent == folder:
            break
        folder = parent
    return found[::-1]


def _bases(importer: str, level: int, root: str) -> list[str]:
    """The folders a module name is looked for in (see the module doc)."""
    folder = os.path.dirname(os.path.abspath(importer))
    if level:
        for _ in range(level - 1):
            folder = os.path.dirname(folder)
        return [folder]
    bases = []
    while True:
        bases.append(folder)
        parent = os.path.dirname(folder)
        if folder == root or parent == folder or not folder.startswith(root):
            return bases
        folder = parent


def _first_cuda_import(files: list[str], root: str, platforms: PythonPlatforms, depth: int, answers: Answers) -> str:
    """Why running `files` in order imports a CUDA-only module ("": it may not)."""
    for path in files:
        key = (path, depth, root, platforms)
        why = answers.reasons.get(key)
        if why is None:
            why = answers.reasons[key] = _module_reason(path, root, platforms, depth, answers)
        if why:
            return why
    return ""


def _module_reason(path: str, root: str, platforms: PythonPlatforms, depth: int, answers: Answers) -> str:
    """Why running the module at `path` imports a CUDA-only module, following project modules
    `depth - 1` levels further ("": it may not)."""
    for line, names in _module_level_imports(path, file_status(path)):
        for name in names:
            if not name.startswith(".") and platforms.cuda_module(name):
                return f"{os.path.relpath(path, root)}:{line} imports `{name}`, which only CUDA has"
        if depth > 1:
            for name in names:
                why = _first_cuda_import(answers.executed_files(path, name, root), root, platforms, depth - 1,
                                         answers)
                if why:
                    return why
    return ""


@lru_cache(maxsize=4096)
def _module_level_imports(path: str, status: Status) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(line, the modules it may load) of each import statement at the module level of `path`
    (none when it cannot be read or parsed); `status` keys the cache. Kept in the run's memo with
    the file's status: a run after an edit parses again only the modules that changed (a
    pre-commit run over 10 of flashinfer's Python files parsed 164 modules for this, now 2)."""
    memo = run_memo() if status[1] else None  # (no status: a file that is gone)
    if memo is not None:
        kept = memo.module_imports(path)
        if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == status:
            return kept[1]
    try:
        tree = ast.parse(read_file(path)[0])
    except (OSError, SyntaxError, ValueError):
        return ()
    found = tuple((statement.lineno, tuple(imported_modules(statement))) for statement in tree.body
                  if isinstance(statement, (ast.Import, ast.ImportFrom)))
    if memo is not None and status[1] < racy_after():
        memo.keep_module_imports(path, (status, found))  # (a file changed just now may change unseen)
    return found
