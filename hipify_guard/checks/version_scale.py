"""HG104: a version macro compared with a constant that no real version has on its scale."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..core.findings import DISPLAY_ONLY, Edit, Finding, Fix
from ..cpp.comparisons import Comparison, comparisons, holds
from ..cpp.conditional_lines import conditional_lines
from ..cpp.numbers import LiteralError, integer_value
from ..model.analysis import FileAnalysis
from ..model.scales import OLD_HIP, Reading, Scale, reading, scales
from ..model.settings import Settings
from .registry import check

# A constant next to a comparison operator: a number or a character literal, as the parser lexes
# them (a character literal is left to the rule: the screen takes it for a maybe).
_OPERAND = rb"(?:(\.?[0-9](?:[eEpP][+-]|'?[0-9A-Za-z_.])*)|(?:u8|[uUL])?'(?:[^'\\\r\n]|\\[\s\S])*')"
_OPERATOR = rb"(?:[<>]=?|[=!]=|not_eq(?![A-Za-z0-9_]))"
_AFTER = re.compile(rb"[ \t)]*" + _OPERATOR + rb"[ \t(]*" + _OPERAND)
_BEFORE = re.compile(_OPERAND + rb"[ \t)]*" + _OPERATOR + rb"[ \t(]*\Z")
# `_BEFORE` searches the line up to the name: a name further in than this is a maybe (a condition
# of 10,000 terms made the searches quadratic: 80 s).
_LONG_PREFIX = 512


def _scaled_macros(settings: Settings) -> list[str]:
    return list(scales(settings.macros.rocm_version_macro))


def implausible_comparisons(settings: Settings) -> Callable[[bytes], bool]:
    """HG104's screen: does a conditional directive's line compare a scaled macro with a
    constant its scale finds implausible (`conditional_lines`; a line that may go on, an operand
    that is no plain number, a comment inside the line or a name far into it says maybe)?"""
    table = scales(settings.macros.rocm_version_macro)
    names = re.compile(rb"(?<![A-Za-z0-9_])(" + b"|".join(map(str.encode, table)) + rb")(?![A-Za-z0-9_])")

    def admits(data: bytes) -> bool:
        lines = conditional_lines(data)
        if None in lines:
            return True
        if not names.search(b"\n".join(lines)):
            return False
        for rest in lines:
            for name in names.finditer(rest):
                scale = table[name.group().decode("ascii")]
                if (_doubtful(_AFTER.match(rest, name.end()), scale) or b"/*" in rest or name.start() > _LONG_PREFIX
                        or _doubtful(_BEFORE.search(rest, 0, name.start()), scale)):
                    return True
        return False

    return admits


def _doubtful(operand: re.Match[bytes] | None, scale: Scale) -> bool:
    """Whether a comparison's operand may be a constant that `scale` finds implausible."""
    if operand is None:
        return False
    if operand.group(1) is None:
        return True
    try:
        return not scale.plausible(integer_value(operand.group(1).decode("ascii"))[0])
    except LiteralError:
        return True


@check("HG104", _scaled_macros, screen=implausible_comparisons)
def version_scale_mismatch(file: FileAnalysis) -> Iterator[Finding]:
    """`HIP_VERSION >= 403`, `CUDA_VERSION >= 12`, `ROCM_VERSION >= 50200000`, ..."""
    table = scales(file.settings.macros.rocm_version_macro)
    names = [name.encode() for name in table]
    for arm in file.arms:
        start, end = arm.directive.argument
        if not any(name in file.data[start:end] for name in names):  # cheap: before parsing
            continue
        condition = file.condition(arm).term
        if condition is None or not condition.names & table.keys():
            continue
        wrong = [(item, table[item.macro.name]) for item in comparisons(condition.node)
                 if item.macro.name in table and not table[item.macro.name].plausible(item.constant.value)]
        if wrong and file.reachable_anywhere(arm):  # reachability last: it costs the most
            yield from (_finding(file, item, scale) for item, scale in wrong)


def _finding(file: FileAnalysis, item: Comparison, scale: Scale) -> Finding:
    start, end = item.node.span
    shown = " ".join(file.text(start, end).split())
    value = item.constant.value
    guess = reading(scale, value)
    encoding = scale.encoding
    always = "true" if holds(encoding.encode(scale.example), item.op, value) else "false"
    message = (f"`{shown}`: {value} is not on {scale.macro}'s scale ({encoding.formula}: "
               f"{encoding.example(scale.example)}){_explain(scale, guess)}; so it is always {always}")
    fix = None
    if guess is not None and guess.suggestion is not None:
        meant = f"{guess.suggestion} ({encoding.describe(guess.version)})"
        message += f": did you mean {meant}?"
        span = item.constant.span
        fix = Fix(DISPLAY_ONLY, f"Compare with {meant}", (Edit(span[0], span[1], str(guess.suggestion).encode()),))
    return Finding("HG104", message, start, end, fix)


def _explain(scale: Scale, guess: Reading | None) -> str:
    if guess is None:
        return ""
    meant = guess.encoding.describe(guess.version)
    if guess.encoding is OLD_HIP and scale.macro == "HIP_VERSION":
        return f" but is {meant} in HIP_VERSION's encoding before ROCm 4.3 (major*100 + minor)"
    return f" but is {meant} on {guess.encoding.scale}"
