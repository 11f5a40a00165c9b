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
  (`walk.run_reads`): configuration files and the folders searched for them, build files,
  included headers and the folders looked in for them, the folders listed for the header index,
  the project's Python modules;

and a digest of the status (inode, mtime, ctime; size) of each of them, taken before it was read
(the files to check right after discovery, the others when first noted, the folders when
scanned): a change while the run reads them shows to the next run. A later run with the same
key takes the reports when discovery finds the same files and every status is the same. Nothing
is kept from a run in which something it read was modified less than `RACY_SECONDS` before it
started (a later change could leave its status as it was), in which a report has an error or a finding about the tool's own
environment, or in which a compilation database decides what compiles (its includes are followed
anywhere on the disk). The answers of the `cache.KEPT_ANSWERS` latest runs with different keys
are kept.
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
        self.checked = _file_statuses(path for _, path in targets) if self.cache is not None else array("q")

    def kept(self) -> Answer | None:
        """The reports kept for this run, when nothing they came from changed."""
        if self.cache is None:
            return None
        try:
            _, listing, checked, files, folders, digest, packed, candidates = self.cache.answers.get(self.key)  # type: ignore[misc]
        except (TypeError, ValueError):
            return None
        if listing != _listing(self.targets) or len(checked) != len(self.targets):
            return None
        now = _digest(self.checked, _file_statuses(_split(files)), array("q", chain.from_iterable(
            _signed(status_of(folder)) for folder in _split(folders))))
        if now != digest:
            return None
        names = [name for (name, _), taken in zip(self.targets, checked) if taken]
        reports = [FileReport(name) for name in names]
        for number, payload in packed:
            report = unpack(payload, names[number])
            if report is None:
                return None
            reports[number] = report
        return Answer(reports, tuple(candidates))

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
        cwd = os.getcwd()
        covered = folders.keys() | {os.path.normpath(os.path.join(cwd, path)) for _, path in self.targets}
        files, folder_paths = sorted(read.keys() - covered), sorted(folders)
        statuses = array("q", chain.from_iterable(_signed(read[path]) for path in files))
        walked = array("q", chain.from_iterable(_signed(folders[path]) for path in folder_paths))
        if max((*self.checked[1::4], *statuses[1::4], *walked[1::3]), default=0) > self.cache.racy:
            return  # (modified just before the run or during it: a later change could keep its status)
        chosen = {job.filename for job in jobs}
        checked = bytes(name in chosen for name, _ in self.targets)
        packed = tuple((number, payload) for number, report in enumerate(reports)
                       if (payload := pack(report)) is not None)
        self.cache.keep_answer(self.key, (time.time_ns(), _listing(self.targets), checked, "\0".join(files),
                                          "\0".join(folder_paths), _digest(self.checked, statuses, walked), packed,
                                          tuple(port_candidates)))
        self.cache.save_answers()


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


def _file_statuses(paths: Iterable[str]) -> array:
    """(inode, mtime_ns, ctime_ns, size) of each path in turn, all 0 for one that does not exist
    (`run_reads.status`, flat)."""
    found = array("q")
    stat = os.stat
    for path in paths:
        try:
            status = stat(path)
        except OSError:
            found.extend(_ABSENT)
            continue
        found.extend(_signed((status.st_ino, status.st_mtime_ns, status.st_ctime_ns, status.st_size)))
    return found


def _signed(status: tuple[int, ...]) -> tuple[int, ...]:
    """A status whose inode number fits a signed 64-bit item (some file systems use all 64 bits)."""
    return status if status[0] < _TOP_BIT else (status[0] - 2 * _TOP_BIT, *status[1:])


def _split(joined: str) -> list[str]:
    return joined.split("\0") if joined else []
