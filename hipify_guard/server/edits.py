"""The editor's edits that turn a document's text into a new one: one per changed run of lines,
trimmed to the characters that change, so the cursor and the rest of the buffer stay put."""

from __future__ import annotations

import difflib
from os.path import commonprefix

from lsprotocol.types import Range, TextEdit

from .positions import Lines


def text_edits(lines: Lines, new: str) -> list[TextEdit]:
    """The edits from `lines.text` to `new` (none when they are equal)."""
    old = lines.text
    if old == new:
        return []
    before = [old[start:end] for start, end in zip(lines.starts, [*lines.starts[1:], len(old)])]
    new_lines = Lines(new)
    after = [new[start:end] for start, end in zip(new_lines.starts, [*new_lines.starts[1:], len(new)])]
    edits = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, first, last, new_first, new_last in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = lines.starts[first]
        end = lines.starts[last] if last < len(lines.starts) else len(old)
        start, end, replacement = _trimmed(old, start, end, "".join(after[new_first:new_last]))
        edits.append(TextEdit(Range(lines.at_offset(start), lines.at_offset(end)), replacement))
    return edits


def _trimmed(old: str, start: int, end: int, replacement: str) -> tuple[int, int, str]:
    """old[start:end] -> replacement without their common head and tail (never inside a CR LF)."""
    segment = old[start:end]
    head = len(commonprefix([segment, replacement]))
    if 0 < head < len(segment) and segment[head - 1] == "\r" and segment[head] == "\n":
        head -= 1
    room = min(len(segment), len(replacement)) - head
    tail = len(commonprefix([segment[::-1][:room], replacement[::-1][:room]]))
    if tail and len(segment) - tail > 0 and segment[-tail] == "\n" and segment[-tail - 1] == "\r":
        tail -= 1
    return start + head, end - tail, replacement[head : len(replacement) - tail]
