"""Which CUDA version tests decide a guard's ROCm value by accident (spec §11.2).

A *CUDA test* of a condition is a maximal subexpression that reads only CUDA version macros
(`CUDART_VERSION >= 11010`, `defined(CUDA_VERSION) && CUDA_VERSION >= 11000`); `defined` of a macro
that only NVIDIA's compilers define (`defined(__CUDACC_VER_MAJOR__)`) tests the compiler, an
explicit CUDA test like `defined(__CUDACC__)`, not a version (`compiler_identity`). On a ROCm model
it has a value of its own (the macros are undefined there, or a HIP number after PyTorch's
hipify). It is *decisive* when some configuration of the model's other free macros, on the
guard's path, makes the condition follow it: `defined(AMREX_USE_CUDA) && defined(__CUDACC__) &&
__CUDACC_VER_MAJOR__ >= 11` is false on ROCm because of `__CUDACC__`, an explicit CUDA test, so
nothing there is implicit; `CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)` follows its CUDA
test in every ROCm build without MUSA, and is false there by accident.

A guard's *fate* on ROCm is the value it takes where a CUDA test decides it, and, when other
macros can give it the other value, the condition under which they do (`unless`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from ..cpp.groups import Arm
from ..cpp.nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary, children, walk
from .compiler_identity import is_identity_test, version_names
from .partial import constant, is_boolean, simplify
from .platforms import UNDEFINED, Outcome, Platform, outcome, satisfiable, term

if TYPE_CHECKING:
    from .analysis import FileAnalysis, Literal

_DECIDED = (Outcome.TRUE, Outcome.FALSE, Outcome.DEPENDS)
_UNDECIDED = object()
# What decides a guard is in the conditions nearest it: beyond these many enclosing and earlier
# arms the path is left out (more configurations: never a finding less), so that a file that
# nests 10,000 deep costs linear time.
MAX_CONTEXT = 32
_NOTHING_FIXED = Platform("none", "no platform", False)


class Verdict(NamedTuple):
    """The fate of a guard on one ROCm model."""

    model: Platform
    outcome: Outcome  # its value where a CUDA test decides it (DEPENDS: on the HIP version)
    rest: Node | None  # what else decides it (None: nothing, the value is definite)
    alone: bool = False  # whether the CUDA tests' values decide it whatever every other macro is


class Fate(NamedTuple):
    """What ROCm gets today from an implicit guard."""

    today: str  # "false", "true" or "differs"
    outcomes: tuple[tuple[Platform, Outcome], ...]
    cuda_macros: tuple[str, ...]
    tests: tuple[tuple[Node, bool | None], ...]  # the decisive CUDA tests, each with its value on
    # every ROCm model where it decides (None: not the same on all of them)
    rest: Node | None = None  # where other macros can give the guard the other value (None: never)
    alone: bool = False  # whether the CUDA tests decide it whatever every other macro is (not only
    # those the models fix): then the §6 forms keep every configuration's value

    @property
    def partial(self) -> bool:
        """Whether the guard's value on ROCm also depends on other macros."""
        return self.rest is not None


def cuda_tests(node: Node, cuda_macros: frozenset[str]) -> list[Node] | None:
    """The maximal subtrees of `node` that read CUDA version macros and nothing else, or None
    when one of them is a number that other macros compute with (`CUDA_VERSION * 2 > FOO`): a
    test must be a truth value (a comparison, `defined`, or an operand of `&&`, `||`, `!`)."""
    found: list[Node] = []
    stack = [(node, True)]
    while stack:
        item, logical = stack.pop()
        names, opaque = _reads(item, cuda_macros)
        if names and not opaque and names <= cuda_macros:
            if not logical and not is_boolean(item):
                return None
            found.append(item)
        elif names & cuda_macros:
            stack.extend((child, _logical_operand(item, index)) for index, child in reversed(list(enumerate(children(item)))))
    return found


def _logical_operand(node: Node, index: int) -> bool:
    """Whether operand `index` of `node` is used only for its truth value."""
    if isinstance(node, Binary):
        return node.op in ("&&", "||")
    if isinstance(node, Unary):
        return node.op == "!"
    return isinstance(node, Ternary) and index == 0


def _reads(node: Node, cuda_macros: frozenset[str]) -> tuple[set[str], bool]:
    """The macro names a subtree reads (not those it tests as the compiler's identity), and
    whether it holds an opaque call."""
    names: set[str] = set()
    opaque = False
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (Identifier, Defined)) and not is_identity_test(item, cuda_macros):
            names.add(item.name)
        elif isinstance(item, Call):
            opaque = True
        stack.extend(children(item))
    return names, opaque


