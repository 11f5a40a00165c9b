"""Check and fix one file's bytes: rules -> findings -> verified edits. No file system here.

A file goes to the front end of its language (`front_ends`, by its name's extension) and only
the rules of that language (and those about the tool itself) run on it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from functools import lru_cache
from operator import attrgetter

from ..core.records import record
from ..checks import MODULES, rules_for
from ..checks.registry import RegisteredCheck
from ..core.findings import SAFE, UNSAFE, Edit, Expectation, Finding, apply_edits, original_offset
from ..core.languages import ANY, CPP, language_of
from ..core.package_data import rule_codes
from ..core.prefilter import RuleFilter
from ..model.settings import Settings
from . import suppression_filter
from .front_ends import FRONT_ENDS, Analysis
from .selection import Selection

MAX_FIX_ROUNDS = 10
Chosen = Callable[[Analysis, Finding], bool]  # picks one finding of a file (an editor's quick fix)


@record(frozen=False)
class FixResult:
    """The outcome of fixing one file's bytes."""

    data: bytes
    applied: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    analysis: Analysis | None = None
    error: str = ""
    unproven: list[str] = field(default_factory=list)  # fixes refused for want of a proof (warnings)


def active_codes(selection: Selection) -> list[str]:
    """The registered codes the selection enables (default-off rules only when named)."""
    from .catalogue import off_by_default

    return selection.codes(sorted(rules_for(*MODULES)), off_by_default())


def analyse(path: str, data: bytes, settings: Settings) -> Analysis:
    """The analysis of a file by the front end of its language."""
    return FRONT_ENDS[language_of(path)].analyse(path, data, settings)


@lru_cache(maxsize=256)
def language_codes(language: str, codes: tuple[str, ...]) -> tuple[str, ...]:
    """The codes among `codes` whose rules read files of `language` (core.languages)."""
    rules = rules_for(language)
    return tuple(code for code in codes if code in rules and rules[code].language in (language, ANY))


def trigger_names(settings: Settings, codes: Iterable[str]) -> list[bytes]:
    """The names whose presence makes a file worth a full scan, without redundant ones."""
    codes = tuple(codes)
    rules = _registering(codes)
    names = {name for code in codes for name in rules[code].triggers(settings)}
    kept = [n for n in names if not any(other != n and other in n for other in names)]
    return sorted(name.encode() for name in kept)


@lru_cache(maxsize=64)
def rule_filter(settings: Settings, codes: tuple[str, ...]) -> RuleFilter:
    """Which of `codes` are worth running on some bytes: their trigger names and screens.

    A rule without trigger names runs whenever another rule runs; when only such rules are
    selected, they look at the files that any rule of their language would look at.
    """
    rules = _registering(codes)
    triggers = {code: tuple(name.encode() for name in rules[code].triggers(settings)) for code in codes}
    if codes and not any(triggers.values()):
        triggers = {code: _language_triggers(settings, rules[code].language) for code in codes}
    screens = {code: rules[code].screen(settings) for code in codes if rules[code].screen is not None}
    from ..cpp import conditional_lines  # (the C/C++ front end's: imported by the first filter)

    return RuleFilter(triggers, screens, after_screens=conditional_lines.forget)


def _registering(codes: Iterable[str]) -> dict[str, RegisteredCheck]:
    """The registry with the rules `codes` registered (every language's, when one of them is not yet)."""
    rules = rules_for()
    return rules if all(code in rules for code in codes) else rules_for(*MODULES)


def _language_triggers(settings: Settings, language: str) -> tuple[bytes, ...]:
    """The trigger names of every rule of `language`, selected or not."""
    return tuple(sorted({name.encode() for rule in rules_for(language).values() if rule.language == language
                         for name in rule.triggers(settings)}))


def check(file: Analysis, codes: Sequence[str], worth: Sequence[str] | None = None) -> list[Finding]:
    """Run the rules on an analysed file; findings in file order.

    `worth`: the codes among `codes` whose trigger names occur in the file (`RuleFilter`); the
    others cannot find anything, so only these run (None: all). Suppressions still see `codes`.
    """
    return settle(file, run_rules(file, codes if worth is None else worth), codes)


