"""HG101, HG102, HG103: guards on CUDA version macros whose ROCm outcome is implicit."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from operator import attrgetter

from ..core.findings import SAFE, UNSAFE, Finding, Fix
from ..cpp.groups import Arm, group_end
from ..cpp.nodes import Defined, Identifier, walk
from ..cpp.scanner import Directive
from ..fix.auto_policy import auto_fix, cuda_only_evidence, unwritten
from ..fix.rewriter import EXCLUDE, INCLUDE, ROCM_MIN, for_the_project, guard_fix, test_fix
from ..model.analysis import FileAnalysis
from ..model.rewrite_macros import NO_VERSION_MACRO
from ..model.api_knowledge import is_api
from ..model.branch_apis import branch_apis
from ..model.code_tokens import define_head, segments
from ..model.cuda_releases import old_cuda_only, releases_taking
from ..model.implicit import Fate, describe, rocm_fate
from ..model.platforms import Outcome
from ..model.generated_files import withheld_fix
from .registry import check, cuda_version_macros

_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")
_WORDS = re.compile(rb"asm|error")

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
        message = (f"`{_shown(file, arm)}` is {today} on ROCm{_on_builds(fate)}{_unless(file, fate)}, where "
                   f"{_undefined(fate)}: {_consequence(file, arm, fate)}")
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
    if file.settings.rocm_only:
        return f"only ROCm builds compile this file, so the test is always {fate.today} here; write what is meant"
    if not file.reachable(arm, file.cuda, inside=False):
        return f"only ROCm compiles this region, so the test is always {fate.today} here; write what is meant"
    if fate.today == "false":
        return "this branch is silently skipped on ROCm"
    following = _first_directive(file, arm)
    presence = _only_presence(fate)
    meant = releases_taking(file, arm, fate.tests)
    if following is not None and following.kind == "error":
        if presence:
            return "ROCm hits this `#error` only because the macro is undefined there"
        return f"ROCm hits the `#error` meant for {meant}" if meant else (
            "ROCm hits an `#error` meant for some CUDA releases only")
    defined = _defined_name(file, following)
    if defined in fate.cuda_macros:
        return f"ROCm silently uses this fallback definition of {defined}"
    if presence:  # `#ifndef CUDA_VERSION` meant as "not CUDA": ROCm is in it by accident, not by name
        return "ROCm takes this branch only because the macro is undefined there, which no test of ROCm says"
    return f"ROCm silently takes the branch meant for {meant}" if meant else (
        "ROCm silently takes a branch meant for some CUDA releases only")


def _only_presence(fate: Fate) -> bool:
    """Whether the CUDA tests only ask whether the macros are defined (`#ifndef CUDA_VERSION`)."""
    return all(isinstance(item, Defined) for test, _ in fate.tests for item in walk(test)
               if isinstance(item, (Defined, Identifier)))


def _unless(file: FileAnalysis, fate: Fate) -> str:
    """` unless GGML_USE_MUSA is defined`: where other macros give the guard the other value."""
    if fate.rest is None:
        return ""
    return f" unless {describe(fate.rest, file.data, wanted=fate.today == 'false')}"


def _on_builds(fate: Fate) -> str:
    """` (build -DROCM_VERSION=50700)` when known builds (compile_commands.json) decided the outcome."""
    labels = sorted({model.build for model, _ in fate.outcomes if model.build})
    return f" (build {'; '.join(labels)})" if labels else ""


def _first_directive(file: FileAnalysis, arm: Arm) -> Directive | None:
    """The directive right after the arm's, if it is inside the arm's group."""
    directives = file.scan.directives
    after = bisect.bisect_right(directives, arm.directive.hash, key=attrgetter("hash"))  # not a scan: 10,000 arms
    if after == len(directives) or directives[after].is_conditional:
        return None
    return directives[after]


def _defined_name(file: FileAnalysis, directive: Directive | None) -> str | None:
    """The macro a `#define` defines (the define-if-missing idiom), else None."""
    if directive is None or directive.kind != "define":
        return None
    start, end = directive.argument
    name = file.data[start:end].split(b"(")[0].split()
    return name[0].decode("latin-1") if name else None


def _finding(file: FileAnalysis, code: str, arm: Arm, fate: Fate, message: str) -> Finding:
    directive = arm.directive
    preserving = file.settings.policy.kind == "preserve" and file.rewrite_macros(directive.hash).rocm is not None
    against = (_against_today(file, arm, fate) if preserving else "") or withheld_fix(file)
    fix = None if against else for_the_project(file, _policy_fix(file, arm, fate))
    return Finding(code, message + (against or ("" if fix else _why_no_fix(file, arm))), directive.hash,
                   directive.argument[1], fix, anchor=_shown(file, arm, limit=None))


def _against_today(file: FileAnalysis, arm: Arm, fate: Fate) -> str:
    """`; no safe fix: ...` where keeping ROCm's outcome of today is a fix no maintainer would merge,
    by spec §14's evidence: ROCm takes a branch only CUDA can compile, skips one whose every name
    HIP has or that stands in for an API HIP lacks too (`--policy auto` would change the outcome), or takes instead an `#else` only CUDA can
    compile (an API HIP lacks, inline PTX, a polyfill...); else ""."""
    if fate.partial or not fate.alone or fate.today not in ("true", "false") or not _may_decide(file, arm):
        return ""
    if fate.today == "true":
        evidence = cuda_only_evidence(file, arm)
        return (f"; no safe fix: ROCm takes this branch today, but the branch {evidence}; "
                "`--unsafe-fixes --policy auto` excludes ROCm") if evidence else ""
    decided = auto_fix(file, arm, fate.today, lambda reason: None, feature=False)  # the branch's own names
    if decided is not None and decided.applicability == UNSAFE and not branch_apis(file).group_unmapped(arm):
        evidence = decided.message.split(": ", 1)[-1]
        return (f"; no safe fix: ROCm skips this branch today, but {evidence}; "
                "`--unsafe-fixes --policy auto` takes it on ROCm")
    taken = arm.following_else
    if taken is not None and (instead := cuda_only_evidence(file, taken)):
        return f"; no safe fix: the code ROCm takes instead {instead}, so neither branch compiles for ROCm as it is"
    return ""


def _may_decide(file: FileAnalysis, arm: Arm) -> bool:
    """Whether the arm and the `#else` after it hold anything §14's evidence reads: an API name in
    their code (nested arms' included) or as the name of a `#define` (a stand-in), `asm`, an
    `#error` (a screen: the branch facts read the whole file, and a guard around project code in
    a file of 100 MB should not cost that)."""
    arms = arm.conditional.arms
    end = group_end(arms[min(arm.index + 2, len(arms)) - 1], len(file.data))
    return file.kept(_Screen, lambda: _Screen(file)).any_between(arm.directive.end, end)


class _Screen:
    """The offsets, in file order, of what `_may_decide` looks for: `asm` and `error` anywhere, a
    `#define` of an API name, an API name in code. Made once per file, so that each arm costs
    a search, not a scan of everything nested in it (10,000 nested guards took 24 s)."""

    def __init__(self, file: FileAnalysis) -> None:
        data = file.data
        found = [match.start() for match in _WORDS.finditer(data)]
        found += [directive.hash for directive in file.scan.directives if directive.kind == "define"
                  and (head := define_head(data, directive)) is not None and is_api(head[0].decode("latin-1"))]
        api: dict[bytes, bool] = {}
        for spans in segments(file).values():
            for start, stop in spans:
                for match in _IDENTIFIER.finditer(data, start, stop):
                    name = match.group()
                    known = api.get(name)
                    if known is None:
                        known = api[name] = is_api(name.decode("latin-1"))
                    if known:
                        found.append(match.start())
        self._offsets = sorted(found)

    def any_between(self, start: int, end: int) -> bool:
        """Whether one of the offsets is in [start, end)."""
        index = bisect.bisect_left(self._offsets, start)
        return index < len(self._offsets) and self._offsets[index] < end


def _why_no_fix(file: FileAnalysis, arm: Arm) -> str:
    """`; no fix: ...` where the policy would rewrite but no macro says ROCm (or its version) here
    (auto: the version its evidence asks for)."""
    macros = file.rewrite_macros(arm.directive.hash)
    if macros.rocm is None:
        return f"; no fix: {macros.missing}"
    policy = file.settings.policy
    if policy.kind == "auto" and (reason := unwritten(file, arm)):
        return f"; no fix: {reason}"
    if policy.kind == "rocm-min" and policy.rocm_min is not None and macros.version_number(policy.rocm_min) is None:
        why = ("HIP_VERSION cannot express a patch release" if macros.version
               else NO_VERSION_MACRO)
        return f"; no rocm-min fix: {why}"
    return ""


def _policy_fix(file: FileAnalysis, arm: Arm, fate: Fate) -> Fix | None:
    """The fix the configured policy asks for, marked unsafe when it changes ROCm's branch."""
    policy = file.settings.policy
    macros = file.rewrite_macros(arm.directive.hash)
    if macros.rocm is None:
        return None
    rocm = macros.rocm.name
    if policy.kind == "auto":  # (partial: other macros flip it)
        return auto_fix(file, arm, "differs" if fate.partial else fate.today,
                        lambda reason: _preserve_fix(file, arm, fate, rocm, f" (policy auto): {reason}"),
                        old_cuda=old_cuda_only(file, arm, fate.tests) if fate.alone else None)
    if policy.kind == "rocm-min" and policy.rocm_min is not None:
        version = ".".join(map(str, policy.rocm_min))
        return guard_fix(file, arm, ROCM_MIN, applicability=UNSAFE,
                         message=f"Take this branch on ROCm {version} and newer only", rocm_min=policy.rocm_min,
                         rocm_false_today=fate.today == "false" and not fate.partial)
    form = {"exclude": EXCLUDE, "include": INCLUDE}.get(policy.kind)
    if form is None:
        return _preserve_fix(file, arm, fate, rocm, "")
    keeps_today = not fate.partial and (form == EXCLUDE and fate.today == "false" or form == INCLUDE and fate.today == "true")
    verb = "Exclude" if form == EXCLUDE else "Include"
    note = f" (today: {fate.today} on ROCm)" if not keeps_today else ""
    return guard_fix(file, arm, form, applicability=SAFE if keeps_today else UNSAFE,
                     message=f"{verb} ROCm explicitly with `defined({rocm})`{note}")


def _preserve_fix(file: FileAnalysis, arm: Arm, fate: Fate, rocm: str, why: str) -> Fix | None:
    """The `preserve` fix: today's ROCm outcome made explicit, when there is one (at the CUDA
    tests where other macros decide too); `why` ends the message."""
    if not fate.alone:
        return test_fix(file, arm, fate, message=f"Make ROCm explicit at the CUDA version test with `defined({rocm})`{why}")
    form = {"false": EXCLUDE, "true": INCLUDE}.get(fate.today)
    if form is None:
        return None
    verb = "Exclude" if form == EXCLUDE else "Include"
    note = f" (today: {fate.today} on ROCm)" if fate.partial else ""
    return guard_fix(file, arm, form, applicability=UNSAFE if fate.partial else SAFE,
                     message=f"{verb} ROCm explicitly with `defined({rocm})`{note}{why}")


def _shown(file: FileAnalysis, arm: Arm, limit: int | None = 70) -> str:
    directive = arm.directive
    text = " ".join(file.text(directive.hash, directive.argument[1]).replace("\\\n", " ").split())
    if limit is not None and len(text) > limit:
        return text[: limit - 3] + "..."
    return text


def _undefined(fate: Fate) -> str:
    """Why the CUDA macros have no CUDA value on ROCm, for the models the finding holds under."""
    renamed = sorted({(name, model.renames[name], model.fixed.get(model.renames[name], "ranged") is None)
                      for model, _ in fate.outcomes for name in fate.cuda_macros if name in model.renames})
    native = [name for name in fate.cuda_macros if any(name not in model.renames for model, _ in fate.outcomes)]
    parts = []
    if native:
        parts.append(f"{' and '.join(native)} {'is' if len(native) == 1 else 'are'} undefined")
    for name, target, undefined in renamed:
        value = "which a PyTorch extension's build leaves undefined" if undefined else "a HIP version"
        if native:
            parts.append(f"(or, after PyTorch's hipify, {target}, {value})")
        else:
            parts.append(f"PyTorch's hipify renames {name} to {target}, {value}")
    return " ".join(parts)


def _describe(value: Outcome) -> str:
    return {Outcome.TRUE: "true", Outcome.FALSE: "false", Outcome.DEPENDS: "depends on the build"}.get(
        value, "undecided"
    )
