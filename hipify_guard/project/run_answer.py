"""A whole check run answered from one entry of the results cache while nothing it read has
changed: a warm run over an unchanged tree costs its discovery and a `stat` per file, not the
per-file work of placing each file in its project and looking up its result.

A check run over at least `MIN_FILES` files keeps its reports under its key (the working folder,
the paths given and every option that decides a result; the file is the tool build's), with what
they came from:

- the files it was to check (names and paths) and which of them it checked;
- the folders its walks entered and the ignore files they read (while these hold, so do the
  folders' entries and which of them are ignored: `project_walk`);
- every other file and folder a result came from, as the readers and the memos noted them
  (`walk.run_reads`): configuration files and, above the walked folders, the names looked for;
  build files, included headers and the folders looked in for them, the folders listed for the
  header index, the project's Python modules;

and a digest of the status (inode, mtime, ctime; size) of each of them, taken before it was read
(the files to check right after discovery, the others when first noted, the folders when
scanned): a change while the run reads them shows to the next run. A later run with the same
key takes the reports when discovery finds the same files and every status is the same. Nothing
is kept from a run in which something it read was modified less than `RACY_SECONDS` before it
started (a later change could leave its status as it was), in which a report has an error or a
finding about the tool's own environment, or in which a compilation database decides what
compiles (its includes are followed anywhere on the disk). The answers of the
`cache.KEPT_ANSWERS` latest runs with different keys are kept.
"""

from __future__ import annotations

import hashlib
import os
import time
from array import array
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import NamedTuple

from ..engine.diagnostics import FileReport
from .cache import ENVIRONMENT_CODES, Cache, configuration_key, pack, unpack
from .job import Job
from ..walk import run_reads
from ..walk.project_walk import Walk, status_of

MIN_FILES = 400  # smaller runs (a pre-commit hook's) answer from the per-file results as fast
_ABSENT = (0, 0, 0, 0)
_TOP_BIT = 1 << 63


class Answer(NamedTuple):
    """The reports of a run's checked files, in order, and what its notes on projects are made
    from (`workspace.port_candidates`)."""

    reports: list[FileReport]
    port_candidates: tuple[tuple[str, str, str], ...]


def run_key(*decisive: object) -> bytes | None:
    """The key of a run: everything given that decides its results (None: not keyable)."""
    return configuration_key(("run", os.getcwd(), *decisive))


class RunAnswer:
    """The answer of one check run over `targets`: looked for before the run, kept after it.
    The status of the files to check is taken first, before any is read: a file changed while
    the run reads it shows as changed to the next run."""

    def __init__(self, cache: Cache | None, key: bytes | None, targets: Sequence[tuple[str, str]]) -> None:
        self.cache = cache if key is not None and len(targets) >= MIN_FILES else None
        self.key = key
        self.targets = targets
        self.checked = array("q")
        self.listing = _listing(targets) if self.cache is not None else b""
        if self.cache is not None:
            paths = [path for _, path in targets]
            self.checked = _file_statuses(paths, self.cache.taken)
            run_reads.cover(os.getcwd(), frozenset(paths))

    def kept(self) -> Answer | None:
        """The reports kept for this run, when nothing they came from changed."""
        entry = _Entry.of(self.cache.answers.get(self.key)) if self.cache is not None else None
        if entry is None or entry.listing != self.listing or len(entry.checked) != len(self.targets):
            return None
        now = _digest(self.checked, _file_statuses(_split(entry.files)), array("q", chain.from_iterable(
            _signed(status_of(folder)) for folder in _split(entry.folders))))
        if now != entry.digest:
            return None
        names = [name for (name, _), taken in zip(self.targets, entry.checked) if taken]
        reports = [FileReport(name) for name in names]
        for number, payload in entry.packed:
            report = unpack(payload, names[number]) if 0 <= number < len(names) else None
            if report is None:
                return None
            reports[number] = report
        return Answer(reports, entry.candidates)

    def keep(self, jobs: Sequence[Job], reports: Sequence[FileReport],
             port_candidates: Sequence[tuple[str, str, str]]) -> None:
        """Keep the run's reports (one per job) for the next run with the same key, unless it
        cannot be answered again (see the module docstring)."""
        taken = run_reads.taken() if self.cache is not None else None
        if taken is None or any(report.errors or any(d.code in ENVIRONMENT_CODES for d in report.diagnostics)
                                for report in reports):
            return
        read, walks = taken
        folders = dict(item for walk in walks.values() for item in _walked(walk))
        files, folder_paths = sorted(read.keys() - folders.keys()), sorted(folders)
        statuses = array("q", chain.from_iterable(_signed(read[path]) for path in files))
        walked = array("q", chain.from_iterable(_signed(folders[path]) for path in folder_paths))
        if max(max(self.checked[1::4]), max(statuses[1::4], default=0), max(walked[1::3], default=0)) > self.cache.racy:
            return  # (modified just before the run or during it: a later change could keep its status)
        chosen = {job.filename for job in jobs}
        checked = bytes(name in chosen for name, _ in self.targets)
        packed = tuple((number, payload) for number, report in enumerate(reports)
                       if (report.diagnostics or report.notes or report.near_miss_defines or report.assumed_undefined
                           or report.outside_names) and (payload := pack(report)) is not None)
        self.cache.keep_answer(self.key, tuple(_Entry(time.time_ns(), self.listing, checked, "\0".join(files),
                                                      "\0".join(folder_paths), _digest(self.checked, statuses, walked),
                                                      packed, tuple(port_candidates))))
        self.cache.save_answers()


