"""The values the HG3xx rules look for in Python code: torch's version strings, the device
capability, cuDNN's version, and the expressions computed from them
(`tuple(map(int, torch.version.cuda.split(".")))`, `major * 10 + minor`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from ..python.names import last_name, string_value
from .python_analysis import PythonFile
from .python_flow import VERSION_CUDA, VERSION_HIP
from .python_platform import CALL

CUDA, HIP = "cuda", "hip"
# Calls that turn a version string (or a capability) into another value of it.
_CONVERTERS = frozenset({"int", "float", "str", "tuple", "list", "map", "sum", "round", "abs", "Version", "parse",
                         "parse_version", "LooseVersion", "StrictVersion"})
_STRING_CONVERTERS = frozenset({"str"})
_STRING_METHODS = frozenset({"split", "rsplit", "replace", "strip", "lstrip", "rstrip", "partition", "rpartition",
                             "lower", "upper", "removeprefix", "removesuffix"})


def version_uses(file: PythonFile, which: str) -> list[ast.expr]:
    """Every expression that reads `torch.version.<which>` ("cuda" or "hip"): spelled out,
    imported (`from torch.version import cuda`), aliased once (`v = torch.version.cuda`) or
    through `getattr(torch.version, "cuda", None)`."""
    target = VERSION_CUDA if which == CUDA else VERSION_HIP
    aliases = file.symbols.aliases_of(which)
    candidates = [n for n in file.nodes(ast.Attribute) if n.attr == which and isinstance(n.ctx, ast.Load)]
    candidates += [n for n in file.nodes(ast.Name) if n.id in aliases and isinstance(n.ctx, ast.Load)]
    candidates += [n for n in file.nodes(ast.Call) if isinstance(n.func, ast.Name) and n.func.id == "getattr"]
    return [n for n in candidates if file.symbols.names(n) == target]


def is_version(which: str) -> Callable[[tuple[str, ...]], bool]:
    """A test of dotted names: torch.version.<which>."""
    target = VERSION_CUDA if which == CUDA else VERSION_HIP
    return lambda names: names == target


def is_cudnn_version(names: tuple[str, ...]) -> bool:
    """`torch.backends.cudnn.version()` (MIOpen's version on ROCm)."""
    return names[-3:] == ("cudnn", "version", CALL)


def derives(file: PythonFile, node: ast.expr, test: Callable[[tuple[str, ...]], bool],
            strings_only: bool = False) -> ast.expr | None:
    """The part of `node` whose dotted name passes `test`, reached through what computes a value
    from it: items, attributes, arithmetic, tuples, f-strings, conversions (`int`, `float`,
    `Version`, `parse`, ...) and string methods (`.split(".")`); with `strings_only`, only through
    what keeps it a string (slices, `str()`, string methods). None when there is none."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
            names = file.symbols.names(item)
            if names and test(names):
                return item
        stack.extend(_operands(item, strings_only))
    return None


def _operands(node: ast.AST, strings_only: bool) -> list[ast.AST]:
    if isinstance(node, ast.Subscript):
        return [node.value]
    if isinstance(node, ast.Call):
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if method in _STRING_METHODS:
            return [node.func.value]
        return list(node.args) if last_name(node.func) in (_STRING_CONVERTERS if strings_only else _CONVERTERS) else []
    if strings_only:
        return []
    if isinstance(node, ast.Attribute):
        return [node.value]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, (ast.Tuple, ast.List)):
        return list(node.elts)
    if isinstance(node, ast.JoinedStr):
        return [part.value for part in node.values if isinstance(part, ast.FormattedValue)]
    return []


def constant_number(node: ast.expr) -> bool:
    """An integer or float literal, a tuple of them, or a tuple/list/set of those (`in` tests)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(constant_number(item) for item in node.elts)
    return False


def decided_without(file: PythonFile, node: ast.expr, depth: int = 2) -> bool:
    """Whether another operand of an enclosing `and`/`or` fixes its value on ROCm whatever `node`
    is: a literal (`x == 10 and False`, `x or True`) or a test the ROCm flow decides (torchao's
    `_is_sm_10x() and is_cuda_version_at_least(12, 8)`, false where `torch.version.cuda` is None).
    The value a private module-level function returns counts as decided when each of the file's
    calls of it is (`depth` such functions deep): then `node`'s value never matters on ROCm."""
    child, parent = node, file.source.parents.get(id(node))
    while isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        if isinstance(parent, ast.BoolOp):
            fixing = isinstance(parent.op, ast.Or)  # `or` is fixed by a true operand, `and` by a false one
            if any(_fixes(file, other, fixing) for other in parent.values if other is not child):
                return True
        child, parent = parent, file.source.parents.get(id(parent))
    if depth and isinstance(parent, ast.Return):
        function = _enclosing_function(file, parent)
        return isinstance(function, ast.FunctionDef) and _private_calls_decided(file, function, depth - 1)
    return False


def _fixes(file: PythonFile, operand: ast.expr, fixing: bool) -> bool:
    if isinstance(operand, ast.Constant):
        return bool(operand.value) is fixing
    return file.flow.truth(operand) is fixing


def _private_calls_decided(file: PythonFile, function: ast.FunctionDef, depth: int) -> bool:
    """Whether `function` is a private module-level function that the file only calls, and only
    where the call's value is decided without it (or ROCm never gets)."""
    if not function.name.startswith("_") or file.source.parents.get(id(function)) is not file.tree:
        return False
    uses = [name for name in file.nodes(ast.Name) if name.id == function.name]
    calls = [file.source.parents.get(id(name)) for name in uses]
    return bool(uses) and all(
        isinstance(call, ast.Call) and call.func is name
        and (not file.flow.reachable(call) or decided_without(file, call, depth))
        for name, call in zip(uses, calls))


def _enclosing_function(file: PythonFile, node: ast.AST) -> ast.AST | None:
    """The innermost `def`, `async def` or `lambda` around `node` (None at module level)."""
    parent = file.source.parents.get(id(node))
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        parent = file.source.parents.get(id(parent))
    return parent


def never_read(file: PythonFile, node: ast.expr) -> bool:
    """Whether `node`'s value only goes to names nothing reads: `DISABLE_FP8 = major != 9` where
    `DISABLE_FP8` is read in no line of code (flash-attention's tests: only in commented-out
    parametrizations). A module-level name counts only in a test module, which no module imports."""
    child, parent = node, file.source.parents.get(id(node))
    while isinstance(parent, (ast.BoolOp, ast.UnaryOp, ast.Compare, ast.IfExp)) and not (
            isinstance(parent, ast.IfExp) and child is parent.test):
        child, parent = parent, file.source.parents.get(id(parent))
    if not isinstance(parent, ast.Assign) or not all(isinstance(target, ast.Name) for target in parent.targets):
        return False
    if _enclosing_function(file, parent) is None and not _test_module(file.filename):
        return False
    stored = {target.id for target in parent.targets}
    return not any(isinstance(name.ctx, ast.Load) and name.id in stored for name in file.nodes(ast.Name))


def _test_module(path: str) -> bool:
    name = path.replace("\\", "/").rpartition("/")[2]
    return name.startswith("test_") or name.endswith("_test.py")


def string_constant(node: ast.expr) -> bool:
    """A plain string literal."""
    return string_value(node) is not None
