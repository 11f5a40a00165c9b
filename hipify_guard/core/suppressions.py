"""Suppression comments (conventions §4), found among the comments a front end saw.

    // hipify-guard: ignore[HG101]          this logical line (at its end), or the next one (alone on a line)
    // hipify-guard: disable[HG1]  ...  // hipify-guard: enable[HG1]      a block
    // hipify-guard: file-ignore[HG104]     the whole file

Codes are codes or prefixes (`HG1`) or `ALL`, separated by commas; `/* ... */` works as well as
`//`, and in Python files `# hipify-guard: ignore[HG301]`. Text after the closing `]` is a
free-form reason. A comment that says `hipify-guard:` but is not one of these forms is malformed
(HG903), never silently ignored. The comments come from the file's front end (the C/C++ scanner,
Python's `tokenize`), so a `hipify-guard:` inside a string literal is never one.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import field
from typing import NamedTuple

from .records import record
from .distance import edit_distance
from .languages import CPP, PYTHON

ACTIONS = ("ignore", "disable", "enable", "file-ignore")
MARK = b"hipify-guard"
_DIRECTIVE = re.compile(rb"hipify-guard[ \t]*:[ \t]*([A-Za-z_-]*)[ \t]*(\[)?")
_CODE = re.compile(r"HG\d{0,3}|ALL")
_NEWLINE = re.compile(rb"\r\n|\r|\n")


class CodeToken(NamedTuple):
    """One code or prefix of a suppression's list, with its byte span."""

    text: str
    span: tuple[int, int]

    def matches(self, code: str) -> bool:
        """Whether this token names `code` (ALL names every code)."""
        return self.text == "ALL" or code.startswith(self.text)


@record(frozen=False, slots=True)
class Suppression:
    """A well-formed suppression comment and the byte ranges it covers (per code token)."""

    action: str
    codes: tuple[CodeToken, ...]
    comment: tuple[int, int]  # the whole comment
    directive: tuple[int, int]  # from `hipify-guard` to the closing `]`
    codes_span: tuple[int, int]  # between the brackets
    covers: list[tuple[int, int]] = field(default_factory=list)  # one inclusive range per token
    closed_by: list[tuple[int, int] | None] = field(default_factory=list)  # disable: the enable token


class Malformed(NamedTuple):
    """A comment that says `hipify-guard:` but is no valid suppression."""

    start: int
    end: int
    message: str


class Suppressions(NamedTuple):
    """Every suppression of a file, and the malformed ones."""

    items: tuple[Suppression, ...]
    malformed: tuple[Malformed, ...]


def find(data: bytes, comments: tuple[tuple[int, int], ...], known: Iterable[str], language: str = CPP) -> Suppressions:
    """The suppressions among a file's comments ((start, end) byte spans in file order, as the front
    end of the file's `language` found them); `known` are the registered rule codes."""
    codes = tuple(known)
    items: list[Suppression] = []
    malformed: list[Malformed] = []
    for start, end in comments:
        mark = data.find(MARK, start, end)
        if mark < 0:
            continue
        match = _DIRECTIVE.match(data, mark, end)
        if match is None or _prose(data, start, match):
            continue
        parsed = _parse(data, match, (start, end), codes)
        (items if isinstance(parsed, Suppression) else malformed).append(parsed)
    lines = Lines(data, comments, comments_continue=language != PYTHON)
    malformed += _cover(items, lines)
    return Suppressions(tuple(items), tuple(sorted(malformed, key=lambda m: m.start)))


def _prose(data: bytes, comment_start: int, match: re.Match[bytes]) -> bool:
    """`// Run hipify-guard: it checks...` mentions the tool; a suppression attempt does not read so.

    A marker that starts the comment is always an attempt; later in the comment it is one when
    brackets follow or the word is (nearly) an action.
    """
    if not data[comment_start + opener_length(data, comment_start) : match.start()].strip(b" \t\f\v*/!<"):
        return False
    word = match.group(1).decode("ascii").lower()
    return not match.group(2) and not any(edit_distance(word, action, 2) <= 2 for action in ACTIONS)


def opener_length(data: bytes, comment_start: int) -> int:
    """The length of the comment's opening mark: 1 for Python's `#`, 2 for `//` and `/*`."""
    return 1 if data.startswith(b"#", comment_start) else 2


def _parse(data: bytes, match: re.Match[bytes], comment: tuple[int, int], known: tuple[str, ...]) -> Suppression | Malformed:
    action = match.group(1).decode("ascii")
    start = match.start()
    if action not in ACTIONS:
        shown = f"`{action}`" if action else "nothing"
        return Malformed(start, match.end(), f"unknown suppression {shown} after `hipify-guard:`; "
                                              f"expected one of {', '.join(ACTIONS)}, e.g. `hipify-guard: ignore[HG101]`")
    close = data.find(b"]", match.end(), comment[1]) if match.group(2) else -1
    if close < 0:
        return Malformed(start, match.end(), f"`hipify-guard: {action}` needs the codes in brackets, "
                                              f"e.g. `hipify-guard: {action}[HG101]`")
    tokens, problem = _codes(data, match.end(), close, known)
    if problem:
        return Malformed(start, close + 1, f"`hipify-guard: {action}[...]`: {problem}")
    return Suppression(action, tokens, comment, (start, close + 1), (match.end(), close))


