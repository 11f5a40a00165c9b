"""`--policy auto`: decide ROCm's branch of an implicit guard (HG101-HG103) by what the branch calls.

The branch's group is the arm's own code plus every nested branch that ROCm would compile
were the guard taken on ROCm (`BranchApis.group_uses`). In order:

1. it uses a CUDA API with no HIP equivalent: exclude ROCm;
2. the newest HIP "added" version among its APIs is newer than `min-rocm` (or any version,
   when `min-rocm` is not set): take the branch on ROCm from that version (`rocm-min`);
3. otherwise: include ROCm.

The fix message says which APIs decided it. A choice that keeps ROCm's outcome of today is a
safe fix; every other choice is unsafe.
"""

from __future__ import annotations

from ..core.findings import SAFE, UNSAFE, Fix
from ..cpp.groups import Arm
from ..model.analysis import FileAnalysis
from ..model.branch_apis import ApiUse, branch_apis, first_uses
from ..model.rocm_versions import version_text
from ..model.settings import rocm_version_number
from .rewriter import EXCLUDE, INCLUDE, ROCM_MIN, guard_fix

_SHOWN = 3  # APIs named in a message before "and N more"


def auto_fix(file: FileAnalysis, arm: Arm, today: str) -> Fix | None:
    """The fix `--policy auto` chooses for an implicit guard whose ROCm outcome today is `today`."""
    uses = first_uses(branch_apis(file).group_uses(arm))
    rocm = file.settings.macros.rocm_macro
    missing = [use for use in uses if use.fact.unsupported]
    if missing:
        return guard_fix(file, arm, EXCLUDE, applicability=SAFE if today == "false" else UNSAFE,
                         message=f"Exclude ROCm with `!defined({rocm})` (policy auto): the branch uses "
                                 f"{_names(missing)}, which HIP does not have")
    min_rocm = file.settings.min_rocm
    versioned = [use for use in uses if use.fact.added_version is not None]
    newest = max(versioned, key=lambda use: use.fact.added_version, default=None)
    if newest is not None and (min_rocm is None or newest.fact.added_version > min_rocm):
        version = newest.fact.added_version
        why = (f"newer than min-rocm {version_text(min_rocm)}" if min_rocm
               else "min-rocm is not set; set it to skip version tests for APIs every supported ROCm has")
        return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE, rocm_min=rocm_version_number(version),
                         rocm_false_today=today == "false",
                         message=f"Take this branch on ROCm {version_text(version)} and newer (policy auto): "
                                 f"its newest API is `{newest.fact.name}`, added in HIP {newest.fact.added} ({why})")
    if not uses:
        reason = "the branch uses no CUDA or HIP API of the mapping table"
    elif versioned:
        reason = f"HIP has every API the branch uses by ROCm {version_text(min_rocm)} (min-rocm)"
    else:
        reason = f"HIP has every API the branch uses ({_names(uses)}; no HIP version recorded)"
    unknown = branch_apis(file).group_unmapped(arm)
    if unknown:
        shown = ", ".join(f"`{name}`" for name in unknown[:_SHOWN])
        more = f" and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
        reason += f"; not in the table, so not judged: {shown}{more}"
    return guard_fix(file, arm, INCLUDE, applicability=SAFE if today == "true" else UNSAFE,
                     message=f"Include ROCm with `defined({rocm})` (policy auto): {reason}")


def _names(uses: list[ApiUse]) -> str:
    shown = ", ".join(f"`{use.fact.name}`" for use in uses[:_SHOWN])
    return shown if len(uses) <= _SHOWN else f"{shown} and {len(uses) - _SHOWN} more"
