"""What the project's other Python modules say of one file (issue 25; `model.python_project`):
the constants of the platform variables it imports, and which of its module-level functions the
other modules call only where ROCm never goes.

Imports are resolved inside the project: `from .utils import X` from the importing file's
package, `from pkg.utils import X` from the importing file's folder and each folder above it up to
the project root (`pkg/utils.py`, else `pkg/utils/__init__.py`). A module imported that way is
read with its own flow and no facts of its own (one level). Callers are looked for in the
project's Python files whose bytes name the function (each file read once per run and root):
`from <the module> import f` then `f(...)`, and `<the module>.f(...)` through an `import`. A
function counts as unreached when some other module refers to it and ROCm reaches none of those
references; a name imported from another project module (which may re-export it) counts as
reached.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from ..core.languages import PYTHON, language_of
from ..core.reading import read_file
from ..engine.diagnostics import FileReport
from ..model.python_analysis import PythonFile
from ..model.python_module_values import module_constants
from ..model.python_project import CALLERS, VALUE, PythonProjectFacts, value_key
from ..model.settings import Settings
from .job import Job
from .paths import project_root_of
from .project_walk import DIR, Scan, walk_of

_NOT_WALKED = frozenset({"build", "__pycache__", "node_modules", "third_party", "3rdparty"})
_REACHED = object()  # a reference that keeps the function reached whatever the flow says


class CallerIndex:
    """The project's Python files whose bytes name each function asked of it: one read of every
    Python file of a root, for all the names asked under that root at once."""

    def __init__(self, asked: Iterable[tuple[str, str]]) -> None:
        self._asked: dict[str, set[str]] = {}
        for root, name in asked:
            self._asked.setdefault(root, set()).add(name)
        self._found: dict[str, dict[str, list[str]]] = {}

    def files_naming(self, root: str, name: str) -> list[str]:
        """The Python files under `root` that contain `name` (real paths)."""
        if root not in self._found or name not in self._asked.get(root, ()):
            self._asked.setdefault(root, set()).add(name)
            self._found[root] = _naming(root, frozenset(self._asked[root]))
        return self._found[root].get(name, [])


def settle_python_facts(jobs: Sequence[Job], reports: list[FileReport],
                        rerun: Callable[[list[Job]], list[FileReport]]) -> list[FileReport]:
    """The reports of a check run once the other modules are asked: a Python file with findings
    that asked something (`outside_names`: `python_project.requests`) is checked again knowing the
    answers, when there are any."""
    asking = [(number, job) for number, job in enumerate(jobs) if job.path != "-" and reports[number].outside_names
              and language_of(job.filename) == PYTHON]
    roots = {number: _root_of(job.path) for number, job in asking}
    index = CallerIndex((roots[number], request[len(CALLERS):]) for number, _ in asking
                        for request in reports[number].outside_names if request.startswith(CALLERS))
    again, redo = [], []
    for number, job in asking:
        settings = with_python_facts(job.settings, job.path, reports[number].outside_names, index)
        if settings is not job.settings:
            again.append(number)
            redo.append(replace(job, near_misses_of=frozenset(), settings=settings))
    if not again:
        return reports
    settled = list(reports)
    for number, report in zip(again, rerun(redo)):
        settled[number] = report
    return settled


def with_python_facts(settings: Settings, path: str, requests: Iterable[str], index: CallerIndex | None = None) -> Settings:
    """`settings` knowing what the project's other modules answer to `requests` (unchanged when nothing)."""
    root = _root_of(path)
    index = index or CallerIndex((root, request[len(CALLERS):]) for request in requests if request.startswith(CALLERS))
    plain = replace(settings, python_project=PythonProjectFacts())  # (the other modules: one level)
    here = os.path.realpath(path)
    values, unreached = [], set()
    for request in sorted(requests):
        if request.startswith(VALUE):
            module, _, name = request[len(VALUE):].rpartition(":")
            found = _imported_constants(here, module, name, root, plain)
            if found is not None:
                values.append(found)
        elif request.startswith(CALLERS):
            name = request[len(CALLERS):]
            if _unreached(here, name, root, plain, index):
                unreached.add(name)
    facts = PythonProjectFacts(tuple(values), frozenset(unreached))
    return replace(settings, python_project=facts) if facts else settings


