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
   CUDA builds); or it is for a CUDA release newer than HIPIFY's tables catalogue (`CATALOGUED`)
   and uses a name spelled as a CUDA API that no source knows (an API of that CUDA); or it is for
   a release newer than HIP has caught up with (`CAUGHT_UP`) and another part of its feature
   (step 5's branches) is CUDA's only by this step: exclude ROCm;
2. the newest HIP "added" version among its APIs is newer than `min-rocm` (or any version when
   `min-rocm` is not set): take the branch on ROCm from that version (`rocm-min`);
3. it defines a stand-in for a CUDA API that HIP lacks too (`stand_in`: CUDA 11 removed
   `cusparseDestroySolveAnalysisInfo`, hipSPARSE never had it), or it uses APIs and HIP has each
   of them: include ROCm;
4. nothing above in the branch's own group, ROCm skips the branch today, and the `#else` it
   takes instead is CUDA's only (step 1's evidence, or an API HIP lacks called by a macro's own
   name in its replacement list): include ROCm, the one way left that compiles there;
5. nothing above, and the branch holds code: the same steps over the file's other branches
   under the very same condition (`_kin`), the rest of the feature that condition gates;
6. nothing above, the branch includes no header, and the guard's CUDA test tells old CUDA from
   new with ROCm on the old side today (its CUDA macros are undefined): ROCm takes the path of
   current CUDA, so a branch for old CUDA only (`CUDA_VERSION < 10020`) is excluded and a branch
   for new CUDA (`CUDART_VERSION >= 9200`, the old path in its `#else`) included; not where
   that sends ROCm into code of a CUDA release newer than HIP has caught up with (`CAUGHT_UP`,
   11.4), nor into an `#else` only CUDA compiles. This is evidence of the guard, not of the
   code, and the message says so;
7. nothing above (§14.1): no evidence is no decision; today's ROCm outcome is kept, made
   explicit as `preserve` makes it, and the message says so.