def run_rules(file: Analysis, codes: Sequence[str]) -> list[Finding]:
    """What the rules `codes` of the file's language find, before suppressions."""
    rules = rules_for(file.language)
    return [finding for code in language_codes(file.language, tuple(codes)) for finding in rules[code].function(file)]


def settle(file: Analysis, findings: list[Finding], codes: Sequence[str]) -> list[Finding]:
    """The rules' findings without the suppressed ones, with HG902 (`codes`: the enabled rules), in file order."""
    codes = language_codes(file.language, tuple(codes))
    findings = suppression_filter.apply(file, findings, codes, rule_codes())
    return sorted(findings, key=lambda f: (f.start, f.code, f.end))


def fix(path: str, data: bytes, settings: Settings, codes: Sequence[str], *, unsafe: bool) -> FixResult:
    """Apply verified fixes until none is left (or MAX_FIX_ROUNDS), then check the result.

    A fix is applied at most once per rule and place: a finding that comes back after its fix
    is reported as a tool error instead of being fixed again and again. A fix that cannot be
    proven is not applied: its finding remains, with a warning (`unproven`), and the file's other
    fixes are still applied.
    """
    allowed = {SAFE, UNSAFE} if unsafe else {SAFE}
    front_end = FRONT_ENDS[language_of(path)]
    result = FixResult(data)
    fixed: set[tuple[str, str, int, int]] = set()
    refused: set[tuple[str, str, int, int]] = set()
    applied: list[list[Edit]] = []  # the edits of each round, to map offsets back to the original
    for round_number in range(MAX_FIX_ROUNDS + 1):
        file = front_end.analyse(path, result.data, settings)
        findings = check(file, codes)
        result.analysis, result.remaining = file, findings
        if round_number == MAX_FIX_ROUNDS or _unreadable(file):
            break
        candidates = [f for f in findings if f.fix and f.fix.applicability in allowed
                      and _place(file, f, applied) not in refused]
        returned = [f for f in candidates if _place(file, f, applied) in fixed]
        if returned:
            line = file.lines.line_of(returned[0].start)
            result.error = f"the fix for {returned[0].code} at line {line} did not resolve it; not applied again"
        chosen = _non_overlapping([f for f in candidates if _place(file, f, applied) not in fixed])
        if not chosen:
            break
        proven = _proven(file, chosen, result)
        kept = {id(f) for f in proven}  # (not `f in proven`: comparing findings, 10,000 x 10,000)
        refused.update(_place(file, f, applied) for f in chosen if id(f) not in kept)
        if proven:
            edits = [edit for finding in proven for edit in finding.fix.edits]
            fixed.update(_place(file, f, applied) for f in proven)
            applied.append(edits)
            result.data = apply_edits(result.data, edits)
            result.applied += proven
    return result


def _proven(file: Analysis, chosen: list[Finding], result: FixResult) -> list[Finding]:
    """The fixes among `chosen` whose rewrite is proven (all at once, else one by one); a warning
    in `result.unproven` for each of the others."""
    if _verifies(file, chosen) is None:
        return chosen
    proven = []
    for finding in chosen:
        error = _verifies(file, [finding]) if len(chosen) > 1 else _verifies(file, chosen)
        if error is None:
            proven.append(finding)
        else:
            line = file.lines.line_of(finding.start)
            result.unproven.append(f"line {line}: the fix for {finding.code} was not applied, it could not be "
                                   f"verified: {error}")
    if proven and _verifies(file, proven) is not None:  # (independent fixes: cannot happen, but never trust)
        result.unproven.append("the fixes of this file could not be verified together; none was applied")
        return []
    return proven


