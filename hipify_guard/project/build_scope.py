"""What the ROCm build compiles, applied to each file to check.

With `compile-commands` (the ROCm build's `compile_commands.json`) and/or `rocm-files` (globs),
each checked file is one of:

- compiled by ROCm (a translation unit of the database, a project file one of them includes, or
  a file matching `rocm-files`): checked with every enabled rule, its ROCm models refined by the
  `-D`/`-U` facts of each configuration that compiles it (`builds`);
- CUDA-only: not compiled by ROCm. Only the rules that are not about ROCm (catalogue `scope`
  other than "rocm") run on it. With `cuda-compile-commands`, only files the CUDA build compiles
  are CUDA-only, and a file in neither build is checked as without any database.

Without `compile-commands` and `rocm-files` nothing changes. Python files are not compiled:
they run on both platforms and always get every enabled rule.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..core.languages import CPP, language_of
from ..engine.catalogue import load_catalogue
from ..model.builds import Build, on_build, on_builds
from ..model.settings import Settings
from .config import ConfigError, Options, Patterns
from .discovery import Exclusion
from .job import Job
from ..walk import run_reads

if TYPE_CHECKING:
    from .include_graph import Graph, Member

MAX_BUILDS = 16  # past this many distinct builds, a file is judged under the facts they all share
ROCM, CUDA_ONLY, UNKNOWN = "rocm", "cuda-only", "unknown"


class BuildSources(NamedTuple):
    """Where a configuration says what the builds compile."""

    compile_commands: str | None = None
    cuda_compile_commands: str | None = None
    rocm_files: Patterns | None = None

    @classmethod
    def of(cls, options: Options) -> BuildSources:
        """The sources an Options object names."""
        return cls(options.compile_commands, options.cuda_compile_commands, options.rocm_files)

    def __bool__(self) -> bool:
        return bool(self.compile_commands or self.cuda_compile_commands or self.rocm_files)


class BuildScope:
    """The ROCm (and CUDA) build's files, loaded once for a run."""

    def __init__(self, sources: BuildSources, settings: Settings, roots: Sequence[str]) -> None:
        if sources.cuda_compile_commands and not (sources.compile_commands or sources.rocm_files):
            raise ConfigError("`cuda-compile-commands` needs `compile-commands` or `rocm-files`: without "
                              "knowing what ROCm compiles, no file can be called CUDA-only")
        self.settings = settings
        self._names: dict[frozenset[str], frozenset[str]] = {}
        self._restricted: dict[tuple[Build, frozenset[str]], Build] = {}
        self.rocm = self._graph(sources.compile_commands, roots, rocm=True)
        self.cuda = self._graph(sources.cuda_compile_commands, roots, rocm=False)
        self.globs = Exclusion(sources.rocm_files.patterns, sources.rocm_files.base) if sources.rocm_files else None

    def _graph(self, path: str | None, roots: Sequence[str], rocm: bool) -> Graph | None:
        if path is None:
            return None
        from ..buildfiles.compile_db import CompileDbError, read_database  # (only runs with a database load these)
        from .include_graph import walk

        run_reads.untracked()
        try:
            entries = read_database(path)
        except CompileDbError as error:
            raise ConfigError(str(error)) from None
        root = project_root([entry.file for entry in entries], roots)
        base = self.settings
        if rocm:
            return walk(entries, root, base, lambda build: on_builds(base.rocm_models, (build,)))
        return walk(entries, root, base, lambda build: (on_build(base.cuda, build),))

    def _seen(self, names: frozenset[str]) -> frozenset[str]:
        """The names a file's conditions test, and what the models rename them to (memoised)."""
        if names not in self._names:
            renamed = {model.renames[name] for model in self.settings.rocm_models for name in names
                       if name in model.renames}
            self._names[names] = names | renamed
        return self._names[names]

    def classify(self, path: str) -> tuple[str, Member | None]:
        """(ROCM, its member in the database or None), (CUDA_ONLY, None) or (UNKNOWN, None)."""
        member = self.rocm.member(path) if self.rocm is not None else None
        if member is not None or (self.globs is not None and self.globs(path, False)):
            return ROCM, member
        if self.cuda is not None and self.cuda.member(path) is None:
            return UNKNOWN, None
        return CUDA_ONLY, None

    def builds(self, member: Member) -> tuple[Build, ...]:
        """The distinct facts a file is compiled with, restricted to the names its conditions test."""
        names = self._seen(member.names)
        restricted = set()
        for build in member.builds:
            key = (build, names)
            if key not in self._restricted:
                self._restricted[key] = build.restricted(names)
            restricted.add(self._restricted[key])
        if len(restricted) > MAX_BUILDS:
            restricted = {common_facts(restricted)}
        if restricted <= {Build()}:
            return ()
        return tuple(sorted(restricted, key=lambda build: build.label))


def common_facts(builds: set[Build]) -> Build:
    """The facts every build shares (the others left to the models): for files of too many builds."""
    shared = set.intersection(*(set(build.definitions) for build in builds))
    return Build(tuple(sorted(shared, key=lambda item: item[0])))


def project_root(units: Sequence[str], roots: Sequence[str]) -> str:
    """The deepest folder holding every translation unit and every checked path ("." when none given)."""
    folders = [os.path.dirname(os.path.abspath(unit)) for unit in units]
    for root in roots or (os.curdir,):
        absolute = os.path.abspath(root)
        folders.append(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))
    return os.path.commonpath(folders)


def with_builds(jobs: list[Job], options: Sequence[Options], roots: Sequence[str]) -> list[Job]:
    """Each job with the Settings and rules its builds call for (`options`: each job's options)."""
    scopes: dict[BuildSources, BuildScope] = {}
    shared: dict[Settings, Settings] = {}
    named = {id(item): item for item in options}  # few distinct Options objects
    named = {key: BuildSources.of(item) for key, item in named.items()}
    if not any(named.values()):
        return jobs
    result = []
    for job, job_options in zip(jobs, options):
        sources = named[id(job_options)]
        if not sources or language_of(job.filename) != CPP:  # (Python is not compiled: it runs on both)
            result.append(job)
            continue
        if sources not in scopes:
            scopes[sources] = BuildScope(sources, job.settings, roots)
        result.append(_scoped(job, scopes[sources], shared))
    return result


def _scoped(job: Job, scope: BuildScope, shared: dict[Settings, Settings]) -> Job:
    kind, member = scope.classify(job.filename if job.path == "-" else job.path)
    if kind == CUDA_ONLY:
        return replace(job, codes=cuda_only_codes(job.codes))
    if member is None:
        return job
    builds = scope.builds(member)
    if not builds:
        return job
    settings = replace(job.settings, builds=builds)
    return replace(job, settings=shared.setdefault(settings, settings))


@lru_cache(maxsize=64)
def cuda_only_codes(codes: tuple[str, ...]) -> tuple[str, ...]:
    """The codes that still run on a file only the CUDA build compiles."""
    catalogue = load_catalogue()
    return tuple(code for code in codes if code not in catalogue or catalogue[code].scope != "rocm")
