"""The device capability on AMD GPUs: what `torch.cuda.get_device_capability()` reports there,
and the value of a capability expression (`major * 10 + minor >= 80`) on each of them and on the
NVIDIA GPUs from Volta to Ampere."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence

from .python_platform import CALL, CALL_WITH_ARGUMENTS
from .python_symbols import Symbols

# The (major, minor) that `torch.cuda.get_device_capability()` reports on AMD GPUs: HIP's
# `hipDeviceProp_t.major/minor`, the gfx ISA version (gfx90a -> 9.0, gfx942 -> 9.4, gfx1100 -> 11.0).
# Every GPU that ROCm supports reports a major of 9 or more.
AMD_CAPABILITIES = (
    ("gfx908", "MI100", (9, 0)), ("gfx90a", "MI200", (9, 0)), ("gfx942", "MI300", (9, 4)),
    ("gfx950", "MI350", (9, 5)), ("gfx1030", "RX 6000", (10, 3)), ("gfx1100", "RX 7000", (11, 0)),
    ("gfx1201", "RX 9000", (12, 0)),
)
AMD_GPUS = tuple(capability for _, _, capability in AMD_CAPABILITIES)
# NVIDIA's compute capabilities from Volta to Ampere (sm_70 to sm_87). What Python code gates on
# them (fp16 and bf16 arithmetic, tensor-core matmuls) every GPU that ROCm supports has through
# PyTorch, so a comparison that gives each AMD GPU the value one of these gives treats it as a GPU
# it can stand for; one that gives an AMD GPU a value only Hopper or newer gets (`>= 9`, `== 9`,
# `>= (8, 9)`, `< 9`) sends it down a path written for another architecture.
PRE_HOPPER_CAPABILITIES = ((7, 0), (7, 2), (7, 5), (8, 0), (8, 6), (8, 7))
OPERATORS: dict[type, Callable[[object, object], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq,
    ast.NotEq: operator.ne, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}
_CALLS = (CALL, CALL_WITH_ARGUMENTS)
_ITEMS = {(): None, ("[0]",): 0, ("major",): 0, ("[1]",): 1, ("minor",): 1}


class Unknown(Exception):
    """An expression that the capability alone does not decide."""


def is_capability(names: tuple[str, ...]) -> bool:
    """`get_device_capability(...)` or an item of it, or `get_device_properties(...).major/.minor`."""
    return _source(names, helpers=False) is not None


def _source(names: tuple[str, ...], helpers: bool) -> int | None:
    """The index of the capability function in `names` (None: no capability). With `helpers`, a
    project's own function whose name says capability counts (`get_device_compute_capability()`)."""
    for index, part in enumerate(names[:-1]):
        if names[index + 1] not in _CALLS:
            continue
        if part == "get_device_capability" or (helpers and "capability" in part):
            return index
        if part == "get_device_properties" and names[index + 2 : index + 3] in (("major",), ("minor",)):
            return index
    return None


def comparison_on_amd(symbols: Symbols, compare: ast.Compare, helpers: bool = False) -> list[bool] | None:
    """The comparison's value on each GPU of AMD_CAPABILITIES, or None when something else than
    the capability and constants decides it."""
    return comparison_on(symbols, compare, AMD_GPUS, helpers)


def comparison_on(symbols: Symbols, compare: ast.Compare, capabilities: Sequence[tuple[int, int]],
                  helpers: bool = False) -> list[bool] | None:
    """The comparison's value on a GPU reporting each of `capabilities`, or None when something
    else than the capability and constants decides it."""
    sides = [compare.left, *compare.comparators]
    try:
        values = []
        for capability in capabilities:
            seen: list[bool] = []
            operands = [evaluate(symbols, side, capability, helpers, seen) for side in sides]
            values.append(all(OPERATORS[type(op)](a, b) for op, a, b in zip(compare.ops, operands, operands[1:])))
            if not seen:
                return None
    except (Unknown, KeyError, TypeError, ZeroDivisionError):
        return None
    return values


def evaluate(symbols: Symbols, node: ast.expr, capability: tuple[int, int], helpers: bool = False,
             seen: list[bool] | None = None) -> object:
    """The value of a capability expression on a GPU reporting `capability` (raises Unknown);
    `seen` gets an item for each capability read."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(symbols, node.operand, capability, helpers, seen)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return tuple(evaluate(symbols, item, capability, helpers, seen) for item in node.elts)
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = (evaluate(symbols, side, capability, helpers, seen) for side in (node.left, node.right))
        return _ARITHMETIC[type(node.op)](left, right)
    names = symbols.names(node) if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else None
    index = _source(names, helpers) if names else None
    if index is not None and names[index + 2 :] in _ITEMS:
        if seen is not None:
            seen.append(True)
        item = _ITEMS[names[index + 2 :]]
        return capability if item is None else capability[item]
    raise Unknown
