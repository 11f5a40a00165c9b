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

and a digest of the status (inode, mtime, ctime, size) of each of them. A later run with the same
key takes the reports when discovery finds the same files and every status is the same. Nothing
is kept from a run in which something it read was modified less than `RACY_SECONDS` before it
started (or during it), in which a report has an error or a finding about the tool's own
environment, or in which a compilation database decides what compiles (its includes are followed
anywhere on the disk). The answers of the `cache.KEPT_ANSWERS` latest runs with different keys
are kept.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.diagnostics import FileReport
from .cache import ENVIRONMENT_CODES, Cache, configuration_key, pack, unpack
from .job import Job
from ..walk import run_reads
from ..walk.project_walk import Walk

MIN_FILES = 400  # smaller runs (a pre-commit hook's) answer from the per-file results as fast
_STATUS = struct.Struct("<qqqq")
_ABSENT = _STATUS.pack(0, 0, 0, 0)


class Answer(NamedTuple):
    """The reports of a run's checked files, in order, and what its notes on projects are made
    from (`workspace.port_candidates`)."""

    reports: list[FileReport]
    port_candidates: tuple[tuple[str, str, str], ...]


def run_key(*decisive: object) -> bytes | None:
    """The key of a run: everything given that decides its results (None: not keyable)."""
    return configuration_key(("run", os.getcwd(), *decisive))


def answered(cache: Cache | None, key: bytes | None, targets: Sequence[tuple[str, str]]) -> Answer | None:
    """The reports kept for a run with `key` over `targets`, when nothing they came from changed."""
    if cache is None or key is None or len(targets) < MIN_FILES:
        return None
    try:
        _, listing, checked, paths, statuses, packed, candidates = cache.answers.get(key)  # type: ignore[misc]
    except (TypeError, ValueError):
        return None
    if listing != _listing(targets) or len(checked) != len(targets):
        return None
    if _statuses([path for _, path in targets], paths)[0] != statuses:
        return None
    names = [name for (name, _), taken in zip(targets, checked) if taken]
    reports = [FileReport(name) for name in names]
    for number, payload in packed:
        report = unpack(payload, names[number])
        if report is None:
            return None
        reports[number] = report
    return Answer(reports, tuple(candidates))


def keep(cache: Cache | None, key: bytes | None, targets: Sequence[tuple[str, str]], jobs: Sequence[Job],
         reports: Sequence[FileReport], port_candidates: Sequence[tuple[str, str, str]]) -> None:
    """Keep the run's reports (one per job) for the next run with the same key, unless it cannot
    be answered again (see the module docstring)."""
    if cache is None or key is None or len(targets) < MIN_FILES:
        return
    if any(report.errors or any(d.code in ENVIRONMENT_CODES for d in report.diagnostics) for report in reports):
        return
    taken = run_reads.taken()
    if taken is None:
        return
    paths, walks = taken
    paths = paths.union(*map(_walked, walks.values()))
    statuses, newest = _statuses([path for _, path in targets], paths)
    if newest > cache.racy:
        return
    chosen = {job.filename for job in jobs}
    checked = bytes(name in chosen for name, _ in targets)
    packed = tuple((number, payload) for number, report in enumerate(reports)
                   if (payload := pack(report)) is not None)
    cache.keep_answer(key, (time.time_ns(), _listing(targets), checked, tuple(sorted(paths)), statuses,
                            packed, tuple(port_candidates)))
    cache.save_answers()


def _walked(walk: Walk) -> set[str]:
    """The folders a walk entered and the ignore files it read or looked for: while their status
    holds, so do its folders' entries and which of them are ignored."""
    return {walk.root, *(os.path.join(walk.root, folder) for folder in walk.scans if folder),
            *(path for path, _ in walk.ignore_files)}


def _listing(targets: Sequence[tuple[str, str]]) -> bytes:
    """A digest of the files to check, names and paths, in order."""
    text = "\0".join(f"{name}\1{path}" for name, path in targets)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]


def _statuses(checked: Sequence[str], read: Sequence[str] | frozenset[str]) -> tuple[bytes, int]:
    """(a digest of the status of every file checked, in order, and of every path read, sorted;
    the newest mtime among them)."""
    digest = hashlib.sha256()
    newest = 0
    for path in (*checked, *sorted(read)):
        try:
            status = os.stat(path)
        except OSError:
            digest.update(_ABSENT)
            continue
        digest.update(_STATUS.pack(status.st_ino, status.st_mtime_ns, status.st_ctime_ns, status.st_size))
        newest = max(newest, status.st_mtime_ns)
    return digest.digest()[:16], newest
