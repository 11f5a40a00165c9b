"""HG203, HG204: guarded branches that call what their ROCm build cannot have (the mapping table).

A use is an identifier token in a branch's code (comments and literals excluded) that the
mapping table knows as a CUDA or HIP name; one finding per name and branch, at its first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..core.findings import UNSAFE, Finding, Fix
from ..cpp.groups import Arm
from ..fix.raise_guard import raise_fix
from ..fix.rewriter import EXCLUDE, guard_fix
from ..model.analysis import FileAnalysis
from ..model.branch_apis import ApiUse, branch_apis, first_uses
from ..model.mapping import load_table
from ..model.rocm_versions import EVERY, Version, version_text
from ..model.settings import Settings, rocm_version_number
from .guard_outcome import rocm_fate
from .registry import check


def guard_macros(settings: Settings) -> Iterable[str]:
    """Trigger names: a finding needs a branch whose path names one of these macros.

    They are a necessary condition for HG203/HG204, and far more selective than the ~12,000
    mapped API names (of which `max`, `abs` or `cudaMalloc` occur in nearly every CUDA file).
    """
    macros = settings.macros
    return (*macros.cuda_version_macros, *macros.rocm_macros, macros.rocm_macro, macros.rocm_version_macro)


@check("HG203", guard_macros)
def api_newer_than_rocm_guard(file: FileAnalysis) -> Iterator[Finding]:
    """A branch taken on ROCm from version V uses an API whose HIP equivalent came after V."""
    facts = branch_apis(file)
    min_rocm = file.settings.min_rocm
    floor = min_rocm or EVERY
    for arm in facts.guarded():
        newer = [u for u in first_uses(facts.uses(arm)) if (u.fact.added_version or EVERY) > floor]
        if not newer:
            continue
        start = facts.rocm_from(arm, floor)
        if start is None or (start == EVERY and min_rocm is None):
            continue  # not taken on a supported ROCm, or taken from the oldest ROCm with no minimum set
        too_new = [u for u in newer if u.fact.added_version > start]
        if too_new:
            target = max(u.fact.added_version for u in too_new)
            fix = _raise(file, arm, target)
            for use in too_new:
                yield _finding(file, "HG203", arm, use, _newer_message(file, arm, use, start), fix)


@check("HG204", guard_macros)
def api_unsupported_on_rocm(file: FileAnalysis) -> Iterator[Finding]:
    """A branch compiled on CUDA and on ROCm uses a CUDA API that HIP does not have.

    Only ROCm releases the table fully describes count: its HIPIFY snapshot was taken while
    6.3.0 (its newest HIP version) was being made, so a branch that ROCm takes only from that
    release or a later one cannot be judged by it.
    """
    facts = branch_apis(file)
    for arm in facts.guarded():
        missing = [use for use in first_uses(facts.uses(arm)) if use.fact.unsupported]
        if not missing or not file.reachable(arm, file.cuda, inside=True):
            continue  # ROCm-only branches are written for HIP (see the rule page)
        models = file.reachable_on_rocm(arm, inside=True)
        start = facts.rocm_from(arm, file.settings.min_rocm or EVERY) if models else None
        if start is None or start >= load_table().newest_hip:
            continue  # not compiled on a ROCm that the table fully describes
        where = ", ".join(model.title for model in models)
        if start != EVERY:
            where = f"{version_text(start)} and newer; {where}"
        for use in missing:
            message = (f"`{use.fact.name}` has no HIP equivalent, but {_guard(file, arm)} compiles this "
                       f"branch on ROCm ({where}){_policy_hint(file, arm)}")
            yield _finding(file, "HG204", arm, use, message, _exclude(file, arm, use))


def _newer_message(file: FileAnalysis, arm: Arm, use: ApiUse, start: Version) -> str:
    fact = use.fact
    added = f"HIP {fact.added}" if fact.hip == fact.name else f"HIP {fact.added} (`{fact.hip}`)"
    if start == file.settings.min_rocm:
        taken = f"on every ROCm the project supports (min-rocm is {version_text(start)})"
    else:
        taken = f"on ROCm {version_text(start)} and newer"
    return f"`{fact.name}` needs {added}, but {_guard(file, arm)} takes this branch {taken}{_policy_hint(file, arm)}"


def _raise(file: FileAnalysis, arm: Arm, target: Version) -> Fix | None:
    if _under_implicit_guard(file, arm):
        return None  # HG101-HG103 fix the guard itself (see --policy auto)
    text = version_text(target)
    return raise_fix(file, arm, rocm_version_number(target),
                     f"Take this branch on ROCm {text} and newer only (the newest API it uses came in HIP {text})")


def _exclude(file: FileAnalysis, arm: Arm, use: ApiUse) -> Fix | None:
    if arm.directive.kind == "else" or _under_implicit_guard(file, arm):
        return None
    rocm = file.settings.macros.rocm_macro
    return guard_fix(file, arm, EXCLUDE, applicability=UNSAFE,
                     message=f"Exclude ROCm from this branch with `!defined({rocm})`: HIP has no `{use.fact.name}`")


def _policy_hint(file: FileAnalysis, arm: Arm) -> str:
    if not _under_implicit_guard(file, arm):
        return ""
    return "; the guard's ROCm outcome is implicit: fix it with `--policy auto`"


def _under_implicit_guard(file: FileAnalysis, arm: Arm | None) -> bool:
    """Whether the arm or an arm enclosing it is an implicit guard (HG101-HG103)."""
    while arm is not None:
        if rocm_fate(file, arm) is not None:
            return True
        arm = arm.conditional.parent
    return False


def _guard(file: FileAnalysis, arm: Arm) -> str:
    return f"the `#{arm.directive.kind}` on line {file.lines.line_of(arm.directive.hash)}"


def _finding(file: FileAnalysis, code: str, arm: Arm, use: ApiUse, message: str, fix: Fix | None) -> Finding:
    directive = arm.directive
    shown = " ".join(file.text(directive.hash, directive.argument[1]).replace("\\\n", " ").split())
    return Finding(code, message, use.start, use.end, fix, anchor=f"{use.fact.name} in {shown}")
