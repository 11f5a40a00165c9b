"""What the files that pull a header in put in front of it (spec §11.3, §11.4), for a header whose
own includes do not say what a name is:

- the project headers each file of its folder `#include`s before it (vLLM's `gguf_kernel.cu`
  includes `ggml-common.h`, which defines `__vsub4` for ROCm, right before `vecdotq.cuh`; magma's
  `.cu` files include `magma_internal.h` before their `.cuh` kernels);
- the pieces a shell script of its folder concatenates before it into one generated header
  (hypre's `headers`: `cat device_utils.h >> $INTERNAL_HEADER`, then `cat device_reducer.h >>
  $INTERNAL_HEADER`): the piece is compiled only there, after them.

A fact holds for the header where it holds for what every one of them puts in front.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from ..core.records import record
from ..core.reading import read_file
from .header_includes import HEADER_SUFFIXES, file_bytes, included_names, includes
from .header_memo import Reads

MAX_SIBLINGS = 400  # files of a header's folder read to find what pulls it in
MAX_SCRIPT = 256 << 10  # bytes; a larger file is no script that assembles headers
_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu", ".hip", *HEADER_SUFFIXES[:-2])
# `cat a.h b.h >> $OUT` (appends pieces) or `cat > $OUT` (starts the output again).
_CAT = re.compile(r"^[ \t]*cat\b([^\n|;&<>]*)(>>?)[ \t]*(\S+)", re.M)


@record(slots=True)
class Includer:
    """A file that pulls the header in, and the project headers it puts in front of it."""

    path: str
    before: tuple[str, ...]  # real paths, in order


def pulled_in_by(path: str, root: str, reads: Reads) -> list[Includer]:
    """The files of the header's folder that include it or concatenate it (the folder and the
    files read are added to `reads`: of the sources, their `#include` lines only)."""
    folder, name = os.path.split(path)
    reads.folders.add(folder)
    sources, scripts = _siblings(folder)
    reads.parts.update((source, include_lines(source)) for source in sources)
    reads.files.update(scripts)
    found = []
    for source in sources:
        if source != path and name in _included_names(source):
            headers = includes(source, root).headers
            found.append(Includer(source, headers[: headers.index(path)] if path in headers else ()))
    for script in scripts:
        for pieces in _concatenated(script):
            if name in pieces:
                before = (os.path.realpath(os.path.join(folder, piece)) for piece in pieces[: pieces.index(name)])
                found.append(Includer(script, tuple(piece for piece in before if os.path.isfile(piece))))
    return found


def include_lines(path: str) -> tuple[tuple[bytes, bytes], ...]:
    """What `pulled_in_by` takes from a source of the folder: its `#include` lines."""
    return tuple(included_names(file_bytes(path)))


@lru_cache(maxsize=256)
def _siblings(folder: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The C/C++/CUDA files of a folder and its shell scripts (a file without a suffix, or `.sh`,
    that starts with `#!`), at most MAX_SIBLINGS of them."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)[:MAX_SIBLINGS]
    except OSError:
        return (), ()
    files = [entry for entry in entries if entry.is_file()]
    sources = tuple(entry.path for entry in files if entry.name.endswith(_SOURCE_SUFFIXES))
    scripts = tuple(entry.path for entry in files if ("." not in entry.name or entry.name.endswith(".sh"))
                    and _is_script(entry.path))
    return sources, scripts


def _is_script(path: str) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == b"#!"
    except OSError:
        return False


@lru_cache(maxsize=4096)
def _included_names(path: str) -> frozenset[str]:
    """The file names (last path part) a file's `#include` lines name."""
    return frozenset(os.path.basename((quoted or angled).decode("utf-8", "surrogateescape"))
                     for quoted, angled in included_names(file_bytes(path)))


@lru_cache(maxsize=64)
def _concatenated(path: str) -> tuple[tuple[str, ...], ...]:
    """The pieces a script concatenates, per output, in order: `cat X >> OUT` appends X to OUT's
    pieces, `cat ... > OUT` starts OUT again (hypre's script reuses one variable for two headers)."""
    try:
        data, _ = read_file(path)
    except OSError:
        return ()
    if len(data) > MAX_SCRIPT:
        return ()
    outputs: dict[str, list[str]] = {}
    done: list[tuple[str, ...]] = []
    for match in _CAT.finditer(data.decode("utf-8", "replace")):
        pieces = [word for word in match.group(1).split() if not word.startswith("-")]
        target = match.group(3)
        if match.group(2) == ">" and target in outputs:
            done.append(tuple(outputs.pop(target)))
        outputs.setdefault(target, []).extend(pieces)
    return tuple(pieces for pieces in (*done, *map(tuple, outputs.values())) if pieces)
