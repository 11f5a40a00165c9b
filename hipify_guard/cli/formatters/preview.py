"""The source lines of a finding before and after its fix, and caret marks under its span."""

from __future__ import annotations

from ...engine.diagnostics import Diagnostic, Location


def fixed_lines(item: Diagnostic) -> tuple[str, ...] | None:
    """`item.lines` with the fix applied, or None without a fix (or with edits outside the lines)."""
    if item.fix is None or not item.lines:
        return None
    first, last = item.location.row, item.location.row + len(item.lines) - 1
    edits = item.fix.edits
    if any(edit.location.row < first or edit.end_location.row > last for edit in edits):
        return None
    text = "\n".join(item.lines)
    starts = [0]
    for line in item.lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def index(location: Location) -> int:
        row = location.row - first
        return min(starts[row] + location.column - 1, starts[row] + len(item.lines[row]))

    for edit in sorted(edits, key=lambda e: (e.location.row, e.location.column), reverse=True):
        text = text[: index(edit.location)] + edit.content + text[index(edit.end_location) :]
    return tuple(text.split("\n"))


def caret_spans(item: Diagnostic) -> list[tuple[int, int]]:
    """Per shown line, the 0-based [start, end) character range to underline (at least one caret)."""
    spans = []
    for offset, line in enumerate(item.lines):
        row = item.location.row + offset
        if row > item.end_location.row:
            break
        start = item.location.column - 1 if offset == 0 else len(line) - len(line.lstrip())
        end = item.end_location.column - 1 if row == item.end_location.row else len(line)
        spans.append((start, max(end, start + 1)))
    return spans


def changed_lines(item: Diagnostic) -> list[tuple[str, int, str]]:
    """The fix as `("-", row, text)` / `("+", row, text)` lines for the lines it changes."""
    after = fixed_lines(item)
    if after is None:
        return []
    before = item.lines
    first = item.location.row
    if len(after) != len(before):
        return [("-", first + i, line) for i, line in enumerate(before)] + [
            ("+", first + i, line) for i, line in enumerate(after)
        ]
    result = []
    for i, (old, new) in enumerate(zip(before, after)):
        if old != new:
            result += [("-", first + i, old), ("+", first + i, new)]
    return result