Every message names the evidence that decided (the API and its source, the PTX, the declaration)
and the names it could not judge. A choice that keeps ROCm's outcome of today is a safe fix; every
other choice is unsafe. A fix never contradicts the enclosing groups (§14.7, `guard_fix`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.findings import SAFE, UNSAFE, Fix
from ..cpp.groups import Arm, group_end
from ..model.analysis import FileAnalysis
from ..model.api_knowledge import ApiView, is_api, titles
from ..model.branch_apis import ApiUse, BranchApis, branch_apis, first_uses
from ..model.branch_evidence import (Evidence, cuda_form, group_ranges, inline_ptx, libcudacxx, polyfill, stand_in,
                                     version_value)
from ..model.code_tokens import define_bodies, define_head, segments, tokens
from ..model.cuda_releases import OldCuda, Release
from ..model.rewrite_macros import NO_VERSION_MACRO
from ..model.rocm_versions import version_text
from .rewriter import EXCLUDE, INCLUDE, ROCM_MIN, guard_fix

_SHOWN = 3  # names in a message before "and N more"
# The newest CUDA release HIP has caught up with: in HIPIFY's tables (rules/hipify_map.tsv), HIP has
# at least half of the runtime and driver APIs each CUDA release up to it added (11.4: 43 of 77),
# and of no release after it (11.5: 0 of 53; 12.0: 35 of 156). tests/test_api_rules.py recomputes it.
CAUGHT_UP = (11, 4)
# The newest CUDA release whose APIs HIPIFY's tables catalogue, each whether HIP has it or not
# (rules/hipify_map.tsv, `cuda_added`); tests/test_api_rules.py recomputes it.
CATALOGUED = (12, 6)


def auto_fix(file: FileAnalysis, arm: Arm, today: str, preserve: Callable[[str], Fix | None], *,
             feature: bool = True, old_cuda: OldCuda | None = None) -> Fix | None:
    """The fix `--policy auto` chooses for an implicit guard whose ROCm outcome today is `today`;
    `preserve(reason)` is the preserve policy's fix, with the reason auto kept it. `feature=False`:
    the branch's own evidence only (steps 4 to 6 skipped), as the preserve check asks it.
    `old_cuda`: the old CUDA releases whose outcome ROCm has today (`old CUDA (before 9.2)`),
    when the guard tells old CUDA from new and ROCm is on the old side (step 6)."""
    facts = branch_apis(file)
    since = old_cuda.until if old_cuda is not None and today == "false" else None  # the branch is for CUDA `since` on
    newer = since if since is not None and since > CATALOGUED else None
    recent = feature and since is not None and since > CAUGHT_UP  # (its feature's other parts are read first)
    kin = _kin(file, facts, arm) if recent else None
    decided = _decide(file, arm, today, [facts.group_arms(arm)], "the branch", own=True,
                      feature=kin[0] if kin is not None else None, newer=newer)
    if decided is not _NO_EVIDENCE:
        return decided  # the fix the evidence chose; None where it cannot be written (spec §13.2)
    instead = arm.following_else if today == "false" and feature else None
    if instead is not None and (evidence := cuda_only_evidence(file, instead)):
        return _include(file, arm, today, f"the branch holds no evidence, and the `#else` ROCm takes instead (line "
                                          f"{file.lines.line_of(instead.directive.hash)}) {evidence}")
    if feature and not recent:
        kin = _kin(file, facts, arm)
    if kin is not None:
        decided = _decide(file, arm, today, *kin, own=False, newer=newer)
        if decided is not _NO_EVIDENCE:
            return decided
    nothing = ("no CUDA or HIP API the tables or HIP's headers know, no inline PTX, no HIP declaration it "
               f"redefines or misuses{', in it or in the code of its feature' if kin is not None else ''}")
    if old_cuda is not None and feature and today in ("true", "false") and not _includes(file, arm):
        fix = _current_path(file, arm, today, old_cuda, nothing)
        if fix is not _NO_EVIDENCE:
            return fix
    return preserve(f"no evidence decides this branch ({nothing}), "
                    f"so today's ROCm outcome is kept{_unjudged(branch_apis(file), arm)}")


def _current_path(file: FileAnalysis, arm: Arm, today: str, old_cuda: OldCuda, nothing: str) -> object:
    """Step 6: the code names nothing that decides, but the guard's version test tells old CUDA
    from new and ROCm, with its CUDA macros undefined, is on the old side: a branch for old
    CUDA only is a workaround ROCm, like current CUDA, skips (`CUDA_VERSION < 10020`), and a
    branch for new CUDA is the current path ROCm takes (`CUDART_VERSION >= 9200`, whose `#else` is
    the old CUDA's stand-in). Not where that sends ROCm into new CUDA's code (the branch, or the
    `#else` it would take instead) of a release newer than HIP has caught up with (`CAUGHT_UP`),
    nor into an `#else` only CUDA compiles. Unsafe: it changes ROCm's outcome. _NO_EVIDENCE when
    the direction does not decide."""
    instead = arm.following_else if today == "true" else None
    if (today == "false" or instead is not None) and old_cuda.until > CAUGHT_UP:
        return _NO_EVIDENCE
    if instead is not None and cuda_only_evidence(file, instead) is not None:
        return _NO_EVIDENCE
    if _flags_only(file, arm) and not _flags_read_and_portable(file, arm):
        return _NO_EVIDENCE
    rocm = _rocm_macro(file, arm)
    side = "takes" if today == "true" else "skips"
    evidence = (f"the branch's code decides nothing ({nothing}), and ROCm {side} it today only as {old_cuda.text} "
                f"does, its CUDA macros being undefined; the guard's version test decides: ")
    if today == "true":
        return guard_fix(file, arm, EXCLUDE, applicability=UNSAFE,
                         message=f"Exclude ROCm with `!defined({rocm})` (policy auto): {evidence}a branch for old "
                                 f"CUDA only is a workaround that ROCm, like current CUDA, skips{_unjudged(branch_apis(file), arm)}")
    return _include(file, arm, today, f"{evidence}the branch for new CUDA is the current path, which ROCm "
                                      f"takes like current CUDA (HIP has most of what CUDA added up to "
                                      f"{CAUGHT_UP[0]}.{CAUGHT_UP[1]}){_unjudged(branch_apis(file), arm)}")


_NO_EVIDENCE = object()  # what `_decide` returns when nothing in the code decides
_FOLLOWED = 3  # how many times a flag's gated `#define`s are followed to the code they gate
_MACRO = re.compile(rb"\s*([A-Za-z_]\w*)")  # the macro a `#define` or `#undef` names


def _flags_only(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm's group, nested arms included, holds `#define`s and no code (a capability
    flag such as `#define FLASHINFER_CP_ASYNC_ENABLED`)."""
    index = file.kept(_Conditions, lambda: _Conditions(file))
    members = [arm, *branch_apis(file).nested_with_code(arm)]
    return not any(index.holds_code(member) for member in members)


def _flags_read_and_portable(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the macros a flags-only group defines are used elsewhere in the file, and none of
    the code they gate (followed through the `#define`s of the groups they gate, `_FOLLOWED`
    times) is CUDA's only: a flag that switches on inline PTX (flashinfer's
    `FLASHINFER_CP_ASYNC_ENABLED`, cutlass' `CUTLASS_ARCH_MMA_SM70_SUPPORTED` -> `..._ENABLED` ->
    `mma.sync`) is the CUDA-only path, and a flag the file never reads is judged where it is read."""
    data = file.data
    names = _defined_names(file, arm)
    seen: set[bytes] = set()
    for _ in range(_FOLLOWED):
        names = [name for name in names if name not in seen]
        if not names:
            return True
        seen.update(names)
        gated: list[Arm] = []
        for name in names:
            word = re.compile(rb"\b" + re.escape(name) + rb"\b")
            users = [other for other in file.arms if other is not arm and other.directive.kind != "else"
                     and word.search(data, *other.directive.argument)]
            if not users and not _read_in_code(file, word, name):
                return False  # read nowhere here: the file that reads it decides
            gated += users
        if any(cuda_only_evidence(file, user) is not None for user in gated):
            return False
        names = [name for user in gated for name in _defined_names(file, user)]
    return True


def _defined_names(file: FileAnalysis, arm: Arm) -> list[bytes]:
    """The macros the `#define`s of the arm's group (nested arms included) define."""
    data = file.data
    return [head[0] for directive in file.scan.between(arm.directive.end, group_end(arm, len(data)))
            if directive.kind == "define" and (head := define_head(data, directive)) is not None]


def _read_in_code(file: FileAnalysis, word: re.Pattern[bytes], name: bytes) -> bool:
    """Whether `name` appears in the file outside the directives that define or undefine it."""
    data = file.data
    own = [(directive.hash, directive.end) for directive in file.scan.directives
           if directive.kind in ("define", "undef") and (macro := _MACRO.match(data, directive.argument[0]))
           and macro.group(1) == name]
    return any(not any(start <= match.start() < end for start, end in own) for match in word.finditer(data))


def _decide(file: FileAnalysis, arm: Arm, today: str, groups: list[list[Arm]], who: str, *, own: bool,
            feature: list[list[Arm]] | None = None, newer: Release | None = None) -> object:
    """The fix the evidence in `groups` (the code `who` names) decides for `arm` (None when that fix
    cannot be written), or _NO_EVIDENCE. Each group is read on its own for declarations (a name's type is that of its
    nearest declaration before the use in the same group). `own`: the arm's own group (only it is judged `#error`-only).
    `feature`: the groups of the other branches under the same condition (`_kin`), for a branch of
    a CUDA release newer than HIP has caught up with (`CAUGHT_UP`);
    when one of them is CUDA's only, so is the feature, and this part of it too.
    `newer`: the CUDA release from which the guard takes the branch, when HIPIFY's tables do not
    reach it (`CATALOGUED`): a name spelled as a CUDA API that no source knows is then one of that
    CUDA's, which HIP does not have."""
    facts = branch_apis(file)
    models = file.rocm_models
    rocm = _rocm_macro(file, arm)
    every_use = sorted((use for group in groups for member in group for use in facts.uses(member)
                        if is_api(use.name)), key=lambda use: use.start)
    uses = [use for use in first_uses(tuple(every_use)) if not facts.project_defines(use)]

    def exclude(evidence: str) -> Fix | None:
        return guard_fix(file, arm, EXCLUDE, applicability=SAFE if today == "false" else UNSAFE,
                         message=f"Exclude ROCm with `!defined({rocm})` (policy auto): {who} {evidence}")

    lacking = _lacking(facts, models, uses)
    said = lacking[0] if lacking else _newer_than_tables(facts, groups, newer)
    if said:
        return exclude(said)
    found = None
    spans = [(group, group_ranges(file, group)) for group in groups]
    for group, ranges in spans:
        found = found or _cuda_only_code(file, group, ranges, [
            use for use in every_use if not facts.project_defines(use) and any(a <= use.start < b for a, b in ranges)])
    if found is not None:
        return exclude(f"{found.what}: the path CUDA alone compiles")
    if own and _error_only(file, arm):
        return exclude("is an `#error` meant for CUDA builds, which ROCm must not hit")
    if feature is not None and (part := _cuda_only_part(file, feature, newer)):
        return exclude(f"is one part of a feature whose other part, under the same condition (line {part[0]}), "
                       f"{part[1]}")
    min_rocm = file.settings.min_rocm
    aliased = _aliased(facts, every_use, models)
    versioned = [(view.added, use, model, view) for use in uses for model in models
                 if (view := use.view(model)) is not None and view.added is not None]
    versioned += [(view.added, use, model, view) for use, views in aliased.items() for model, view, _ in views
                  if view.added is not None]
    if versioned:
        added, newest, _, _ = max(versioned, key=lambda item: item[0])
        if min_rocm is None or added > min_rocm:
            why = (f"newer than min-rocm {version_text(min_rocm)}" if min_rocm
                   else "min-rocm is not set; set it to skip version tests for APIs every supported ROCm has")
            deciding = [(model, view) for version, use, model, view in versioned if use is newest and version == added]
            where = f"{_sources(view for _, view in deciding)}; {titles(model for model, _ in deciding)}"
            alias = "".join(f", which the project defines for ROCm as `{view.name}` ({where})"
                            for _, view, where in aliased.get(newest, ())[:1])
            newest_api = (f"the newest API {who} uses is `{newest.name}`{alias}, added in HIP {version_text(added)} "
                          f"({where}")
            macros = file.rewrite_macros(arm.directive.hash)
            if macros.rocm is not None and macros.version_number(added) is None:
                file.kept(_Unwritten, _Unwritten)[arm.directive.hash] = (
                    f"auto would take this branch on ROCm {version_text(added)} and newer ({newest_api})), but "
                    f"{NO_VERSION_MACRO}")
                return None
            return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE, rocm_min=added,
                             rocm_false_today=today == "false",
                             message=f"Take this branch on ROCm {version_text(added)} and newer (policy auto): "
                                     f"{newest_api}; {why})")
    for group, ranges in spans:
        standing_in = stand_in(file, group, ranges)
        if standing_in is not None:
            return _include(file, arm, today, f"{who} {standing_in.what}, so ROCm needs it as well")
    known = [(use, view) for use in uses for model in models if (view := use.view(model)) is not None]
    known += [(use, view) for use, views in aliased.items() for _, view, _ in views]
    if known:
        shown = _names(list(dict.fromkeys(use for use, _ in known)))
        since = f" by ROCm {version_text(min_rocm)} (min-rocm)" if versioned and min_rocm else ""
        reason = f"HIP has every API {who} uses{since}: {shown} ({_sources(view for _, view in known)})"
        return _include(file, arm, today, f"{reason}{_unjudged(facts, arm)}")
    return _NO_EVIDENCE


