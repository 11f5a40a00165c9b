"""What `--fix` keeps around the bytes it rewrites: owner and group, extended attributes and ACLs,
hard links, read-only files; and what a failed write leaves (a full disk, a read-only file
system, a file size limit): the file as it was, its findings remaining, a true summary, exit 2.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import resource
import shutil
import stat
import struct
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import CANNOT_DROP_PRIVILEGES, Result, console_script

G = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nnew_api();\n#endif\n"
G_FIXED = G.replace(b"11000", b"11000 && !defined(USE_ROCM)")
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (chown to another user, mount); CI runs as root")
# POSIX ACL entries as the kernel stores them in system.posix_acl_* (tag, permissions, id).
USER_OBJ, USER, GROUP_OBJ, MASK, OTHER, NO_ID = 0x01, 0x02, 0x04, 0x10, 0x20, 0xFFFFFFFF


def fix(root: Path, *args: str, preexec_fn: Callable[[], None] | None = None) -> Result:
    """`check --fix ARGS .` in `root` (no cache); `preexec_fn` runs in the child before exec."""
    completed = subprocess.run([*console_script(), "check", "--isolated", "--no-cache", "--fix", *args, "."],
                               cwd=root, capture_output=True, env={**os.environ, "NO_COLOR": "1"}, timeout=120,
                               preexec_fn=preexec_fn, check=False)
    if completed.returncode == CANNOT_DROP_PRIVILEGES:
        pytest.skip("cannot drop capabilities here")
    return Result(completed.returncode, completed.stdout.decode(errors="replace"),
                  completed.stderr.decode(errors="replace"))


def assert_says(result: Result, status: int, *texts: str) -> None:
    output = result.stdout + result.stderr
    assert result.code == status and "Traceback" not in output, output
    for text in texts:
        assert text in output, f"{text!r} not in:\n{output}"


def _acl(*entries: tuple[int, int, int]) -> bytes:
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)


def _attributes(path: Path) -> dict[str, bytes]:
    return {name: os.getxattr(path, name) for name in sorted(os.listxattr(path))}


def _set_or_skip(path: Path, name: str, value: bytes) -> None:
    try:
        os.setxattr(path, name, value)
    except OSError as error:
        if error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
            pytest.skip(f"this file system does not take {name} ({error.strerror})")
        raise


# -- owner and group ----------------------------------------------------------------------------


@ROOT_ONLY
def test_root_keeps_the_owner_and_group_of_the_files_it_fixes(tmp_path: Path) -> None:
    """`docker run` as root over a user's checkout: the fixed files still belong to the user."""
    for name, owner in (("a.cu", (1234, 2345)), ("b.cu", (0, 0)), ("c.cu", (5678, 0))):
        (tmp_path / name).write_bytes(G)
        os.chown(tmp_path / name, *owner)
    (tmp_path / "c.cu").chmod(0o6755)  # set-user-ID and set-group-ID survive the chown too
    assert_says(fix(tmp_path), 0, "Found 3 errors (3 fixed, 0 remaining).")
    for name, owner in (("a.cu", (1234, 2345)), ("b.cu", (0, 0)), ("c.cu", (5678, 0))):
        status = (tmp_path / name).stat()
        assert (status.st_uid, status.st_gid) == owner and (tmp_path / name).read_bytes() == G_FIXED, name
    assert stat.S_IMODE((tmp_path / "c.cu").stat().st_mode) == 0o6755


