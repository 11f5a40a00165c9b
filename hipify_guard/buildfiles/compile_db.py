"""Read a compilation database (`compile_commands.json`, as CMake and Bear write it).

Each entry names a translation unit (`file`, relative to `directory`, which is itself relative to
the database's folder when it is not absolute) and its command, as an `arguments` list or a
`command` string (split with `shlex`, as a POSIX shell would). Only what the preprocessor sees is
kept (see `compile_flags`). Errors name the database and, for a bad entry, its index.
"""

from __future__ import annotations

import json
import os
import shlex

from ..core.records import record
from ..model.compile_flags import Flags, parse_flags

_NEEDS_SHELL_RULES = frozenset("'\"\\")  # quotes and escapes: only shlex splits these right


class CompileDbError(Exception):
    """A compilation database that cannot be used; the message names the file."""


@record(slots=True)
class Entry:
    """One compile command: a translation unit and its preprocessor flags."""

    file: str  # absolute, normalised
    flags: Flags


def read_database(path: str) -> list[Entry]:
    """Every entry of the database at `path`. Raises CompileDbError."""
    try:
        with open(path, "rb") as stream:
            document = json.loads(stream.read())
    except OSError as error:
        raise CompileDbError(f"{path}: cannot read the compilation database: {error.strerror or error}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise CompileDbError(f"{path}: not a JSON compilation database: {error}") from None
    if not isinstance(document, list):
        raise CompileDbError(f"{path}: not a compilation database: expected a JSON array of entries")
    base = os.path.dirname(os.path.abspath(path))
    return [_entry(item, index, path, base) for index, item in enumerate(document)]


def _entry(item: object, index: int, path: str, base: str) -> Entry:
    if not isinstance(item, dict):
        raise CompileDbError(f"{path}: entry {index}: expected an object with `directory`, `file` and a command")
    directory, file = item.get("directory"), item.get("file")
    if not isinstance(directory, str) or not isinstance(file, str):
        raise CompileDbError(f"{path}: entry {index}: `directory` and `file` must be strings")
    directory = os.path.normpath(os.path.join(base, directory))
    return Entry(os.path.normpath(os.path.join(directory, file)), parse_flags(_arguments(item, index, path), directory))


def _arguments(item: dict, index: int, path: str) -> list[str]:
    arguments = item.get("arguments")
    if isinstance(arguments, list) and all(isinstance(word, str) for word in arguments):
        return arguments[1:]  # the compiler itself is not a flag
    command = item.get("command")
    if not isinstance(command, str):
        raise CompileDbError(f"{path}: entry {index}: needs `arguments` (a list of strings) or `command` (a string)")
    if not _NEEDS_SHELL_RULES.intersection(command):
        return command.split()[1:]  # what shlex gives for plain words, ten times faster
    try:
        return shlex.split(command)[1:]
    except ValueError as error:
        raise CompileDbError(f"{path}: entry {index}: cannot split `command`: {error}") from None
