"""Evaluate an `#if` syntax tree under one configuration, with C semantics (64-bit, as GCC).

A configuration maps macro names to integer values; a name it lacks is undefined and reads as
0. The value `EMPTY` is a macro defined with no replacement text (like `__HIP_PLATFORM_AMD__`),
which is an error wherever a value is needed. Opaque calls such as `__has_include(<x.h>)` are
looked up by their key.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    kind = type(node)
    if kind is Number:
        return node.value, node.unsigned
    if kind is Identifier:
        return _macro_value(node, node.name, config)
    if kind is Defined:
        return int(node.name in config), False
    if kind is Paren:
        return evaluate(node.inner, config)
    if kind is Unary:
        return _unary(node, config)
    if kind is Binary:
        return _binary(node, config)
    if kind is Ternary:
        return _ternary(node, config)
    if kind is Call:
        return _macro_value(node, node.key, config)
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


def _unary(node: Unary, config: Configuration) -> Value:
    value, unsigned = evaluate(node.operand, config)
    if node.op == "!":
        return int(value == 0), False
    if node.op == "-":
        return _wrap(-value, unsigned), unsigned
    if node.op == "~":
        return _wrap(~value, unsigned), unsigned
    return value, unsigned


def _ternary(node: Ternary, config: Configuration) -> Value:
    unsigned = is_unsigned(node.then, config) or is_unsigned(node.otherwise, config)
    chosen = node.then if truth(node.cond, config) else node.otherwise
    return _wrap(evaluate(chosen, config)[0], unsigned), unsigned


def _binary(node: Binary, config: Configuration) -> Value:
    op = node.op
    if op == "&&":
        return int(truth(node.left, config) and truth(node.right, config)), False
    if op == "||":
        return int(truth(node.left, config) or truth(node.right, config)), False
    left, left_unsigned = evaluate(node.left, config)
    right, right_unsigned = evaluate(node.right, config)
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
