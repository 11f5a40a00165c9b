"""The flags of one compile command that decide what the preprocessor sees.

Read from a compile command's arguments (after `@file` response files are expanded): the macro
definitions `-D NAME[=VALUE]` / `-U NAME` in command-line order, and the include search paths
`-iquote`, `-I`, `-isystem` / `-idirafter`, and `-include FILE` (read before the source). Both the
joined (`-DX`, `-Iinc`) and the split (`-D X`, `-I inc`) forms are accepted; relative paths are
relative to the entry's `directory`. Nothing else of the command matters here.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence

from ..core.records import record

MAX_RESPONSE_DEPTH = 8
Macro = tuple[str, "str | None"]  # (name, replacement text) for -D; (name, None) for -U

# option -> the Flags field it feeds; "-D"/"-U" are macros, the others folders or files.
_WITH_VALUE = {
    "-D": "D", "--define-macro": "D", "-U": "U", "--undefine-macro": "U",
    "-I": "include", "--include-directory": "include", "-iquote": "quote",
    "-isystem": "system", "-idirafter": "system", "--include-directory-after": "system",
    "-include": "forced", "--include": "forced",
}
_JOINED = ("-D", "-U", "-I", "-isystem", "-iquote", "-idirafter")  # also written -DX, -Iinc


@record(slots=True)
class Flags:
    """What one compile command tells the preprocessor."""

    macros: tuple[Macro, ...] = ()
    quote: tuple[str, ...] = ()  # -iquote: searched for "..." only, after the file's own folder
    include: tuple[str, ...] = ()  # -I: searched for "..." and <...>
    system: tuple[str, ...] = ()  # -isystem, -idirafter: system headers (never followed)
    forced: tuple[str, ...] = ()  # -include FILE: read before the source


def parse_flags(arguments: Sequence[str], directory: str) -> Flags:
    """The preprocessor flags among `arguments` (response files `@file` expanded)."""
    fields: dict[str, list] = {"macros": [], "quote": [], "include": [], "system": [], "forced": []}
    words = expand_responses(arguments, directory)
    index = 0
    while index < len(words):
        option, value, index = _next_option(words, index)
        if option is None:
            continue
        target = _WITH_VALUE[option]
        if target in ("D", "U"):
            fields["macros"].append(_macro(value) if target == "D" else (value.strip(), None))
        else:
            fields[target].append(os.path.normpath(os.path.join(directory, value)))
    return Flags(**{name: tuple(items) for name, items in fields.items()})


def _next_option(words: Sequence[str], index: int) -> tuple[str | None, str, int]:
    """(option, its value, index after it) for a preprocessor option at `index`, else (None, "", index + 1)."""
    word = words[index]
    if word in _WITH_VALUE:
        if index + 1 < len(words):
            return word, words[index + 1], index + 2
        return None, "", index + 1
    if word.startswith("--"):
        name, equals, value = word.partition("=")
        if equals and name in _WITH_VALUE:
            return name, value, index + 1
        return None, "", index + 1
    for option in _JOINED:
        if word.startswith(option) and len(word) > len(option):
            return option, word[len(option):], index + 1
    return None, "", index + 1


def _macro(text: str) -> Macro:
    """`NAME` -> (NAME, "1"); `NAME=` -> (NAME, ""); `NAME=VALUE` -> (NAME, VALUE)."""
    name, equals, value = text.partition("=")
    return name.strip(), value if equals else "1"


def expand_responses(arguments: Sequence[str], directory: str, depth: int = 0) -> list[str]:
    """`arguments` with each readable `@file` replaced by its words (shell-quoted, nested up to a depth)."""
    words: list[str] = []
    for argument in arguments:
        if not argument.startswith("@") or len(argument) == 1 or depth >= MAX_RESPONSE_DEPTH:
            words.append(argument)
            continue
        try:
            with open(os.path.join(directory, argument[1:]), encoding="utf-8", errors="surrogateescape") as stream:
                text = stream.read()
            words += expand_responses(shlex.split(text), directory, depth + 1)
        except (OSError, ValueError):  # unreadable or unbalanced quotes: keep the word, as compilers do
            words.append(argument)
    return words
