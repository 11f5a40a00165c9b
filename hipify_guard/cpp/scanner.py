"""Find preprocessor directives in a file's bytes.

The scanner works on raw bytes so that any file (CRLF, lone CR, BOM, latin-1, invalid UTF-8)
round-trips: every span it reports is a pair of byte offsets into the original data. It skips
comments, string and character literals and raw strings, follows backslash-newline
continuations, and records each directive's keyword and argument spans.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from operator import attrgetter
from typing import NamedTuple

from ..core.source import BOM

CONDITIONAL_KINDS = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"})

# Every branch is one or two literal bytes, so `re` skips ahead with a fast byte scan (stopping at
# every newline, or at every `R`/`u` of a raw-string prefix, made the scan 40% slower): a `#`
# starts a directive when only blanks precede it on its logical line, and a `"` opens a raw
# string when a prefix (`R`, `u8R`, `uR`, `UR`, `LR`) that no identifier byte precedes ends there.
_INTERESTING = re.compile(rb"/\*|//|\"|'|\#")
_RAW_OPENING = re.compile(rb'"([^()\\ \t\v\f\r\n"]{0,16})\(')  # at the `"` after the prefix
# Blanks and line continuations that may come before the `#` of a directive on its line.
_LEADING_HASH = re.compile(rb"(?:[ \t\f\v]|\\(?:\r\n|\n|\r))*\#")
_STRING_TAIL = re.compile(rb'(?:[^"\\\r\n]|\\(?:\r\n|[\s\S]))*"?')
_CHAR_TAIL = re.compile(rb"(?:[^'\\\r\n]|\\(?:\r\n|[\s\S]))*'?")
# Between `#` and the keyword: blanks, continuations and block comments (`#/* x */if` is `#if`).
_KEYWORD = re.compile(
    rb"(?:[ \t\f\v]|\\(?:\r\n|\n|\r)|/\*(?:[^*]|\*+[^*/])*\*+/)*([A-Za-z_][A-Za-z0-9_]*)"
)
_BODY_TOKEN = re.compile(
    rb"[^\r\n\\/\"' \t\f\v]+"  # ordinary text
    rb"|[ \t\f\v]+"  # blanks
    rb"|\\(?:\r\n|\n|\r)"  # line continuation
    rb"|/\*|//"  # comments
    rb'|"(?:[^"\\\r\n]|\\(?:\r\n|[\s\S]))*"?'
    rb"|'(?:[^'\\\r\n]|\\(?:\r\n|[\s\S]))*'?"
    rb"|[\\/]"  # a lone backslash or slash
)
_NEWLINE = re.compile(rb"\r\n|\r|\n")
# Consecutive lines that hold only a plain `//` comment (no backslash: no continuation), each
# ending at LF: skipped in one match, their comments listed by `_PLAIN_COMMENT` (1 MB of them
# took 0.4 s comment by comment).
_COMMENT_LINES = re.compile(rb"//[^\n\\]*\n(?:[ \t]*//[^\n\\]*\n)*")
_PLAIN_COMMENT = re.compile(rb"//[^\n]*")
_BLANKS = re.compile(rb"(?:[ \t\f\v]|\\(?:\r\n|\n|\r))*")
_IDENT_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


class Directive(NamedTuple):
    """One preprocessor directive: `#` keyword argument, as byte offsets."""

    kind: str  # the keyword: "if", "ifdef", "define", ... ("" for a null directive)
    hash: int  # offset of the '#'
    keyword: tuple[int, int]
    argument: tuple[int, int]  # first to last byte of the argument, comments excluded
    end: int  # offset of the newline that ends the logical line (or len(data))

    @property
    def is_conditional(self) -> bool:
        """True for #if, #ifdef, #ifndef, #elif*, #else and #endif."""
        return self.kind in CONDITIONAL_KINDS


class LexicalProblem(NamedTuple):
    """Something in the file that no compiler accepts, such as an unterminated comment."""

    offset: int
    message: str