def _imported_constants(importer: str, module: str, name: str, root: str,
                        settings: Settings) -> tuple[tuple[str, ...], tuple[object, ...] | None,
                                                     tuple[object, ...] | None] | None:
    """(the name as the importer resolves it, its constants on ROCm, on CUDA) when a project
    module defines it as a platform variable."""
    target = module_file(importer, module, root)
    file = _module(target, settings) if target is not None else None
    if file is None or file.tree is None:
        return None
    held = []
    for flow in (file.flow, file.cuda_flow):
        state = module_constants(file.tree, name, flow.statements)[-1]
        held.append(None if state is None else tuple(sorted(state, key=repr)))
    return (value_key(module, name), *held) if held != [None, None] else None


def _unreached(path: str, name: str, root: str, settings: Settings, index: CallerIndex) -> bool:
    """Whether some other module refers to the function `name` of `path`, and ROCm reaches none of
    those references."""
    referred = False
    for other in index.files_naming(root, name):
        if other == path:
            continue
        file = _module(other, settings)
        if file is None or file.tree is None:
            continue
        for reference in _references(file, other, name, path, root):
            if reference is _REACHED or file.flow.reachable(reference):
                return False
            referred = True
    return referred


def _references(file: PythonFile, where: str, name: str, target: str, root: str) -> Iterator[object]:
    """The nodes of `file` that refer to the function `name` of `target`, and _REACHED for an
    import of that name from another project module (a re-export, perhaps)."""
    for node in file.nodes(ast.ImportFrom):
        for alias in node.names:
            if alias.name != name:
                continue
            module = "." * node.level + (node.module or "")
            source = module_file(where, module, root)
            if source == target:
                yield from _uses(file, alias.asname or name, value_key(module, name))
            elif source is not None:
                yield _REACHED
    for node in file.nodes(ast.Attribute):
        if node.attr == name and isinstance(node.ctx, ast.Load):
            base = file.symbols.names(node.value, aliases=False)
            if base and module_file(where, ".".join(base), root) == target:
                yield node


def _uses(file: PythonFile, local: str, imported: tuple[str, ...]) -> Iterator[ast.Name]:
    """The reads of the name `local` bound by the import of `imported`."""
    for node in file.nodes(ast.Name):
        if node.id == local and isinstance(node.ctx, ast.Load):
            bound = file.symbols.binding(local, node)
            if bound is not None and bound.names == imported:
                yield node


def module_file(importer: str, module: str, root: str) -> str | None:
    """The project file (real path) a module name means in `importer`: relative to its package
    for `.x`, else from its folder and each folder above it up to `root`."""
    relative = module.lstrip(".")
    level = len(module) - len(relative)
    parts = relative.split(".") if relative else []
    folder = os.path.dirname(importer)
    if level:
        for _ in range(level - 1):
            folder = os.path.dirname(folder)
        bases = [folder]
    else:
        bases = []
        while True:
            bases.append(folder)
            parent = os.path.dirname(folder)
            if folder == root or parent == folder or not folder.startswith(root):
                break
            folder = parent
    for base in bases:
        candidate = os.path.join(base, *parts)
        for file in (candidate + ".py", os.path.join(candidate, "__init__.py")):
            if parts and os.path.isfile(file):
                return os.path.realpath(file)
    return None


def _module(path: str, settings: Settings) -> PythonFile | None:
    """A project module, analysed (None when it cannot be read); once while it is unchanged."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return _analysed(path, status.st_mtime_ns, status.st_size, settings)


@lru_cache(maxsize=256)
def _analysed(path: str, mtime: int, size: int, settings: Settings) -> PythonFile | None:
    try:
        data, _ = read_file(path)
    except OSError:
        return None
    return PythonFile(path, data, settings)


def _naming(root: str, names: frozenset[str]) -> dict[str, list[str]]:
    """The project's Python files (real paths) whose bytes contain each of `names`."""
    found: dict[str, list[str]] = {}
    wanted = [(name, name.encode()) for name in sorted(names)]

    def enter(folder: str, name: str, listing: Scan) -> bool:
        return name not in _NOT_WALKED and not name.startswith(".")

    for folder, listing in walk_of(root).folders(enter):
        for name, kind in zip(listing.names, listing.kinds):
            if kind == DIR or not name.endswith(".py"):
                continue
            path = os.path.realpath(os.path.join(root, folder, name))
            try:
                data, _ = read_file(path)
            except OSError:
                continue
            for function, spelled in wanted:
                if spelled in data:
                    found.setdefault(function, []).append(path)
    return found


def _root_of(path: str) -> str:
    return os.path.realpath(project_root_of(path) or os.path.dirname(os.path.abspath(path)))
