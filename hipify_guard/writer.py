"""Write a file atomically: temporary file in the same folder, fsync, rename; mode kept."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class ChangedOnDisk(Exception):
    """The file changed after it was read; it is left alone."""


def atomic_write(path: Path, data: bytes, expected_old: bytes) -> None:
    """Replace `path` by `data`, unless its content is no longer `expected_old`."""
    if path.read_bytes() != expected_old:
        raise ChangedOnDisk(f"{path} changed while it was being checked; not rewritten")
    mode = stat.S_IMODE(path.stat().st_mode)
    target = path.resolve()
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".hipify-guard", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)


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
