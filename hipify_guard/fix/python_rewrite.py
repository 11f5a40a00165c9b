"""The Python rewrites of spec §12, as byte edits: a test false on ROCm says so (HG302), and a
device type becomes the `"cuda"` that ROCm's PyTorch uses (HG307).

HG302's forms are `A and torch.version.hip is None`, the Python `A && !defined(USE_ROCM)` (on ROCm
A is false, so `A and ...` is A; on CUDA the clause is true, so the result has A's truth, and A's
value when A is a comparison), and `A or torch.version.hip is not None` for an A true on ROCm,
likewise. So they are written only where nothing but A's truth is used (a test) or A's value is
a bool, and only where a name is bound to `torch` (or `torch.version`).
"""

from __future__ import annotations

import ast
import re

from ..core.findings import Edit
from ..model.python_analysis import PythonFile
from ..python.names import last_name

DEVICE_TYPE = re.compile(r"(hip|rocm)((?::[0-9]+)?)", re.I)  # a device string ROCm's PyTorch does not know
_DEVICE_LITERAL = re.compile(rb"[rRuU]?(['\"])(hip|rocm)(?::[0-9]+)?\1", re.I)
_BOOL_FUNCTIONS = frozenset({"bool", "isinstance", "issubclass", "hasattr", "callable", "startswith", "endswith"})
# Where `A and H` in place of A needs no parentheses: A is a whole test, argument, value or item.
_LOOSE = (ast.If, ast.While, ast.Assert, ast.IfExp, ast.BoolOp, ast.Assign, ast.AnnAssign, ast.Return, ast.NamedExpr,
          ast.keyword, ast.Call, ast.comprehension, ast.List, ast.Tuple, ast.Set, ast.Expr)


def rocm_exclusion(file: PythonFile, test: ast.expr) -> tuple[Edit, ...] | None:
    """Edits that append `and torch.version.hip is None` to `test` (false on ROCm); None where
    that form would change a value or no name is bound to torch there."""
    parents = file.source.parents
    prefix = hip_spelling(file, test)
    if prefix is None or not (truth_only(parents, test) or bool_valued(test)):
        return None
    start, end = file.span(test)
    clause = f" and {prefix} is None".encode("ascii")
    parent = parents.get(id(test))
    if isinstance(parent, ast.UnaryOp):  # `not A`: `not A and H` would be `(not A) and H`
        if _after_open_parenthesis(file.data, start):
            return (Edit(end, end, clause),)
        return Edit(start, start, b"("), Edit(end, end, clause + b")")
    if not isinstance(parent, _LOOSE) or (isinstance(parent, ast.Call) and parent.func is test):
        return None
    return (Edit(end, end, clause),)


def rocm_inclusion(file: PythonFile, test: ast.expr) -> tuple[Edit, ...] | None:
    """Edits that turn `test` (true on ROCm) into `(test or torch.version.hip is not None)` (no
    parentheses where it is a whole test or an `or`'s operand); None where that form would change
    a value or no name is bound to torch there."""
    parents = file.source.parents
    prefix = hip_spelling(file, test)
    if prefix is None or not (truth_only(parents, test) or bool_valued(test)):
        return None
    start, end = file.span(test)
    clause = f" or {prefix} is not None".encode("ascii")
    parent = parents.get(id(test))
    bare = isinstance(parent, (ast.If, ast.While, ast.Assert)) or (
        isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.Or))
    if bare:
        return (Edit(end, end, clause),)
    if _after_open_parenthesis(file.data, start) and isinstance(parent, (ast.UnaryOp, ast.BoolOp)):
        return (Edit(end, end, clause),)
    return Edit(start, start, b"("), Edit(end, end, clause + b")")


def hip_spelling(file: PythonFile, at: ast.AST) -> str | None:
    """How code at `at` spells `torch.version.hip` (`torch.version.hip`, `th.version.hip`, `tv.hip`),
    by the innermost import of torch it sees."""
    found = file.symbols.bound_to((("torch",), ("torch", "version")), at)
    if found is None:
        return None
    name, target = found
    return f"{name}.version.hip" if target == ("torch",) else f"{name}.hip"


def truth_only(parents: dict[int, ast.AST], node: ast.expr) -> bool:
    """Whether only the truth of `node` is used: it is a test (`if`, `while`, `assert`, a
    conditional expression's, a comprehension's), the operand of `not`, or an operand of an
    `and`/`or` that is itself used for its truth."""
    child, parent = node, parents.get(id(node))
    while isinstance(parent, ast.BoolOp):
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, (ast.If, ast.While, ast.Assert, ast.IfExp)):
        return parent.test is child
    if isinstance(parent, ast.comprehension):
        return any(test is child for test in parent.ifs)
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def bool_valued(node: ast.expr) -> bool:
    """Whether every truthy value of `node` is True: a comparison, a `not`, True, a call of a
    predicate (`bool`, `isinstance`, `.startswith`, ...), or an `and` ending / an `or` made of such."""
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.Call):
        return last_name(node.func) in _BOOL_FUNCTIONS
    if isinstance(node, ast.BoolOp):
        operands = node.values[-1:] if isinstance(node.op, ast.And) else node.values
        return all(bool_valued(operand) for operand in operands)
    return False


def _after_open_parenthesis(data: bytes, start: int) -> bool:
    position = start
    while position > 0 and data[position - 1] in b" \t\r\n\f":
        position -= 1
    return position > 0 and data[position - 1] == ord("(")


def cuda_device(file: PythonFile, literal: ast.Constant) -> Edit | None:
    """The edit that turns the device literal `"hip[:N]"` or `"rocm[:N]"` into `"cuda[:N]"` (None:
    not a single plain literal, e.g. implicitly concatenated or with escapes)."""
    start, end = file.span(literal)
    match = _DEVICE_LITERAL.fullmatch(file.data, start, end)
    return None if match is None else Edit(match.start(2), match.end(2), b"cuda")
