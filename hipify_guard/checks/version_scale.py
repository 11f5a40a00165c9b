"""HG104: a version macro compared with a constant that no real version has on its scale; HG108
(off by default): a HIP_VERSION constant on the encoding before ROCm 4.3 that is right anyway."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..core.findings import DISPLAY_ONLY, Edit, Finding, Fix
from ..cpp.comparisons import Comparison, comparisons, holds
from ..cpp.conditional_lines import conditional_lines
from ..cpp.numbers import LiteralError, integer_value
from ..model.analysis import FileAnalysis
from ..model.scales import HIP, MAX_MAJOR, NEW_HIP_ENCODING, OLD_HIP, Reading, Scale, reading, scales
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
    """`HIP_VERSION >= 502`, `CUDA_VERSION >= 12`, `ROCM_VERSION >= 50200000`, ..."""
    return (_finding(file, item, scale) for item, scale in _implausible(file) if not _harmless(item, scale))


@check("HG108", _scaled_macros, screen=implausible_comparisons)
def old_hip_version_encoding(file: FileAnalysis) -> Iterator[Finding]:
    """`HIP_VERSION >= 402`: the encoding before ROCm 4.3, right on every release."""
    for item, scale in _implausible(file):
        if _harmless(item, scale):
            start, end = item.node.span
            shown = " ".join(file.text(start, end).split())
            yield Finding("HG108", f"`{shown}`: {_old_hip(item, reading(scale, item.constant.value))}", start, end)


def _implausible(file: FileAnalysis) -> Iterator[tuple[Comparison, Scale]]:
    """Every comparison of a version macro with a constant its scale finds implausible, in a
    condition some platform evaluates."""
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
            yield from wrong


def _harmless(item: Comparison, scale: Scale) -> bool:
    """Whether the comparison uses HIP_VERSION's encoding before ROCm 4.3 in a way that is right
    on every release (`HIP_VERSION >= 402`; not DeepSpeed's `HIP_VERSION >= 502`): HG108's."""
    guess = reading(scale, item.constant.value)
    return (guess is not None and guess.encoding is OLD_HIP and scale.encoding is HIP
            and _releases_wrong(item) is None)


def _finding(file: FileAnalysis, item: Comparison, scale: Scale) -> Finding:
    start, end = item.node.span
    shown = " ".join(file.text(start, end).split())
    value = item.constant.value
    guess = reading(scale, value)
    encoding = scale.encoding
    if guess is not None and guess.encoding is OLD_HIP and scale.encoding is HIP:
        message = f"`{shown}`: {_old_hip(item, guess)}"
    else:
        always = "true" if holds(encoding.encode(scale.example), item.op, value) else "false"
        example = guess.version if guess is not None and guess.suggestion is not None else scale.example
        message = (f"`{shown}`: {value} is not on {scale.macro}'s scale ({encoding.formula}: "
                   f"{encoding.example(example)}){_explain(guess)}; so it is always {always}")
    fix = None
    if guess is not None and guess.suggestion is not None and guess.version > NEW_HIP_ENCODING:
        meant = f"{guess.suggestion} ({encoding.describe(guess.version)})"
        message += f": did you mean {meant}?"
        span = item.constant.span
        fix = Fix(DISPLAY_ONLY, f"Compare with {meant}", (Edit(span[0], span[1], str(guess.suggestion).encode()),))
    return Finding("HG104", message, start, end, fix)


def _explain(guess: Reading | None) -> str:
    if guess is None:
        return ""
    return f" but is {guess.encoding.describe(guess.version)} on {guess.encoding.scale}"


def _old_hip(item: Comparison, guess: Reading) -> str:
    """What a HIP_VERSION constant on the encoding before ROCm 4.3 does on the releases after it
    (guard-semantics.md §11.5): every new-scale value is larger than every old-scale constant."""
    value, meant = item.constant.value, guess.version
    old = f"{value} is on HIP_VERSION's encoding before ROCm 4.3 ({OLD_HIP.formula}: {OLD_HIP.example(meant)})"
    new = f"{HIP.formula} ({HIP.example(max(meant, NEW_HIP_ENCODING))})"
    always = holds(HIP.encode(NEW_HIP_ENCODING), item.op, value)
    value_text = "true" if always else "false"
    wrong = _releases_wrong(item)
    if wrong is None:
        return (f"{old}; from 4.3 on HIP_VERSION is {new}, larger than every old-scale number, so the "
                f"comparison is {value_text} on every release from 4.3 on: harmless, unless it is meant to "
                f"{'exclude' if always else 'include'} a release after 4.3")
    after = f", but {HIP.describe(meant)} came after 4.3" if meant > NEW_HIP_ENCODING else ""
    return (f"{old}{after}; from 4.3 on HIP_VERSION is {new}, so the comparison is {value_text} on every "
            f"release from 4.3 on, also on ROCm {wrong}, which it is meant to {'exclude' if always else 'include'}")


def _releases_wrong(item: Comparison) -> str | None:
    """The releases from 4.3 on where the old-scale reading of the comparison differs from its
    new-scale value (`4.3-5.1` for `HIP_VERSION >= 502`), as one range; None if there are none.

    Every new-scale number is larger than the constant, so `>`/`>=`/`!=` are true there and
    `<`/`<=`/`==` false; a release's old-scale number (major*100 + minor) grows with the release,
    so the releases where `number op c` says otherwise are one run of numbers."""
    c, op = item.constant.value, item.op
    first_number = OLD_HIP.encode(NEW_HIP_ENCODING)
    if op in ("==", "!="):
        low, high = c, c
    else:
        low, high = first_number, c - 1 if op in (">=", "<") else c
    low, high = max(low, first_number), min(high, OLD_HIP.encode((MAX_MAJOR, 99, 0)))
    if low > high:
        return None
    first, last = divmod(low, 100), divmod(high, 100)
    last_text = f"{last[0]}.x" if last[1] == 99 else f"{last[0]}.{last[1]}"
    first_text = f"{first[0]}.{first[1]}"
    return first_text if first_text == last_text else f"{first_text}-{last_text}"
