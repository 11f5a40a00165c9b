"""HG203, HG204: guarded branches that call what their ROCm build cannot have.

A use is an identifier token in a branch's code (comments and literals excluded) that HIPIFY's or
PyTorch's table knows, and that the project does not define itself (asked last: it is the
costly question); one finding per name and branch, at its first use. Each ROCm model that
compiles the branch is judged with what its build has (`ApiKnowledge`: native HIP by HIPIFY's
tables, PyTorch's hipify by its own table, both with HIP's headers), and a message names only
the models under which its finding holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ..core.findings import UNSAFE, Finding, Fix
from ..cpp.comparisons import comparisons
from ..cpp.groups import Arm
from ..fix.raise_guard import raise_fix
from ..fix.rewriter import EXCLUDE, for_the_project, guard_fix
from ..model.analysis import FileAnalysis
from ..model.api_knowledge import ApiView, titles
from ..model.api_tables import api_tables
from ..model.branch_apis import ApiUse, BranchApis, branch_apis, first_uses
from ..model.platforms import Platform
from ..model.rewrite_macros import NO_VERSION_MACRO
from ..model.generated_files import withheld_fix
from ..model.rocm_versions import EVERY, Version, version_text
from ..model.scales import readable, scales
from ..model.settings import Settings
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
        uses = [use for use in first_uses(facts.uses(arm)) if facts.added_after(use, floor)]
        if not uses or _misread_scale(file, arm):
            continue  # HG104 reports a version constant on the wrong scale: the guard cannot be read
        models = file.reachable_on_rocm(arm, inside=True)
        too_new = [(use, holds) for use in uses
                   if (holds := _newer(facts, arm, use, models, floor)) and not facts.project_defines(use)]
        if not too_new:
            continue
        target = max(view.added for _, holds in too_new for _, view, _ in holds)
        fix, why = _offered(file, arm, lambda: _raise(file, arm, target), version=True)
        for use, holds in too_new:
            yield _finding(file, "HG203", arm, use, _newer_message(file, arm, use, holds) + why, fix)


def _newer(facts: BranchApis, arm: Arm, use: ApiUse, models: list[Platform],
           floor: Version) -> list[tuple[Platform, ApiView, Version]]:
    """(model, view, start) for each model whose build takes the branch from a release `start`
    older than the one that added the use's HIP equivalent."""
    min_rocm = facts.file.settings.min_rocm
    holds = []
    for model in models:
        view = use.view(model)
        if view is None or view.added is None or view.added <= floor or facts.lacking(use, model) is not None:
            continue  # no version, old enough, or missing altogether (HG204)
        start = facts.rocm_start(arm, model, floor)
        if start is None or (start == EVERY and min_rocm is None):
            continue  # not taken on a supported ROCm, or taken from the oldest ROCm with no minimum set
        if view.added > start:
            holds.append((model, view, start))
    return holds


