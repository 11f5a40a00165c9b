"""What one of a project's Python modules says of functions other modules define (`python_facts`'s
callers): for each name, the module file it takes it from and whether ROCm reaches the reference.

Kept in the run's memo with what the answer came from: the module's status, the module file each
module name it imports resolved to, and whether each module it asked defines the name asked. A
run after an edit of another Python file of the project (which makes the project's files ask
again) takes it while all of them hold, instead of analysing the module again: the module's
status taken again, each name resolved again (a new module may shadow one), each module asked
again (parsed again only when it changed: the module that defines a function asked of is often
the file just edited).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache

from ..core.reading import read_file
from ..model.python_analysis import PythonFile
from ..model.python_project import value_key
from ..model.settings import Settings
from ..walk.project_walk import run_memo
from ..walk.run_reads import Status, status_of
from ..walk.run_reads import status as file_status
from .cache import racy_after
from .cuda_only_modules import executed_files
from .header_memo import facts_key

Said = dict[str, list[tuple["str | None", bool]]]
_MEMO_PREFIX = "python references\0"  # (the memo's keys, beside the files' answers and header facts)


def module_file(importer: str, module: str, root: str) -> str | None:
    """The project file (real path) a module name means in `importer`: relative to its package
    for `.x`, else from its folder and each folder above it up to `root`."""
    files = executed_files(importer, module, root)
    return files[-1] if files else None


def what_it_says(path: str, names: frozenset[str], root: str, settings: Settings) -> Said:
    """For each of `names` the module at `path` refers to: (the module file it takes it from,
    None for another project module that may re-export it; whether ROCm reaches the reference)."""
    memo = run_memo()
    key = facts_key(_MEMO_PREFIX + path, names, root, settings) if memo is not None else None
    if key is not None:
        said = _kept(memo.header_facts(key), path, root)
        if said is not None:
            return said
    reads = _Reads(path, root)
    said = _found(reads, names, settings)
    kept = reads.plain() if key is not None else None
    if kept is not None:
        memo.keep_header_facts(key, (said, kept))
    return said


def _kept(entry: object, path: str, root: str) -> Said | None:
    """The answer a memo entry keeps, while the module, the resolution of every module name it
    imports and what the modules it asked define of the names asked are as they were."""
    try:
        said, (status, resolved, defined) = entry  # type: ignore[misc]
    except (TypeError, ValueError):
        return None
    if file_status(path) != status:
        return None
    if any(module_file(path, module, root) != target for module, target in resolved):
        return None
    if any(_defines(source, name) != was for (source, name), was in defined):
        return None
    return said


class _Reads:
    """What finding one module's answer read: the module's status as read, the module file each
    module name resolved to, and whether each module asked defines the name asked."""

    def __init__(self, path: str, root: str) -> None:
        self.path = path
        self.root = root
        self.status: Status | None = None  # (None: the module could not be read)
        self.resolved: dict[str, str | None] = {}
        self.defined: dict[tuple[str, str], bool] = {}

    def module_file(self, module: str) -> str | None:
        if module not in self.resolved:
            self.resolved[module] = module_file(self.path, module, self.root)
        return self.resolved[module]

    def defines(self, source: str, name: str) -> bool:
        self.defined[source, name] = found = _defines(source, name)
        return found

    def plain(self) -> tuple | None:
        """What the answer came from, to keep beside it; None when the module was not read or
        changed just now (its status could repeat after a later edit)."""
        if self.status is None or self.status[1] > racy_after():
            return None
        return self.status, tuple(sorted(self.resolved.items())), tuple(sorted(self.defined.items()))


def _found(reads: _Reads, names: frozenset[str], settings: Settings) -> Said:
    """The answer, found by analysing the module (`reads` notes what it came from)."""
    try:
        data, status = read_file(reads.path)
    except OSError:
        return {}
    reads.status = status_of(status)
    file = PythonFile(reads.path, data, settings)
    said: Said = {name: [] for name in names}
    if file.tree is None:
        return said
    for node in file.nodes(ast.ImportFrom):
        for alias in node.names:
            if alias.name not in names:
                continue
            module = "." * node.level + (node.module or "")
            source = reads.module_file(module)
            if source is None:
                continue
            uses = list(_uses(file, alias.asname or alias.name, value_key(module, alias.name)))
            said[alias.name] += [(source, file.flow.reachable(use)) for use in uses]
            if not reads.defines(source, alias.name):
                said[alias.name].append((None, True))  # (a module that imports it from elsewhere, perhaps)
    for node in file.nodes(ast.Attribute):
        if node.attr in names and isinstance(node.ctx, ast.Load):
            base = file.symbols.names(node.value, aliases=False)
            source = reads.module_file(".".join(base)) if base else None
            if source is not None:
                said[node.attr].append((source, file.flow.reachable(node)))
    return said


def _uses(file: PythonFile, local: str, imported: tuple[str, ...]) -> Iterator[ast.Name]:
    """The reads of the name `local` bound by the import of `imported`."""
    for node in file.nodes(ast.Name):
        if node.id == local and isinstance(node.ctx, ast.Load):
            bound = file.symbols.binding(local, node)
            if bound is not None and bound.names == imported:
                yield node


def _defines(path: str, name: str) -> bool:
    """Whether the module at `path` defines `name` at its top level (a `def` or `class`)."""
    return name in _top_level(path, file_status(path))


@lru_cache(maxsize=1024)
def _top_level(path: str, status: Status) -> frozenset[str]:
    """The names the module's top-level `def`s and `class`es define (none when it cannot be read
    or parsed), parsed once for all names asked; `status` keys the cache (a process that stays,
    such as the language server, sees an edit)."""
    try:
        tree = ast.parse(read_file(path)[0])
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    return frozenset(node.name for node in tree.body
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
