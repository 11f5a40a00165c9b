"""Which arms of a file can be reached on one platform, for every arm in one walk.

Asking `satisfiable(path(arm))` per arm costs the depth of the arm times its sweep: cubic for
deeply nested files (10,000 nested `#if CUDA_VERSION >= N` took hours). This walk visits the group
tree once, depth first, keeping the path condition as a stack of literals and a *witness*: one
critical configuration satisfying every literal on the stack. A new literal is first tried against
the witness (its own new macros swept over its own critical values); only when that fails is its
component (the literals that share a free macro with it, transitively) swept again, exactly as
`satisfiable` sweeps it. An arm is reached when every prefix of its path is satisfiable, which is
`satisfiable(path)` wherever the critical-value sweep is exact (a witness value is always a
critical value of its component; tests/test_reachability.py compares the two on generated trees).
A component is assumed satisfiable (as one with too many configurations already is) when its
sweep is inexact (see the platforms module) and finds no witness, when it holds more than
MAX_COMPONENT_LITERALS literals or when its sweep would take more than the platforms module's
MAX_EVALUATIONS evaluations, the bound `satisfiable` keeps too; it stays so for the rest of its
subtree, since a component only grows along a path.
Real code is far below both limits.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from ..cpp.evaluator import EvalError, truth
from ..cpp.groups import Arm, Conditional, GroupTree
from ..cpp.nodes import Binary, Paren, Unary
from ..cpp.scanner import Directive
from .platforms import (
    MAX_CONFIGURATIONS,
    UNDEFINED,
    Platform,
    Term,
    _candidates,
    _variables,
    configurations,
    inexact,
    term,
)

MAX_COMPONENT_LITERALS = 256
Literal = tuple[Term, bool]
Value = int | str | None
_MISSING = object()


def key(arm: Arm, inside: bool) -> int:
    """The key of an arm's directive (inside=False) or group (inside=True) in `reachable_arms`."""
    return arm.directive.hash * 2 + inside


def segment_key(start: Directive) -> int:
    """The key of the segment that `start` (`GroupTree.segment_start`) starts in `reachable_arms`."""
    return start.hash * 2 + 1


def reachable_arms(tree: GroupTree, condition: Callable[[Arm], Term | None], platform: Platform,
                   stops: Callable[[Term], bool] = lambda item: True) -> dict[int, bool]:
    """`key(arm, inside)` -> whether that arm's directive or its group is reached on `platform`;
    `segment_key(start)` -> whether the segment after an `#error` or an `#endif` is.

    `condition(arm)` is the arm's parsed condition, or None (unknown: left out of the path).
    An `#error` stops the compile: what follows it in its group is reached nowhere, and what
    follows the conditional that holds it only where the arms leading to it are not taken (one
    literal, their conjunction, false), when every condition on that way is known and `stops`
    (an `#error` that a guard reaches by accident is that guard's finding, not a stop).
    """
    items: dict[int, list[Conditional | Directive]] = {}
    for conditional in tree.conditionals:
        items.setdefault(id(conditional.parent), []).append(conditional)
    for error, arm in tree.errors:
        items.setdefault(id(arm), []).append(error)
    if tree.errors:
        for listed in items.values():
            listed.sort(key=_offset)
    path = _Path(platform)
    results: dict[int, bool] = {}
    stopped: dict[int, list[list[Literal]]] = {}  # arm (id; None: file level) -> ways to an #error in it
    made: list[Term] = []  # the conjunctions pushed (kept alive: `_Path` caches by id)
    tasks: list[tuple] = [("open", c) for c in reversed(items.get(id(None), []))]
    while tasks:  # depth first without recursion: files nest 10,000 deep
        task = tasks.pop()
        if task[0] == "open":
            tasks.append(("arm", task[1], 0, path.mark()))
        elif task[0] == "error":
            _, error, arm = task
            results[segment_key(error)] = False
            if path.reachable:
                stopped.setdefault(id(arm), []).append([])
                path.stop()
        elif task[0] == "arm":
            _, conditional, index, start = task
            arm = conditional.arms[index]
            own = None if arm.directive.kind == "else" else condition(arm)
            results[key(arm, False)] = path.reachable
            mark = path.mark()
            if own is not None:
                path.push((own, True))
            results[key(arm, True)] = path.reachable
            tasks.append(("leave", conditional, index, start, mark, own))
            tasks.extend(("open", item) if isinstance(item, Conditional) else ("error", item, arm)
                         for item in reversed(items.get(id(arm), [])))
        else:
            _, conditional, index, start, mark, own = task
            path.undo(mark)
            arm = conditional.arms[index]
            ways = _ways_through(arm, condition, stopped.pop(id(arm), []))
            if ways:
                stopped.setdefault(id(conditional), []).extend(ways)
            if index + 1 == len(conditional.arms):
                path.undo(start)
                _stop_after(conditional, stopped.pop(id(conditional), []), stops, path, stopped, made)
                if conditional.endif is not None:
                    results[segment_key(conditional.endif)] = path.reachable
                continue
            if own is not None:
                path.push((own, False))  # a later arm is reached only when this one is not taken
            tasks.append(("arm", conditional, index + 1, start))
    return results


