"""The outcome of the conditional directive on a line, on CUDA and on each ROCm model: what
`eval` prints for its condition, as the file sees it there (an editor's hover).

As in the rules, the file's own definitions before the directive count (a threshold has its
value; a CUDA version macro the file redefines is free, not the model's value), the file is
judged under its own platforms (`FileAnalysis.platforms`), and a directive that a platform never
reaches (inside `#ifdef USE_ROCM`, say) says so.
"""

from __future__ import annotations

import bisect
import re
from operator import attrgetter

from ..core.records import record
from ..cpp.groups import Arm
from ..model.analysis import FileAnalysis
from ..model.platforms import Platform
from .evaluation import OUTCOME_TEXT, platform_label

_CONTINUATION = re.compile(r"\\(?:\r\n|\n|\r)")


@record(slots=True)
class PlatformOutcome:
    """A condition's value over every configuration of one platform (a CUDA set or a ROCm model)."""

    platform: str  # "cuda", "hip", "torch-hipify", or a configured model's name
    label: str  # "CUDA", "ROCm, native HIP (hip)", as `eval` prints it
    rocm: bool
    outcome: str  # "true", "false", "depends", "error" or "unknown"
    description: str  # the outcome in words, as `eval` prints it
    reached: bool  # whether the platform evaluates the directive at all (its enclosing groups allow it)


@record(slots=True)
class ConditionalOutcome:
    """A conditional directive (`#if`, `#elif`, `#ifdef`, `#ifndef`, ...) and its outcomes."""

    directive: str  # `#if CUDA_VERSION >= 11000`, continuations joined, blanks collapsed
    row: int  # its first line (1-based)
    end_row: int  # its last line (after backslash continuations)
    outcomes: tuple[PlatformOutcome, ...]  # CUDA first, then each ROCm model
    error: str = ""  # why the condition has no value (it does not parse), else ""


def conditional_at(file: FileAnalysis, row: int) -> ConditionalOutcome | None:
    """The conditional directive with a condition whose lines include 1-based `row`, or None."""
    directives = file.scan.directives
    lines = file.lines
    if not 1 <= row <= len(lines.starts):
        return None
    next_line = lines.starts[row] if row < len(lines.starts) else len(file.data) + 1
    index = bisect.bisect_left(directives, next_line, key=attrgetter("hash")) - 1
    if index < 0 or lines.line_of(directives[index].end) < row:
        return None
    arm = file.tree.arm_of.get(directives[index].hash)
    if arm is None or arm.directive.kind == "else":
        return None
    directive, condition = arm.directive, file.condition(arm)
    argument = _CONTINUATION.sub(" ", file.text(*directive.argument))
    platforms = (file.cuda, *file.rocm_models)
    return ConditionalOutcome(f"#{directive.kind} {' '.join(argument.split())}", lines.line_of(directive.hash),
                              lines.line_of(directive.end), tuple(_outcome(file, arm, p) for p in platforms),
                              condition.error.message if condition.error else "")


def _outcome(file: FileAnalysis, arm: Arm, platform: Platform) -> PlatformOutcome:
    value = file.outcome(arm, platform)
    return PlatformOutcome(platform.name, platform_label(platform), platform.is_rocm, value.value, OUTCOME_TEXT[value],
                           file.reachable(arm, platform, inside=False))