def _codes(data: bytes, start: int, end: int, known: tuple[str, ...]) -> tuple[tuple[CodeToken, ...], str]:
    tokens = []
    for part in re.finditer(rb"[^,]+", data[start:end]):
        text = part.group().decode("utf-8", "replace").strip()
        if not text:
            continue
        if not _CODE.fullmatch(text):
            return (), f"`{text}` is not a rule code, prefix or ALL"
        if text != "ALL" and not any(code.startswith(text) for code in known):
            return (), f"unknown rule code `{text}`"
        offset = start + part.start() + part.group().index(text.encode())
        tokens.append(CodeToken(text, (offset, offset + len(text))))
    if not tokens:
        return (), "no codes given"
    return tuple(tokens), ""


def _cover(items: list[Suppression], lines: Lines) -> list[Malformed]:
    """Fill in what each suppression covers; enables without a disable are malformed."""
    problems = []
    open_blocks: dict[str, list[tuple[Suppression, int]]] = {}
    for item in items:
        if item.action == "ignore":
            span = lines.target(*item.comment)
            item.covers = [span] * len(item.codes)
        elif item.action == "file-ignore":
            item.covers = [(0, lines.size)] * len(item.codes)
        elif item.action == "disable":
            item.covers = [(item.comment[0], lines.size)] * len(item.codes)
            item.closed_by = [None] * len(item.codes)
            for index, token in enumerate(item.codes):
                open_blocks.setdefault(token.text, []).append((item, index))
        else:
            problems += _close(item, open_blocks)
    return problems


def _close(enable: Suppression, open_blocks: dict[str, list[tuple[Suppression, int]]]) -> list[Malformed]:
    problems = []
    for token in enable.codes:
        pending = open_blocks.get(token.text)
        if not pending:
            problems.append(Malformed(*token.span, f"`enable[{token.text}]` without an earlier `disable[{token.text}]`"))
            continue
        block, index = pending.pop()
        block.covers[index] = (block.covers[index][0], enable.comment[0])
        block.closed_by[index] = token.span
    return problems


class Lines:
    """Logical lines (backslash continuations joined) and which bytes are code, not comment.

    In C a backslash at the end of a `//` comment continues it on the next line; in Python
    (`comments_continue=False`) a comment ends at its line end whatever its last character.
    """

    def __init__(self, data: bytes, comments: tuple[tuple[int, int], ...], comments_continue: bool = True) -> None:
        self.data = data
        self.size = len(data)
        self.comments = comments
        self.comments_continue = comments_continue
        self._starts = [start for start, _ in comments]

    def target(self, start: int, end: int) -> tuple[int, int]:
        """The logical line an `ignore` comment at data[start:end] covers."""
        low, high = self.logical_start(start), self.logical_end(end)
        if self.has_code(low, high):
            return low, high
        while high < self.size:
            low = self.next_line(high)
            high = self.logical_end(low)
            if self.has_code(low, high) or not self.has_comment(low, high):
                return low, high
        return high, high

    def logical_start(self, pos: int) -> int:
        """The start of the logical line that contains `pos`."""
        data = self.data
        while True:
            newline = max(data.rfind(b"\n", 0, pos), data.rfind(b"\r", 0, pos))
            if newline < 0:
                return 0
            line_end = newline - 1 if data[newline] == 0x0A and newline > 0 and data[newline - 1] == 0x0D else newline
            if line_end == 0 or not self._continues(line_end - 1):
                return newline + 1
            pos = line_end - 1

    def logical_end(self, pos: int) -> int:
        """The offset of the newline that ends the logical line containing `pos` (or the size)."""
        while True:
            newline = _NEWLINE.search(self.data, pos)
            if newline is None:
                return self.size
            if newline.start() == 0 or not self._continues(newline.start() - 1):
                return newline.start()
            pos = newline.end()

    def _continues(self, position: int) -> bool:
        """Whether the byte at `position`, just before a line break, continues the line."""
        if self.data[position] != 0x5C:
            return False
        if self.comments_continue:
            return True
        index = bisect.bisect_right(self._starts, position) - 1
        return index < 0 or not self.comments[index][0] <= position < self.comments[index][1]

    def next_line(self, newline: int) -> int:
        """The start of the line after the newline at `newline`."""
        return _NEWLINE.match(self.data, newline).end()

    def has_comment(self, low: int, high: int) -> bool:
        """Whether a comment starts in data[low:high]."""
        index = bisect.bisect_left(self._starts, low)
        return index < len(self._starts) and self._starts[index] < high

    def has_code(self, low: int, high: int) -> bool:
        """Whether data[low:high] has anything but blanks, continuations and comments."""
        pos = low
        index = bisect.bisect_right(self._starts, low) - 1
        index = max(index, 0)
        for start, end in self.comments[index:]:
            if start >= high:
                break
            if end <= pos:
                continue
            if start > pos and self.data[pos:start].replace(b"\\", b"").strip():
                return True
            pos = max(pos, end)
        return bool(self.data[pos:high].replace(b"\\", b"").strip()) if pos < high else False