def _aliased(facts: BranchApis, every_use: list[ApiUse], models) -> dict[ApiUse, list[tuple[object, ApiView, str]]]:
    """The first use of each name the project defines for ROCm as another API (FBGEMM's `using
    __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;`), with what each ROCm model's build has for it and where
    the project says so: of the APIs its definitions make it, the one HIP added first (the
    definition ROCm compiles from then)."""
    found: dict[ApiUse, list[tuple[object, ApiView, str]]] = {}
    for use in first_uses(tuple(every_use)):
        aliases = facts.aliases(use) if facts.project_defines(use) else ()
        for model in models if aliases else ():
            views = [(view, where) for target, where in aliases if (view := facts.available(target, model)) is not None]
            if views:
                view, where = min(views, key=lambda item: _earliest(item[0]))
                found.setdefault(use, []).append((model, view, where))
    return found


def _earliest(view: ApiView) -> tuple:
    return (view.added is None, view.added or ())


class _Unwritten(dict):
    """Per file: why auto wrote no fix for an arm (keyed by its directive's `#`) although the
    evidence decided it."""


def unwritten(file: FileAnalysis, arm: Arm) -> str:
    """Why `auto_fix` gave no fix for `arm` although its evidence decided ("": it did not say)."""
    return file.kept(_Unwritten, _Unwritten).get(arm.directive.hash, "")


