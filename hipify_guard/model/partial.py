"""Partial evaluation of an `#if` tree on a platform: what the macros it fixes (and any subtrees
whose values are known) leave of the expression.

Three-valued where it matters (spec §11.2): `0 && X` and `X && 0` are 0, `1 || X` and `X || 1` are
1, whatever X is, even when no sweep could decide X (`CUDA_VERSION >= 11000 && (FLAGS & 2)` is 0
on ROCm). The result is a tree whose constants are folded: a `Number` when the value is decided,
else the residual expression (unchanged subtrees keep their spans, so they can be shown).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cpp.evaluator import EMPTY, EvalError, evaluate
from ..cpp.nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary
from .platforms import UNDEFINED, Platform

_BOOLEAN_OPS = frozenset(("==", "!=", "<", ">", "<=", ">=", "&&", "||"))


def simplify(node: Node, platform: Platform, known: Mapping[int, int] | None = None) -> Node:
    """`node` with the platform's fixed macros and the `known` subtrees (by `id`) put in, folded."""
    return _Folder(platform, known or {}).fold(node)


def constant(node: Node) -> int | None:
    """The value of a folded tree, or None when it is not decided."""
    return node.value if isinstance(node, Number) else None


def is_boolean(node: Node) -> bool:
    """Whether `node` can only be 0 or 1 (a comparison, a logical operator, `!`, `defined`)."""
    while isinstance(node, Paren):
        node = node.inner
    return (isinstance(node, Defined) or isinstance(node, Unary) and node.op == "!"
            or isinstance(node, Binary) and node.op in _BOOLEAN_OPS or isinstance(node, Number) and node.value in (0, 1))


class _Folder:
    def __init__(self, platform: Platform, known: Mapping[int, int]) -> None:
        self.platform = platform
        self.known = known

    def fold(self, node: Node) -> Node:  # noqa: PLR0911 - one case per node type
        if id(node) in self.known:
            return Number(node.span, self.known[id(node)], False)
        if isinstance(node, (Number, Call)):
            return node
        if isinstance(node, (Identifier, Defined)):
            return self._macro(node)
        if isinstance(node, Paren):
            inner = self.fold(node.inner)
            return inner if isinstance(inner, Number) else Paren(node.span, inner)
        if isinstance(node, Unary):
            return self._evaluated(Unary(node.span, node.op, self.fold(node.operand)))
        if isinstance(node, Ternary):
            condition = self.fold(node.cond)
            if isinstance(condition, Number):
                return self.fold(node.then if condition.value else node.otherwise)
            return Ternary(node.span, condition, self.fold(node.then), self.fold(node.otherwise))
        if node.op in ("&&", "||"):
            return self._logical(node)
        return self._evaluated(Binary(node.span, node.op, self.fold(node.left), self.fold(node.right)))

    def _macro(self, node: Identifier | Defined) -> Node:
        target = self.platform.renames.get(node.name, node.name)
        if target not in self.platform.fixed:
            return node
        value = self.platform.fixed[target]
        if isinstance(node, Defined):
            return Number(node.span, int(value is not UNDEFINED), False)
        if value is UNDEFINED:
            return Number(node.span, 0, False)
        return node if value == EMPTY or not isinstance(value, int) else Number(node.span, value, False)

    def _logical(self, node: Binary) -> Node:
        absorbing = 0 if node.op == "&&" else 1  # `0 && X` is 0, `1 || X` is 1
        left = self.fold(node.left)
        if isinstance(left, Number) and (left.value != 0) == bool(absorbing):
            return Number(node.span, absorbing, False)
        right = self.fold(node.right)
        if isinstance(right, Number) and (right.value != 0) == bool(absorbing):
            return Number(node.span, absorbing, False)
        if isinstance(left, Number):
            return _truth_of(right)
        if isinstance(right, Number):
            return _truth_of(left)
        return Binary(node.span, node.op, left, right)

    def _evaluated(self, node: Unary | Binary) -> Node:
        operands = (node.operand,) if isinstance(node, Unary) else (node.left, node.right)
        if not all(isinstance(operand, Number) for operand in operands):
            return node
        try:
            value, unsigned = evaluate(node, {})
        except EvalError:
            return node
        return Number(node.span, value, unsigned)


def _truth_of(node: Node) -> Node:
    """`node`'s truth value (0 or 1) as a tree: the node itself when it is boolean already."""
    if isinstance(node, Number):
        return Number(node.span, int(node.value != 0), False)
    if is_boolean(node):
        return node
    return Unary(node.span, "!", Unary(node.span, "!", node))
