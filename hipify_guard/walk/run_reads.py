"""What a run read besides the files it checks: the walks it took and every other file or folder
whose content or listing its results came from, so that the whole run can be answered again
while none of them changed (`project/run_answer.py`).

The readers note what they read (`read`): the memos that keep facts between runs note what their
facts were found from, whether they found them again or took them, so that an answer taken from
the memos depends on the same things as one found afresh. Nothing is noted between runs that do
not record (`start(False)`): a language server's reads are not collected.
"""

from __future__ import annotations

from collections.abc import Iterable

_recording = False
_untracked = False  # something was read whose own reads are not noted
_paths: set[str] = set()
_walks: dict[str, object] = {}  # root -> its walk in this run (`project_walk.Walk`)


def start(recording: bool) -> None:
    """Forget the last run's reads; record this run's when `recording`."""
    global _recording, _untracked
    _recording, _untracked = recording, False
    _paths.clear()
    _walks.clear()


def read(paths: Iterable[str]) -> None:
    """Note files or folders (absolute paths) whose content or listing the run's results came from."""
    if _recording:
        _paths.update(paths)


def untracked() -> None:
    """Note that the run read something whose own reads it does not note (a compilation database,
    whose includes are followed anywhere on the disk): its answer is not kept."""
    global _untracked
    _untracked = True


def walked(root: str, walk: object) -> None:
    """Note the walk of `root` that the run took."""
    if _recording:
        _walks[root] = walk


def taken() -> tuple[frozenset[str], dict[str, object]] | None:
    """(the paths read, the walks taken) since `start`; None when something untracked was read."""
    return None if _untracked else (frozenset(_paths), dict(_walks))
