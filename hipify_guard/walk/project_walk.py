"""One walk of a folder's tree, shared by discovery, the build-file reader and the header index,
and remembered between runs.

`walk_of(folder)` scans each folder below `folder` once per run: its entries in name order with
their kinds (where a symbolic link leads), which of them the `.gitignore` files ignore (those of
the enclosing git work tree from its root down, nested ones and `.git/info/exclude`, as
`gitignore.GitIgnore` reads them) and its status (inode, mtime, ctime). It enters the folders
discovery enters (not ignored, not a tool folder such as `.git`); the header index, which also
looks into ignored folders (neither hidden nor `build`, `third_party`, ...), has those listed when
it asks (`Walk.folders`), each time: an ignored folder may hold a build's or a data set's hundred
thousand files, which neither the run's memory nor the kept walk should carry. Symbolic links to
folders are not followed.

A `WalkMemo` (the results cache) keeps the scans. The next run takes a folder's scan when the
folder's status is unchanged (adding, removing or renaming an entry changes the folder's mtime:
what git's untracked cache relies on) and scans only the folders that changed. When an ignore
file changed, appeared or disappeared, every folder is scanned again. A walk in which something
was modified less than `RACY_SECONDS` before it was scanned is not kept: a change within the file
system's timestamp granularity could leave a status as it was.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Protocol

from . import run_reads
from .gitignore import GitIgnore
from .paths import work_tree_root

DIR, FILE, LINK, OTHER = 0, 1, 2, 3  # a folder; a regular file; a link to a regular file; anything else
RACY_SECONDS = 2
TOOL_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipify-guard-cache"})  # no reader enters these
Status = tuple[int, int, int]  # (inode, mtime_ns, ctime_ns); (0, 0, 0): absent
_ABSENT: Status = (0, 0, 0)


class WalkMemo(Protocol):
    """Where walks are kept between runs (`cache.Cache`)."""

    def project_walk(self, folder: str) -> object | None: ...

    def keep_project_walk(self, folder: str, plain: object) -> None: ...


class Scan(NamedTuple):
    """One folder's entries, in name order."""

    status: Status
    names: tuple[str, ...]
    kinds: bytes  # DIR, FILE, LINK or OTHER per name
    links: dict[str, str]  # each symbolic link's name -> the real path it resolves to
    discovered: bool  # whether discovery walks the folder (then `ignored` holds)
    ignored: frozenset[str]  # the names the ignore files ignore here
    error: str = ""  # why the folder could not be read ("": it could)


Enter = Callable[[str, str, Scan], bool]  # (folder, subfolder's name, folder's scan) -> walk it?


class Walk:
    """The scans of the folders entered below `root` (by root-relative, `/`-separated path; "" for the root)."""

    def __init__(self, root: str, scans: dict[str, Scan], ignore_files: tuple[tuple[str, Status], ...],
                 token: bytes, derived: dict[str, object] | None = None) -> None:
        self.root = root
        self.scans = scans
        self.ignore_files = ignore_files  # every ignore file read or looked for, with its status then
        self.token = token  # the same for every run that finds the folders as they were
        self.derived = derived or {}  # what readers found from these scans (`remember`): kept with them
        self.kept = False  # whether the memo keeps the walk (then `remember` keeps what is derived too)

    def folders(self, enter: Enter) -> Iterator[tuple[str, Scan]]:
        """(folder, scan) from the root down, depth first, each folder's subfolders in name order
        after it; a subfolder is entered when `enter` says so (one discovery does not walk, an
        ignored one, is listed now and not kept)."""
        pending = [""]
        while pending:
            folder = pending.pop()
            scan = self.scans.get(folder)
            if scan is None:  # (listed now, not kept: what is found from it depends on it)
                run_reads.read((os.path.join(self.root, folder),))  # (its status first, as `_scanned` takes it)
                scan = _scanned(os.path.join(self.root, folder), False)
            yield folder, scan
            prefix = folder + "/" if folder else ""
            names, kinds = scan.names, scan.kinds
            pending.extend(prefix + names[k] for k in range(len(names) - 1, -1, -1)
                           if kinds[k] == DIR and names[k] not in TOOL_FOLDERS and enter(folder, names[k], scan))

    def plain(self) -> tuple:
        """The walk as plain values (what a memo keeps; `from_plain` makes it again)."""
        scans = {folder: (s.status, s.names, s.kinds, s.links, s.discovered, s.ignored, s.error)
                 for folder, s in self.scans.items()}
        return (self.root, scans, self.ignore_files, self.token, self.derived)

    @classmethod
    def from_plain(cls, plain: object) -> Walk | None:
        """The walk of `plain()`'s values; None for anything else."""
        try:
            root, scans, ignore_files, token, derived = plain  # type: ignore[misc]
            return cls(root, {folder: Scan(*values) for folder, values in scans.items()}, tuple(ignore_files), token,
                       dict(derived))
        except (TypeError, ValueError):
            return None