def _offset(item: Conditional | Directive) -> int:
    return item.arms[0].directive.hash if isinstance(item, Conditional) else item.hash


def _ways_through(arm: Arm, condition: Callable[[Arm], Term | None], ways: list[list[Literal]]) -> list[list[Literal]]:
    """The ways to an `#error` inside `arm`, from before its conditional: taking the arm (its
    earlier arms false, its own condition true), then each way inside; none when a condition on
    the way is unknown."""
    if not ways:
        return []
    taken: list[Literal] = []
    for member in (*arm.earlier, arm):
        if member.directive.kind == "else":
            continue
        known = condition(member)
        if known is None:
            return []
        taken.append((known, member is arm))
    return [[*taken, *way] for way in ways]


def _stop_after(conditional: Conditional, ways: list[list[Literal]], stops: Callable[[Term], bool], path: _Path,
                stopped: dict[int, list[list[Literal]]], made: list[Term]) -> None:
    """After a conditional, the path goes on only where no way to an `#error` inside it is taken:
    one literal per way, in the enclosing group (whose own ways they become)."""
    for way in ways:
        if not all(stops(item) for item, _ in way):
            continue
        stopped.setdefault(id(conditional.parent), []).append(way)
        if len(way) == 1:
            item, wanted = way[0]
            path.push((item, not wanted))
            continue
        parts = [item.node if wanted else Unary(item.node.span, "!", Paren(item.node.span, item.node))
                 for item, wanted in way]
        node = parts[0]
        for part in parts[1:]:
            node = Binary((node.span[0], part.span[1]), "&&", node, part)
        made.append(term(node))
        path.push((made[-1], False))