class Scan(NamedTuple):
    """Result of scanning one file."""

    directives: tuple[Directive, ...]
    problems: tuple[LexicalProblem, ...]
    comments: tuple[tuple[int, int], ...] = ()  # (start, end) of every comment, in file order

    def between(self, start: int, end: int) -> tuple[Directive, ...]:
        """The directives whose `#` lies after `start` and before `end` (bisected: not a scan)."""
        directives = self.directives
        first = bisect_right(directives, start, key=attrgetter("hash"))
        return directives[first:bisect_left(directives, end, lo=first, key=attrgetter("hash"))]


def scan(data: bytes) -> Scan:
    """Return every directive of `data` and the lexical problems met on the way (the last
    bytes scanned are answered again: a fix's proof scans the new bytes, then the next round's
    analysis of them does; compared, not hashed, so a check run pays nothing for it)."""
    global _last
    last = _last
    if last is not None and last[0] == data:
        return last[1]
    found = _Scanner(data).run()
    _last = (data, found)
    return found


_last: tuple[bytes, Scan] | None = None


class _Scanner:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.directives: list[Directive] = []
        self.problems: list[LexicalProblem] = []
        self.comments: list[tuple[int, int]] = []
        self.floor = len(BOM) if data.startswith(BOM) else 0  # where the first line begins
        self.lf_only = b"\r" not in data  # lines end at LF only: a plain find serves

    def run(self) -> Scan:
        data = self.data
        pos = self.floor
        first = _LEADING_HASH.match(data, pos)
        if first:
            pos = self._directive(first.end() - 1)
        search = _INTERESTING.search
        while True:
            match = search(data, pos)
            if match is None:
                break
            pos = self._dispatch(match.start(), pos)
        return Scan(tuple(self.directives), tuple(self.problems), tuple(self.comments))

    def _dispatch(self, start: int, searched_from: int) -> int:
        data = self.data
        lead = data[start]
        if lead == 0x2F:  # '/'
            if data[start + 1] == 0x2A:
                if _at_line_start(data, start, self.floor):
                    return self._after_leading_comments(start)
                return self._block_comment(start)
            return self._comment_lines(start)
        if lead == 0x22:  # '"'
            prefix = _raw_prefix(data, start, searched_from)
            opening = _RAW_OPENING.match(data, start) if prefix >= 0 else None
            if opening is None or (prefix > 0 and data[prefix - 1] in _IDENT_BYTES):  # `FOOR"`: no prefix
                return _STRING_TAIL.match(data, start + 1).end()
            return self._raw_string(prefix, opening)
        if lead == 0x27:  # "'"
            if _is_digit_separator(data, start):
                return start + 1
            return _CHAR_TAIL.match(data, start + 1).end()
        if not _at_line_start(data, start, self.floor):  # a `#` after code, or `x \` + newline + `#`
            return start + 1
        return self._directive(start)

    def _block_comment(self, start: int) -> int:
        close = self.data.find(b"*/", start + 2)
        if close < 0:
            self.problems.append(LexicalProblem(start, "unterminated /* comment"))
            self.comments.append((start, len(self.data)))
            return len(self.data)
        self.comments.append((start, close + 2))
        return close + 2

    def _line_comment(self, start: int) -> int:
        end = _lf_comment_end(self.data, start) if self.lf_only else _line_comment_end(self.data, start)
        self.comments.append((start, end))
        return end

    def _comment_lines(self, start: int) -> int:
        """Skip the `//` comment at `start` and the lines after it that hold only such comments
        (outside directives: there a comment ends the directive's line)."""
        lines = _COMMENT_LINES.match(self.data, start) if self.lf_only else None
        if lines is None:
            return self._line_comment(start)
        self.comments.extend(comment.span() for comment in _PLAIN_COMMENT.finditer(self.data, start, lines.end()))
        return lines.end()

    def _after_leading_comments(self, start: int) -> int:
        """Skip comments that begin a line; a `#` after them still starts a directive."""
        pos = start
        while self.data.startswith(b"/*", pos):
            pos = self._block_comment(pos)
            hash_mark = _LEADING_HASH.match(self.data, pos)
            if hash_mark:
                return self._directive(hash_mark.end() - 1)
            pos = _BLANKS.match(self.data, pos).end()
        return pos

    def _raw_string(self, start: int, opening: re.Match[bytes]) -> int:
        delimiter = opening.group(1)
        close = self.data.find(b")" + delimiter + b'"', opening.end())
        if close < 0:
            self.problems.append(LexicalProblem(start, "unterminated raw string literal"))
            return len(self.data)
        return close + len(delimiter) + 2

    def _directive(self, hash_offset: int) -> int:
        data = self.data
        keyword = _KEYWORD.match(data, hash_offset + 1)
        if keyword is None:
            kind, keyword_span = "", (hash_offset + 1, hash_offset + 1)
        else:
            kind, keyword_span = keyword.group(1).decode("ascii"), keyword.span(1)
        first, last, end = self._body(keyword_span[1])
        argument = (first, last) if first < last else (keyword_span[1], keyword_span[1])
        self.directives.append(Directive(kind, hash_offset, keyword_span, argument, end))
        return end

    def _body(self, pos: int) -> tuple[int, int, int]:
        """Walk a directive's logical line: (first content byte, end of last content, line end)."""
        data = self.data
        size = len(data)
        first = last = -1
        match_token = _BODY_TOKEN.match
        while pos < size:
            token = match_token(data, pos)
            if token is None:  # a newline ends the directive
                break
            text_start, pos = token.span()
            lead = data[text_start]
            if lead in b" \t\f\v" or (lead == 0x5C and pos - text_start > 1):
                continue
            if lead == 0x27 and _is_digit_separator(data, text_start):  # `#if X >= 1'000 // c`
                pos = text_start + 1
            if lead == 0x2F and pos - text_start == 2:
                if data[text_start + 1] == 0x2A:
                    pos = self._block_comment(text_start)
                else:
                    pos = self._line_comment(text_start)
                continue
            if first < 0:
                first = text_start
            last = pos
        if first < 0:
            first = last = pos
        return first, last, pos


