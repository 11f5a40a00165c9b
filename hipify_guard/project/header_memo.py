"""Included-header facts kept between runs, like the build facts: with what they were found from.

`header_facts.included_facts` reads the file, the project headers it includes, and looks for
each include in a few folders (and in the project's header index, its walk). A run's memo (the
results cache) keeps the facts under the file, the names asked about and the settings, with the
headers the file includes, the status of every header read and every folder looked in, and
whether the header index was asked (then a digest of the index). A later run takes them while
the file includes the same headers and all of those are as they were (a file just edited, as
in a pre-commit run, costs a look at its `#include` lines); facts found from something modified
less than `RACY_SECONDS` before are not kept. Where only a part of a file or folder was taken
(`Reads.parts`: the `#include` lines of the files around a header, a folder's listing), the facts
hold while that part is the same: one modified since is read again and compared (a pre-commit
run's edits leave the include lines of the files they touch as they were), and one modified just
now is kept without a status, to be read again by the next run.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import field
from typing import NamedTuple, Protocol

from ..core.records import record
from ..model.settings import Settings
from .cache import configuration_key
from ..walk import run_reads
from ..walk.project_walk import RACY_SECONDS, status_of
from ..walk.run_reads import status as file_status

Stat = tuple[int, ...]  # a file's or a folder's status (`file_status`, `status_of`)


class HeaderMemo(Protocol):
    """Where included-header facts are kept between runs (`cache.Cache`)."""

    def header_facts(self, key: bytes) -> object | None: ...

    def keep_header_facts(self, key: bytes, plain: object) -> None: ...


class Included(NamedTuple):
    """The project headers one file includes, the folders they were looked for in, and whether
    the header index was asked."""

    headers: tuple[str, ...]
    folders: frozenset[str]
    indexed: bool


@record(frozen=False, slots=True)
class Reads:
    """What one file's facts were found from."""

    files: set[str]  # read whole
    folders: set[str] = field(default_factory=set)
    indexed: bool = False
    parts: dict[str, object] = field(default_factory=dict)  # files (not in `files`) and folders: the part taken

    def add(self, included: Included) -> None:
        self.folders |= included.folders
        self.indexed = self.indexed or included.indexed


_settings_keys: dict[int, tuple[Settings, bytes | None]] = {}


def facts_key(start: str, names: frozenset[str], root: str, settings: Settings) -> bytes | None:
    """The memo's key of the facts of `names` in what `start` includes (None: settings not keyable)."""
    known = _settings_keys.get(id(settings))
    if known is None or known[0] is not settings:
        known = _settings_keys[id(settings)] = (settings, configuration_key((settings,)))
    if known[1] is None:
        return None
    text = "\0".join((start, root, *sorted(names))).encode("utf-8", "surrogateescape")
    return hashlib.sha256(known[1] + text).digest()[:16]


def kept_facts(memo: HeaderMemo, key: bytes, first: tuple[str, ...], index: Callable[[], bytes],
               again: Callable[[str], object] | None = None) -> object | None:
    """The facts kept under `key`, when the file still includes the headers `first` and every
    file and folder they came from is unchanged, or gives the same part again (`again(path)`:
    see `Reads.parts`; then they are kept with the new status)."""
    kept = memo.header_facts(key)
    try:
        plain, included, files, folders, token, parts = kept  # type: ignore[misc]
    except (TypeError, ValueError):
        return None
    if included != first or token is not None and index() != token:
        return None
    now = [file_status(path) for path, _ in files]
    for (path, _), found in zip(files, now):
        run_reads.seen(path, found)
    run_reads.read(path for path, _ in folders)
    changed = [path for (path, status), found in zip(files, now) if found != status]
    changed += [path for path, status in folders if status_of(path) != status]
    if not changed:
        return plain
    if again is None or any(path not in parts or again(path) != parts[path] for path in changed):
        return None
    whole = {path for path, _ in files if path not in parts}
    entry = _entry(plain, first, whole, [path for path, _ in folders], parts, token)
    if entry is not None:
        memo.keep_header_facts(key, entry)
    return plain


def keep_facts(memo: HeaderMemo, key: bytes, plain: object, reads: Reads, first: tuple[str, ...],
               index: Callable[[], bytes]) -> None:
    """Keep the facts for the next run, unless something they came from changed just now."""
    run_reads.read((*reads.files, *reads.folders, *reads.parts))
    entry = _entry(plain, first, reads.files, reads.folders, reads.parts, index() if reads.indexed else None)
    if entry is not None:
        memo.keep_header_facts(key, entry)


def _entry(plain: object, first: tuple[str, ...], whole: Iterable[str], folders: Iterable[str],
           parts: dict[str, object], token: bytes | None) -> tuple | None:
    """What is kept: the facts with the status of what they came from (None: a file read whole
    changed just now) and the parts taken from the others (`Reads.parts`; a file read whole too
    counts as read whole)."""
    racy = time.time_ns() - RACY_SECONDS * 10**9
    read_whole, listed = set(whole), set(folders)
    parts = {path: part for path, part in parts.items() if path not in read_whole}
    kept_files = _statuses(read_whole | (parts.keys() - listed), file_status, parts, racy)
    kept_folders = _statuses(listed, status_of, parts, racy)
    if kept_files is None or kept_folders is None:
        return None
    return plain, first, kept_files, kept_folders, token, parts


def _statuses(paths: Iterable[str], status: Callable[[str], Stat], parts: dict[str, object],
              racy: int) -> tuple[tuple[str, Stat | None], ...] | None:
    """(path, status) of each path, but no status for one modified after `racy` whose part is
    known (the next run reads it again); None when the part of such a one is not known."""
    kept = []
    for path in sorted(paths):
        now: Stat | None = status(path)
        if now[1] > racy:
            if path not in parts:
                return None
            now = None
        kept.append((path, now))
    return tuple(kept)
