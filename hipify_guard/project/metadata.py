"""What a rewritten file keeps of the file it replaces: owner, group, mode, extended attributes.

POSIX ACLs are the extended attributes `system.posix_acl_access` (and `..._default` on folders),
so copying the attributes keeps them. The owner is kept where the process may (root always
can; another user keeps what `chown` allows, and is told what it could not keep). An attribute
that cannot be read or written is an error: the file is then not rewritten, rather than
rewritten with less protection than it had.
"""

from __future__ import annotations

import errno
import os
import stat

from ..core.records import record

_UNSUPPORTED = (errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS)


@record
class Metadata:
    """The owner, group, permission bits and extended attributes of a file."""

    mode: int
    owner: int
    group: int
    attributes: dict[str, bytes]

    @classmethod
    def of(cls, path: str, status: os.stat_result) -> Metadata:
        """The metadata of the file at `path`, whose status is `status`."""
        return cls(stat.S_IMODE(status.st_mode), status.st_uid, status.st_gid, _attributes(path))

    def give_to(self, descriptor: int) -> str:
        """Give this metadata to the open file `descriptor`; what could not be kept, in words
        ("" when everything was: only the owner or group may be lost, where `chown` is not
        allowed). Raises OSError for an attribute."""
        lost = _chown(descriptor, self.owner, self.group)
        _set_attributes(descriptor, self.attributes)
        os.fchmod(descriptor, self.mode)  # last: chown clears set-user-ID bits, and ACLs move the group bits
        return lost


def _attributes(path: str) -> dict[str, bytes]:
    """Every extended attribute of `path` (none where the system or file system has none)."""
    names = _names(path)
    found = {}
    for name in names:
        try:
            found[name] = os.getxattr(path, name, follow_symlinks=False)
        except OSError as error:
            if error.errno == errno.ENODATA:  # removed since it was listed
                continue
            raise _not_kept(name, error) from None
    return found


def _names(target: str | int) -> list[str]:
    if not hasattr(os, "listxattr"):  # not Linux: extended attributes are not kept
        return []
    try:
        return os.listxattr(target, follow_symlinks=False) if isinstance(target, str) else os.listxattr(target)
    except OSError as error:
        if error.errno in _UNSUPPORTED:
            return []
        raise


def _set_attributes(descriptor: int, wanted: dict[str, bytes]) -> None:
    """Make the attributes of the new file those of the old one: a default ACL inherited from the
    folder, for one, goes when the old file had no ACL."""
    present = set(_names(descriptor))
    for name in present - wanted.keys():
        try:
            os.removexattr(descriptor, name)
        except OSError as error:
            raise _not_kept(name, error) from None
    for name, value in wanted.items():
        try:
            if name in present and os.getxattr(descriptor, name) == value:
                continue  # (a label the system gave the new file already: nothing to ask for)
            os.setxattr(descriptor, name, value)
        except OSError as error:
            raise _not_kept(name, error) from None


def _not_kept(name: str, error: OSError) -> OSError:
    return OSError(error.errno, f"cannot keep its extended attribute {name} ({error.strerror})")


def _chown(descriptor: int, owner: int, group: int) -> str:
    """Owner and group as far as `chown` allows: both, else the group alone; what was lost."""
    for wanted in ((owner, group), (-1, group)):
        try:
            os.fchown(descriptor, *wanted)
            break
        except OSError:  # EPERM; EINVAL: an ID this user namespace does not map
            continue
    now = os.fstat(descriptor)
    lost = [f"owner {owner} (now {now.st_uid})"] if now.st_uid != owner else []
    lost += [f"group {group} (now {now.st_gid})"] if now.st_gid != group else []
    return f"could not keep its {' and '.join(lost)}: not permitted" if lost else ""
