#!/usr/bin/env python3
"""The pure-Python floor of a check run: walk, read and search every file once, in one process.

Usage: python bench/walk_floor.py EXTENSIONS NAMES ROOT...   (EXTENSIONS, NAMES: comma-separated)

`os.walk` of each root (symbolic links to folders not followed), one binary read of each file
whose extension (lower-cased) is one of EXTENSIONS, and `in` for each of NAMES in its bytes. No
`.gitignore`, no rules: what any Python tool pays before it does any work. Prints the number of
files read and of files that mention a name.
"""

from __future__ import annotations

import os
import sys


def floor(extensions: frozenset[str], names: list[bytes], roots: list[str]) -> tuple[int, int]:
    """(files read, files mentioning one of `names`) under `roots`."""
    read = mentioning = 0
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in files:
                if name.rpartition(".")[2].lower() not in extensions or "." not in name:
                    continue
                try:
                    with open(os.path.join(folder, name), "rb") as stream:
                        data = stream.read()
                except OSError:  # a broken symbolic link
                    continue
                read += 1
                mentioning += any(wanted in data for wanted in names)
    return read, mentioning


def main() -> None:
    extensions, names, *roots = sys.argv[1:]
    read, mentioning = floor(frozenset(extensions.split(",")), [n.encode() for n in names.split(",")], roots)
    print(f"{read} files read, {mentioning} mention a trigger name")


if __name__ == "__main__":
    main()