_memo: WalkMemo | None = None


def remember_in(memo: WalkMemo | None) -> None:
    """Keep walks (and what is found from them: `header_memo`) in `memo` from now on (None: walk
    afresh in each run)."""
    global _memo
    _memo = memo
    walk_of.cache_clear()
    run_reads.start(memo is not None)


def run_memo() -> WalkMemo | None:
    """Where this run keeps what it finds for the next one (None: nowhere)."""
    return _memo


@lru_cache(maxsize=256)  # (a run over many projects: one walk per project root, and the folders named)
def walk_of(folder: str) -> Walk:
    """The walk of `folder` (absolute and normalised): once per run, from the memo where it holds."""
    kept = Walk.from_plain(_memo.project_walk(folder)) if _memo is not None else None
    walker = _Walker(folder, kept if kept is not None and kept.root == folder else None)
    walk = walker.run()
    walk.kept = _memo is not None and (not walker.changed or walker.settled)
    if walk.kept and walker.changed:
        _memo.keep_project_walk(folder, walk.plain())
    run_reads.walked(folder, walk)
    return walk


def remember(walk: Walk, name: str, value: object) -> None:
    """Keep `value`, found from the walk's scans alone, with the walk: a later run whose walk is
    unchanged finds it in `walk.derived[name]`."""
    if walk.derived.get(name) != value:
        walk.derived[name] = value
        if walk.kept:
            _memo.keep_project_walk(walk.root, walk.plain())


def status_of(path: str) -> Status:
    """(inode, mtime_ns, ctime_ns) of `path`; `(0, 0, 0)` when it does not exist."""
    try:
        status = os.stat(path)
    except OSError:
        return _ABSENT
    return status.st_ino, status.st_mtime_ns, status.st_ctime_ns


class _Restart(Exception):
    """An ignore file appeared or disappeared: the kept scans' ignore decisions may be wrong."""


