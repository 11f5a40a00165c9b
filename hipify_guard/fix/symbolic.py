"""Proofs that do not enumerate (spec §11.6): a rewrite differs from the original only by clauses
on the ROCm macro R, so substituting what a platform says of R (undefined in every CUDA
configuration, defined in every ROCm model) must give back the original, or what the policy
promises, up to parentheses and truth value.

On CUDA, `!defined(R)` is 1 and `defined(R)` is 0: `A && !defined(R)` folds to A, `(A) ||
defined(R)` to A, `(A) || (defined(R) && RV >= N)` to A, whatever the other macros are. On a ROCm
model the clauses fold the other way: `A && !defined(R)` to 0, `(T && !defined(R))` to 0 where T is
a CUDA test that is false there (its own small sweep says so), `(A) || (defined(R) && RV >= N)`
to `RV >= N` where A is false there.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cpp.nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary, walk
from ..model.implicit import cuda_tests
from ..model.partial import constant, is_boolean, simplify
from ..model.platforms import Outcome, Platform, outcome, term


def proves(old: Node, new: Node, platform: Platform, macros: tuple[str, str], expected: Node | None,
           cuda_macros: frozenset[str] = frozenset()) -> bool:
    """Whether `new` equals `expected` (None: `old`) in every configuration of `platform`.

    `macros` are the ROCm macro and the ROCm version macro: only what the platform fixes of them
    is put in, so the proof holds whatever the other macros are. `cuda_macros`: the CUDA version
    macros, whose tests decide the operands of the clauses on ROCm.
    """
    facts = _restricted(platform, macros)
    target = old if expected is None else expected
    if _canonical(simplify(new, facts)) == _canonical(simplify(target, facts)):
        return True
    known = _known_operands(new, old, platform, macros[0], cuda_macros)
    if not known:
        return False
    return _canonical(simplify(new, facts, _ids(new, known))) == _canonical(simplify(target, facts, _ids(target, known)))


def _restricted(platform: Platform, names: tuple[str, ...]) -> Platform:
    fixed = {name: platform.fixed[name] for name in names if name in platform.fixed}
    if not platform.is_rocm:  # every CUDA configuration leaves the ROCm macros undefined
        fixed = dict(platform.fixed)
    return Platform(platform.name, platform.title, platform.is_rocm, fixed)


def _known_operands(new: Node, old: Node, platform: Platform, rocm_macro: str,
                    cuda_macros: frozenset[str]) -> dict[str, int]:
    """Values on `platform` of the subtrees the rewrite put a clause on R next to (T in `(T &&
    !defined(R))`, A in `(A) || (defined(R) && ...)`), where their CUDA tests decide them."""
    old_forms = {_canonical(item) for item in walk(old)}
    known: dict[str, int] = {}
    for item in walk(new):
        if isinstance(item, Binary) and item.op in ("&&", "||") and _tests(item.right, rocm_macro):
            operand = item.left
            key = _canonical(operand)
            if key in old_forms and key not in known:
                value = _value(operand, platform, cuda_macros)
                if value is not None:
                    known[key] = value
    return known


def _value(node: Node, platform: Platform, cuda_macros: frozenset[str]) -> int | None:
    """The truth value of `node` on `platform` where it is decided: by its own sweep, or by its
    CUDA tests' sweeps and partial evaluation (a 60-term guard whose CUDA test is false)."""
    whole = outcome(term(node), platform)
    if whole in (Outcome.TRUE, Outcome.FALSE):
        return int(whole == Outcome.TRUE)
    values = {}
    for test in cuda_tests(node, cuda_macros) or ():  # (None: a CUDA macro computed with as a number)
        value = outcome(term(test), platform)
        if value in (Outcome.TRUE, Outcome.FALSE):
            values[id(test)] = int(value == Outcome.TRUE)
    folded = constant(simplify(node, platform, values))
    return None if folded is None else int(folded != 0)


def _tests(node: Node, name: str) -> bool:
    """Whether `node` reads the macro `name` (a clause of the rewrite)."""
    return any(isinstance(item, (Defined, Identifier)) and item.name == name for item in walk(node))


def _ids(node: Node, known: Mapping[str, int]) -> dict[int, int]:
    """`known` (by canonical form) as the ids of the matching subtrees of `node`."""
    return {id(item): known[key] for item in walk(node) if (key := _canonical(item)) in known}


def _canonical(node: Node, logical: bool = True) -> str:  # noqa: PLR0911 - one case per node type
    """The tree as text, up to parentheses, and up to truth value where only truth matters."""
    if isinstance(node, Paren):
        return _canonical(node.inner, logical)
    if isinstance(node, Number):
        return str(int(node.value != 0)) if logical else f"{node.value}{'u' if node.unsigned else ''}"
    if isinstance(node, (Identifier, Defined)):
        return f"{'defined ' if isinstance(node, Defined) else ''}{node.name}"
    if isinstance(node, Call):
        return node.key
    if isinstance(node, Unary):
        operand = node.operand
        while isinstance(operand, Paren):
            operand = operand.inner
        if node.op == "!" and isinstance(operand, Unary) and operand.op == "!" and (
                logical or is_boolean(operand.operand)):
            return _canonical(operand.operand, logical)
        return f"{node.op}{_canonical(node.operand, node.op == '!')}"
    if isinstance(node, Ternary):
        return f"({_canonical(node.cond)} ? {_canonical(node.then, logical)} : {_canonical(node.otherwise, logical)})"
    inner = node.op in ("&&", "||")
    return f"({_canonical(node.left, inner)} {node.op} {_canonical(node.right, inner)})"