def rocm_fate(file: FileAnalysis, arm: Arm) -> Fate | None:
    """The ROCm fate of an arm whose CUDA version tests decide it by accident, if it is decided
    (worked out once per arm: HG101, HG102 and HG103 each ask for every arm)."""
    fates: dict[int, Fate | None] = file.kept(rocm_fate, dict)
    key = arm.directive.hash
    if key not in fates:
        fates[key] = _rocm_fate(file, arm)
    return fates[key]


def _rocm_fate(file: FileAnalysis, arm: Arm) -> Fate | None:
    condition = file.condition(arm).term
    if condition is None:
        return None
    cuda = version_names(condition.node, file.settings.macros.cuda_version_macros)
    explicit = file.platforms.explicit_rocm
    if not cuda or condition.names & explicit:
        return None
    if file.local_macros.chosen_where(condition.names, arm.directive.hash,
                                      lambda group: any(item.names & explicit for item, _ in file.path(group))):
        return None  # a threshold the file defines for ROCm (`#ifdef GGML_USE_HIP` / `#define N 0`)
    context = file.context(arm, nearest=MAX_CONTEXT)
    verdicts: list[Verdict] = []
    decisive: dict[tuple[int, int], tuple[Node, set[bool | None]]] = {}
    local = file.seen_at(_NOTHING_FIXED, arm.directive.hash)
    in_context = frozenset().union(*(item.names for item, _ in context))
    for model in file.reachable_on_rocm(arm):
        seen = file.seen_at(model, arm.directive.hash)
        verdict = _verdict(condition.node, seen, local, (context, _as_before(seen, model, in_context)), decisive,
                           file.settings.macros.cuda_version_macros)
        if verdict is _UNDECIDED:
            return None
        if verdict is not None:
            verdicts.append(verdict)
    decided = {verdict.outcome for verdict in verdicts}
    if not decided - {Outcome.DEPENDS}:
        return None
    if decided == {Outcome.FALSE} and _rocm_arm_follows(file, arm, explicit):
        return None  # `#if CUDA_VERSION >= 7000 ... #elif defined(MAGMA_HAVE_HIP)`: ROCm's arm is named
    today = {frozenset({Outcome.FALSE}): "false", frozenset({Outcome.TRUE}): "true"}.get(frozenset(decided), "differs")
    rest = next((verdict.rest for verdict in verdicts if verdict.rest is not None), None)
    values = tuple((test, next(iter(seen)) if len(seen) == 1 else None) for test, seen in decisive.values())
    return Fate(today, tuple((verdict.model, verdict.outcome) for verdict in verdicts), tuple(sorted(cuda)),
                values, rest, all(verdict.alone for verdict in verdicts))


def _rocm_arm_follows(file: FileAnalysis, arm: Arm, explicit: frozenset[str]) -> bool:
    """Whether a later arm of the same conditional tests a ROCm macro: the chain hands ROCm to it."""
    last = file.derived.setdefault(_rocm_arm_follows, {})  # conditional -> index of its last ROCm arm
    key = id(arm.conditional)
    if key not in last:
        last[key] = max((later.index for later in arm.conditional.arms
                         if (term := file.condition(later).term) is not None and term.names & explicit), default=-1)
    return last[key] > arm.index


def _as_before(seen: Platform, model: Platform, names: frozenset[str]) -> Platform:
    """`seen` (the model at the directive) with `names` as the model has them: the path's
    conditions were evaluated earlier, before the file's own definitions (an include guard's
    `#ifndef X_H` is true although X_H is defined at the directive)."""
    fixed = {name: value for name, value in seen.fixed.items() if name not in names}
    fixed.update((name, model.fixed[name]) for name in names if name in model.fixed)
    return seen if fixed == seen.fixed else dataclasses.replace(seen, fixed=fixed)


