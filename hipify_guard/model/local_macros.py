"""What a file's own `#define`s and `#undef`s make of a macro at a point of the file (spec §11.3).

An object-like `#define N <integer constant expression>` gives N that value from its definition
to its `#undef` (a project threshold: `#define CUDART_HMAX 11070`, then `#if CUDART_VERSION >=
CUDART_HMAX`); an expression of other macros, the value the platform gives it (`#define
FP4_TYPE_SUPPORTED (CUDA_VERSION >= 12080)` is 0 where CUDA_VERSION is undefined); a definition
with any other text makes N free. A definition counts on a platform
where its group is surely compiled there (file level, an include guard, or arms whose conditions
the platform decides: `#ifdef GGML_USE_HIP` in a ROCm model); where its group is surely not
compiled it does not count; where that depends on free macros, N is free after it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from ..cpp.evaluator import EMPTY, EvalError, evaluate
from ..cpp.groups import Arm, GroupTree
from ..cpp.nodes import Call, Defined, Identifier, Node, walk
from ..cpp.parser import ParseError, parse
from ..cpp.scanner import Directive
from .partial import constant, simplify
from .platforms import UNDEFINED, Platform, Term, satisfiable, term

FREE = "<free>"  # the macro may have any value, or none
_NAME = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)(\(?)")
_DECIMAL = re.compile(rb"0|[1-9][0-9]{0,17}")  # a plain decimal literal, well within a signed 64-bit value
Path = Callable[[Arm | None], "list[tuple[Term, bool]]"]


class Event(NamedTuple):
    """One `#define` or `#undef` of a macro."""

    offset: int
    value: object  # an integer, EMPTY, UNDEFINED (#undef), an Expression of other macros or FREE (other text)
    arm: Arm | None  # the arm whose group holds it (None at file level or in the include guard)


class LocalMacros:
    """The `#define`/`#undef` events of one file, per name, in file order.

    `first_use`: the offset of the first conditional directive that reads each name; `included`:
    the integer definitions of the project headers the file includes.
    """

    def __init__(self, data: bytes, directives: tuple[Directive, ...], tree: GroupTree,
                 first_use: Mapping[str, int], included: Mapping[str, int] | None = None) -> None:
        self.guard = guard = _include_guard(data, directives, tree)
        self.first_use = first_use
        # What included project headers define counts from the top of the file.
        self.events: dict[str, list[Event]] = {name: [Event(-1, value, None)] for name, value in (included or {}).items()}
        self._taken: dict[tuple[int, str], bool | None] = {}
        self._expressions: dict[tuple[int, str], object] = {}  # (event offset, platform) -> `_resolved`
        constants: dict[str, int] = {}  # file-level integer definitions so far (`#define B (A + 10)`)
        for directive in directives:
            if directive.kind not in ("define", "undef"):
                continue
            match = _NAME.match(data, *directive.argument)
            if match is None:
                continue
            name = match.group(1).decode("ascii")
            value = UNDEFINED if directive.kind == "undef" else FREE if match.group(2) else _value(
                data, match.end(), directive.argument[1], constants)
            arm = tree.enclosing(directive.hash)
            arm = None if arm is guard else arm
            self.events.setdefault(name, []).append(Event(directive.hash, value, arm))
            constants.pop(name, None)
            if arm is None and isinstance(value, int) and len(self.events[name]) == 1:
                constants[name] = value

    def facts(self, platform: Platform, offset: int | None, names: Iterable[str], path: Path) -> dict[str, object]:
        """The value on `platform` just before `offset` of each of `names` the file (re)defines
        earlier: an integer, EMPTY, UNDEFINED or FREE. With `offset` None: a value that holds at
        every conditional directive that reads the macro, else FREE."""
        facts: dict[str, object] = {}
        for name in names:
            events = self.events.get(name)
            if events:
                facts[name] = self._at(name, events, platform, offset, path)
        return facts

    def _at(self, name: str, events: list[Event], platform: Platform, offset: int | None, path: Path) -> object:
        if offset is None:  # the whole file: one surely taken definition, before any use of it
            only = events[0]
            if len(events) != 1 or only.offset > self.first_use.get(name, only.offset):
                return FREE
            return self._resolved(only, platform) if only.value is not UNDEFINED and self.taken(only.arm, platform, path) else FREE
        state: object = platform.fixed.get(platform.renames.get(name, name), FREE)
        for event in events:
            if event.offset >= offset:
                break
            taken = self.taken(event.arm, platform, path)
            if taken is None:
                state = FREE
            elif taken:
                state = self._resolved(event, platform)
        return state


    def _resolved(self, event: Event, platform: Platform) -> object:
        """The event's value on `platform` (an Expression's worked out once per platform)."""
        if not isinstance(event.value, Expression):
            return event.value
        key = (event.offset, platform.name)
        if key not in self._expressions:
            self._expressions[key] = event.value.on(platform)
        return self._expressions[key]

    def chosen_where(self, names: Iterable[str], offset: int, tests: Callable[[Arm], bool]) -> bool:
        """Whether one of `names` is (re)defined before `offset` in a group for which
        `tests(arm)` holds (such as: its path tests a ROCm macro)."""
        return any(event.arm is not None and event.offset < offset and tests(event.arm)
                   for name in names for event in self.events.get(name, ()))

    def taken(self, arm: Arm | None, platform: Platform, path: Path) -> bool | None:
        """Whether the group of `arm` is surely compiled on `platform` (None: it depends)."""
        if arm is None:
            return True
        key = (arm.directive.hash, platform.name)
        if key not in self._taken:
            self._taken[key] = _taken(path(arm), platform)
        return self._taken[key]


def _taken(literals: list[tuple[Term, bool]], platform: Platform) -> bool | None:
    decided = True
    for condition, wanted in literals:
        value = constant(simplify(condition.node, platform))
        if value is None:
            decided = False
        elif (value != 0) != wanted:
            return False
    return True if decided else None


def _value(data: bytes, start: int, end: int, constants: Mapping[str, int]) -> int | str:
    """The value of a definition's text: an integer constant expression (of literals and earlier
    file-level constants), EMPTY, or FREE."""
    text = data[start:end].strip()
    if not text:
        return EMPTY
    if _DECIMAL.fullmatch(text):  # (most definitions: no parse needed)
        return int(text)
    try:
        node = parse(data, start, end)
    except ParseError:
        return FREE
    if any(isinstance(item, Call) for item in walk(node)):
        return FREE
    if any(isinstance(item, (Identifier, Defined)) and item.name not in constants for item in walk(node)):
        return Expression(node)
    try:
        return evaluate(node, constants)[0]
    except EvalError:
        return FREE


class Expression(NamedTuple):
    """A definition's text that reads other macros (`#define FP4_TYPE_SUPPORTED (CUDA_VERSION >=
    12080)`, TransformerEngine): its value on a platform is what the platform makes of it."""

    node: Node

    def on(self, platform: Platform) -> object:
        """The integer the platform's macros give the text (its value, or the truth value every
        configuration of the platform's ranges gives it), else FREE."""
        value = constant(simplify(self.node, platform))
        if value is not None:
            return value
        test = term(self.node)
        if not satisfiable([(test, True)], platform):
            return 0
        return 1 if not satisfiable([(test, False)], platform) else FREE


def _include_guard(data: bytes, directives: tuple[Directive, ...], tree: GroupTree) -> Arm | None:
    """The arm of an include guard around the whole file (`#ifndef X_H` / `#define X_H` ...
    `#endif` last), which every first inclusion compiles."""
    tops = [c for c in tree.conditionals if c.parent is None]
    if len(tops) != 1 or len(tops[0].arms) != 1 or tops[0].endif is None:
        return None
    opening = tops[0].arms[0].directive
    index = directives.index(opening)
    if opening.kind != "ifndef" or index + 1 == len(directives) or directives[index + 1].kind != "define":
        return None
    guard = _NAME.match(data, *opening.argument)
    defined = _NAME.match(data, *directives[index + 1].argument)
    if guard is None or defined is None or guard.group(1) != defined.group(1):
        return None
    return tops[0].arms[0]


def fixed_by(facts: Mapping[str, object], platform: Platform) -> Platform:
    """`platform` with what `facts` says: values fixed, FREE names no longer fixed."""
    if not facts:
        return platform
    fixed = dict(platform.fixed)
    for name, value in facts.items():
        target = platform.renames.get(name, name)
        if value is FREE:
            fixed.pop(target, None)
        elif target not in platform.ranges:
            fixed[target] = value  # type: ignore[assignment]
    return dataclasses.replace(platform, fixed=fixed)


def condition_names(conditions: Iterable[Node]) -> set[str]:
    """Every name the given condition trees read."""
    return {item.name for node in conditions for item in walk(node) if isinstance(item, (Identifier, Defined))}
