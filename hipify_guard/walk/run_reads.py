"""What a run read besides the files it checks: the walks it took and every other file or folder
whose content or listing its results came from, so that the whole run can be answered again
while none of them changed (`project/run_answer.py`).

The readers note what they read (`read`): the memos that keep facts between runs note what their
facts were found from, whether they found them again or took them, so that an answer taken from
the memos depends on the same things as one found afresh. Nothing is noted between runs that do
not record (`start(False)`): a language server's reads are not collected.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_recording = False
_untracked = False  # something was read whose own reads are not noted
_paths: dict[str, Status] = {}  # path -> its status when first noted
_covered: tuple[str, frozenset[str]] = ("", frozenset())  # (a folder, paths below it) whose status is taken anyway
_walks: dict[str, object] = {}  # root -> its walk in this run (`project_walk.Walk`)

Status = tuple[int, int, int, int]  # (inode, mtime_ns, ctime_ns, size); all 0: absent


def start(recording: bool) -> None:
    """Forget the last run's reads; record this run's when `recording`."""
    global _recording, _untracked, _covered
    _recording, _untracked, _covered = recording, False, ("", frozenset())
    _paths.clear()
    _walks.clear()


def cover(folder: str, paths: frozenset[str]) -> None:
    """Note nothing more of `paths` (relative to `folder`, or absolute): the run takes their status
    itself (the files it checks)."""
    global _covered
    _covered = (os.path.join(folder, ""), paths)


def read(paths: Iterable[str]) -> None:
    """Note files or folders (absolute paths) whose content or listing the run's results came
    from, with their status when first noted (a change after it shows in the next run)."""
    if _recording:
        for path in paths:
            if path not in _paths and not _is_covered(path):
                _paths[path] = status(path)


def seen(path: str, found: Status) -> None:
    """Note a file whose status the reader has just taken (`status`), with that status."""
    if _recording and path not in _paths and not _is_covered(path):
        _paths[path] = found


def _is_covered(path: str) -> bool:
    prefix, covered = _covered
    return path in covered or path.startswith(prefix) and path[len(prefix):] in covered


def status(path: str) -> Status:
    """(inode, mtime_ns, ctime_ns, size) of `path`; all 0 when it does not exist."""
    try:
        found = os.stat(path)
    except OSError:
        return (0, 0, 0, 0)
    return status_of(found)


def status_of(found: os.stat_result) -> Status:
    """(inode, mtime_ns, ctime_ns, size) of a status taken (`os.stat`, `os.fstat`)."""
    return found.st_ino, found.st_mtime_ns, found.st_ctime_ns, found.st_size


def untracked() -> None:
    """Note that the run read something whose own reads it does not note (a compilation database,
    whose includes are followed anywhere on the disk): its answer is not kept."""
    global _untracked
    _untracked = True


def walked(root: str, walk: object) -> None:
    """Note the walk of `root` that the run took."""
    if _recording:
        _walks[root] = walk


def taken() -> tuple[dict[str, Status], dict[str, object]] | None:
    """(the paths read with their status, the walks taken) since `start`; None when something
    untracked was read."""
    return None if _untracked else (dict(_paths), dict(_walks))