def _verifies(file: Analysis, findings: list[Finding]) -> str | None:
    """None when the fixes of `findings` together are proven, else why not."""
    edits = [edit for finding in findings for edit in finding.fix.edits]
    from ..fix.verify import VerificationError  # (fix runs only)

    try:
        verify(file, apply_edits(file.data, edits), edits, [f.fix.expectation for f in findings if f.fix.expectation])
    except VerificationError as error:
        return str(error)
    return None


def fix_finding(path: str, data: bytes, settings: Settings, codes: Sequence[str], chosen: Chosen, *,
                unsafe: bool) -> FixResult:
    """Apply the fix of the one finding `chosen` picks, verified as `fix` verifies; the bytes stay
    unchanged, with an error, when there is no such finding or fix or the fix cannot be proven."""
    file = analyse(path, data, settings)
    findings = check(file, codes)
    unchanged = FixResult(data, [], findings, file)
    found = next((finding for finding in findings if chosen(file, finding)), None)
    allowed = {SAFE, UNSAFE} if unsafe else {SAFE}
    if found is None:
        unchanged.error = "fix not applied: the finding is not in the file (any more)"
    elif found.fix is None or found.fix.applicability not in allowed:
        unchanged.error = f"fix not applied: this {found.code} has no {'' if unsafe else 'safe '}fix"
    elif _unreadable(file):
        unchanged.error = f"fix not applied: {FRONT_ENDS[file.language].unreadable} (a file the tool never rewrites)"
    if unchanged.error:
        return unchanged
    problem = _verifies(file, [found])
    if problem is not None:
        unchanged.error = f"fix not applied, it could not be verified: {problem}"
        return unchanged
    new = apply_edits(data, found.fix.edits)
    after = analyse(path, new, settings)
    return FixResult(new, [found], check(after, codes), after)


def verify(file: Analysis, new: bytes, edits: Sequence[Edit], expectations: Sequence[Expectation]) -> None:
    """Prove a rewrite with the verifier of the file's front end (raises VerificationError)."""
    FRONT_ENDS[file.language].verify(file, new, edits, expectations)


def _place(file: Analysis, finding: Finding, applied: list[list[Edit]]) -> tuple[str, str, int, int]:
    """A fix's identity that survives other fixes: rule, fix message, directive ordinal or the
    offset in the original bytes (through the edits `applied` in the earlier rounds).

    Verified fixes never add or remove directives, so ordinals are stable across rounds; lines are
    not (removing a suppression removes its line, and the next one moves up).
    """
    if file.language == CPP:
        directives = file.scan.directives
        index = bisect.bisect_right(directives, finding.start, key=attrgetter("hash")) - 1
        if index >= 0 and finding.start <= directives[index].end:
            return finding.code, finding.fix.message, index, -1
    offset = finding.start
    for edits in reversed(applied):
        offset = original_offset(edits, offset)
    return finding.code, finding.fix.message, -1, offset


def _unreadable(file: Analysis) -> bool:
    """A file with an HG901 (HG904 for Python) problem is never rewritten, whether that rule is
    selected or not."""
    return any(True for _ in rules_for(file.language)[FRONT_ENDS[file.language].unreadable].function(file))


def _non_overlapping(findings: list[Finding]) -> list[Finding]:
    """Fixes whose edits touch no edit of an earlier chosen fix (the rest wait a round).

    Spans of different chosen fixes never touch, so in the sorted list of taken spans only the
    one that starts last at or before an edit's end can touch the edit (a bisection, not a scan
    of every taken edit: 10,000 fixes in one file).
    """
    taken: list[tuple[int, int]] = []
    chosen = []
    for finding in findings:
        edits = finding.fix.edits
        if any(_touches_taken(taken, edit) for edit in edits):
            continue
        chosen.append(finding)
        for edit in edits:
            bisect.insort(taken, (edit.start, edit.end))
    return chosen


def _touches_taken(taken: list[tuple[int, int]], edit: Edit) -> bool:
    before = bisect.bisect_right(taken, (edit.end + 1,)) - 1  # the last span starting at or before edit.end
    return before >= 0 and taken[before][1] >= edit.start