def _include(file: FileAnalysis, arm: Arm, today: str, reason: str) -> Fix | None:
    """Auto's include fix, for `reason`: safe where ROCm takes the branch today."""
    return guard_fix(file, arm, INCLUDE, applicability=SAFE if today == "true" else UNSAFE,
                     message=f"Include ROCm with `defined({_rocm_macro(file, arm)})` (policy auto): {reason}")


def _rocm_macro(file: FileAnalysis, arm: Arm) -> str:
    """The macro a fix of the arm writes for ROCm ("" when none is known: the fix is not written)."""
    macros = file.rewrite_macros(arm.directive.hash)
    return macros.rocm.name if macros.rocm else ""


def _kin(file: FileAnalysis, facts, arm: Arm) -> tuple[list[list[Arm]], str] | None:
    """Where the evidence of a branch without any lies, when the branch is one part of a feature
    (spec §14.1 reads "no evidence" over the whole feature, not one fragment of it): a branch of
    code is one part of the feature its condition gates, so the other branches of the file under
    the very same condition (one `#if CUDA_VERSION >= 6050` around a library call, another around
    the check of its result) are decided with it. A branch of `#define`s or `#include`s only
    (`#include <cuda_fp16.h>`) is not code the feature runs: it stays with its own evidence.

    Returns the groups of those branches (each with the nested arms ROCm would compile with it)
    and how a message names them; None when there are none.
    """
    if arm.directive.kind not in ("if", "elif"):
        return None
    index = file.kept(_Conditions, lambda: _Conditions(file))
    if not index.holds_code(arm):  # `#define`s or `#include`s only: not a part of the code the condition gates
        return None
    same = [other for other in index.arms(arm) if other is not arm]
    if not same:
        return None
    lines = ", ".join(str(file.lines.line_of(other.directive.hash)) for other in same)
    return ([facts.group_arms(other) for other in same],
            f"the code under the same condition (line{'s' if len(same) > 1 else ''} {lines})")


