"""Find `MACRO op constant` comparisons in a condition's syntax tree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .nodes import Binary, Identifier, Node, Number, Paren, walk

RELATIONAL = frozenset({"<", ">", "<=", ">=", "==", "!="})
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


class Comparison(NamedTuple):
    """`macro op constant`, normalised so the macro is on the left."""

    node: Binary
    macro: Identifier
    op: str
    constant: Number


def bare(node: Node) -> Node:
    """The node without enclosing parentheses."""
    while isinstance(node, Paren):
        node = node.inner
    return node


def comparisons(root: Node) -> Iterator[Comparison]:
    """Every comparison of a lone macro with a lone integer constant, in either order."""
    for node in walk(root):
        if not isinstance(node, Binary) or node.op not in RELATIONAL:
            continue
        left, right = bare(node.left), bare(node.right)
        if isinstance(left, Identifier) and isinstance(right, Number):
            yield Comparison(node, left, node.op, right)
        elif isinstance(left, Number) and isinstance(right, Identifier):
            yield Comparison(node, right, _FLIPPED[node.op], left)


def holds(value: int, op: str, constant: int) -> bool:
    """`value op constant` for integers."""
    return {
        "<": value < constant, ">": value > constant, "<=": value <= constant,
        ">=": value >= constant, "==": value == constant, "!=": value != constant,
    }[op]
