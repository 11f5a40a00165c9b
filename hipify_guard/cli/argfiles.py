"""`@FILE` among the paths: the paths listed in FILE, one per line."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class ArgfileError(ValueError):
    """An argument file that cannot be read."""


def expand_argfiles(paths: Iterable[str]) -> list[str]:
    """Replace each `@FILE` by the non-empty lines of FILE (not recursive; `./@x` names a file `@x`)."""
    result: list[str] = []
    for path in paths:
        if path.startswith("@") and len(path) > 1:
            result += read_argfile(path[1:])
        else:
            result.append(path)
    return result


def read_argfile(name: str) -> list[str]:
    """The paths in one argument file: one per line, surrounding blanks and empty lines dropped."""
    try:
        text = Path(name).read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        raise ArgfileError(f"cannot read argument file @{name}: {error.strerror or error}") from None
    return [line.strip() for line in text.splitlines() if line.strip()]
