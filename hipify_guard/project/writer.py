"""Write a file atomically: temporary file in the same folder, fsync, rename; metadata kept.

The file must still hold the bytes that were checked: a file changed or deleted by another
program during the run is left as that program left it (`atomic_write`). The new file gets the
old one's owner, group, mode and extended attributes (ACLs among them: see `metadata`).

The temporary file is `.NAME.RANDOM.hipify-guard` next to the file, locked while it exists (see
`leftovers`). A run killed between creating it and the rename leaves it behind; the file itself
holds the old bytes or, after the rename, the new ones, never a mix. Folder walks never pick
such names up (no source extension), and a later `--fix` run deletes the unlocked ones from the
folders of the files it fixes.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import sys
from functools import lru_cache
from pathlib import Path

from ..core.reading import read_file
from .leftovers import Locked, create_temporary, lock_now, remove_leftovers
from .metadata import Metadata

_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
_CHANGED = "changed by another program during the run; not rewritten (run again)"
_LOCKED = "locked by another program; not rewritten (run again)"


class ChangedOnDisk(Exception):
    """The file changed after it was read (or another program holds its lock); it is left alone."""


def not_rewritable(status: os.stat_result, read_only_too: bool) -> str:
    """Why a file whose status is `status` is left as it is by a fix ("" when it may be rewritten):
    no write permission for its owner (unless `read_only_too`), or other hard links to it."""
    mode = stat.S_IMODE(status.st_mode)
    if not mode & stat.S_IWUSR and not read_only_too:
        return f"read-only file (mode {mode:04o}): not rewritten (--fix-read-only rewrites it, keeping the mode)"
    if status.st_nlink > 1:
        return (f"the file has {status.st_nlink} hard links: not rewritten (a new file under this name would "
                "leave the other links with the old bytes; copy it to a file of its own to fix it)")
    return ""


def atomic_write(path: Path, data: bytes, expected_old: bytes) -> str:
    """Replace `path` by `data`, unless its content is no longer `expected_old`; what of the old
    file's metadata could not be kept, in words ("" when everything was).

    Where the system can swap two names atomically (Linux `renameat2`), the new file is swapped
    in and the file it displaced is compared with `expected_old` afterwards: a file deleted
    meanwhile is not recreated, and one changed meanwhile is swapped back. Elsewhere the
    content is compared once more right before the rename, after the slow write and fsync.
    Raises ChangedOnDisk, FileNotFoundError (deleted meanwhile) or OSError (the file is then
    as it was, and no temporary file is left).
    """
    target = path.resolve()
    old, status = read_file(str(target))
    if old != expected_old:
        raise ChangedOnDisk(_CHANGED)
    metadata = Metadata.of(str(target), status)
    remove_leftovers(target.parent)
    descriptor, temporary = create_temporary(target.parent, target.name)
    original = None
    try:
        lost = _fill(descriptor, data, metadata)
        original = _lock_original(target)  # under the temporary name after a swap: no sweeper takes it
        swapped = exchange(temporary, str(target))
        if not swapped:
            if read_file(str(target))[0] != expected_old:
                raise ChangedOnDisk(_CHANGED)
            os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        _close(original, descriptor)
        raise
    try:
        if swapped:
            _keep_or_undo(temporary, target, expected_old)
    finally:
        _close(original, descriptor)
    _fsync_folder(target.parent)
    return lost


def _fill(descriptor: int, data: bytes, metadata: Metadata) -> str:
    """Write `data` and the metadata to the temporary file, then fsync it; what was not kept."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]
    lost = metadata.give_to(descriptor)
    os.fsync(descriptor)
    return lost


def _lock_original(target: Path) -> int:
    try:
        return lock_now(target)
    except Locked:
        raise ChangedOnDisk(_LOCKED) from None


def _close(*descriptors: int | None) -> None:
    for descriptor in descriptors:
        if descriptor is not None:
            os.close(descriptor)


def _keep_or_undo(temporary: str, target: Path, expected_old: bytes) -> None:
    """After the swap `temporary` names the displaced file: drop it if it was the expected one,
    else give it its name back (and drop our bytes)."""
    try:
        displaced = read_file(temporary)[0]
    except OSError:
        displaced = None
    if displaced == expected_old:
        os.unlink(temporary)
        return
    try:
        exchange(temporary, str(target))
    except FileNotFoundError:  # our file was removed meanwhile: the displaced one takes the name back
        os.rename(temporary, target)
        raise ChangedOnDisk(_CHANGED) from None
    os.unlink(temporary)
    raise ChangedOnDisk(_CHANGED)


def exchange(first: str, second: str) -> bool:
    """Swap two paths atomically (Linux `renameat2(RENAME_EXCHANGE)`); False where unsupported.

    Raises OSError when the swap is supported but fails (FileNotFoundError: one is gone)."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(code, os.strerror(code), second)


@lru_cache(maxsize=1)
def _renameat2():  # noqa: ANN202 - a ctypes function or None
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def _fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