class _Conditions:
    """The file's `#if`/`#elif` arms by condition (without spaces), and which groups hold code;
    made once per file (`FileAnalysis.kept`)."""

    def __init__(self, file: FileAnalysis) -> None:
        data = file.data
        self._by_text: dict[bytes, list[Arm]] = {}
        for conditional in file.tree.conditionals:
            for arm in conditional.arms:
                if arm.directive.kind in ("if", "elif"):
                    self._by_text.setdefault(_condition_text(data, arm.directive), []).append(arm)
        self._data = data
        self._segments = segments(file)
        self._bodies = define_bodies(file)

    def arms(self, arm: Arm) -> list[Arm]:
        """The arms whose condition is the arm's own, the arm included, in file order."""
        return self._by_text.get(_condition_text(self._data, arm.directive), [])

    def holds_code(self, arm: Arm) -> bool:
        """Whether the arm's own group has a token outside its directives (a `#define`'s
        replacement list does not count, nor does anything in nested conditionals)."""
        return any(next(tokens(self._data, start, end), None) is not None
                   for start, end in self._segments.get(arm.directive.hash, ()) if start not in self._bodies)


_SPACE = re.compile(rb"\\\r?\n|\s+")


def _condition_text(data: bytes, directive) -> bytes:
    """The directive's condition without spaces or line continuations."""
    start, end = directive.argument
    return _SPACE.sub(b"", data[start:end])


def cuda_only_evidence(file: FileAnalysis, arm: Arm) -> str | None:
    """What makes the arm's group CUDA's only (§14 decision 1: an API some ROCm build lacks, inline
    PTX, a polyfill of a HIP declaration, an argument or member HIP does not take, an `#error`
    meant for CUDA builds), said as "the branch ..." goes on; None when nothing does."""
    found = _cuda_only_part(file, [branch_apis(file).group_arms(arm)], None)
    if found is None and _error_only(file, arm):
        return "is an `#error` meant for CUDA builds, which ROCm must not hit"
    return found[1] if found else None


def _newer_than_tables(facts: BranchApis, groups: list[list[Arm]], newer: Release | None) -> str | None:
    """`uses X, ...` when the groups, taken from CUDA `newer` on, use names spelled as CUDA APIs that
    no source knows (`BranchApis.unknown_apis`), else None."""
    if newer is None:
        return None
    unknown = list(dict.fromkeys(name for group in groups for name in facts.unknown_apis(group[0])))
    if not unknown:
        return None
    shown = ", ".join(f"`{name}`" for name in unknown[:_SHOWN])
    more = f" and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
    what = "a name spelled as a CUDA API" if len(unknown) == 1 else "names spelled as CUDA APIs"
    return (f"uses {shown}{more}, {what} that no source knows (not HIP's headers, not PyTorch's hipify, not "
            f"HIPIFY's tables, which list CUDA's APIs to CUDA {CATALOGUED[0]}.{CATALOGUED[1]}, ported or not), in a "
            f"branch for CUDA {newer[0]}.{newer[1]}: CUDA's, which HIP does not have")


