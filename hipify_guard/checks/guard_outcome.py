"""HG101, HG102, HG103: guards on CUDA version macros whose ROCm outcome is implicit."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass
from operator import attrgetter

from ..core.findings import SAFE, UNSAFE, Finding, Fix
from ..cpp.groups import Arm
from ..fix.auto_policy import auto_fix
from ..fix.rewriter import EXCLUDE, INCLUDE, ROCM_MIN, guard_fix
from ..model.analysis import FileAnalysis
from ..model.platforms import Outcome, Platform
from ..model.settings import rocm_version_number
from .registry import check, cuda_version_macros

_DECIDED = (Outcome.TRUE, Outcome.FALSE, Outcome.DEPENDS)


@dataclass(frozen=True, slots=True)
class Fate:
    """What ROCm gets today from an implicit guard."""

    today: str  # "false", "true" or "differs"
    outcomes: tuple[tuple[Platform, Outcome], ...]
    cuda_macros: tuple[str, ...]


def rocm_fate(file: FileAnalysis, arm: Arm) -> Fate | None:
    """The ROCm fate of an arm naming a CUDA version macro and no ROCm macro, if it is decided."""
    condition = file.condition(arm).term
    if condition is None:
        return None
    macros = file.settings.macros
    cuda = condition.names & macros.cuda_version_macros
    explicit = macros.rocm_macros | {macros.rocm_macro, macros.rocm_version_macro}
    if not cuda or condition.names & explicit:
        return None
    outcomes = tuple((model, file.outcome(arm, model)) for model in file.reachable_on_rocm(arm))
    decided = {value for _, value in outcomes if value in _DECIDED}
    if Outcome.UNKNOWN in (value for _, value in outcomes) or not decided - {Outcome.DEPENDS}:
        return None
    today = {frozenset({Outcome.FALSE}): "false", frozenset({Outcome.TRUE}): "true"}.get(frozenset(decided), "differs")
    return Fate(today, outcomes, tuple(sorted(cuda)))


def _fates(file: FileAnalysis, today: str) -> Iterator[tuple[Arm, Fate]]:
    for arm in file.arms:
        fate = rocm_fate(file, arm)
        if fate is not None and fate.today == today:
            yield arm, fate


@check("HG101", cuda_version_macros)
def implicit_rocm_exclusion(file: FileAnalysis) -> Iterator[Finding]:
    """A CUDA version guard that is false on ROCm without saying so."""
    return _implicit(file, "HG101", "false")


@check("HG102", cuda_version_macros)
def implicit_rocm_inclusion(file: FileAnalysis) -> Iterator[Finding]:
    """A CUDA version guard that is true on ROCm without saying so."""
    return _implicit(file, "HG102", "true")


def _implicit(file: FileAnalysis, code: str, today: str) -> Iterator[Finding]:
    """The findings of HG101 (today "false") or HG102 (today "true")."""
    for arm, fate in _fates(file, today):
        message = (f"`{_shown(file, arm)}` is {today} on ROCm{_on_builds(fate)}, where {_undefined(fate)}: "
                   f"{_consequence(file, arm, fate)}")
        yield _finding(file, code, arm, fate, message)


@check("HG103", cuda_version_macros)
def hipify_dependent_guard(file: FileAnalysis) -> Iterator[Finding]:
    """A CUDA version guard whose ROCm outcome depends on how the source was hipified."""
    for arm, fate in _fates(file, "differs"):
        per_model = "; ".join(f"{model.title}: {_describe(value)}" for model, value in fate.outcomes)
        message = f"`{_shown(file, arm)}` on ROCm depends on how the source was translated ({per_model})"
        yield _finding(file, "HG103", arm, fate, message)


def _consequence(file: FileAnalysis, arm: Arm, fate: Fate) -> str:
    """What the implicit outcome means for this branch, in plain words."""
    if not file.reachable(arm, file.settings.cuda, inside=False):
        return f"only ROCm compiles this region, so the test is always {fate.today} here; write what is meant"
    if fate.today == "false":
        return "this branch is silently skipped on ROCm"
    defined = _first_define(file, arm)
    if defined in fate.cuda_macros:
        return f"ROCm silently uses this fallback definition of {defined}"
    return "ROCm silently takes the branch meant for old CUDA"


def _on_builds(fate: Fate) -> str:
    """` (build -DROCM_VERSION=50700)` when known builds (compile_commands.json) decided the outcome."""
    labels = sorted({model.build for model, _ in fate.outcomes if model.build})
    return f" (build {'; '.join(labels)})" if labels else ""


def _first_define(file: FileAnalysis, arm: Arm) -> str | None:
    """The macro a `#define` right after the arm's directive defines (the define-if-missing idiom)."""
    directives = file.scan.directives
    after = bisect.bisect_right(directives, arm.directive.hash, key=attrgetter("hash"))  # not a scan: 10,000 arms
    following = directives[after : after + 1]
    if not following or following[0].kind != "define":
        return None
    start, end = following[0].argument
    name = file.data[start:end].split(b"(")[0].split()
    return name[0].decode("latin-1") if name else None


def _finding(file: FileAnalysis, code: str, arm: Arm, fate: Fate, message: str) -> Finding:
    directive = arm.directive
    return Finding(code, message, directive.hash, directive.argument[1], _policy_fix(file, arm, fate),
                   anchor=_shown(file, arm, limit=None))


def _policy_fix(file: FileAnalysis, arm: Arm, fate: Fate) -> Fix | None:
    """The fix the configured policy asks for, marked unsafe when it changes ROCm's branch."""
    policy = file.settings.policy
    rocm = file.settings.macros.rocm_macro
    if policy.kind == "auto":
        return auto_fix(file, arm, fate.today)
    if policy.kind == "rocm-min" and policy.rocm_min is not None:
        version = ".".join(map(str, policy.rocm_min))
        number = rocm_version_number(policy.rocm_min)
        return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE,
                         message=f"Take this branch on ROCm {version} and newer only", rocm_min=number,
                         rocm_false_today=fate.today == "false")
    form = {"exclude": EXCLUDE, "include": INCLUDE}.get(policy.kind)
    if form is None:  # preserve: make today's outcome explicit, when there is one
        form = {"false": EXCLUDE, "true": INCLUDE}.get(fate.today)
    if form is None:
        return None
    keeps_today = (form == EXCLUDE and fate.today == "false") or (form == INCLUDE and fate.today == "true")
    verb = "Exclude" if form == EXCLUDE else "Include"
    note = f" (today: {fate.today} on ROCm)" if not keeps_today else ""
    return guard_fix(file, arm, form, applicability=SAFE if keeps_today else UNSAFE,
                     message=f"{verb} ROCm explicitly with `defined({rocm})`{note}")


def _shown(file: FileAnalysis, arm: Arm, limit: int | None = 70) -> str:
    directive = arm.directive
    text = " ".join(file.text(directive.hash, directive.argument[1]).replace("\\\n", " ").split())
    if limit is not None and len(text) > limit:
        return text[: limit - 3] + "..."
    return text


def _undefined(fate: Fate) -> str:
    names = " and ".join(fate.cuda_macros)
    verb = "is" if len(fate.cuda_macros) == 1 else "are"
    text = f"{names} {verb} undefined"
    if any(name in model.renames for model, _ in fate.outcomes for name in fate.cuda_macros):
        text += " (or a HIP version after PyTorch's hipify)"
    return text


def _describe(value: Outcome) -> str:
    return {Outcome.TRUE: "true", Outcome.FALSE: "false", Outcome.DEPENDS: "depends on the build"}.get(
        value, "undecided"
    )