def _verdict(node: Node, model: Platform, local: Platform, path: tuple[list[Literal], Platform],
             decisive: dict[tuple[int, int], tuple[Node, set[bool | None]]],
             cuda_macros: frozenset[str]) -> Verdict | None | object:
    """The guard's fate on one model: a Verdict, None (no CUDA test decides it there) or
    _UNDECIDED (no sweep can tell). `local`: the file's own definitions alone; `path`: the
    literals of the directive's path and the platform to judge them on."""
    context, before = path
    identities = _identities(node, model, cuda_macros)
    tree = simplify(node, _without(model, cuda_macros), identities)  # thresholds, explicit tests put in
    tests = cuda_tests(tree, cuda_macros)
    if tests is None:
        return _UNDECIDED
    values: dict[int, int] = {}
    for test in tests:
        value = outcome(term(test), model)
        if value in (Outcome.UNKNOWN, Outcome.ERROR):
            return _UNDECIDED
        if value != Outcome.DEPENDS:
            values[id(test)] = int(value == Outcome.TRUE)
    deciding = [test for test in tests if _decides(test, tree, model, context, before)]
    if not deciding:
        return None
    for test in deciding:
        known = values.get(id(test))
        decisive.setdefault(test.span, (test, set()))[1].add(None if known is None else bool(known))
    rest = simplify(tree, model, values)
    value = constant(rest)
    if value is not None:
        return Verdict(model, Outcome.TRUE if value else Outcome.FALSE, None, _alone(node, local, tests, values))
    where = [(term(_any_of([_flips(test, tree, model) for test in deciding])), True)]
    condition = term(tree)
    can_be = [satisfiable([*context, *where, (condition, wanted)], before) for wanted in (True, False)]
    if all(can_be):
        return Verdict(model, Outcome.DEPENDS, None)
    if not any(can_be):
        return None
    result = Outcome.TRUE if can_be[0] else Outcome.FALSE
    other = satisfiable([*context, (condition, result == Outcome.FALSE)], before)
    return Verdict(model, result, rest if other else None)


def _identities(node: Node, model: Platform, cuda_macros: frozenset[str]) -> dict[int, int]:
    """The value on `model` of each compiler identity test in `node` (`defined(__CUDACC_VER_MAJOR__)`)
    that the model decides: put in like the model's other explicit tests."""
    return {id(item): int(model.fixed[item.name] is not UNDEFINED) for item in walk(node)
            if is_identity_test(item, cuda_macros) and item.name in model.fixed}


def _without(model: Platform, names: frozenset[str]) -> Platform:
    """`model` with `names` (the CUDA version macros) left free, to find the tests on them."""
    fixed = {name: value for name, value in model.fixed.items() if name not in names}
    return dataclasses.replace(model, fixed=fixed, renames={})


def _alone(node: Node, local: Platform, tests: list[Node], values: dict[int, int]) -> bool:
    """Whether the tests' values decide the original condition whatever every macro is that the
    file itself does not define (then the §6 forms keep every configuration's value)."""
    by_span = {item.span: item for item in reversed(list(walk(node)))}
    known = {id(by_span[test.span]): values[id(test)] for test in tests if id(test) in values and test.span in by_span}
    return constant(simplify(node, local, known)) is not None


def _decides(test: Node, node: Node, model: Platform, context: list[Literal], before: Platform) -> bool:
    """Whether some configuration of the model on the path makes `node` follow `test`."""
    flips = _flips(test, node, model)
    value = constant(flips)
    if value is not None:
        return value != 0
    return satisfiable([*context, (term(flips), True)], before)


def _flips(test: Node, node: Node, model: Platform) -> Node:
    """An expression that is true exactly where `node`'s value changes with `test`'s."""
    when_true = simplify(node, model, {id(test): 1})
    when_false = simplify(node, model, {id(test): 0})
    values = constant(when_true), constant(when_false)
    if None not in values:
        return Number(node.span, int((values[0] != 0) != (values[1] != 0)), False)
    return simplify(Binary(node.span, "!=", _truth(when_true), _truth(when_false)), model)


def _truth(node: Node) -> Node:
    return Unary(node.span, "!", Unary(node.span, "!", Paren(node.span, node)))


def _any_of(nodes: list[Node]) -> Node:
    result = nodes[0]
    for other in nodes[1:]:
        result = Binary(result.span, "||", result, other)
    return result


def describe(node: Node, data: bytes, wanted: bool) -> str:
    """In words, when `node` (a residual of the guard) is `wanted` (true or false)."""
    while isinstance(node, Paren):
        node = node.inner
    if isinstance(node, Defined):
        return f"{node.name} is {'defined' if wanted else 'undefined'}"
    if isinstance(node, Unary) and node.op == "!":
        return describe(node.operand, data, not wanted)
    if isinstance(node, Binary) and node.op in ("&&", "||"):
        joins_all = (node.op == "&&") == wanted
        parts = [describe(part, data, wanted) for part in _chain(node)]
        return (" and " if joins_all else " or ").join(parts)
    text = " ".join(data[node.span[0] : node.span[1]].decode("utf-8", "replace").split())
    return f"`{text}` {'holds' if wanted else 'does not hold'}"


def _chain(node: Binary) -> Iterator[Node]:
    stack = [node.right, node.left]
    while stack:
        item = stack.pop()
        while isinstance(item, Paren):
            item = item.inner
        if isinstance(item, Binary) and item.op == node.op:
            stack += [item.right, item.left]
        else:
            yield item
