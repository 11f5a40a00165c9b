"""Macros whose only definition in the build files is commented out: no build defines them.

mmcv's setup.py keeps `# define_macros = [('MMCV_USE_PARROTS', None)]` after the note "new
parrots op impl do not use MMCV_USE_PARROTS", and its CUDA kernels include the Parrots helpers
only under `#ifdef MMCV_USE_PARROTS`: in no build, so nothing of those helpers is ROCm's. A name
that a comment line of a build file defines (`('NAME', ...)` or `-DNAME` on a line that names
`define`) and that no build file defines in code is undefined in every build.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from .build_facts import Evidence

_COMMENT_LINE = re.compile(r"^[ \t]*#(.*define.*)$", re.M | re.I)
_NAMED = re.compile(r"""\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*,|-D[ ]?([A-Za-z_][A-Za-z0-9_]*)""")
_BUILD_SCRIPTS = ("CMakeLists.txt", ".cmake", ".py")


def retired_definitions(files: Sequence[str], texts: Callable[[str], str | None],
                        defined: Iterable[str]) -> tuple[tuple[str, Evidence], ...]:
    """(macro, the comment line) for each macro the build files `files` define only in comments."""
    defined = frozenset(defined)
    found: dict[str, Evidence] = {}
    for path in files:
        text = texts(path) if path.endswith(_BUILD_SCRIPTS) else None
        for match in _COMMENT_LINE.finditer(text or ""):
            for named in _NAMED.finditer(match.group(1)):
                name = named.group(1) or named.group(2)
                if name not in defined and name not in found:
                    line = text.count("\n", 0, match.start()) + 1
                    found[name] = Evidence(path, line, match.group(0).strip()[:200])
    return tuple(sorted(found.items()))
