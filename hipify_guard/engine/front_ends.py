"""The front ends the engine dispatches to, by the file's language (core.languages): how a file
is analysed, which rule's findings mean "never rewrite it", how a rewrite is proven, and whether
removing a suppression comment leaves the code the same."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Union

from ..core.findings import Edit, Expectation
from ..core.languages import CPP, PYTHON
from ..model.settings import Settings

if TYPE_CHECKING:  # (each front end is imported by the first file of its language in a run)
    from ..model.analysis import FileAnalysis
    from ..model.python_analysis import PythonFile

Analysis = Union["FileAnalysis", "PythonFile"]


class FrontEnd(NamedTuple):
    """What the engine needs to know about one language."""

    analyse: Callable[[str, bytes, Settings], Analysis]
    # Raises verify.VerificationError unless the new bytes are the old ones with exactly the promised changes.
    verify: Callable[[Analysis, bytes, Sequence[Edit], Sequence[Expectation]], None]
    unreadable: str  # the rule whose findings mean the file is never rewritten
    same_code: Callable[[Analysis, bytes, Sequence[Edit]], bool]  # after a comment edit


def _cpp_file(path: str, data: bytes, settings: Settings) -> FileAnalysis:
    from ..model.analysis import FileAnalysis

    return FileAnalysis(path, data, settings)


def _cpp_verify(file: FileAnalysis, new: bytes, edits: Sequence[Edit], expectations: Sequence[Expectation]) -> None:
    from ..fix import verify

    verify.verify(file, new, edits, expectations)


def _cpp_same_code(file: FileAnalysis, new: bytes, edits: Sequence[Edit]) -> bool:
    """C/C++: no edit inside a directive's condition (the engine proves conditions, not comments
    in them), and the same tokens on the same logical lines."""
    from ..fix.comment_removal import same_code

    inside = any(d.argument[0] < e.end and e.start < d.argument[1] for d in file.scan.directives for e in edits)
    return not inside and same_code(file.data, new)


def _python_file(path: str, data: bytes, settings: Settings) -> PythonFile:
    from ..model.python_analysis import PythonFile

    return PythonFile(path, data, settings)


def _python_verify(file: PythonFile, new: bytes, edits: Sequence[Edit], expectations: Sequence[Expectation]) -> None:
    from ..fix import python_verify

    python_verify.verify(file, new, edits, expectations)


def _python_same_code(file: PythonFile, new: bytes, edits: Sequence[Edit]) -> bool:
    from ..fix import python_verify

    return python_verify.same_tree(file.data, new)


FRONT_ENDS = {
    CPP: FrontEnd(_cpp_file, _cpp_verify, "HG901", _cpp_same_code),
    PYTHON: FrontEnd(_python_file, _python_verify, "HG904", _python_same_code),
}
