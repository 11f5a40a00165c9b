"""A suppression comment for one finding (an editor's "suppress" quick fix), proven by a check.

The comment joins an `ignore[...]` list already on the finding's logical line, or goes at the
end of that line, or alone on a line above it (README "Suppression comments"). The first place
whose result, checked again, no longer has the finding and has no finding the original did not
have, wins; when none does, nothing changes.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from ..core.findings import Finding
from ..core.package_data import rule_codes
from ..core.suppressions import Lines, find
from ..model.analysis import FileAnalysis
from ..model.settings import Settings
from .lint import Chosen, FixResult, check

COMMENT = b"// hipify-guard: ignore[%s]"
_BLANKS = b" \t\f\v"
_NEWLINE = re.compile(rb"\r\n|\r|\n")


def suppress_finding(path: str, data: bytes, settings: Settings, codes: Sequence[str], chosen: Chosen) -> FixResult:
    """The bytes with a comment that suppresses the one finding `chosen` picks (unchanged, with an
    error, when there is no such finding or no comment can be proven to suppress only it)."""
    file = FileAnalysis(path, data, settings)
    findings = check(file, codes)
    found = next((finding for finding in findings if chosen(file, finding)), None)
    if found is None:
        return FixResult(data, [], findings, file, error="not suppressed: the finding is not in the file (any more)")
    for new in _candidates(file, found):
        after = FileAnalysis(path, new, settings)
        remaining = check(after, codes)
        if _only_fewer(findings, remaining, found.code):
            return FixResult(new, [found], remaining, after)
    failed = f"no comment could be proven to suppress {found.code} at line {file.lines.line_of(found.start)}"
    return FixResult(data, [], findings, file, error=failed)


def _candidates(file: FileAnalysis, finding: Finding) -> Iterator[bytes]:
    """The file with the comment in each place that may work, best first."""
    data, code = file.data, finding.code.encode("ascii")
    lines = Lines(data, file.scan.comments)
    start, end = lines.logical_start(finding.start), lines.logical_end(finding.start)
    for item in find(data, file.scan.comments, rule_codes()).items:
        if item.action == "ignore" and start <= item.comment[0] <= end:
            yield _insert(data, item.codes_span[1], b", " + code)
    if not _inside_comment(file.scan.comments, end):  # (not into someone's /* ... */)
        separator = b"" if end > start and data[end - 1] in _BLANKS else b"  "
        yield _insert(data, end, separator + COMMENT % code)
    logical = data[start:end]
    indent = logical[: len(logical) - len(logical.lstrip(_BLANKS))]
    yield _insert(data, start, indent + COMMENT % code + _line_break(data, end))


def _inside_comment(comments: tuple[tuple[int, int], ...], offset: int) -> bool:
    """Whether a comment starts before `offset` and ends after it."""
    index = bisect.bisect_left(comments, (offset,)) - 1
    return index >= 0 and comments[index][1] > offset


def _line_break(data: bytes, end: int) -> bytes:
    """The line break at `end` (at the end of the file: the file's first one, or LF)."""
    newline = _NEWLINE.match(data, end) or _NEWLINE.search(data)
    return newline.group() if newline else b"\n"


def _insert(data: bytes, offset: int, text: bytes) -> bytes:
    return data[:offset] + text + data[offset:]


def _only_fewer(before: list[Finding], after: list[Finding], code: str) -> bool:
    """Whether `after` lost a finding of `code` and gained none of any code."""
    counted, remaining = Counter(f.code for f in before), Counter(f.code for f in after)
    return remaining[code] < counted[code] and all(remaining[c] <= counted[c] for c in remaining)
