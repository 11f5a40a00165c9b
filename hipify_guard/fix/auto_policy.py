"""`--policy auto`: decide ROCm's branch of an implicit guard (HG101-HG103) as its maintainer would
(spec §14), from what the branch's code says.

The branch's group is the arm's own code plus every nested branch that ROCm would compile were
the guard taken on ROCm (`BranchApis.group_uses`). A *use* is a CUDA or HIP API name (§14.6:
`exp` or `uint32_t` are not APIs) that the tables or HIP's headers know (§14.2). In order, the
first evidence decides:

1. the branch is CUDA's only: it uses an API some ROCm model's build lacks (no HIP equivalent,
   or a HIP declaration behind an opt-in macro nothing defines), holds inline PTX (§14.4),
   defines something HIP already declares (a polyfill, §14.3), passes an argument or reads a
   member that HIP's declarations do not take (§14.5), or is only an `#error` (a stop meant for
   CUDA builds): exclude ROCm;
2. the newest HIP "added" version among its APIs is newer than `min-rocm` (or any version when
   `min-rocm` is not set): take the branch on ROCm from that version (`rocm-min`);
3. it uses APIs and HIP has each of them: include ROCm;
4. nothing above (§14.1): no evidence is no decision; today's ROCm outcome is kept, made
   explicit as `preserve` makes it, and the message says so.

Every message names the evidence that decided (the API and its source, the PTX, the declaration)
and the names it could not judge. A choice that keeps ROCm's outcome of today is a safe fix; every
other choice is unsafe. A fix never contradicts the enclosing groups (§14.7, `guard_fix`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.findings import SAFE, UNSAFE, Fix
from ..cpp.groups import Arm
from ..model.analysis import FileAnalysis
from ..model.api_knowledge import is_api, titles
from ..model.branch_apis import ApiUse, BranchApis, branch_apis, first_uses
from ..model.branch_evidence import cuda_form, group_ranges, inline_ptx, polyfill
from ..model.rocm_versions import version_text
from .rewriter import EXCLUDE, INCLUDE, ROCM_MIN, guard_fix

_SHOWN = 3  # names in a message before "and N more"
_ERROR_ONLY = re.compile(rb"\s*#\s*error\b")


def auto_fix(file: FileAnalysis, arm: Arm, today: str, preserve: Callable[[str], Fix | None]) -> Fix | None:
    """The fix `--policy auto` chooses for an implicit guard whose ROCm outcome today is `today`;
    `preserve(reason)` is the preserve policy's fix, with the reason auto kept it."""
    facts = branch_apis(file)
    models = file.rocm_models
    macros = file.rewrite_macros(arm.directive.hash)
    rocm = macros.rocm.name if macros.rocm else ""
    _, uses = _api_uses(facts, arm)

    def exclude(evidence: str) -> Fix | None:
        return guard_fix(file, arm, EXCLUDE, applicability=SAFE if today == "false" else UNSAFE,
                         message=f"Exclude ROCm with `!defined({rocm})` (policy auto): the branch {evidence}")

    cuda_only = cuda_only_evidence(file, arm)
    if cuda_only:
        return exclude(cuda_only)
    min_rocm = file.settings.min_rocm
    versioned = [(view.added, use, model, view) for use in uses for model in models
                 if (view := use.view(model)) is not None and view.added is not None]
    if versioned:
        added, newest, _, _ = max(versioned, key=lambda item: item[0])
        if min_rocm is None or added > min_rocm:
            why = (f"newer than min-rocm {version_text(min_rocm)}" if min_rocm
                   else "min-rocm is not set; set it to skip version tests for APIs every supported ROCm has")
            deciding = [(model, view) for version, use, model, view in versioned if use is newest and version == added]
            where = f"{_sources(view for _, view in deciding)}; {titles(model for model, _ in deciding)}"
            return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE, rocm_min=added,
                             rocm_false_today=today == "false",
                             message=f"Take this branch on ROCm {version_text(added)} and newer (policy auto): "
                                     f"its newest API is `{newest.name}`, added in HIP {version_text(added)} "
                                     f"({where}; {why})")
    unknown = _unjudged(facts, arm)
    known = [(use, view) for use in uses for model in models if (view := use.view(model)) is not None]
    if known:
        shown = _names(list(dict.fromkeys(use for use, _ in known)))
        since = f" by ROCm {version_text(min_rocm)} (min-rocm)" if versioned and min_rocm else ""
        reason = f"HIP has every API the branch uses{since}: {shown} ({_sources(view for _, view in known)})"
        return guard_fix(file, arm, INCLUDE, applicability=SAFE if today == "true" else UNSAFE,
                         message=f"Include ROCm with `defined({rocm})` (policy auto): {reason}{unknown}")
    return preserve("no evidence decides this branch (no CUDA or HIP API the tables or HIP's headers know, no "
                    f"inline PTX, no HIP declaration it redefines or misuses), so today's ROCm outcome is kept{unknown}")


