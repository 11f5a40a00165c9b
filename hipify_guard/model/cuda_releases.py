"""Which CUDA releases take the branch that ROCm takes by accident, in words for HG102.

ROCm's value of an implicit guard follows its decisive CUDA tests (spec §11.2), so ROCm takes the
branch of the CUDA releases on which every such test has the value it has on ROCm (and that no
earlier arm of the conditional takes first). `CUDA_VERSION < 11000` gives ROCm the branch of
CUDA before 11.0, old CUDA; `!defined(CUDA_VERSION) || CUDA_VERSION >= 12000` the branch of CUDA
12.0 and newer; `CUDA_VERSION != 10020` that of every release but 10.2. Each release from 1.0 to
the last plausible major (`scales.MAX_MAJOR`), minors 0-9, is tried.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cpp.evaluator import EvalError, truth
from ..cpp.groups import Arm
from ..cpp.nodes import Defined, Identifier, Node, walk
from .partial import constant, simplify
from .platforms import Platform
from .scales import CUDA, MAX_MAJOR

if TYPE_CHECKING:
    from .analysis import FileAnalysis

Release = tuple[int, int]
RELEASES: tuple[Release, ...] = tuple((major, minor) for major in range(1, MAX_MAJOR + 1) for minor in range(10))
_MACROS = frozenset({"CUDA_VERSION", "CUDART_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__"})


def _values(release: Release) -> dict[str, int]:
    """The CUDA version macros as a release's nvcc and headers define them."""
    major, minor = release
    number = CUDA.encode((major, minor, 0))
    return {"CUDA_VERSION": number, "CUDART_VERSION": number, "__CUDACC_VER_MAJOR__": major,
            "__CUDACC_VER_MINOR__": minor}


def releases_taking(file: FileAnalysis, arm: Arm, tests: Sequence[tuple[Node, bool | None]]) -> str | None:
    """The CUDA releases whose branch ROCm takes at `arm` (`old CUDA (before 11.0)`), given the
    decisive CUDA tests and their values on ROCm; None when a test reads a macro no release
    gives a value to (`__CUDACC_VER_BUILD__`, a configured one) or has no single value on ROCm,
    or when no release takes the branch."""
    if not tests or any(value is None for _, value in tests) or any(
            isinstance(item, (Identifier, Defined)) and item.name not in _MACROS for test, _ in tests for item in walk(test)):
        return None
    earlier = [term.node for member in arm.earlier if (term := file.condition(member).term) is not None]
    taken = [_takes(release, tests, earlier) for release in RELEASES]
    if None in taken or not any(taken):
        return None
    return _describe([release for release, take in zip(RELEASES, taken) if take])


def _takes(release: Release, tests: Sequence[tuple[Node, bool | None]], earlier: list[Node]) -> bool | None:
    """Whether `release` takes the branch ROCm takes (None: a test has no value there)."""
    values = _values(release)
    try:
        if any(truth(test, values) != wanted for test, wanted in tests):
            return False
    except EvalError:
        return None
    platform = Platform("cuda-release", "a CUDA release", False, values)
    return not any(constant(simplify(node, platform)) for node in earlier)


def _describe(chosen: list[Release]) -> str:
    """Releases (in order, at least one) as words: old CUDA, new CUDA, every release but one, or runs."""
    runs: list[tuple[int, int]] = []  # (first, last) indices into RELEASES
    index = {release: position for position, release in enumerate(RELEASES)}
    for release in chosen:
        position = index[release]
        if runs and runs[-1][1] == position - 1:
            runs[-1] = (runs[-1][0], position)
        else:
            runs.append((position, position))
    end = len(RELEASES) - 1
    if runs == [(0, end)]:
        return "every CUDA release"
    if len(runs) == 1 and runs[0][0] == 0:
        return f"old CUDA (before {_text(runs[0][1] + 1)})"
    if len(runs) == 1 and runs[0][1] == end:
        return f"new CUDA ({_text(runs[0][0])} and newer)"
    if len(runs) == 2 and runs[0][0] == 0 and runs[1][1] == end and runs[1][0] - runs[0][1] == 2:
        return f"every CUDA release but {_text(runs[0][1] + 1)}"
    parts = [_run(first, last, end) for first, last in runs]
    return "CUDA " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _run(first: int, last: int, end: int) -> str:
    if first == 0:
        return f"before {_text(last + 1)}"
    if last == end:
        return f"from {_text(first)} on"
    return _text(first) if first == last else f"{_text(first)} to {_text(last)}"


def _text(position: int) -> str:
    major, minor = RELEASES[position]
    return f"{major}.{minor}"
