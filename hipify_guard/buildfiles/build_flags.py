"""Macro definitions in build-file words: `-DNAME[=VALUE]` flags and `NAME[=VALUE]` definitions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from .build_conditions import words

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INTEGER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)[uUlL]*")
_CMAKE_SETTING = re.compile(r"CMAKE_|[A-Za-z0-9_]*_(?:DIR|ROOT|PATH|HOME|EXECUTABLE|COMPILER)$")
_CMAKE_VALUES = frozenset({"on", "off", "true", "false", "yes", "no"})
_FLAG_WORDS = frozenset({"flags", "options", "definitions", "defines", "defs", "cflags", "cxxflags", "cppflags",
                         "nvccflags", "args", "macros", "opts", "copts"})
_NOT_COMPILE = frozenset({"link", "linker", "ldflags", "install", "pip", "setup", "git"})


def macro(text: str) -> tuple[str, str | None] | None:
    """`NAME` -> (NAME, "1"); `NAME=` -> (NAME, ""); `NAME=5` -> (NAME, "5"); `NAME=other` -> (NAME, None).

    None when `text` does not define an object-like macro (`F(x)=...`, `${X}`, an empty name).
    """
    name, equals, value = text.partition("=")
    if not _NAME.fullmatch(name):
        return None
    if not equals:
        return name, "1"
    value = value.strip()
    return name, value if value == "" or _INTEGER.fullmatch(value) else None


def flag_definitions(arguments: Iterable[str]) -> Iterator[tuple[str, str | None]]:
    """The macros `-DNAME[=V]` / `-D NAME` / `/DNAME` flags define, each argument split at spaces.

    Flags that look like settings for CMake itself (`-DCMAKE_BUILD_TYPE=...`, `-DUSE_ROCM=ON`,
    `-DFOO_DIR=...`), not for a compiler, are left out.
    """
    pending = False
    for argument in arguments:
        for word in argument.split():
            if pending:
                text, pending = word, False
            elif word in ("-D", "/D"):
                pending = True
                continue
            elif word.startswith(("-D", "/D")) and len(word) > 2:
                text = word[2:]
            else:
                continue
            found = macro(text)
            if found is not None and not _for_cmake(text):
                yield found


def _for_cmake(text: str) -> bool:
    name, _, value = text.partition("=")
    return bool(_CMAKE_SETTING.match(name)) or value.strip().strip("\"'").lower() in _CMAKE_VALUES


@lru_cache(maxsize=4096)
def holds_flags(name: str) -> bool:
    """Whether a variable or keyword named `name` holds compiler flags (`HIP_CXX_FLAGS`, `NVCC_FLAGS`, `cxx_args`)."""
    parts = set(words(name))
    if "cmake" in parts and "flags" not in parts:  # CMAKE_ARGS, cmake_args: for a CMake run
        return False
    return bool(parts & _FLAG_WORDS) and not parts & _NOT_COMPILE
