"""Write a file atomically: temporary file in the same folder, fsync, rename; mode kept.

The file must still hold the bytes that were checked: a file changed or deleted by another
program during the run is left as that program left it (`atomic_write`).

The temporary file is `.NAME.PID.RANDOM.hipify-guard` next to the file. A run killed between
creating it and the rename leaves it behind; the file itself holds the old bytes or, after the
rename, the new ones, never a mix. Folder walks never pick such names up (no source extension),
and a later `--fix` run deletes the leftovers whose process is gone from the folders of the files
it fixes (`remove_leftovers`).
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from ..core.reading import read_file

SUFFIX = ".hipify-guard"
_LEFTOVER = re.compile(r"\..+\.([0-9]{1,9})\.[a-z0-9_]+" + re.escape(SUFFIX))  # .NAME.PID.RANDOM.hipify-guard
_swept: set[str] = set()  # folders this process has cleared of leftovers
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
_CHANGED = "changed by another program during the run; not rewritten (run again)"


class ChangedOnDisk(Exception):
    """The file changed after it was read; it is left alone."""


def atomic_write(path: Path, data: bytes, expected_old: bytes) -> None:
    """Replace `path` by `data`, unless its content is no longer `expected_old`.

    Where the system can swap two names atomically (Linux `renameat2`), the new file is swapped
    in and the file it displaced is compared with `expected_old` afterwards: a file deleted
    meanwhile is not recreated, and one changed meanwhile is swapped back. Elsewhere the
    content is compared once more right before the rename, after the slow write and fsync.
    """
    if read_file(str(path))[0] != expected_old:
        raise ChangedOnDisk(_CHANGED)
    mode = stat.S_IMODE(path.stat().st_mode)
    target = path.resolve()
    remove_leftovers(target.parent)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=SUFFIX, dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        swapped = exchange(temporary, str(target))
        if not swapped:
            if read_file(str(target))[0] != expected_old:
                raise ChangedOnDisk(_CHANGED)
            os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if swapped:
        _keep_or_undo(temporary, target, expected_old)
    _fsync_folder(target.parent)


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


def remove_leftovers(folder: Path) -> list[str]:
    """Delete the temporary files that killed runs left in `folder` (once per process and folder);
    the names deleted. A leftover whose process still runs is another run's write in progress."""
    key = str(folder)
    if key in _swept:
        return []
    _swept.add(key)
    try:
        names = [name for name in os.listdir(folder) if name.startswith(".") and name.endswith(SUFFIX)]
    except OSError:
        return []
    removed = []
    for name in names:
        match = _LEFTOVER.fullmatch(name)
        if match and not _running(int(match.group(1))):
            try:
                os.unlink(folder / name)
            except OSError:
                continue
            removed.append(name)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


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
