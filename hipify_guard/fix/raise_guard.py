"""HG203's fix: raise the ROCm version from which a guard takes its branch.

Where the condition compares a ROCm version macro (the ROCm version macro, or HIP_VERSION) with a
constant once, on the side that enables the branch (`... && ROCM_VERSION >= 50000`), the constant
is replaced (on that macro's scale) when that is provably the same as requiring the new version
in addition (checked here with the tool's evaluator over the critical configurations, and again
by the verifier with pcpp). Otherwise `&& (!defined(R) || RV >= N)` is appended (rewriter form
raise-min, with the guard's own R and RV: `rewrite_macros`).
"""

from __future__ import annotations

from ..core.findings import UNSAFE, Edit, Expectation, Fix
from ..cpp.evaluator import EvalError, truth
from ..cpp.groups import Arm
from ..cpp.nodes import Binary, Identifier, Number, walk
from ..cpp.parser import ParseError, parse
from ..model.analysis import FileAnalysis
from ..model.platforms import Platform, Term, configurations, inexact, term
from ..model.rewrite_macros import HIP_SCALE, HIP_VERSION, ROCM_SCALE, Macro, RewriteMacros
from .rewriter import RAISE_MIN, guard_fix

_RAISING = {">=": 0, ">": -1}  # RV op c: the constant that makes `RV op c` mean RV >= N
_MIRRORED = {"<=": ">=", "<": ">"}  # c op RV


def raise_fix(file: FileAnalysis, arm: Arm, target: tuple[int, int, int], message: str) -> Fix | None:
    """An unsafe fix that makes the arm's branch need ROCm `target` (None for #else, or where no
    version macro can say it)."""
    if arm.directive.kind == "else":
        return None
    replaced = _replaced_constant(file, arm, target)
    if replaced is not None:
        edit, number, version = replaced
        return Fix(UNSAFE, message, (edit,), Expectation(arm.directive.hash, "and-min", number, version_macro=version))
    return guard_fix(file, arm, RAISE_MIN, applicability=UNSAFE, message=message, rocm_min=target)


def _replaced_constant(file: FileAnalysis, arm: Arm, target: tuple[int, int, int]) -> tuple[Edit, int, str] | None:
    """The edit of the guard's one enabling comparison of a ROCm version macro, the new constant's
    number (on that macro's scale) and the macro, where that provably requires `target` too."""
    condition = file.condition(arm).term
    if condition is None or arm.directive.kind != "if" and arm.directive.kind != "elif":
        return None
    scales = {file.settings.macros.rocm_version_macro: ROCM_SCALE, HIP_VERSION: HIP_SCALE}
    found = [(hit, name) for node in walk(condition.node) for name in scales
             if (hit := _comparison(node, name)) is not None]
    if len(found) != 1:
        return None
    (constant, offset), version = found[0]
    number = RewriteMacros(None, Macro(version, "", scales[version])).version_number(target)
    if number is None:
        return None
    edit = Edit(constant.span[0], constant.span[1], str(number + offset).encode())
    start, end = arm.directive.argument
    text = file.data[start : edit.start] + edit.content + file.data[edit.end : end]
    try:
        new = term(parse(text, 0, len(text)))
    except ParseError:
        return None
    if not _proven(file, arm, condition, new, number, version):
        return None
    return edit, number, version


def _comparison(node: object, version: str) -> tuple[Number, int] | None:
    """(the constant, its offset from N) of `RV >= c`, `RV > c`, `c <= RV` or `c < RV`."""
    if not isinstance(node, Binary):
        return None
    left, right, op = node.left, node.right, node.op
    if op in _MIRRORED:
        left, right, op = right, left, _MIRRORED[op]
    if op in _RAISING and isinstance(left, Identifier) and left.name == version and isinstance(right, Number):
        return right, _RAISING[op]
    return None


def _proven(file: FileAnalysis, arm: Arm, old: Term, new: Term, number: int, version: str) -> bool:
    """Whether `new` equals `old` on CUDA and `old and version >= number` on each ROCm model."""
    platforms: list[Platform] = [file.cuda, *file.reachable_on_rocm(arm)]
    for platform in platforms:
        if inexact(old, platform) or inexact(new, platform):
            return False
        configs = configurations((old, new), platform, exhaustive=True)
        if configs is None:
            return False
        for config in configs:
            try:
                was, now = truth(old.node, config), truth(new.node, config)
            except EvalError:
                return False
            value = config.get(version)
            if platform.is_rocm:
                was = was and isinstance(value, int) and value >= number
            if was != now:
                return False
    return True
