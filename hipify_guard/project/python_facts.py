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

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from ..core.languages import PYTHON, language_of
from ..core.reading import read_file
from ..engine.diagnostics import FileReport
from ..model.python_analysis import PythonFile
from ..model.python_flow import PlatformFlow
from ..model.python_module_values import module_constants
from ..model.python_platform import CALL, PythonPlatforms
from ..model.python_project import CALLERS, IMPORTS, VALUE, PythonProjectFacts, value_key
from .cuda_only_modules import Answers, cuda_only_import
from .header_memo import facts_key
from ..model.settings import Settings
from .job import Job, rerun_changed
from .python_references import module_file, what_it_says
from ..walk.paths import project_root_of
from ..walk import run_reads
from ..walk.run_reads import status as file_status
from ..walk.project_walk import DIR, RACY_SECONDS, Scan, run_memo, walk_of

_MEMO_PREFIX = "python modules\0"  # (the memo's keys of a file's answers, beside its header facts)
_NOT_WALKED = frozenset({"build", "__pycache__", "node_modules", "third_party", "3rdparty"})


class CallerIndex:
    """The references to the functions asked of a project, found in one read of every Python file
    of its root (for all the functions asked under that root at once); each file that names one
    and its module is analysed once, and only what it says of them is kept."""

    def __init__(self, asked: Iterable[tuple[str, str, str]]) -> None:
        self._asked: dict[str, set[tuple[str, str]]] = {}  # root -> (function, the path of its module)
        for root, name, path in asked:
            self._asked.setdefault(root, set()).add((name, path))
        self._naming: dict[str, dict[tuple[str, str], list[str]]] = {}
        self._said: dict[str, dict[str, list[tuple[str | None, bool]]]] = {}

    def references(self, root: str, name: str, path: str,
                   settings: Settings) -> Iterator[tuple[str, str | None, bool]]:
        """(the referring file, the module file it takes `name` from (None: one that may re-export
        it), whether ROCm reaches the reference) for each reference in the project's files that
        name both the function and its module."""
        asked = self._asked.setdefault(root, set())
        if root not in self._naming or (name, path) not in asked:
            asked.add((name, path))
            self._naming[root] = _naming(root, frozenset(asked))
        names = frozenset(function for function, _ in asked)
        for where in self._naming[root].get((name, path), ()):
            said = self._said.get(where)
            if said is None or name not in said:
                said = self._said[where] = {**(said or {}), **what_it_says(where, names, root, settings)}
            for target, reached in said.get(name, ()):
                yield where, target, reached


def settle_python_facts(jobs: Sequence[Job], reports: list[FileReport],
                        rerun: Callable[[list[Job]], list[FileReport]]) -> list[FileReport]:
    """The reports of a check run once the other modules are asked: a Python file with findings
    that asked something (`outside_names`: `python_project.requests`) is checked again knowing the
    answers, when there are any."""
    asking = [(number, job) for number, job in enumerate(jobs) if job.path != "-" and reports[number].outside_names
              and language_of(job.filename) == PYTHON]
    shared = Shared(CallerIndex(asked for number, job in asking
                                for asked in _callers_asked(job.path, reports[number].outside_names)))
    changed = []
    for number, job in asking:
        settings = with_python_facts(job.settings, job.path, reports[number].outside_names, shared)
        if settings is not job.settings:
            changed.append((number, replace(job, near_misses_of=frozenset(), settings=settings)))
    return rerun_changed(reports, changed, rerun)


class Shared:
    """What the files of one run that ask share: the callers found, the modules' CUDA-only
    answers, each root's digest of its Python files."""

    def __init__(self, index: CallerIndex) -> None:
        self.index = index
        self.answers = Answers()
        self.digests: dict[str, bytes | None] = {}

    def digest(self, root: str) -> bytes | None:
        if root not in self.digests:
            self.digests[root] = python_digest(root)
        return self.digests[root]


