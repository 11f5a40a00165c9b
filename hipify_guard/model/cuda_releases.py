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
from typing import TYPE_CHECKING, NamedTuple

from ..cpp.evaluator import EvalError, truth
from ..cpp.groups import Arm
from ..cpp.nodes import Binary, Defined, Identifier, Node, Number, walk
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


_VALUES = tuple(_values(release) for release in RELEASES)  # made once: every implicit guard tries them all


def releases_taking(file: FileAnalysis, arm: Arm, tests: Sequence[tuple[Node, bool | None]]) -> str | None:
    """The CUDA releases whose branch ROCm takes at `arm` (`old CUDA (before 11.0)`), given the
    decisive CUDA tests and their values on ROCm; None when a test reads a macro no release
    gives a value to (`__CUDACC_VER_BUILD__`, a configured one) or has no single value on ROCm,
    or when no release takes the branch."""
    chosen = _releases_like_rocm(file, arm, tests)
    return _describe(chosen) if chosen else None


class OldCuda(NamedTuple):
    """ROCm's outcome at a guard is that of the CUDA releases before `until` only."""

    text: str  # `old CUDA (before 9.2)`
    until: Release  # the first release of the other side


def old_cuda_only(file: FileAnalysis, arm: Arm, tests: Sequence[tuple[Node, bool | None]]) -> OldCuda | None:
    """The old CUDA releases whose outcome ROCm has at `arm` today, when they are exactly the
    releases before some version (the guard tells old CUDA from new, and ROCm is on the old
    side), else None."""
    chosen = _releases_like_rocm(file, arm, tests)
    if not chosen or len(chosen) == len(RELEASES) or chosen != list(RELEASES[:len(chosen)]):
        return None
    return OldCuda(_describe(chosen), RELEASES[len(chosen)])


def _releases_like_rocm(file: FileAnalysis, arm: Arm, tests: Sequence[tuple[Node, bool | None]]) -> list[Release] | None:
    """The releases, in order, whose outcome at `arm` is ROCm's (see `releases_taking`), or None;
    found once per arm (its tests are the arm's own: a finding's message and its auto fix ask)."""
    return file.kept((_releases_like_rocm, arm.directive.hash), lambda: _sweep_releases(file, arm, tests))


def _sweep_releases(file: FileAnalysis, arm: Arm, tests: Sequence[tuple[Node, bool | None]]) -> list[Release] | None:
    """What `_releases_like_rocm` finds, trying every release."""
    if not tests or any(value is None for _, value in tests) or any(
            isinstance(item, (Identifier, Defined)) and item.name not in _MACROS for test, _ in tests for item in walk(test)):
        return None
    earlier = [term.node for member in arm.earlier if (term := file.condition(member).term) is not None]
    comparisons = _comparisons([test for test, _ in tests] + earlier)
    if comparisons is None:
        taken = [_takes(values, tests, earlier) for values in _VALUES]
    else:  # one evaluation per set of comparison outcomes, not one per release
        columns = [[_COMPARE[op](values[name], number) for values in _VALUES] for name, op, number in comparisons]
        known: dict[tuple[bool, ...], bool | None] = {}
        taken = []
        for values, outcomes in zip(_VALUES, zip(*columns) if columns else [()] * len(_VALUES)):
            if outcomes not in known:
                known[outcomes] = _takes(values, tests, earlier)
            taken.append(known[outcomes])
    if None in taken:
        return None
    return [release for release, take in zip(RELEASES, taken) if take]


_COMPARE = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "==": int.__eq__, "!=": int.__ne__}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _comparisons(nodes: list[Node]) -> list[tuple[str, str, int]] | None:
    """(macro, op, number) of each comparison of a release's macro with a number in `nodes`, when
    those comparisons are all that the release changes in them (every release macro is an operand
    of one); else None. Two releases with the same outcomes then give every node the same value."""
    found: list[tuple[str, str, int]] = []
    compared: set[int] = set()  # id() of the identifiers that are operands of a comparison
    for node in (item for root in nodes for item in walk(root)):
        if isinstance(node, Binary) and node.op in _COMPARE:
            left, right = node.left, node.right
            if isinstance(left, Identifier) and left.name in _MACROS and isinstance(right, Number):
                found.append((left.name, node.op, right.value))
                compared.add(id(left))
            elif isinstance(right, Identifier) and right.name in _MACROS and isinstance(left, Number):
                found.append((right.name, _MIRROR[node.op], left.value))
                compared.add(id(right))
        elif isinstance(node, Identifier) and node.name in _MACROS and id(node) not in compared:
            return None
    return found


def _takes(values: dict[str, int], tests: Sequence[tuple[Node, bool | None]], earlier: list[Node]) -> bool | None:
    """Whether the release of these macro `values` takes the branch ROCm takes (None: a test has
    no value there)."""
    try:
        for test, wanted in tests:
            if truth(test, values) != wanted:
                return False
    except EvalError:
        return None
    if not earlier:
        return True
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
