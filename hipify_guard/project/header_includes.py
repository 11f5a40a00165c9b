"""Where a file's `#include` lines lead in its project (spec §11.3, §11.4), for the included-header
facts: `"..."` in the including file's folder, then in the project's `include/` and top folders;
`<...>` in those two (`<mscclpp/device.hpp>`); a configured header through its template
(`config.hpp` as `config.hpp.in`); else, for an include folder of the build's (`-Icore/src`), the
one project header whose path ends with the name (the project's header index, from its walk).
Never outside the project. Each file is read once per run.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from functools import lru_cache

from ..core.reading import read_file
from .header_memo import Included
from ..walk.project_walk import DIR, Scan, walk_of

TEMPLATES = ("", ".in", ".cmake.in", ".cmake")  # a configured header is read from its template
HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp", ".tcc", ".in", ".cmake")
_NOT_WALKED = frozenset({"build", "__pycache__", "node_modules", "third_party", "3rdparty"})
_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)')  # (the line start checked)


@lru_cache(maxsize=512)
def file_bytes(path: str) -> bytes:
    """A file's bytes (b"" when it cannot be read), read once per run."""
    try:
        return read_file(path)[0]
    except OSError:
        return b""


def included_names(data: bytes) -> list[tuple[bytes, bytes]]:
    """("quoted", "") or ("", "angled") for each `#include` line of a file's bytes."""
    found = []
    for match in _INCLUDE.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        if not data[line_start : match.start()].strip(b" \t"):  # (not `// #include ...`)
            found.append((match.group(1) or b"", match.group(2) or b""))
    return found


@lru_cache(maxsize=4096)
def includes(path: str, root: str) -> Included:
    """The project headers a file's `#include "..."` lines name, as real paths under `root`, and
    where they were looked for."""
    data = file_bytes(path)
    angled = (os.path.join(root, "include"), root)
    quoted = (os.path.dirname(path), *angled)
    headers = []
    folders = set()
    indexed = False
    for name, system in included_names(data):
        named = (name or system).decode("utf-8", "surrogateescape")
        found = None
        for folder in quoted if name else angled:
            for template in TEMPLATES:
                joined = os.path.join(folder, named + template)
                folders.add(os.path.dirname(joined))
                if os.path.isfile(joined) and ((candidate := os.path.realpath(joined)) + os.sep).startswith(
                        os.path.join(root, "")):
                    found = candidate
                    break
            if found is not None:
                break
        if found is None:  # an include folder of the build's (`-Icore/src`): the one project file of that name
            found = unique_header(root, named)
            indexed = True
        if found is not None:
            headers.append(found)
    return Included(tuple(headers), frozenset(folders), indexed)


def unique_header(root: str, name: str) -> str | None:
    """The one header of the project whose path ends with `name` (`Kokkos_Core.hpp` in
    `core/src/`, `RAJA/config.hpp` as `include/RAJA/config.hpp.in`), or None (none, or several)."""
    wanted = name.replace(os.sep, "/").lstrip("./")
    candidates = [path for template in TEMPLATES for path in headers_named(root).get(posixpath.basename(wanted + template), ())
                  if path.replace(os.sep, "/").endswith("/" + wanted + template)]
    return candidates[0] if len(candidates) == 1 else None


@lru_cache(maxsize=16)
def headers_named(root: str) -> dict[str, tuple[str, ...]]:
    """The project's headers by file name (from the project's walk, when first asked); each path
    with its links resolved."""
    found: dict[str, list[str]] = {}
    real_root = os.path.realpath(root)

    def enter(folder: str, name: str, listing: Scan) -> bool:
        return name not in _NOT_WALKED and not name.startswith(".")

    for folder, listing in walk_of(root).folders(enter):
        real_folder = os.path.join(real_root, folder) if folder else real_root
        for name, kind in zip(listing.names, listing.kinds):
            if kind != DIR and name.endswith(HEADER_SUFFIXES):
                found.setdefault(name, []).append(listing.links.get(name) or os.path.join(real_folder, name))
    return {name: tuple(sorted(paths)) for name, paths in found.items()}


@lru_cache(maxsize=16)
def index_digest(root: str) -> bytes:
    """A digest of the project's header index: kept facts that asked it hold while it is the same."""
    text = "\n".join(f"{name}\0{chr(0).join(paths)}" for name, paths in sorted(headers_named(root).items()))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]
