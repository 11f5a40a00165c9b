"""Source paths and globs as build files name them -> patterns relative to the project root."""

from __future__ import annotations

import os
import re

SOURCE_EXTENSIONS = frozenset({"cu", "cuh", "cpp", "cc", "cxx", "c++", "cp", "c", "h", "hh", "hpp", "hxx", "h++", "hip",
                               "inl", "ipp", "tcc"})
SOURCE = re.compile(r"\.(?:{})$".format("|".join(re.escape(extension) for extension in sorted(SOURCE_EXTENSIONS))),
                    re.IGNORECASE)
UNKNOWN_TEXT = "\0"  # stands for text a reader did not follow
GENERATED = "\1"  # stands for a folder of the build tree (`${CMAKE_CURRENT_BINARY_DIR}`): generated files
_HEADERS = frozenset({"h", "hh", "hpp", "hxx", "h++", "cuh", "inl", "ipp", "tcc", "inc"})
_UNKNOWN_RUN = re.compile("\0+")
_LITERAL = re.compile(r"[^\0*/.]")


def is_header(path: str) -> bool:
    """Whether a source path is a header (compiled only as part of what includes it)."""
    return path.rpartition(".")[2].lower() in _HEADERS


def relative_path(root: str, path: str) -> str | None:
    """`path` (absolute, or relative to `root`) relative to `root` with `/` ("" for the root), None outside it."""
    path = os.path.normpath(os.path.join(root, path))
    if path == root:
        return ""
    if not path.startswith(root) or path[len(root)] != os.sep:
        return None
    return path[len(root) + 1:].replace(os.sep, "/")


def source_pattern(root: str, base: str, text: str, recursive: bool = False) -> tuple[str, bool] | None:
    """(pattern relative to `root`, vague) for a source path or glob taken from folder `base`; None for no source.

    A path into the build tree keeps GENERATED in front: it matches no file of the tree. Unknown text becomes `**`, so a vague pattern matches at least every file the text may name
    (`\\0/csrc/x.cu` -> `**/csrc/x.cu`, `csrc/cuda/\\0_cuda.cu` -> `csrc/cuda/**_cuda.cu`). A
    `file(GLOB_RECURSE)` pattern matches its name in every folder below its own.
    """
    text = text.replace("\\", "/")
    if not SOURCE.search(text):
        return None
    if GENERATED in text:  # a generated file: a pattern no file of the tree matches, vague
        return GENERATED + text[text.rindex(GENERATED) + 1:], True
    vague = UNKNOWN_TEXT in text
    if vague and not _LITERAL.search(SOURCE.sub("", text)):
        return None  # `\0.cu`: nothing but the extension is known (a generated name)
    if text.startswith(UNKNOWN_TEXT):
        return _UNKNOWN_RUN.sub("**", text).replace("**/**", "**"), True
    relative = relative_path(root, os.path.join(base, _UNKNOWN_RUN.sub("**", text)))
    if not relative:
        return None
    if recursive:
        folder, _, name = relative.rpartition("/")
        relative = f"{folder}/**/{name}".replace("**/**", "**") if folder else f"**/{name}"
    return relative, vague