class _Entry(NamedTuple):
    """What is kept of a run (as a plain tuple: the cache unpickles nothing else)."""

    made: int  # when (`cache.KEPT_ANSWERS` keeps the latest)
    listing: bytes  # `_listing` of the files to check
    checked: bytes  # per file to check: whether it was checked (its extension is its configuration's)
    files: str  # the files read, "\0"-joined
    folders: str  # the folders walked and the ignore files, "\0"-joined
    digest: bytes  # `_digest` of their statuses
    packed: tuple[tuple[int, bytes], ...]  # (number of the checked file, its report `pack`ed)
    candidates: tuple[tuple[str, str, str], ...]  # `workspace.port_candidates`

    @classmethod
    def of(cls, kept: object) -> _Entry | None:
        """The entry of a kept tuple; None for anything else (a damaged or foreign entry is a miss)."""
        types = (int, bytes, bytes, str, str, bytes, tuple, tuple)
        if not (isinstance(kept, tuple) and len(kept) == len(types)
                and all(isinstance(value, kind) for value, kind in zip(kept, types))):
            return None
        entry = cls(*kept)
        if not all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], bytes)
                   for item in entry.packed):
            return None
        if not all(isinstance(item, tuple) and len(item) == 3 and all(isinstance(text, str) for text in item)
                   for item in entry.candidates):
            return None
        return entry


def _walked(walk: Walk) -> list[tuple[str, tuple[int, int, int]]]:
    """(folder, its status when scanned) of every folder a walk entered, and (ignore file, its
    status when read) of every ignore file it read or looked for: while these hold, so do its
    folders' entries and which of them are ignored."""
    root = walk.root
    return [*((os.path.join(root, folder) if folder else root, scan.status) for folder, scan in walk.scans.items()),
            *walk.ignore_files]


def _listing(targets: Sequence[tuple[str, str]]) -> bytes:
    """A digest of the files to check, names and paths, in order."""
    text = "\0".join(f"{name}\1{path}" for name, path in targets)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]


def _digest(checked: array, files: array, folders: array) -> bytes:
    """A digest of the statuses of the files checked, the files read and the folders walked."""
    digest = hashlib.sha256()
    for statuses in (checked, files, folders):
        digest.update(len(statuses).to_bytes(8, "little"))
        digest.update(statuses.tobytes())
    return digest.digest()[:16]


def _file_statuses(paths: Iterable[str], taken: dict[str, os.stat_result] | None = None) -> array:
    """(inode, mtime_ns, ctime_ns, size) of each path in turn, all 0 for one that does not exist
    (`run_reads.status`, flat); `taken`: where to keep each status found (see `Cache.taken`)."""
    found = array("q")
    stat = os.stat
    for path in paths:
        try:
            status = stat(path)
        except OSError:
            found.extend(_ABSENT)
            continue
        if taken is not None:
            taken[path] = status
        ino = status.st_ino
        found.extend((ino if ino < _TOP_BIT else ino - 2 * _TOP_BIT, status.st_mtime_ns, status.st_ctime_ns,
                      status.st_size))  # (`_signed`, inline: a call per file costs)
    return found


def _signed(status: tuple[int, ...]) -> tuple[int, ...]:
    """A status whose inode number fits a signed 64-bit item (some file systems use all 64 bits)."""
    return status if status[0] < _TOP_BIT else (status[0] - 2 * _TOP_BIT, *status[1:])


def _split(joined: str) -> list[str]:
    return joined.split("\0") if joined else []