def cuda_only_evidence(file: FileAnalysis, arm: Arm) -> str | None:
    """What makes the arm's group CUDA's only (§14 decision 1: an API some ROCm build lacks, inline
    PTX, a polyfill of a HIP declaration, an argument or member HIP does not take, an `#error`
    meant for CUDA builds), said as "the branch ..." goes on; None when nothing does."""
    lacking = lacking_apis(file, arm)
    if lacking:
        return lacking
    facts = branch_apis(file)
    group = facts.group_arms(arm)
    every_use, _ = _api_uses(facts, arm)
    ranges = group_ranges(file, group)
    found = (inline_ptx(file, ranges) or polyfill(file, group, ranges)
             or cuda_form(file, ranges, [use for use in every_use if not facts.project_defines(use)]))
    if found is not None:
        return f"{found.what}: the path CUDA alone compiles"
    if _error_only(file, arm):
        return "is an `#error` meant for CUDA builds, which ROCm must not hit"
    return None


def lacking_apis(file: FileAnalysis, arm: Arm) -> str | None:
    """`uses X, which HIP does not have (sources; models)` when the arm's group uses an API that some
    ROCm model's build lacks (§14 decision 1), else None."""
    facts = branch_apis(file)
    _, uses = _api_uses(facts, arm)
    lacking = [(use, model, view) for use in uses for model in file.rocm_models
               if (view := facts.lacking(use, model)) is not None]
    if not lacking:
        return None
    missing = list(dict.fromkeys(use for use, _, _ in lacking))
    views = [view for _, _, view in lacking]
    opt_ins = sorted({macro for view in views for macro in view.opt_in})
    what = ("which HIP does not have" if any(view.missing for view in views)
            else f"which HIP declares only when {', '.join(opt_ins)} is defined")
    return f"uses {_names(missing)}, {what} ({_sources(views)}; {titles(m for _, m, _ in lacking)})"


def _api_uses(facts: BranchApis, arm: Arm) -> tuple[list[ApiUse], list[ApiUse]]:
    """The API names the arm's group uses, and the first use of each the project does not define."""
    every_use = [use for use in facts.group_uses(arm) if is_api(use.name)]
    return every_use, [use for use in first_uses(tuple(every_use)) if not facts.project_defines(use)]


def _error_only(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm's group is an `#error` and nothing else (no code, no nested conditional)."""
    conditional = arm.conditional
    end = conditional.arms[arm.index + 1].directive.hash if arm.index + 1 < len(conditional.arms) else (
        conditional.endif.hash if conditional.endif else len(file.data))
    inside = [d for d in file.scan.directives if arm.directive.hash < d.hash < end]
    if len(inside) != 1 or inside[0].kind != "error":
        return False
    before = file.data[arm.directive.end:inside[0].hash]
    after = file.data[inside[0].end:end]
    return not before.strip() and not after.strip()


def _unjudged(facts, arm: Arm) -> str:
    unknown = facts.group_unmapped(arm)
    if not unknown:
        return ""
    shown = ", ".join(f"`{name}`" for name in unknown[:_SHOWN])
    more = f" and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
    return f"; not in the tables, so not judged: {shown}{more}"


def _sources(views) -> str:
    """The sources of knowledge the views come from, each once: "HIPIFY's tables, HIP's headers"."""
    return ", ".join(dict.fromkeys(view.source for view in views))


def _names(uses: list[ApiUse]) -> str:
    shown = ", ".join(f"`{use.name}`" for use in uses[:_SHOWN])
    return shown if len(uses) <= _SHOWN else f"{shown} and {len(uses) - _SHOWN} more"

