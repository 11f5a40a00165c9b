"""HG106: HIP platform macros used the wrong way."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.findings import SAFE, UNSAFE, Edit, Expectation, Finding, Fix
from ..cpp.nodes import Defined, Identifier, walk
from ..model.analysis import FileAnalysis
from ..model.platforms import PLATFORM_MACROS, UNDEFINED
from .registry import check

RENAMED = {"__HIP_PLATFORM_HCC__": "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_NVCC__": "__HIP_PLATFORM_NVIDIA__"}


@check("HG106", lambda settings: PLATFORM_MACROS)
def hip_platform_macro_misuse(file: FileAnalysis) -> Iterator[Finding]:
    """Deprecated HIP platform macros, and platform macros tested without `defined`."""
    for arm in file.arms:
        condition = file.condition(arm).term
        if condition is None or not condition.names & set(PLATFORM_MACROS):
            continue
        if not file.reachable_anywhere(arm):
            continue
        anchor = file.text(arm.directive.hash, arm.directive.argument[1])
        tested = {node.name for node in walk(condition.node) if isinstance(node, Defined)}
        for node in walk(condition.node):
            if isinstance(node, Identifier) and node.name in PLATFORM_MACROS and not _given_a_value(file, node.name):
                yield _bare_use(arm.directive.hash, node, anchor, node.name in tested)
            if isinstance(node, (Identifier, Defined)) and node.name in RENAMED and not _given_a_value(file, node.name):
                yield _deprecated(file, arm.directive.hash, node, anchor)


def _given_a_value(file: FileAnalysis, name: str) -> bool:
    """Whether every ROCm build of the file defines `name` itself (CuPy and gloo pass
    `-D__HIP_PLATFORM_HCC__=1` to hipcc): then it is neither missing on ROCm 6 nor empty."""
    values = [model.fixed.get(name, UNDEFINED) for model in file.rocm_models]
    return bool(values) and all(isinstance(value, int) for value in values)


def _bare_use(directive: int, node: Identifier, anchor: str, also_defined: bool) -> Finding:
    if also_defined:  # `defined(X) && X == 1`: the value test is the problem, not a missing `defined`
        message = (f"`{node.name}` is used as a value, but HIP defines it with no value: this `#if` is a hard "
                   f"error on ROCm, and the `defined({node.name})` beside it does not prevent that")
    else:
        message = (f"`{node.name}` is tested without `defined`: HIP defines it with no value, "
                   "so this `#if` is a hard error on ROCm")
    fix = Fix(SAFE, f"Test it with `defined({node.name})`",
              (Edit(node.span[0], node.span[1], f"defined({node.name})".encode()),),
              Expectation(directive, "any"))
    return Finding("HG106", message, node.span[0], node.span[1], fix, anchor)


def _deprecated(file: FileAnalysis, directive: int, node: Identifier | Defined, anchor: str) -> Finding:
    new = RENAMED[node.name]
    start = file.data.index(node.name.encode(), node.span[0], node.span[1])
    end = start + len(node.name)
    message = (
        f"`{node.name}` is deprecated and ROCm 6.0 no longer defines it: on ROCm 6 and newer this "
        f"test is false; use `{new}`"
    )
    fix = Fix(UNSAFE, f"Rename to `{new}` (changes the branch ROCm 6+ takes, back to the intended one)",
              (Edit(start, end, new.encode()),), Expectation(directive, "any"))
    return Finding("HG106", message, start, end, fix, anchor)
