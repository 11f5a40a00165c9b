"""`--policy auto`: decide ROCm's branch of an implicit guard (HG101-HG103) by what the branch calls.

The branch's group is the arm's own code plus every nested branch that ROCm would compile
were the guard taken on ROCm (`BranchApis.group_uses`). In order:

1. it uses a CUDA API that some ROCm model's build does not have (no HIP equivalent, or a HIP
   declaration behind an opt-in macro nothing defines): exclude ROCm;
2. the newest HIP "added" version among its APIs (under any model) is newer than `min-rocm` (or
   any version, when `min-rocm` is not set): take the branch on ROCm from that version (`rocm-min`);
3. otherwise: include ROCm.

The fix message says which APIs decided it, and under which ROCm models. A choice that keeps
ROCm's outcome of today is a safe fix; every other choice is unsafe.
"""

from __future__ import annotations

from ..core.findings import SAFE, UNSAFE, Fix
from ..cpp.groups import Arm
from ..model.analysis import FileAnalysis
from ..model.api_knowledge import titles
from ..model.branch_apis import ApiUse, branch_apis, first_uses
from ..model.rocm_versions import version_text
from .rewriter import EXCLUDE, INCLUDE, ROCM_MIN, guard_fix

_SHOWN = 3  # APIs named in a message before "and N more"


def auto_fix(file: FileAnalysis, arm: Arm, today: str) -> Fix | None:
    """The fix `--policy auto` chooses for an implicit guard whose ROCm outcome today is `today`."""
    facts = branch_apis(file)
    models = file.rocm_models
    macros = file.rewrite_macros(arm.directive.hash)
    rocm = macros.rocm.name if macros.rocm else ""
    uses = [use for use in first_uses(facts.group_uses(arm)) if not facts.project_defines(use)]
    lacking = [(use, model, view) for use in uses for model in models
               if (view := facts.lacking(use, model)) is not None]
    if lacking:
        missing = list(dict.fromkeys(use for use, _, _ in lacking))
        opt_ins = sorted({macro for _, _, view in lacking for macro in view.opt_in})
        what = ("which HIP does not have" if any(view.missing for _, _, view in lacking)
                else f"which HIP declares only when {', '.join(opt_ins)} is defined")
        return guard_fix(file, arm, EXCLUDE, applicability=SAFE if today == "false" else UNSAFE,
                         message=f"Exclude ROCm with `!defined({rocm})` (policy auto): the branch uses "
                                 f"{_names(missing)}, {what} ({titles(model for _, model, _ in lacking)})")
    min_rocm = file.settings.min_rocm
    versioned = [(view.added, use, model) for use in uses for model in models
                 if (view := use.view(model)) is not None and view.added is not None]
    if versioned:
        added, newest, _ = max(versioned, key=lambda item: item[0])
        if min_rocm is None or added > min_rocm:
            why = (f"newer than min-rocm {version_text(min_rocm)}" if min_rocm
                   else "min-rocm is not set; set it to skip version tests for APIs every supported ROCm has")
            where = titles(model for version, use, model in versioned if use is newest and version == added)
            return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE, rocm_min=added,
                             rocm_false_today=today == "false",
                             message=f"Take this branch on ROCm {version_text(added)} and newer (policy auto): "
                                     f"its newest API is `{newest.name}`, added in HIP {version_text(added)} "
                                     f"({where}; {why})")
    if not uses:
        reason = "the branch uses no CUDA or HIP API of the mapping tables"
    elif versioned:
        reason = f"HIP has every API the branch uses by ROCm {version_text(min_rocm)} (min-rocm)"
    else:
        reason = f"HIP has every API the branch uses ({_names(uses)}; no HIP version recorded)"
    unknown = facts.group_unmapped(arm)
    if unknown:
        shown = ", ".join(f"`{name}`" for name in unknown[:_SHOWN])
        more = f" and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
        reason += f"; not in the tables, so not judged: {shown}{more}"
    return guard_fix(file, arm, INCLUDE, applicability=SAFE if today == "true" else UNSAFE,
                     message=f"Include ROCm with `defined({rocm})` (policy auto): {reason}")


def _names(uses: list[ApiUse]) -> str:
    shown = ", ".join(f"`{use.name}`" for use in uses[:_SHOWN])
    return shown if len(uses) <= _SHOWN else f"{shown} and {len(uses) - _SHOWN} more"