def _without_chown() -> None:
    """In the child: drop CAP_CHOWN (and CAP_FOWNER), so root's chown obeys the rules a normal
    user's does: no giving a file away, a group only if one is a member."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (0, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os._exit(CANNOT_DROP_PRIVILEGES)


@ROOT_ONLY
def test_a_user_who_may_not_chown_keeps_what_chown_allows_and_is_told(tmp_path: Path) -> None:
    (tmp_path / "mine.cu").write_bytes(G)
    (tmp_path / "theirs.cu").write_bytes(G)
    os.chown(tmp_path / "theirs.cu", 1234, 2345)
    result = fix(tmp_path, preexec_fn=_without_chown)
    assert_says(result, 0, "Found 2 errors (2 fixed, 0 remaining).",
                "./theirs.cu: warning: fixed, but could not keep its owner 1234 (now 0) and group 2345 (now 0): "
                "not permitted")
    assert "mine.cu: warning" not in result.stderr
    assert (tmp_path / "mine.cu").read_bytes() == (tmp_path / "theirs.cu").read_bytes() == G_FIXED


# -- extended attributes and ACLs -----------------------------------------------------------------


def test_extended_attributes_and_the_acl_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "a.cu"
    path.write_bytes(G)
    path.chmod(0o640)
    _set_or_skip(path, "user.origin", b"vendored from upstream \x00\xff")
    acl = _acl((USER_OBJ, 6, NO_ID), (USER, 4, 1234), (GROUP_OBJ, 4, NO_ID), (MASK, 4, NO_ID), (OTHER, 0, NO_ID))
    _set_or_skip(path, "system.posix_acl_access", acl)
    before = _attributes(path)
    assert_says(fix(tmp_path), 0, "Found 1 error (1 fixed, 0 remaining).")
    assert path.read_bytes() == G_FIXED
    assert _attributes(path) == before and before["system.posix_acl_access"] == acl
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["a.cu"]


def test_a_file_without_an_acl_gets_none_from_the_folder_default(tmp_path: Path) -> None:
    """New files in a folder with a default ACL inherit one; the fixed file must not."""
    path = tmp_path / "a.cu"
    path.write_bytes(G)
    path.chmod(0o644)
    default = _acl((USER_OBJ, 7, NO_ID), (USER, 7, 1234), (GROUP_OBJ, 5, NO_ID), (MASK, 7, NO_ID), (OTHER, 5, NO_ID))
    _set_or_skip(tmp_path, "system.posix_acl_default", default)
    assert "system.posix_acl_access" not in os.listxattr(path)
    assert_says(fix(tmp_path), 0, "Found 1 error (1 fixed, 0 remaining).")
    assert path.read_bytes() == G_FIXED and os.listxattr(path) == []
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


# -- hard links --------------------------------------------------------------------------------


def test_a_file_with_hard_links_is_not_rewritten_and_says_so(tmp_path: Path) -> None:
    """A new file under one name would split the links (the other keeps the old bytes): refused."""
    (tmp_path / "a.cu").write_bytes(G)
    os.link(tmp_path / "a.cu", tmp_path / "same.cuh")
    (tmp_path / "b.cu").write_bytes(G)
    inode = (tmp_path / "a.cu").stat().st_ino
    result = fix(tmp_path)
    assert_says(result, 1, "./a.cu: warning: the file has 2 hard links: not rewritten", "./a.cu:1:1: HG101",
                "./same.cuh: warning: the file has 2 hard links", "Found 3 errors (1 fixed, 2 remaining).")
    assert (tmp_path / "a.cu").read_bytes() == G and (tmp_path / "a.cu").stat().st_ino == inode
    assert (tmp_path / "same.cuh").stat().st_ino == inode and (tmp_path / "b.cu").read_bytes() == G_FIXED


# -- failed writes ---------------------------------------------------------------------------------


def _big(size: int) -> bytes:
    return G + b"// padding\n" * (size // 11)


def _assert_unwritten(root: Path, result: Result, reason: str, files: dict[str, bytes]) -> None:
    """Exit 2, the error names the file and why, the findings are counted as remaining (never
    "All checks passed!"), and every file is as it was, with no temporary file left."""
    assert_says(result, 2, f"./a.cu: error: cannot write the fix: {reason}; the file is unchanged",
                "./a.cu:1:1: HG101")
    assert "All checks passed!" not in result.stdout and "0 remaining" not in result.stdout, result.stdout
    assert {path.name: path.read_bytes() for path in root.iterdir() if path.is_file()} == files


def test_a_write_over_the_file_size_limit_leaves_the_file_and_its_findings(tmp_path: Path) -> None:
    """RLIMIT_FSIZE (EFBIG): the same path as a full disk, and it runs everywhere."""
    big = _big(200_000)
    (tmp_path / "a.cu").write_bytes(big)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))  # (Python ignores SIGXFSZ)

    _assert_unwritten(tmp_path, fix(tmp_path, preexec_fn=limited), "File too large", {"a.cu": big})
    reported = fix(tmp_path, "--output-format", "json", preexec_fn=limited)
    assert reported.code == 2 and [item["code"] for item in reported.json()] == ["HG101"]


@contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted on `where` (skips when mounting is not allowed here)."""
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
                             capture_output=True, text=True, check=False) if shutil.which("mount") else None
    if mounted is None or mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() if mounted else 'no mount command'}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


@ROOT_ONLY
def test_a_full_disk_leaves_the_file_and_its_findings(tmp_path: Path) -> None:
    """A real full file system: a.cu's new copy does not fit, b.cu's does."""
    with _tmpfs(tmp_path / "disk", "512k") as disk:
        big = _big(300_000)
        (disk / "a.cu").write_bytes(big)
        (disk / "b.cu").write_bytes(G)
        result = fix(disk)
        _assert_unwritten(disk, result, "No space left on device", {"a.cu": big, "b.cu": G_FIXED})
        assert "Found 2 errors (1 fixed, 1 remaining)." in result.stdout


@ROOT_ONLY
def test_a_read_only_file_system_leaves_the_file_and_its_findings(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "disk", "1m") as disk:
        (disk / "a.cu").write_bytes(G)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = fix(disk)
        _assert_unwritten(disk, result, "Read-only file system", {"a.cu": G})
        assert "Found 1 error (0 fixed, 1 remaining)." in result.stdout


def test_a_file_another_program_holds_locked_is_left_alone(tmp_path: Path) -> None:
    """A `flock` on the file itself (another hipify-guard swapping it, or a program that asks not
    to be disturbed): the fix is not swapped in, and the file and its findings stay."""
    (tmp_path / "a.cu").write_bytes(G)
    with open(tmp_path / "a.cu", "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = fix(tmp_path)
    assert_says(result, 2, "./a.cu: error: locked by another program; not rewritten (run again)",
                "Found 1 error (0 fixed, 1 remaining).")
    assert os.listdir(tmp_path) == ["a.cu"] and (tmp_path / "a.cu").read_bytes() == G