class _Path:
    """The literals of the current path, a witness for them, and an undo log."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        self.literals: list[Literal] = []
        self.owners: dict[str, list[int]] = {}  # free variable -> stack positions of its literals
        self.decided: dict[str, Value] = {}  # the witness: target macro (or call) -> value
        self.unknown: set[str] = set()  # variables of components assumed satisfiable
        self.reachable = True
        self.log: list[tuple[str, object]] = []
        self._free: dict[int, frozenset[str]] = {}

    def mark(self) -> int:
        """A point to `undo` back to."""
        return len(self.log)

    def push(self, literal: Literal) -> None:
        """Add a literal to the path and decide whether the path is still satisfiable."""
        if not self.reachable:
            return
        variables = self.variables(literal[0])
        self.log.append(("literal", variables))
        for name in variables:
            self.owners.setdefault(name, []).append(len(self.literals))
        self.literals.append(literal)
        if variables & self.unknown:
            self._assume(variables)
        elif not self._extend(literal, variables):
            self._sweep(variables)

    def stop(self) -> None:
        """Nothing after this point is reached (an `#error`), until `undo`."""
        if self.reachable:
            self.log.append(("unreachable", None))
            self.reachable = False

    def undo(self, mark: int) -> None:
        """Forget everything pushed since `mark`."""
        while len(self.log) > mark:
            what, detail = self.log.pop()
            if what == "literal":
                self.literals.pop()
                for name in detail:
                    self.owners[name].pop()
            elif what == "decided":
                name, old = detail
                if old is _MISSING:
                    del self.decided[name]
                else:
                    self.decided[name] = old
            elif what == "unknown":
                self.unknown.discard(detail)
            else:
                self.reachable = True

    def variables(self, item: Term) -> frozenset[str]:
        """The macros (renamed) and calls of `item` that the platform leaves free."""
        known = self._free.get(id(item))
        if known is None:
            known = self._free[id(item)] = frozenset(_variables(item, self.platform))
        return known

    def _decide(self, values: dict[str, Value]) -> None:
        for name, value in values.items():
            self.log.append(("decided", (name, self.decided.get(name, _MISSING))))
            self.decided[name] = value

    def _assume(self, variables: Iterable[str]) -> None:
        for name in set(variables) - self.unknown:
            self.log.append(("unknown", name))
            self.unknown.add(name)

    def _extend(self, literal: Literal, variables: frozenset[str]) -> bool:
        """Try the witness, with the literal's new variables swept over its own critical values."""
        item, wanted = literal
        free = sorted(name for name in variables if name not in self.decided)  # not `- keys()`: O(witness)
        choices = [sorted(item.constants) if name in item.calls
                   else _candidates(name, self.platform, item.constants, name in self._valued(item)) for name in free]
        if _product(map(len, choices)) > MAX_CONFIGURATIONS:
            return False
        for values in itertools.product(*choices):
            chosen = dict(zip(free, values))
            if _holds(item, wanted, self._config(item, chosen)):
                self._decide(chosen)
                return True
        return False

    def _valued(self, item: Term) -> set[str]:
        """The targets whose value `item` reads (as `configurations` decides it)."""
        renames = self.platform.renames
        return {renames.get(name, name) for name in item.names if item.reads_value(name)}

    def _config(self, item: Term, chosen: dict[str, Value]) -> dict[str, int | str]:
        """The configuration of `item`'s names under the witness and `chosen`."""
        config: dict[str, int | str] = {}
        fixed, renames = self.platform.fixed, self.platform.renames
        for name in item.names:
            target = renames.get(name, name)
            value = fixed[target] if target in fixed else chosen.get(target, self.decided.get(target, UNDEFINED))
            if value is not UNDEFINED:
                config[name] = value
        for call in item.calls:
            config[call] = chosen.get(call, self.decided.get(call))
        return config

    def _sweep(self, variables: frozenset[str]) -> None:
        """Sweep the newest literal's component, as `satisfiable` does."""
        component = self._component(variables)
        if component is None:
            return
        terms = [item for item, _ in component]
        configs = configurations(terms, self.platform, exhaustive=True, literals=len(component))
        if configs is None:
            self._assume(itertools.chain.from_iterable(map(self.variables, terms)))
            return
        config = _first_satisfying(component, configs)
        if config is not None:
            self._decide(self._values(terms, config))
            return
        if any(inexact(item, self.platform) for item in terms):
            self._assume(itertools.chain.from_iterable(map(self.variables, terms)))
            return
        self.log.append(("unreachable", None))
        self.reachable = False

    def _component(self, variables: frozenset[str]) -> list[Literal] | None:
        """The newest literal and those linked to it by shared variables, newest first; None
        (and the component assumed satisfiable) when it holds too many literals."""
        if any(len(self.owners[name]) > MAX_COMPONENT_LITERALS for name in variables):
            self._assume(variables)
            return None
        chosen, seen, queue = {len(self.literals) - 1}, set(variables), list(variables)
        while queue:
            for index in self.owners[queue.pop()]:
                if index in chosen:
                    continue
                if len(chosen) == MAX_COMPONENT_LITERALS:
                    self._assume(seen)
                    return None
                chosen.add(index)
                own = self.variables(self.literals[index][0])
                queue.extend(own - seen)
                seen.update(own)
        return [self.literals[index] for index in sorted(chosen, reverse=True)]

    def _values(self, terms: Sequence[Term], config: dict[str, int | str]) -> dict[str, Value]:
        """The witness values of a configuration from `configurations`, by target macro."""
        values: dict[str, Value] = {}
        for item in terms:
            for name in item.names:
                target = self.platform.renames.get(name, name)
                if target not in self.platform.fixed:
                    values[target] = config.get(name, UNDEFINED)
            values.update((call, config[call]) for call in item.calls)
        return values


def _product(sizes: Iterable[int]) -> int:
    total = 1
    for size in sizes:
        total *= size
    return total


def _first_satisfying(component: list[Literal], configs: Iterable[dict[str, int | str]]) -> dict[str, int | str] | None:
    """The first configuration under which every literal holds; the literal that rejected the
    last configuration is tried first on the next (neighbouring configurations fail alike)."""
    order = list(component)
    for config in configs:
        for position, (item, wanted) in enumerate(order):
            if not _holds(item, wanted, config):
                if position:
                    order.insert(0, order.pop(position))
                break
        else:
            return config
    return None


def _holds(item: Term, wanted: bool, config: dict[str, int | str]) -> bool:
    try:
        return truth(item.node, config) == wanted
    except EvalError:
        return True  # no value in this configuration: assumed to hold, as `satisfiable` does