def _misread_scale(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm's path compares a version macro with a constant its scale cannot read."""
    table = scales(file.settings.macros.rocm_version_macro)
    return any(not readable(table[item.macro.name], item.constant.value)
               for term, _ in file.path(arm) if term.names & table.keys()
               for item in comparisons(term.node) if item.macro.name in table)


@check("HG204", guard_macros)
def api_unsupported_on_rocm(file: FileAnalysis) -> Iterator[Finding]:
    """A branch compiled on CUDA and on ROCm uses a CUDA API that the ROCm build does not have.

    Only ROCm releases the tables fully describe count: their snapshots were taken while 6.3.0
    (HIPIFY's newest HIP version) was being made, so a branch that ROCm takes only from that
    release or a later one cannot be judged by them.
    """
    facts = branch_apis(file)
    for arm in facts.guarded():
        uses = [use for use in first_uses(facts.uses(arm)) if facts.may_lack(use)]
        if not uses or not file.reachable(arm, file.cuda, inside=True):
            continue  # ROCm-only branches are written for HIP (see the rule page)
        models = file.reachable_on_rocm(arm, inside=True)
        for use in uses:
            lacking = [(model, view) for model in models if (view := facts.lacking(use, model)) is not None]
            if not lacking or facts.project_defines(use):
                continue
            start = facts.rocm_from(arm, file.settings.min_rocm or EVERY, [model for model, _ in lacking])
            if start is None or start >= api_tables().newest_hip:
                continue  # not compiled on a ROCm that the tables fully describe
            where = titles(model for model, _ in lacking)
            if start != EVERY:
                where = f"{version_text(start)} and newer; {where}"
            message = (f"{_lacks(lacking)}, but {_guard(file, arm)} compiles this branch on ROCm ({where})"
                       f"{_policy_hint(file, arm)}")
            fix, why = _offered(file, arm, lambda: _exclude(file, arm, use, lacking))
            yield _finding(file, "HG204", arm, use, message + why, fix)


def _lacks(lacking: list[tuple[Platform, ApiView]]) -> str:
    """What the builds lack: "`X` has no HIP equivalent", or HIP's opt-in macro for it."""
    view = lacking[0][1]
    if view.missing:
        return f"`{view.name}` has no HIP equivalent"
    since = f" (HIP {version_text(view.added)} and newer)" if view.added else ""
    macros = " and ".join(f"`{macro}`" for macro in view.opt_in)
    return f"HIP declares `{view.hip}`{since} only when {macros} is defined"


def _newer_message(file: FileAnalysis, arm: Arm, use: ApiUse, holds: list[tuple[Platform, ApiView, Version]]) -> str:
    _, view, _ = max(holds, key=lambda hold: hold[1].added)
    start = min(start for _, _, start in holds)
    added = version_text(view.added)
    needs = f"HIP {added}" if view.hip == view.name else f"HIP {added} (`{view.hip}`)"
    where = titles(model for model, _, _ in holds)
    if start == file.settings.min_rocm:
        taken = f"on every ROCm the project supports (min-rocm is {version_text(start)}; {where})"
    else:
        taken = f"on ROCm {version_text(start)} and newer ({where})"
    return (f"`{use.name}` needs {needs}, but {_guard(file, _version_test(file, arm))} takes this branch {taken}"
            f"{_policy_hint(file, arm)}")


def _version_test(file: FileAnalysis, arm: Arm) -> Arm:
    """The arm, or the nearest arm around it, whose condition tests a version: the one that sets
    where ROCm starts to take the branch (mscclpp: `#if HIP_VERSION_MAJOR >= 6` on line 20, around
    the `#if defined(MSCCLPP_ROCM_FP8_FNUZ)` of the FP8 aliases)."""
    versions = scales(file.settings.macros.rocm_version_macro).keys()
    current: Arm | None = arm
    while current is not None:
        term = file.condition(current).term
        if term is not None and not term.names.isdisjoint(versions):
            return current
        current = current.conditional.parent
    return arm


def _raise(file: FileAnalysis, arm: Arm, target: Version) -> Fix | None:
    if _under_implicit_guard(file, arm):
        return None  # HG101-HG103 fix the guard itself (see --policy auto)
    text = version_text(target)
    return raise_fix(file, arm, target,
                     f"Take this branch on ROCm {text} and newer only (the newest API it uses came in HIP {text})")


def _exclude(file: FileAnalysis, arm: Arm, use: ApiUse, lacking: list[tuple[Platform, ApiView]]) -> Fix | None:
    if arm.directive.kind == "else" or _under_implicit_guard(file, arm):
        return None
    macros = file.rewrite_macros(arm.directive.hash)
    if macros.rocm is None:
        return None
    rocm = macros.rocm.name
    view = lacking[0][1]
    why = (f"HIP has no `{use.name}`" if view.missing
           else f"HIP declares `{view.hip}` only with {', '.join(view.opt_in)}")
    return guard_fix(file, arm, EXCLUDE, applicability=UNSAFE,
                     message=f"Exclude ROCm from this branch with `!defined({rocm})`: {why}")


def _offered(file: FileAnalysis, arm: Arm, make: Callable[[], Fix | None],
             version: bool = False) -> tuple[Fix | None, str]:
    """The fix `make` gives, as the project takes it (none in a generated file, shown only in a
    project with no ROCm build), and what the message adds where there is none."""
    withheld = withheld_fix(file)
    if withheld:
        return None, withheld
    fix = for_the_project(file, make())
    return fix, "" if fix else _no_macro(file, arm, version=version)


def _no_macro(file: FileAnalysis, arm: Arm, version: bool = False) -> str:
    """`; no fix: ...` where a fix would be offered but no macro says ROCm (or, with `version`,
    its version) at the guard."""
    if arm.directive.kind == "else" or _under_implicit_guard(file, arm):
        return ""
    macros = file.rewrite_macros(arm.directive.hash)
    if macros.rocm is None:
        return f"; no fix: {macros.missing}"
    if version and macros.version is None:
        return f"; no fix: {NO_VERSION_MACRO}"
    return ""


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
    return Finding(code, message, use.start, use.end, fix, anchor=f"{use.name} in {shown}")