class _Walker:
    """Scans the folders whose kept scan no longer holds (all of them without a kept walk)."""

    def __init__(self, root: str, kept: Walk | None) -> None:
        self.root = root
        self.token = kept.token if kept is not None else b""
        self.derived = kept.derived if kept is not None else {}
        self.racy = time.time_ns() - RACY_SECONDS * 10**9
        self.kept = kept.scans if kept is not None and all(
            status_of(path) == status for path, status in kept.ignore_files) else {}
        self.ignore_files = dict(kept.ignore_files) if self.kept else {}
        self.changed = not self.kept
        self.settled = True  # nothing was modified too recently to be trusted next time
        self._rules: dict[str, GitIgnore] = {}  # folder -> its rules after its own .gitignore (made when needed)
        self.scans: dict[str, Scan] = {}

    def run(self) -> Walk:
        try:
            self._walk()
        except _Restart:
            self.kept, self.ignore_files, self.scans, self._rules = {}, {}, {}, {}
            self._walk()
        ignore_files = tuple(sorted(self.ignore_files.items()))
        return Walk(self.root, self.scans, ignore_files, *((os.urandom(8),) if self.changed else (self.token, self.derived)))

    def _walk(self) -> None:
        pending = [""]
        while pending:
            folder = pending.pop()
            scan = self.kept.get(folder)
            if scan is None or not scan.discovered or status_of(self._absolute(folder)) != scan.status:
                scan = self._scan(folder, scan)
            self.scans[folder] = scan
            prefix = folder + "/" if folder else ""
            names, kinds = scan.names, scan.kinds
            pending.extend(prefix + names[k] for k in range(len(names) - 1, -1, -1)
                           if kinds[k] == DIR and names[k] not in TOOL_FOLDERS and names[k] not in scan.ignored)

    def _absolute(self, folder: str) -> str:
        return os.path.join(self.root, folder) if folder else self.root

    def _scan(self, folder: str, before: Scan | None) -> Scan:
        """A fresh scan of `folder`, with its ignore decisions."""
        self.changed = True
        scan = _scanned(self._absolute(folder), True)
        if scan.status[1] > self.racy:
            self.settled = False
        if before is not None and (".gitignore" in scan.names) != (".gitignore" in before.names):
            raise _Restart
        if scan.error:
            return scan
        return scan._replace(ignored=self._ignored(folder, scan.names, scan.kinds, before))

    def _ignored(self, folder: str, names: tuple[str, ...], kinds: bytes, before: Scan | None) -> frozenset[str]:
        """The names the ignore files ignore among a folder's entries. The rules are those of
        `before` (a changed ignore file rescans everything): an entry of the same name and kind
        keeps its decision, and the rules are read only for a new one (an editor that saves by
        renaming changes the folder's status, not its entries)."""
        kept = dict(zip(before.names, before.kinds)) if before is not None and before.discovered else {}
        new = [(name, kind) for name, kind in zip(names, kinds) if kept.get(name) != kind]
        ignored = {name for name, kind in zip(names, kinds) if kept.get(name) == kind and name in before.ignored}
        if new:
            test = self._rules_of(folder, ".gitignore" in names).matcher()
            if test is not None:
                ignored.update(name for name, kind in new if test(name, kind == DIR))
        return frozenset(ignored)

    def _rules_of(self, folder: str, has_own: bool) -> GitIgnore:
        """The ignore rules of `folder`'s entries (its own `.gitignore` included when `has_own`)."""
        if folder in self._rules:
            return self._rules[folder]
        if folder == "":
            rules = GitIgnore.above(self.root)
            self._note_above()
        else:
            parent, _, name = folder.rpartition("/")
            rules = self._rules_of(parent, ".gitignore" in self.scans[parent].names).below(name)
        if has_own:
            own = os.path.join(self._absolute(folder), ".gitignore")
            self._note(own)
            rules = rules.entering(own)
        self._rules[folder] = rules
        return rules

    def _note_above(self) -> None:
        """Note the ignore files that apply from above the root (and where one could appear)."""
        top = work_tree_root(self.root) or self.root
        self._note(os.path.join(top, ".git", "info", "exclude"))
        folder = top
        for name in Path(self.root).relative_to(top).parts:
            self._note(os.path.join(folder, ".gitignore"))
            folder = os.path.join(folder, name)

    def _note(self, path: str) -> None:
        status = status_of(path)
        if status[1] > self.racy:
            self.settled = False
        self.ignore_files[path] = status


def _scanned(absolute: str, discovered: bool) -> Scan:
    """A folder's entries and status (taken first: a change during the scan shows next time)."""
    status = status_of(absolute)
    try:
        entries = sorted(os.scandir(absolute), key=_name)
    except OSError as error:
        return Scan(status, (), b"", {}, discovered, frozenset(), str(error.strerror or error))
    links = {entry.name: os.path.realpath(entry.path) for entry in entries if _is_link(entry)}
    return Scan(status, tuple(entry.name for entry in entries), bytes(map(_kind, entries)), links, discovered,
                frozenset())


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _kind(entry: os.DirEntry[str]) -> int:
    try:
        if entry.is_dir(follow_symlinks=False):
            return DIR
        if entry.is_file():
            return LINK if entry.is_symlink() else FILE
    except OSError:  # a symbolic link loop
        pass
    return OTHER


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False