def with_python_facts(settings: Settings, path: str, requests: Iterable[str], shared: Shared | None = None) -> Settings:
    """`settings` knowing what the project's other modules answer to `requests` (unchanged when
    nothing): from the run's memo while the project's Python files are as they were, else found."""
    root, here, requests = _root_of(path), os.path.realpath(path), frozenset(requests)
    memo = run_memo()
    key = facts_key(_MEMO_PREFIX + here, requests, root, settings) if memo is not None else None
    digest = (shared.digest(root) if shared is not None else python_digest(root)) if key is not None else None
    facts = _kept(memo.header_facts(key), digest) if digest is not None else None
    if facts is None:
        facts = _python_facts(here, root, requests, settings, shared or Shared(CallerIndex(_callers_asked(path, requests))))
        if digest is not None:
            memo.keep_header_facts(key, ((facts.values, facts.unreached, facts.cuda_only), digest))
    return replace(settings, python_project=facts) if facts else settings


def _kept(entry: object, digest: bytes) -> PythonProjectFacts | None:
    """The answers a memo entry keeps, while the project's digest is the one kept with them."""
    try:
        (values, unreached, cuda_only), kept_digest = entry  # type: ignore[misc]
    except (TypeError, ValueError):
        return None
    return PythonProjectFacts(values, unreached, cuda_only) if kept_digest == digest else None