def _lf_comment_end(data: bytes, start: int) -> int:
    """`_line_comment_end` for data without CR (3x faster)."""
    newline = data.find(b"\n", start)
    while newline > 0 and data[newline - 1] == 0x5C:  # a continued comment
        newline = data.find(b"\n", newline + 1)
    return len(data) if newline < 0 else newline


def _line_comment_end(data: bytes, start: int) -> int:
    """Offset of the newline that ends a `//` comment, following continuations."""
    pos = start
    while True:
        newline = _NEWLINE.search(data, pos)
        if newline is None:
            return len(data)
        if not _ends_with_backslash(data, newline.start()):
            return newline.start()
        pos = newline.end()


def _raw_prefix(data: bytes, quote: int, floor: int) -> int:
    """Where the longest raw-string prefix that ends at `quote` (and starts at or after `floor`)
    begins, or -1."""
    if quote - 1 < floor or data[quote - 1] != 0x52:  # 'R'
        return -1
    if quote - 3 >= floor and data[quote - 3 : quote - 1] == b"u8":
        return quote - 3
    if quote - 2 >= floor and data[quote - 2] in b"uUL":
        return quote - 2
    return quote - 1


def _ends_with_backslash(data: bytes, newline_start: int) -> bool:
    return newline_start > 0 and data[newline_start - 1] == 0x5C


def _at_line_start(data: bytes, pos: int, floor: int) -> bool:
    """True when only blanks and line continuations come before `pos` on its logical line."""
    while pos > floor:
        byte = data[pos - 1]
        if byte in b" \t\f\v":
            pos -= 1
            continue
        if byte not in b"\r\n":
            return False
        newline_start = pos - 2 if byte == 0x0A and pos - 2 >= 0 and data[pos - 2] == 0x0D else pos - 1
        if not _ends_with_backslash(data, newline_start):
            return True
        pos = newline_start - 1
    return True


def _is_digit_separator(data: bytes, quote: int) -> bool:
    """True for the `'` of a C++14 digit separator such as 1'000'000 or 0x10'a0'00 (the number
    it continues may hold separators already: a pp-number is read back to its start)."""
    pos = quote
    while pos > 0 and (data[pos - 1] in _IDENT_BYTES or data[pos - 1] == 0x27 and pos > 1 and data[pos - 2] in _IDENT_BYTES):
        pos -= 1
    if pos == quote:
        return False
    lead = data[pos]
    return 0x30 <= lead <= 0x39 or (lead == 0x2E and pos + 1 < quote and 0x30 <= data[pos + 1] <= 0x39)
