"""The files a build compiles: its translation units and every project file they include.

Entries with the same macro facts and search paths form one configuration, walked once,
breadth first, from all its translation units: `"..."` is searched in the including file's
folder, then `-iquote`, then `-I`; `<...>` in `-I`; both then in `-isystem`/`-idirafter`. An
include is followed only when its path condition is satisfiable under one of the build's models
(the configuration's `-D`/`-U` facts on top of each model), only to files under the project
root, and never into a system folder. Each file is visited once per configuration, so include
cycles end; headers found nowhere are counted, not followed. Files are identified by device and
inode, so a symlinked or `..`-spelled path is the same file.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field

from ..core.records import record
from ..model.builds import Build, build_of
from ..model.include_sites import Site, Source, read_source
from ..model.platforms import Platform, satisfiable
from ..model.settings import Settings
from ..buildfiles.compile_db import Entry

Key = tuple[int, int]  # (device, inode)
Chain = tuple[tuple[str, int], ...]  # (including file, line of its #include), from the unit down
ModelsOf = Callable[[Build], Sequence[Platform]]


@record(slots=True)
class SearchPaths:
    """Where one configuration looks for headers."""

    quoted: tuple[str, ...]  # -iquote then -I, after the including file's folder
    angled: tuple[str, ...]  # -I
    system: tuple[str, ...]  # -isystem, -idirafter: found there means "system header"
    forced: tuple[str, ...]  # -include FILE


@record(frozen=False, slots=True)
class Member:
    """A file the build compiles, and why."""

    path: str  # absolute
    unit: str  # the translation unit through which it was found first
    chain: Chain  # the includes from that unit down to the file (empty for a unit)
    builds: set[Build] = field(default_factory=set)  # the facts of every configuration that reaches it
    names: frozenset[str] = frozenset()  # the identifiers of its conditional directives


@record(frozen=False)
class Graph:
    """The result of a walk."""

    root: str
    members: dict[Key, Member] = field(default_factory=dict)
    units: int = 0  # translation units found on disk
    absent_units: list[str] = field(default_factory=list)  # listed in the database, not on disk
    missing: set[tuple[str, str]] = field(default_factory=set)  # (includer, "header" or <header>) found nowhere
    outside: set[tuple[str, int]] = field(default_factory=set)  # system headers or outside the root
    computed: set[tuple[str, int]] = field(default_factory=set)  # `#include MACRO`
    skipped: set[tuple[str, int]] = field(default_factory=set)  # unreachable under a configuration's macros
    followed: set[tuple[str, int]] = field(default_factory=set)

    def member(self, path: str) -> Member | None:
        """The member that `path` names (any spelling of it), or None."""
        try:
            status = os.stat(path)
        except OSError:
            return None
        return self.members.get((status.st_dev, status.st_ino))

    @property
    def unreachable(self) -> set[tuple[str, int]]:
        """Include directives that no configuration reaches."""
        return self.skipped - self.followed


def walk(entries: Iterable[Entry], root: str, settings: Settings, models_of: ModelsOf) -> Graph:
    """The graph of every configuration of `entries` under `root` (`models_of`: a build's platforms)."""
    return _Walker(Graph(os.path.normpath(os.path.abspath(root))), settings, models_of).run(entries)


class _Walker:
    def __init__(self, graph: Graph, settings: Settings, models_of: ModelsOf) -> None:
        self.graph = graph
        self.settings = settings
        self.models_of = models_of
        self.inside = graph.root.rstrip(os.sep) + os.sep
        self._files: dict[str, tuple[Key, str] | None] = {}
        self._sources: dict[Key, Source] = {}
        self._builds: dict[tuple, Build] = {}
        self._reachable: dict[tuple, bool] = {}  # (condition text, build) -> some model satisfies it

    def run(self, entries: Iterable[Entry]) -> Graph:
        configurations: dict[tuple[Build, SearchPaths], list[str]] = {}
        for entry in entries:
            flags = entry.flags
            build = self._builds.get(flags.macros)
            if build is None:
                build = self._builds[flags.macros] = build_of(flags.macros)
            paths = SearchPaths((*flags.quote, *flags.include), flags.include, flags.system, flags.forced)
            configurations.setdefault((build, paths), []).append(entry.file)
        for (build, paths), units in configurations.items():
            self._configuration(build, paths, units)
        return self.graph

    def _configuration(self, build: Build, paths: SearchPaths, units: list[str]) -> None:
        models = self.models_of(build)
        chains: dict[Key, Chain] = {}
        queue: deque[tuple[Key, str, str]] = deque()
        for unit in units:
            found = self._file(unit)
            if found is None:
                self.graph.absent_units.append(unit)
                continue
            if found[0] not in chains:
                self.graph.units += 1
                self._reach(found, unit, (), build, chains, queue)
                for forced in paths.forced:  # -include FILE: as if the unit's line 0 included it
                    target = self._file(forced)
                    if target is not None and target[0] not in chains and self._under_root(target[1]):
                        self._reach(target, unit, ((unit, 0),), build, chains, queue)
        while queue:
            key, path, unit = queue.popleft()
            for site in self._source(key, path).sites:
                target = self._follow(site, path, paths, build, models)
                if target is not None and target[0] not in chains:
                    self._reach(target, unit, (*chains[key], (path, site.line)), build, chains, queue)

    def _reach(self, found: tuple[Key, str], unit: str, chain: Chain, build: Build,
               chains: dict[Key, Chain], queue: deque) -> None:
        key, path = found
        chains[key] = chain
        member = self.graph.members.get(key)
        if member is None:
            member = self.graph.members[key] = Member(path, unit, chain)
        member.builds.add(build)
        queue.append((key, path, unit))

    def _follow(self, site: Site, path: str, paths: SearchPaths, build: Build,
                models: Sequence[Platform]) -> tuple[Key, str] | None:
        """The project file an include names, if it is reachable, found and followed."""
        where = (path, site.line)
        if site.condition and not self._satisfiable(site, build, models):
            self.graph.skipped.add(where)
            return None
        if not site.name:
            self.graph.computed.add(where)
            return None
        found, system = self._resolve(site, os.path.dirname(path), paths)
        if found is None:
            self.graph.missing.add((path, f"<{site.name}>" if site.angle else f'"{site.name}"'))
            return None
        if system or not self._under_root(found[1]):
            self.graph.outside.add(where)
            return None
        self.graph.followed.add(where)
        return found

    def _satisfiable(self, site: Site, build: Build, models: Sequence[Platform]) -> bool:
        key = (site.text, build)
        if key not in self._reachable:
            self._reachable[key] = any(satisfiable(site.condition, model) for model in models)
        return self._reachable[key]

    def _resolve(self, site: Site, folder: str, paths: SearchPaths) -> tuple[tuple[Key, str] | None, bool]:
        """(the file, found in a system folder) of an include, or (None, False)."""
        for directory in paths.angled if site.angle else (folder, *paths.quoted):
            found = self._file(os.path.join(directory, site.name))
            if found is not None:
                return found, False
        for directory in paths.system:
            found = self._file(os.path.join(directory, site.name))
            if found is not None:
                return found, True
        return None, False

    def _file(self, path: str) -> tuple[Key, str] | None:
        """(identity, normalised path) of a regular file, or None (memoised)."""
        if path not in self._files:
            normal = os.path.normpath(path)
            try:
                status = os.stat(normal)
                self._files[path] = ((status.st_dev, status.st_ino), normal) if _regular(status) else None
            except (OSError, ValueError):
                self._files[path] = None
        return self._files[path]

    def _source(self, key: Key, path: str) -> Source:
        if key not in self._sources:
            source = self._sources[key] = read_source(path, self.settings)
            self.graph.members[key].names = source.names
        return self._sources[key]

    def _under_root(self, path: str) -> bool:
        return path.startswith(self.inside)


def _regular(status: os.stat_result) -> bool:
    return (status.st_mode & 0o170000) == 0o100000
