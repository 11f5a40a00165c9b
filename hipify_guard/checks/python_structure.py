"""HG904: a Python file that does not parse, so it is neither checked nor ever rewritten."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ..core.findings import Finding
from ..core.languages import PYTHON
from ..model.python_analysis import PythonFile
from .registry import check

UNPARSABLE = "HG904"


@check(UNPARSABLE, language=PYTHON)  # no trigger names: it runs on any file another Python rule looks at
def unparsable_python(file: PythonFile) -> Iterator[Finding]:
    """The file's bytes are no Python that this interpreter's `ast` reads (checked only when
    another Python rule has something to look for in it, or, selected alone, when any could)."""
    problem = file.source.problem
    if problem is not None:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        message = (f"cannot parse this file as Python {version}: {problem.message}; "
                   "it is not checked and never rewritten")
        yield Finding(UNPARSABLE, message, problem.start, problem.end)
