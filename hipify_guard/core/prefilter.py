"""The prefilter: does a file's bytes mention any trigger name? Decided with few C-speed passes.

One search pass costs about the same whatever the needle (measured on the CUDA and PyTorch
headers, 58 MB: 23-50 ms per pass with `bytes.find`, shorter needles slower; `re`'s literal
search is faster for needles that start with an upper-case letter), while a compiled regex
alternation of the same names is slower than all the passes together (it tries every
alternative at each frequent first byte). So the names are grouped under shared prefixes
("probes"), each searched once; only where a probe occurs are the names behind it compared, at
that offset. Prefixes, not arbitrary substrings: a shared suffix such as `_VERSION` is a generic
word that occurs in nearly every header. Names that start with punctuation (Python's quoted
device and backend names, `'hip`, `"mpi`) share one alternation pass instead: over the real
trees' Python files (227 MB) 0.66 s of CPU against 1.56 s for 14 `bytes.find` passes.
`bench/` measures the whole tool against `rg -l`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

MIN_PROBE = 5  # shorter shared prefixes measured slower overall: slow passes, frequent hits
_INDEXED_GROUP = 16  # groups larger than this are confirmed through a dict, not a scan of names


class Prefilter:
    """Compiled from trigger names; calling it with bytes says whether any name occurs in them."""

    def __init__(self, names: Iterable[bytes]) -> None:
        self.names = _minimal(names)
        self.probes = plan(self.names)
        exact = [probe for probe, group in self.probes if group == (probe,)]
        # `re`'s literal search skips ahead on the first byte, `bytes.find` on the last: the
        # first wins when that byte is rare, as upper-case letters are in C (measured 25-45% less).
        upper = [name for name in exact if name[:1].isupper()]
        punctuated = [name for name in exact if not (name[:1].isalnum() or name[:1] == b"_")]
        patterns = _one_byte_classes(upper) + ([b"|".join(map(re.escape, punctuated))] if punctuated else [])
        self._searches = tuple(re.compile(pattern).search for pattern in patterns)
        self._exact = tuple(name for name in exact if not name[:1].isupper() and name not in punctuated)
        self._grouped = tuple(
            (probe, _confirmer(group)) for probe, group in self.probes if group != (probe,)
        )

    def __call__(self, data: bytes) -> bool:
        for search in self._searches:
            if search(data):
                return True
        for name in self._exact:
            if name in data:
                return True
        for probe, confirm in self._grouped:
            find = data.find
            position = find(probe)
            while position >= 0:
                if confirm(data, position):
                    return True
                position = find(probe, position + 1)
        return False


def _one_byte_classes(names: list[bytes]) -> list[bytes]:
    """Patterns for `names`: names that differ in one byte after a shared prefix of MIN_PROBE - 2
    or more share one, with a class there (`ROC[Mm]`: one pass instead of two)."""
    patterns, left = [], sorted(names)
    while left:
        name = left.pop(0)
        for spot in range(MIN_PROBE - 2, len(name)):
            twins = [other for other in left if len(other) == len(name) and other[:spot] == name[:spot]
                     and other[spot + 1 :] == name[spot + 1 :]]
            if twins:
                left = [other for other in left if other not in twins]
                choices = b"".join(re.escape(bytes([n[spot]])) for n in (name, *twins))
                patterns.append(re.escape(name[:spot]) + b"[" + choices + b"]" + re.escape(name[spot + 1 :]))
                break
        else:
            patterns.append(re.escape(name))
    return patterns


def _minimal(names: Iterable[bytes]) -> tuple[bytes, ...]:
    """The names without those that contain another name (finding the shorter one suffices)."""
    unique = sorted(set(names), key=lambda n: (len(n), n))
    kept: list[bytes] = []
    for name in unique:
        if name and not any(other in name for other in kept):
            kept.append(name)
    return tuple(sorted(kept))


def plan(names: tuple[bytes, ...]) -> list[tuple[bytes, tuple[bytes, ...]]]:
    """(probe, names starting with it): the cheapest prefix cover under `_pass_cost`."""
    return _cover(names, 0)[1]


def _cover(names: tuple[bytes, ...], depth: int) -> tuple[float, list[tuple[bytes, tuple[bytes, ...]]]]:
    """Cheapest probes for `names`, which share their first `depth` bytes (sorted, none a prefix of another)."""
    if len(names) == 1:
        return _pass_cost(len(names[0])), [(names[0], names)]
    split: dict[int, list[bytes]] = {}
    for name in names:
        split.setdefault(name[depth], []).append(name)
    if len(split) == 1:
        return _cover(names, depth + 1)
    parts = [_cover(tuple(group), depth + 1) for group in split.values()]
    cost = sum(part[0] for part in parts)
    if depth >= MIN_PROBE and _pass_cost(depth) <= cost:
        return _pass_cost(depth), [(names[0][:depth], names)]
    return cost, [probe for part in parts for probe in part[1]]


def _pass_cost(length: int) -> float:
    """Relative cost of one `bytes.find` pass with a needle of `length` bytes (fitted: 1 + 6/len)."""
    return 1 + 6 / length


def _confirmer(group: tuple[bytes, ...]):
    """A test `(data, offset) -> bool`: does one of `group` start at `offset`?"""
    if len(group) <= _INDEXED_GROUP:
        return lambda data, offset: data.startswith(group, offset)
    width = min(len(name) for name in group)
    index: dict[bytes, tuple[bytes, ...]] = {}
    for name in group:
        index[name[:width]] = (*index.get(name[:width], ()), name)
    get = index.get
    return lambda data, offset: data.startswith(get(data[offset : offset + width], ()), offset)


class RuleFilter:
    """Which rules are worth running on some bytes: those whose trigger names occur in them and
    whose screen (a sharper byte test some rules have, `checks.Screen`) admits them.

    A rule without trigger names runs whenever another rule runs. Rules sharing a set of names
    share its passes.
    """

    def __init__(self, triggers: dict[str, tuple[bytes, ...]],
                 screens: dict[str, Callable[[bytes], bool]] | None = None,
                 after_screens: Callable[[], None] | None = None) -> None:
        self.order = tuple(triggers)
        self.any = Prefilter(name for names in triggers.values() for name in names)
        groups: dict[frozenset[bytes], set[str]] = {}
        for code, names in triggers.items():
            groups.setdefault(frozenset(names), set()).add(code)
        # The largest groups first: the names they find absent spare the other groups' passes.
        self._groups = sorted(((names, codes) for names, codes in groups.items() if names), key=lambda g: -len(g[0]))
        self._plans: dict[tuple[int, frozenset[bytes]], tuple[Prefilter, frozenset[bytes]] | None] = {}
        self._always = groups.get(frozenset(), set())
        self._screens = tuple((screens or {}).items())
        self._after_screens = after_screens  # drops what the screens shared for one file

    def __call__(self, data: bytes) -> tuple[str, ...]:
        """The codes worth running, in their given order (empty: skip the file)."""
        if not self.any(data):
            return ()
        worth: set[str] = set()
        absent: frozenset[bytes] = frozenset()
        for number, (_, codes) in enumerate(self._groups):
            plan = self._plan(number, absent)
            if plan is None:
                continue
            if plan[0](data):
                worth |= codes
            else:
                absent |= plan[1]
        for code, screen in self._screens:
            if code in worth and not screen(data):
                worth.discard(code)
        if self._after_screens is not None:
            self._after_screens()
        if not worth:
            return ()
        return tuple(code for code in self.order if code in worth or code in self._always)

    def _plan(self, number: int, absent: frozenset[bytes]) -> tuple[Prefilter, frozenset[bytes]] | None:
        """The search for group `number` without its names that contain an absent one, and the
        names it searches for (None: all are absent). Made once per group and absent set."""
        key = (number, absent)
        if key not in self._plans:
            names = frozenset(n for n in self._groups[number][0] if not any(gone in n for gone in absent))
            self._plans[key] = (Prefilter(names), names) if names else None
        return self._plans[key]
