"""The syntax tree of an `#if` expression. Every node keeps its byte span in the file."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.records import record

Span = tuple[int, int]


@record(slots=True)
class Number:
    """An integer or character literal, already converted to its value."""

    span: Span
    value: int
    unsigned: bool


@record(slots=True)
class Identifier:
    """A name that the preprocessor would replace by its macro value, or 0."""

    span: Span
    name: str


@record(slots=True)
class Defined:
    """`defined X` or `defined(X)`."""

    span: Span
    name: str


@record(slots=True)
class Call:
    """A function-like macro call such as `__has_include(<x.h>)`, kept as an opaque term."""

    span: Span
    name: str
    key: str  # the call's text without blanks: one opaque term per distinct key


@record(slots=True)
class Paren:
    """A parenthesised expression."""

    span: Span
    inner: Node


@record(slots=True)
class Unary:
    """`! ~ - +` applied to an operand."""

    span: Span
    op: str
    operand: Node


@record(slots=True)
class Binary:
    """A binary operator; `op` is the C spelling (alternative tokens are normalised)."""

    span: Span
    op: str
    left: Node
    right: Node


@record(slots=True)
class Ternary:
    """`cond ? then : otherwise`."""

    span: Span
    cond: Node
    then: Node
    otherwise: Node


Node = Number | Identifier | Defined | Call | Paren | Unary | Binary | Ternary
PRIMARY_TYPES = (Number, Identifier, Defined, Call, Paren)


def children(node: Node) -> tuple[Node, ...]:
    """The direct operands of a node."""
    if isinstance(node, Paren):
        return (node.inner,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Ternary):
        return (node.cond, node.then, node.otherwise)
    return ()


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def is_primary(node: Node) -> bool:
    """True for a node that needs no parentheses as an operand (spec §6: a primary)."""
    while isinstance(node, Unary) and node.op == "!":
        node = node.operand
    return isinstance(node, PRIMARY_TYPES)


def names(node: Node) -> set[str]:
    """Every macro name the expression reads, through identifiers or `defined`."""
    return {n.name for n in walk(node) if isinstance(n, (Identifier, Defined))}