def _callers_asked(path: str, requests: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """(root, function, module file) of each `callers:` request of the file at `path` (`CallerIndex`)."""
    root, here = _root_of(path), os.path.realpath(path)
    return ((root, request[len(CALLERS):], here) for request in requests if request.startswith(CALLERS))


def _python_facts(here: str, root: str, requests: frozenset[str], settings: Settings,
                  shared: Shared) -> PythonProjectFacts:
    """What the project's other modules answer to `requests` of the file at `here`."""
    plain = replace(settings, python_project=PythonProjectFacts())  # (the other modules: one level)
    values, unreached, cuda_only = [], set(), []
    for request in sorted(requests):
        if request.startswith(VALUE):
            module, _, name = request[len(VALUE):].rpartition(":")
            found = _imported_constants(here, module, name, root, plain)
            if found is not None:
                values.append(found)
        elif request.startswith(CALLERS):
            name = request[len(CALLERS):]
            if _unreached(here, name, root, plain, shared.index):
                unreached.add(name)
        elif request.startswith(IMPORTS):
            module = request[len(IMPORTS):]
            why = cuda_only_import(here, module, root, settings.python, shared.answers)
            if why:
                cuda_only.append((module, why))
    return PythonProjectFacts(tuple(values), frozenset(unreached), tuple(cuda_only))


def python_digest(root: str) -> bytes | None:
    """A digest of the status of every folder below `root` that the callers are looked for in
    (`_entered`: not hidden, not `build`, `third_party`...) and of every Python file in them, what
    the answers are found from; None when one was modified just now (its status could repeat after
    a later edit within the file system's timestamp granularity). A module imported from a folder
    left out (a `third_party/x.py`) is not followed for changes: a later edit of another Python
    file makes the files ask again."""
    racy = time.time_ns() - RACY_SECONDS * 10**9
    text = []
    for folder, listing in walk_of(root).folders(_entered):
        if listing.status[1] > racy:
            return None
        text.append(f"{folder}\0{listing.status}")
        for name, kind in zip(listing.names, listing.kinds):
            if kind != DIR and name.endswith(".py"):
                path = os.path.join(root, folder, name)
                status = file_status(path)
                run_reads.seen(path, status)
                if status[1] > racy:
                    return None
                text.append(f"{name}\0{status}")
    return hashlib.sha256("\n".join(text).encode("utf-8", "surrogateescape")).digest()[:16]


def _imported_constants(importer: str, module: str, name: str, root: str,
                        settings: Settings) -> tuple[tuple[str, ...], tuple[object, ...] | None,
                                                     tuple[object, ...] | None] | None:
    """(the name as the importer resolves it, its constants on ROCm, on CUDA) when a project
    module defines it as a platform variable."""
    target = module_file(importer, module, root)
    if target is None:
        return None
    try:
        status = os.stat(target)
    except OSError:
        return None
    held = _constants_in(target, status.st_mtime_ns, name, settings.python)
    if held != (None, None):
        return (value_key(module, name), *held)
    held = _returned_in(target, status.st_mtime_ns, name, settings.python)
    return ((*value_key(module, name), CALL), *held) if held != (None, None) else None


@lru_cache(maxsize=1024)
def _constants_in(path: str, mtime: int, name: str,
                  platforms: PythonPlatforms) -> tuple[tuple[object, ...] | None, tuple[object, ...] | None]:
    """The constants the module at `path` leaves in its variable `name` on ROCm and on CUDA."""
    file = _module(path, mtime, platforms)
    if file is None or file.tree is None:
        return None, None
    return _on_each_platform(file, lambda flow: module_constants(file.tree, name, flow.statements)[-1])


@lru_cache(maxsize=1024)
def _returned_in(path: str, mtime: int, name: str,
                 platforms: PythonPlatforms) -> tuple[tuple[object, ...] | None, tuple[object, ...] | None]:
    """The constants the module at `path`'s function `name` returns on ROCm and on CUDA (a call's
    value: torchao's `is_cuda_version_at_least()` returns False where `torch.version.cuda` is None)."""
    file = _module(path, mtime, platforms)
    function = file.flow.module_function(name) if file is not None and file.tree is not None else None
    if function is None:
        return None, None
    return _on_each_platform(file, lambda flow: flow.returned_constants(function))


def _on_each_platform(file: PythonFile, constants: Callable[[PlatformFlow], Iterable[object] | None]
                      ) -> tuple[tuple[object, ...] | None, tuple[object, ...] | None]:
    """`constants` on ROCm and on CUDA, each sorted (None: unknown there)."""
    held = [constants(flow) for flow in (file.flow, file.cuda_flow)]
    rocm, cuda = (None if found is None else tuple(sorted(found, key=repr)) for found in held)
    return rocm, cuda


def _unreached(path: str, name: str, root: str, settings: Settings, index: CallerIndex) -> bool:
    """Whether some other module refers to the function `name` of `path`, and ROCm reaches none of
    those references."""
    referred = False
    for where, target, reached in index.references(root, name, path, settings):
        if where == path or (target is not None and target != path):
            continue
        if target is None or reached:
            return False
        referred = True
    return referred


@lru_cache(maxsize=16)
def _module(path: str, mtime: int, platforms: PythonPlatforms) -> PythonFile | None:
    """A project module, analysed once for all the names asked of it (None when it cannot be
    read); `mtime` keys the cache."""
    try:
        data, _ = read_file(path)
    except OSError:
        return None
    return PythonFile(path, data, Settings(python=platforms))


def _naming(root: str, asked: frozenset[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
    """The project's Python files (real paths) whose bytes name each function asked and its module
    (a reference does: `from ...<module> import f`, `<module>.f`, `from . import f` in the package)."""
    found: dict[tuple[str, str], list[str]] = {}
    wanted = [(key, key[0].encode(), _module_word(key[1]).encode(), key[1].endswith("__init__.py"))
              for key in sorted(asked)]

    for folder, listing in walk_of(root).folders(_entered):
        for name, kind in zip(listing.names, listing.kinds):
            if kind == DIR or not name.endswith(".py"):
                continue
            path = os.path.join(root, folder, name)
            try:
                data, _ = read_file(path)
            except OSError:
                continue
            real = None  # (only for a file that names something asked: most name nothing)
            for key, function, module, package in wanted:
                if function in data and (module in data or (package and b"from ." in data)):
                    real = real or os.path.realpath(path)
                    found.setdefault(key, []).append(real)
    return found


def _entered(folder: str, name: str, listing: Scan) -> bool:
    """Whether the project's Python files are looked for in the subfolder `name` (`Walk.folders`)."""
    return name not in _NOT_WALKED and not name.startswith(".")


def _module_word(path: str) -> str:
    """The word a reference to a module names it by: its file's stem, its folder's for a package."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.basename(os.path.dirname(path)) if stem == "__init__" else stem


def _root_of(path: str) -> str:
    return os.path.realpath(project_root_of(path) or os.path.dirname(os.path.abspath(path)))
