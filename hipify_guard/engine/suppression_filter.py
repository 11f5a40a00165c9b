"""Apply suppression comments to a file's findings, and report the unused ones (HG902).

A suppression code is *used* when it suppressed a finding. Only codes that ran can be judged:
a code that is not enabled for the file (deselected, or ignored for it by `per-file-ignores`)
is never reported as unused, so `--select HG902` alone does not condemn every suppression.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.findings import SAFE, Edit, Finding, Fix, apply_edits
from ..core.suppressions import Suppression, find
from .front_ends import FRONT_ENDS, Analysis

UNUSED = "HG902"

Used = set[tuple[int, int]]  # (suppression index, token index)


def apply(file: Analysis, findings: list[Finding], enabled: Sequence[str], known: Sequence[str]) -> list[Finding]:
    """The findings that no suppression covers, plus HG902 for unused suppressions if enabled."""
    if b"hipify-guard" not in file.data:
        return findings
    found = find(file.data, file.comments, known, file.language)
    used: Used = set()
    kept = [finding for finding in findings if not _suppressed(finding, found.items, used)]
    if UNUSED in enabled:
        for source, finding in _unused(file, found.items, used, enabled):
            if not _suppressed(finding, found.items, used, source):
                kept.append(finding)
    return kept


def _suppressed(finding: Finding, items: Sequence[Suppression], used: Used, source: int = -1) -> bool:
    """Whether a suppression covers the finding (marking it used); `source` never covers its own report."""
    hits = [
        (index, position)
        for index, item in enumerate(items) if item.action != "enable" and index != source
        for position, token in enumerate(item.codes)
        if token.matches(finding.code) and item.covers[position][0] <= finding.start <= item.covers[position][1]
    ]
    used.update(hits)
    return bool(hits)


def _unused(file: Analysis, items: Sequence[Suppression], used: Used,
            enabled: Sequence[str]) -> list[tuple[int, Finding]]:
    """(index of the suppression, its HG902 finding) for each suppression with idle codes."""
    findings = []
    for index, item in enumerate(items):
        if item.action == "enable":
            continue
        idle = [position for position, token in enumerate(item.codes)
                if (index, position) not in used and any(token.matches(code) for code in enabled)]
        if idle:
            findings.append((index, _finding(file, item, idle, items)))
    return findings


def _finding(file: Analysis, item: Suppression, idle: list[int], items: Sequence[Suppression]) -> Finding:
    names = ", ".join(item.codes[position].text for position in idle)
    where = {"ignore": "on its line", "disable": "in its block", "file-ignore": "in this file"}[item.action]
    shown = file.text(*item.directive)
    message = f"unused suppression `{shown}`: no {names} finding {where}"
    if len(idle) < len(item.codes):
        message = f"unused code{'s' if len(idle) > 1 else ''} {names} in `{shown}`: nothing to suppress {where}"
    return Finding(UNUSED, message, *item.directive, fix=_fix(file, item, idle, items))


def _fix(file: Analysis, item: Suppression, idle: list[int], items: Sequence[Suppression]) -> Fix | None:
    """Remove the idle codes (the whole suppression when none is left), and their enables."""
    edits = [_drop_codes(file.data, item, {item.codes[p].span for p in idle})]
    closing = {item.closed_by[p] for p in idle if item.closed_by and item.closed_by[p] is not None}
    for other in items:
        dropped = {token.span for token in other.codes if token.span in closing}
        if other.action == "enable" and dropped:
            edits.append(_drop_codes(file.data, other, dropped))
    new = apply_edits(file.data, edits)
    if not FRONT_ENDS[file.language].same_code(file, new, edits):
        return None
    what = "suppression" if len(idle) == len(item.codes) else "unused codes"
    return Fix(SAFE, f"Remove the unused {what}", tuple(sorted(edits, key=lambda e: e.start)))


def _drop_codes(data: bytes, item: Suppression, spans: set[tuple[int, int]]) -> Edit:
    remaining = [token.text for token in item.codes if token.span not in spans]
    if not remaining:
        from ..fix.comment_removal import removal  # (only where a suppression is unused)

        return removal(data, item.comment, item.directive)
    return Edit(*item.codes_span, ", ".join(remaining).encode())
