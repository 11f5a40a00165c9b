"""What a ROCm run computes in place of `torch.version.cuda` (spec §12, HG302 as corrected).

On ROCm `torch.version.cuda` is None. Code that tests it for truth or against None first says
what happens on ROCm (the HIP note's own CUDA test). Code that replaces the None with a number or
string and compares that (`int(torch.version.cuda.split(".")[0]) if torch.version.cuda else 0`,
then `>= 12`; `parse(torch.version.cuda or "0")`; a helper that returns `(0, 0)`) decides ROCm's
branch by accident: the *stand-in* (`0`, `"0"`, `(0, 0)`) answers the version question for it.

`stand_in(file, node)` follows the value of `node` on ROCm (aliases once, conditional
expressions by their ROCm test, `or` past operands that are None there, conversions and string
methods, and the returns of a function of the module) to the constant that stands in for the
None, if there is one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ..python.names import last_name
from .python_analysis import PythonFile
from .python_values import CUDA, derives, is_version

_DEPTH = 12  # how far values are followed (aliases, calls, conversions)
_CONVERSIONS = frozenset({"int", "float", "str", "tuple", "list", "map", "Version", "parse", "parse_version",
                          "LooseVersion", "StrictVersion"})
_METHODS = frozenset({"split", "rsplit", "strip", "replace", "lstrip", "rstrip"})
_VERSION = re.compile(r"\d+(?:\.\d+)*")


def stand_in(file: PythonFile, node: ast.expr, depth: int = 0) -> ast.Constant | None:
    """The zero-like constant (`0`, `0.0`, `"0"`, `"0.0"`, `""`, `(0, 0)`) that a ROCm run computes
    `node` from where torch.version.cuda is None, else None."""
    if depth > _DEPTH:
        return None
    inner = depth + 1
    if isinstance(node, ast.Name):
        alias = file.symbols.value(node)
        return None if alias is None else stand_in(file, alias, inner)
    if isinstance(node, ast.IfExp):
        test = file.flow.truth(node.test)
        if test is None:
            return None
        taken, other = (node.body, node.orelse) if test else (node.orelse, node.body)
        if zero_like(taken) and _from_cuda(file, other):
            return taken
        return stand_in(file, taken, inner)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for index, operand in enumerate(node.values):
            if file.flow.value(operand)[1] is True:
                continue  # None on ROCm: `or` goes on
            if zero_like(operand) and any(_from_cuda(file, earlier) for earlier in node.values[:index]):
                return operand
            return stand_in(file, operand, inner)
        return None
    if isinstance(node, ast.Call):
        if last_name(node.func) in _CONVERSIONS and node.args:
            return stand_in(file, node.args[-1], inner)
        if isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS:
            return stand_in(file, node.func.value, inner)
        return _returned(file, node, inner)
    if isinstance(node, (ast.Subscript, ast.Attribute)):
        return stand_in(file, node.value, inner)
    return None


def rocm_truth(file: PythonFile, node: ast.expr) -> bool | None:
    """The truth of `node` on ROCm, knowing the stand-ins: the flow's, or for a comparison of a
    stand-in with a constant version (and `and`/`or` of them) what the stand-in makes it."""
    known = file.flow.truth(node)
    if known is not None:
        return known
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        sides = (node.left, node.comparators[0])
        for index, side in enumerate(sides):
            stood = stand_in(file, side)
            value = None if stood is None else decided(stood, node.ops[0], sides[1 - index], index == 0)
            if value is not None:
                return value
    if isinstance(node, ast.BoolOp):
        absorbing = isinstance(node.op, ast.Or)
        truths = [rocm_truth(file, operand) for operand in node.values]
        if absorbing in truths:
            return absorbing
        return (not absorbing) if None not in truths else None
    return None


def zero_like(node: ast.expr) -> bool:
    """`0`, `0.0`, `"0"`, `"0.0"`, `""`, or a tuple/list of zeros."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return False
        if isinstance(value, (int, float)):
            return value == 0
        return isinstance(value, str) and value.replace("0", "").replace(".", "") == ""
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(zero_like(item) for item in node.elts)
    return False


def decided(stood: ast.expr, op: ast.cmpop, other: ast.expr, stand_in_left: bool) -> bool | None:
    """The value of the comparison on ROCm, the stand-in on one side and a constant version on the
    other (None when the other side is not a constant version)."""
    version = version_constant(other)
    if version is None:
        return None
    zero = (0,) * len(version)
    left, right = (zero, version) if stand_in_left else (version, zero)
    compare = {ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b, ast.Lt: lambda a, b: a < b,
               ast.LtE: lambda a, b: a <= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}
    operation = compare.get(type(op))
    return None if operation is None else operation(left, right)


def version_constant(node: ast.expr) -> tuple[int, ...] | None:
    """A version written as a constant: `12`, `11.8`, `"12.4"`, `(12, 0)`, `Version("12.0")`."""
    if isinstance(node, ast.Call) and last_name(node.func) in _CONVERSIONS and len(node.args) == 1:
        return version_constant(node.args[0])
    if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
        if isinstance(node.value, (int, float)):
            return tuple(int(part) for part in str(node.value).split("."))
        if isinstance(node.value, str) and _VERSION.fullmatch(node.value):
            return tuple(int(part) for part in node.value.split("."))
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        parts = [item.value for item in node.elts if isinstance(item, ast.Constant)]
        if len(parts) == len(node.elts) and all(type(part) is int for part in parts):
            return tuple(parts)
    return None


def _from_cuda(file: PythonFile, node: ast.expr) -> bool:
    return derives(file, node, is_version(CUDA)) is not None or _aliased_cuda(file, node)


def _aliased_cuda(file: PythonFile, node: ast.expr) -> bool:
    """Whether a name in `node` is an alias of a value computed from torch.version.cuda."""
    for item in ast.walk(node):
        alias = file.symbols.value(item) if isinstance(item, ast.Name) else None
        if alias is not None and derives(file, alias, is_version(CUDA)) is not None:
            return True
    return False


def _returned(file: PythonFile, call: ast.Call, depth: int) -> ast.Constant | None:
    """A module function's stand-in: it returns a zero-like constant where ROCm goes and a value
    computed from torch.version.cuda elsewhere (`return (0, 0)` under `if torch.version.cuda is None`)."""
    function = module_function(file, call)
    if function is None:
        return None
    returns = list(_returns(function))
    cuda = is_version(CUDA)
    if not any(cuda(names) for item in ast.walk(function) if isinstance(item, (ast.Name, ast.Attribute))
               and (names := file.symbols.names(item))):
        return None  # the function does not read torch.version.cuda
    for value in returns:
        if zero_like(value) and file.flow.reachable(value):
            return value  # type: ignore[return-value]
        found = stand_in(file, value, depth) if file.flow.reachable(value) else None
        if found is not None:
            return found
    return None


def module_function(file: PythonFile, call: ast.Call) -> ast.FunctionDef | None:
    """The module-level function a call names (by its plain name), if the file defines one."""
    if not isinstance(call.func, ast.Name) or file.source.tree is None:
        return None
    found = [statement for statement in file.source.tree.body
             if isinstance(statement, ast.FunctionDef) and statement.name == call.func.id]
    return found[0] if len(found) == 1 else None


def _returns(function: ast.FunctionDef) -> Iterator[ast.expr]:
    """The values a function's own `return` statements give (not those of nested functions)."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Return) and item.value is not None:
            yield item.value
        elif not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(item))