def _cuda_only_part(file: FileAnalysis, groups: list[list[Arm]], newer: Release | None) -> tuple[int, str] | None:
    """The line of one of these groups (`_kin`'s) that is CUDA's only, and what makes it so, as "the
    branch ..." goes on: an API some ROCm build lacks, or code only CUDA compiles (an `#error` is no
    code of the feature). A group that HIP could compile with an opt-in macro defined is named only
    when no group is CUDA's only for a harder reason (an API HIP lacks, inline PTX...)."""
    opt_in = None
    for group in groups:
        found = _group_verdict(file, group, newer)
        if found is not None and not found[2]:
            return found[0], found[1]
        if found is not None and opt_in is None:
            opt_in = found[0], found[1]
    return opt_in


def _group_verdict(file: FileAnalysis, group: list[Arm], newer: Release | None) -> tuple[int, str, bool] | None:
    """(line, what makes the group CUDA's only, whether an opt-in macro is all HIP needs) for
    `_cuda_only_part`; found once per group (each part of a feature reads all the others)."""
    verdicts = file.kept(_group_verdict, dict)
    key = (group[0].directive.hash, newer)
    if key not in verdicts:
        verdicts[key] = _verdict_of(file, group, newer)
    return verdicts[key]


def _verdict_of(file: FileAnalysis, group: list[Arm], newer: Release | None) -> tuple[int, str, bool] | None:
    facts = branch_apis(file)
    line = file.lines.line_of(group[0].directive.hash)
    every_use, uses = _api_uses(facts, group[0])
    lacking = _lacking(facts, file.rocm_models, uses)
    if lacking and not lacking[1]:
        return line, lacking[0], False
    said = _newer_than_tables(facts, [group], newer)
    if said:
        return line, said, False
    ranges = group_ranges(file, group)
    found = _cuda_only_code(file, group, ranges, [use for use in every_use if not facts.project_defines(use)])
    if found is not None:
        return line, f"{found.what}: the path CUDA alone compiles", False
    return (line, lacking[0], True) if lacking else None


def _cuda_only_code(file: FileAnalysis, group: list[Arm], ranges: list[tuple[int, int]],
                    uses: list[ApiUse]) -> Evidence | None:
    """The first evidence in a group's code (`ranges`; `uses`: its API uses the project does not
    define) that only CUDA compiles it: inline PTX, a polyfill, a form HIP does not take, a CUDA
    version macro read as a value, a name of libcu++'s `cuda::` namespace."""
    return (inline_ptx(file, ranges) or polyfill(file, group, ranges) or cuda_form(file, ranges, uses)
            or version_value(file, ranges) or libcudacxx(file, ranges))


def _lacking(facts: BranchApis, models, uses: list[ApiUse]) -> tuple[str, bool] | None:
    """`uses X, which HIP does not have (sources; models)` when some of these uses is an API that
    one of these ROCm models' builds lacks (§14 decision 1), naming only those HIP has no
    equivalent of when there are some, else those behind an opt-in macro; with whether the opt-in
    is all there is. None when the builds have every one."""
    lacking = [(use, model, view) for use in uses for model in models
               if (view := facts.lacking(use, model)) is not None]
    if not lacking:
        return None
    opt_in = not any(view.missing for _, _, view in lacking)
    lacking = [item for item in lacking if opt_in or item[2].missing]
    missing = list(dict.fromkeys(use for use, _, _ in lacking))
    views = [view for _, _, view in lacking]
    opt_ins = sorted({macro for view in views for macro in view.opt_in})
    what = (f"which HIP declares only when {', '.join(opt_ins)} is defined" if opt_in
            else "which HIP does not have")
    return f"uses {_names(missing)}, {what} ({_sources(views)}; {titles(m for _, m, _ in lacking)})", opt_in


def _api_uses(facts: BranchApis, arm: Arm) -> tuple[list[ApiUse], list[ApiUse]]:
    """The API names the arm's group uses, and the first use of each the project does not define."""
    every_use = [use for use in facts.group_uses(arm) if is_api(use.name)]
    return every_use, [use for use in first_uses(tuple(every_use)) if not facts.project_defines(use)]


def _includes(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm's group `#include`s a header (`<cuda_fp16.h>`): what ROCm would get from it
    is the header's, which the guard's direction does not tell."""
    return any(directive.kind == "include" for directive in file.scan.between(arm.directive.hash, group_end(arm, len(file.data))))


def _error_only(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm's group is an `#error` and nothing else (no code, no nested conditional)."""
    end = group_end(arm, len(file.data))
    inside = file.scan.between(arm.directive.hash, end)
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

