"""Evaluate an `#if` syntax tree under one configuration, with C semantics (64-bit, as GCC).

A configuration maps macro names to integer values; a name it lacks is undefined and reads as
0. The value `EMPTY` is a macro defined with no replacement text (like `__HIP_PLATFORM_AMD__`),
which is an error wherever a value is needed. Opaque calls such as `__has_include(<x.h>)` are
looked up by their key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary
from .numbers import INT_BITS, UINT_MAX

EMPTY = "<empty>"
Value = tuple[int, bool]  # (value, is_unsigned)
Configuration = Mapping[str, "int | str"]

_CXX_KEYWORDS = {"true": 1, "false": 0}


class EvalError(Exception):
    """The expression has no value under this configuration (e.g. division by zero)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def truth(node: Node, config: Configuration) -> bool:
    """Whether the group controlled by `node` is taken under `config`."""
    return evaluate(node, config)[0] != 0


def evaluate(node: Node, config: Configuration) -> Value:
    """The value and signedness of `node` under `config`. Raises EvalError."""
    return _compiled(node)(config)


Evaluation = Callable[[Configuration], Value]
_COMPILED: dict[int, tuple[Node, Evaluation]] = {}  # id(node) -> (node, its evaluation): the sweeps
_KEPT = 50_000  # evaluate one condition under thousands of configurations


def _compiled(node: Node) -> Evaluation:
    """`node` made once into nested closures (no dispatch on the node's type per evaluation)."""
    entry = _COMPILED.get(id(node))
    if entry is None or entry[0] is not node:
        if len(_COMPILED) >= _KEPT:
            _COMPILED.clear()
        entry = _COMPILED[id(node)] = (node, _compile(node))
    return entry[1]


def _compile(node: Node) -> Evaluation:
    kind = type(node)
    if kind is Number:
        constant = (node.value, node.unsigned)
        return lambda config: constant
    if kind is Identifier or kind is Call:
        key = node.name if kind is Identifier else node.key
        return lambda config: _macro_value(node, key, config)
    if kind is Defined:
        name = node.name
        return lambda config: (int(name in config), False)
    if kind is Paren:
        return _compile(node.inner)
    if kind is Unary:
        return _unary(node.op, _compile(node.operand))
    if kind is Binary:
        return _binary(node, _compile(node.left), _compile(node.right))
    if kind is Ternary:
        return _ternary(node)
    raise TypeError(f"not an expression node: {node!r}")


def _macro_value(node: Identifier | Call, key: str, config: Configuration) -> Value:
    value = config.get(key)
    if value is None:
        if isinstance(node, Call):
            raise EvalError(f"function-like macro {node.name} is not defined", node.span[0])
        return _CXX_KEYWORDS.get(key, 0), False
    if value == EMPTY:
        raise EvalError(f"{key} is defined but empty: it has no value in #if", node.span[0])
    return _wrap(int(value), False), False


def _unary(op: str, operand: Evaluation) -> Evaluation:
    if op == "!":
        return lambda config: (int(operand(config)[0] == 0), False)
    if op not in ("-", "~"):
        return operand

    def negated(config: Configuration) -> Value:
        value, unsigned = operand(config)
        return _wrap(-value if op == "-" else ~value, unsigned), unsigned
    return negated


def _ternary(node: Ternary) -> Evaluation:
    unsigned = is_unsigned(node.then, {}) or is_unsigned(node.otherwise, {})
    cond, then, otherwise = _compile(node.cond), _compile(node.then), _compile(node.otherwise)

    def chosen(config: Configuration) -> Value:
        return _wrap((then if cond(config)[0] != 0 else otherwise)(config)[0], unsigned), unsigned
    return chosen


def _binary(node: Binary, left: Evaluation, right: Evaluation) -> Evaluation:
    op = node.op
    if op == "&&":
        return lambda config: (int(left(config)[0] != 0 and right(config)[0] != 0), False)
    if op == "||":
        return lambda config: (int(left(config)[0] != 0 or right(config)[0] != 0), False)

    def applied(config: Configuration) -> Value:
        value, left_unsigned = left(config)
        other, right_unsigned = right(config)
        return _apply(node, value, left_unsigned, other, right_unsigned)
    return applied


def _apply(node: Binary, left: int, left_unsigned: bool, right: int, right_unsigned: bool) -> Value:
    """C's binary operator `node.op` on two values (the usual arithmetic conversions)."""
    op = node.op
    if op in ("<<", ">>"):
        return _shift(op, left, left_unsigned, right, right_unsigned), left_unsigned
    unsigned = left_unsigned or right_unsigned
    if unsigned:
        left, right = left & UINT_MAX, right & UINT_MAX
    if op in _COMPARISONS:
        return int(_COMPARISONS[op](left, right)), False
    if op in ("/", "%"):
        if right == 0:
            raise EvalError("division by zero in #if", node.span[0])
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)
        return _wrap(quotient if op == "/" else left - right * quotient, unsigned), unsigned
    return _wrap(_ARITHMETIC[op](left, right), unsigned), unsigned


def _shift(op: str, left: int, left_unsigned: bool, count: int, count_unsigned: bool) -> int:
    """GCC's rule: a negative count shifts the other way; a count >= 64 shifts everything out."""
    if not count_unsigned and count < 0:
        op, count = ("<<" if op == ">>" else ">>"), -count
    if op == "<<":
        return 0 if count >= INT_BITS else _wrap(left << count, left_unsigned)
    if count >= INT_BITS:
        return -1 if left < 0 else 0
    return left >> count


def is_unsigned(node: Node, config: Configuration) -> bool:
    """The signedness of `node`'s type, without evaluating it (C's usual conversions)."""
    kind = type(node)
    if kind is Number:
        return node.unsigned
    if kind is Paren:
        return is_unsigned(node.inner, config)
    if kind is Unary:
        return node.op != "!" and is_unsigned(node.operand, config)
    if kind is Binary:
        if node.op in _COMPARISONS or node.op in ("&&", "||"):
            return False
        if node.op in ("<<", ">>"):
            return is_unsigned(node.left, config)
        return is_unsigned(node.left, config) or is_unsigned(node.right, config)
    if kind is Ternary:
        return is_unsigned(node.then, config) or is_unsigned(node.otherwise, config)
    return False


def _wrap(value: int, unsigned: bool) -> int:
    value &= UINT_MAX
    if not unsigned and value >> (INT_BITS - 1):
        value -= 1 << INT_BITS
    return value


_COMPARISONS = {
    "==": int.__eq__, "!=": int.__ne__, "<": int.__lt__,
    ">": int.__gt__, "<=": int.__le__, ">=": int.__ge__,
}
_ARITHMETIC = {
    "+": int.__add__, "-": int.__sub__, "*": int.__mul__,
    "&": int.__and__, "|": int.__or__, "^": int.__xor__,
}
