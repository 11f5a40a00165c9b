"""The writer's temporary files: each is locked for its whole life, so a leftover is one whose lock is free.

A temporary file `.NAME.RANDOM.hipify-guard` is created next to the file it replaces and locked
(`flock`, exclusive) at once; the lock goes with the descriptor, which the writer closes only
after the name is gone (renamed over the file, or deleted). The kernel drops a process's locks
when it dies, before a parent reaps it: a killed run's temporary files are unlocked at once,
whether its processes are zombies or their numbers now belong to other programs. A later run
deletes exactly the temporary files whose lock it can take (`remove_leftovers`).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

SUFFIX = ".hipify-guard"
_NAME = re.compile(r"\..+\.[a-z0-9_]+" + re.escape(SUFFIX))  # (and `.NAME.PID.RANDOM...` of earlier versions)
_swept: set[str] = set()  # folders this process has cleared of leftovers


class Locked(OSError):
    """Another process holds the file's lock."""


def create_temporary(folder: Path, name: str) -> tuple[int, str]:
    """A new, empty, locked temporary file for `name` in `folder`: its descriptor (open for
    writing; closing it releases the lock) and its path."""
    while True:
        descriptor, path = tempfile.mkstemp(prefix=f".{name}.", suffix=SUFFIX, dir=folder)
        _flock(descriptor, wait=True)  # waits only for a sweeper that took the fresh file for a leftover
        if _still_named(descriptor, path):
            return descriptor, path
        os.close(descriptor)  # that sweeper deleted it in the instant before the lock: a new name


def lock_now(path: Path) -> int:
    """A read-only descriptor of `path` holding its exclusive lock; raises Locked when another
    process holds it (never waits)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # (a FIFO must not block)
    try:
        _flock(descriptor, wait=False)
    except BlockingIOError:
        os.close(descriptor)
        raise Locked(f"{path} is locked by another process") from None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def remove_leftovers(folder: Path) -> list[str]:
    """Delete the temporary files that killed runs left in `folder` (once per process and folder);
    the names deleted. A temporary file whose lock is held is a write in progress: kept."""
    key = str(folder)
    if key in _swept:
        return []
    _swept.add(key)
    try:
        names = [name for name in os.listdir(folder) if name.endswith(SUFFIX) and _NAME.fullmatch(name)]
    except OSError:
        return []
    return [name for name in names if _remove_if_free(folder / name)]


def _remove_if_free(path: Path) -> bool:
    """Delete `path` if nobody holds its lock (and it is still the file locked)."""
    try:
        descriptor = lock_now(path)
    except OSError:  # locked (in use), gone, or not a plain file of ours
        return False
    try:
        if not _still_named(descriptor, str(path)):
            return False
        os.unlink(path)  # while holding the lock: a writer that locks it now sees the name gone
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)


def _flock(descriptor: int, wait: bool) -> None:
    """Take the exclusive `flock` of an open file (imported here: only a fix run locks, and
    POSIX has it)."""
    import fcntl

    fcntl.flock(descriptor, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)


def _still_named(descriptor: int, path: str) -> bool:
    """Whether `path` still names the file open as `descriptor`."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
