"""Patterns in `.gitignore` syntax, decided with about one regular-expression match per path.

pathspec translates each pattern into a regular expression and its GitIgnoreSpec tries them one
by one (59,557 paths of 61 real trees: 3.47 million searches). Here the expressions of one file
are joined twice. Their union, with the heads and tails they share factored out, says in one
match whether any pattern matches (most paths: none). Only then an alternation of them, the
last pattern first, finds the one that decides, keeping pathspec's priority exactly: a pattern
that matches only through a folder above the path (its directory marker matched) loses to an
earlier one that matches the path itself, so such a match goes on with the alternation of the
patterns before it. A pattern that git discards (a trailing backslash, a reversed range)
matches nothing instead of stopping the run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_MARK = "(?P<ps_d>"  # pathspec's directory-marker group (an escaped literal never spells it)
_HEADS = (("^(?:.+/)?", "(?:.+/)?"), ("^", ""))  # at any depth; anchored (else: unanchored, searched)
_TAILS = (("(?:(?P<ps_d>/)|$)", "(?:/|$)"), ("(?P<ps_d>/)", "/"))  # a file or a folder; a folder

# An alternation from some place on: the compiled expression and, per alternative's outer
# group number (a match's `lastindex`): (its place, latest first; include; its marker group, 0: none)
Ordered = tuple[re.Pattern[str], dict[int, tuple[int, bool, int]]]


class IgnorePatterns:
    """The patterns of one ignore file or exclusion list."""

    __slots__ = ("_any", "_includes", "_ordered", "_texts")

    def __init__(self, lines: Iterable[str]) -> None:
        latest_first = _translated(lines)[::-1]
        try:
            self._any = _union([text for text, _ in latest_first])
        except re.error:  # a reversed range `[z-a]`: git's wildmatch never matches it
            latest_first = [(text, include) for text, include in latest_first if _compiles(text)]
            self._any = _union([text for text, _ in latest_first])
        self._texts = [text for text, _ in latest_first]
        self._includes = [include for _, include in latest_first]
        self._ordered: dict[int, Ordered] = {}  # by first place, compiled when first needed

    def __bool__(self) -> bool:
        """Whether some pattern can match (blank lines, comments and discarded patterns cannot)."""
        return self._any is not None

    def decide(self, path: str) -> bool | None:
        """True when `path` is ignored, False when a negation re-includes it, None when no pattern
        matches. `path`: relative to the patterns' folder, `/`-separated, a folder's with a final `/`."""
        if self._any is None or self._any.match(path) is None:
            return None
        through_folder = None  # the latest pattern that matched only through a folder above
        start = 0
        while start < len(self._texts):
            regex, groups = self._ordered.get(start) or self._compile_from(start)
            match = regex.match(path)
            if match is None:
                break
            place, include, mark = groups[match.lastindex]
            if not mark or not match.group(mark):
                return include
            if through_folder is None:
                through_folder = include
            start = place + 1
        return through_folder

    def _compile_from(self, start: int) -> Ordered:
        regex = re.compile("|".join(_alternative(k, self._texts[k]) for k in range(start, len(self._texts))))
        index = regex.groupindex
        groups = {index[f"p{k}"]: (k, self._includes[k], index.get(f"d{k}", 0)) for k in range(start, len(self._texts))}
        self._ordered[start] = regex, groups
        return regex, groups


def _translated(lines: Iterable[str]) -> list[tuple[str, bool]]:
    """(regular expression, include) of each pattern of `lines` that can match, in file order."""
    lines = [line for line in lines if line.strip() and not line.startswith("#")]  # (git: blank lines, comments)
    if not lines:  # (`git init`'s `.git/info/exclude`: pathspec's 50 ms import spared)
        return []
    from pathspec.patterns.gitignore.base import GitIgnorePatternError
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    patterns = []
    for line in lines:
        try:
            text, include = GitIgnoreSpecPattern.pattern_to_regex(line)
        except GitIgnorePatternError:  # git discards it
            continue
        if include is not None:
            patterns.append((text, include))
    return patterns


def _union(texts: list[str]) -> re.Pattern[str] | None:
    """A `match` that succeeds where one of `texts` would (None: no text); raises re.error.
    The patterns with the same head and tail share them: one `(?:.+/)?` scan of the path for all
    the patterns that match at any depth."""
    if not texts:
        return None
    bodies: dict[tuple[str, str], list[str]] = {}
    for text in texts:
        head, body, tail = _parts(text)
        bodies.setdefault((head, tail), []).append(body)
    return re.compile("^(?:" + "|".join(f"{head}(?:{'|'.join(group)}){tail}" for (head, tail), group in bodies.items())
                      + ")")


def _parts(text: str) -> tuple[str, str, str]:
    """(head, body, tail) of one of pathspec's expressions, without directory-marker groups:
    the same strings as the expression matches at the start (it is `search`ed)."""
    head = "(?s:.*?)"
    for long, short in _HEADS:
        if text.startswith(long):
            head, text = short, text[len(long):]
            break
    tail = ""
    for long, short in _TAILS:
        if text.endswith(long):
            tail, text = short, text[: -len(long)]
            break
    return head, text.replace(_MARK, "(?:"), tail


def _alternative(k: int, text: str) -> str:
    """`text` as alternative `p{k}` of a `match`: pathspec `search`es, so an expression that is not
    anchored at the start is preceded by the shortest prefix (the same first match)."""
    body = text.replace(_MARK, f"(?P<d{k}>")
    return f"(?P<p{k}>{body if text.startswith('^') else '(?s:.*?)' + body})"


def _compiles(text: str) -> bool:
    try:
        re.compile(text)
    except re.error:
        return False
    return True
