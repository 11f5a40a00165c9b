"""Python `if` tests in setup.py files -> Conditions of `build_conditions` (which builds they hold in).

`IS_HIP_EXTENSION`, `torch.version.hip`, `is_rocm`, `self.is_rocm_pytorch()`, `ROCM_HOME is not None`,
`BUILD_TARGET == "rocm"`: ROCm. `torch.version.cuda`, `not IS_HIP_EXTENSION`, `CUDA_HOME is not None`,
`os.getenv("TORCH_CUDA_ARCH_LIST") != ""`: CUDA. Names that only say "CUDA" (`WITH_CUDA`,
`FORCE_CUDA`, `suffix == "cuda"`) are not CUDA tests here: PyTorch drives ROCm GPUs as "cuda".
"""

from __future__ import annotations

import ast
from collections.abc import Container, Iterable

from .build_conditions import (
    CUDA_ALL,
    ROCM,
    ROCM_ALL,
    UNKNOWN,
    Condition,
    Holds,
    atom,
    compared_holds,
    name_holds,
    value_holds,
)

_TRUE_VALUES = frozenset({"1", "on", "true", "yes", "y"})
_FALSE_VALUES = frozenset({"", "0", "off", "false", "no", "n"})
_ENVIRONMENT = ("os.getenv", "os.environ.get", "getenv", "environ.get")


def condition_of(node: ast.expr, tests: dict[str, Condition], contrasted: Container[str]) -> Condition:
    """The Condition of an `if` test (`tests`: names assigned a test, and `f()` for functions of
    the script that return one; `contrasted`: see `compared_holds`)."""
    if isinstance(node, ast.BoolOp):
        kind = "and" if isinstance(node.op, ast.And) else "or"
        return (kind, tuple(condition_of(value, tests, contrasted) for value in node.values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ("not", condition_of(node.operand, tests, contrasted))
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _comparison(node.left, node.ops[0], node.comparators[0], tests, contrasted)
    if isinstance(node, ast.Name) and node.id in tests:
        return tests[node.id]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args and not node.keywords
            and node.func.id + "()" in tests):
        return tests[node.func.id + "()"]  # a function of the script that returns a test
    return atom(truth_holds(node))


def _comparison(left: ast.expr, operator: ast.cmpop, right: ast.expr, tests: dict[str, Condition],
                contrasted: Container[str]) -> Condition:
    if isinstance(operator, (ast.Is, ast.IsNot)) and is_none(right):
        truth = condition_of(left, tests, contrasted)
        return ("not", truth) if isinstance(operator, ast.Is) else truth
    if isinstance(operator, (ast.In, ast.NotIn)) and dotted(right) in ("os.environ", "environ"):
        name = constant(left)
        holds = atom(Holds(name_holds(name, False).platform, False) if name else UNKNOWN)
        return holds if isinstance(operator, ast.In) else ("not", holds)
    if isinstance(operator, (ast.Eq, ast.NotEq)):
        name, value = read_name(left), constant(right)
        if name is None or value is None:
            name, value = read_name(right), constant(left)
        if name is None or value is None:
            return atom(UNKNOWN)
        equal = isinstance(operator, ast.Eq)
        holds = compared_holds(name, value, equal, contrasted, cuda_selectors=False)
        if not holds.known and value.lower() in (_TRUE_VALUES if equal else _FALSE_VALUES):
            holds = Holds(name_holds(name, False).platform, False)  # `CUDA_HOME == "1"`, `ARCHS != ""`
        return atom(holds)
    names = [read_name(side) for side in (left, right)]
    platforms = {name_holds(name, False).platform for name in names if name} - {None}
    return atom(Holds(platforms.pop(), False) if len(platforms) == 1 else UNKNOWN)  # `hip_version >= "6.2"`


def contrasted_names(trees: Iterable[ast.AST]) -> frozenset[str]:
    """The names these modules compare with a ROCm value (`BUILD_TARGET == "rocm"`)."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                for side, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
                    value, name = constant(other), read_name(side)
                    if value is not None and name and value_holds(value).platform == ROCM:
                        names.add(name)
    return frozenset(names)



def is_test(node: ast.expr) -> bool:
    """Whether an assigned value is a test worth keeping (`torch.version.hip is not None`, `not x and y`)."""
    return isinstance(node, (ast.Compare, ast.BoolOp, ast.UnaryOp)) or (
        isinstance(node, (ast.Attribute, ast.Call)) and truth_holds(node).known)


def truth_holds(node: ast.expr) -> Holds:
    """Where a name, attribute or call is true by its name (`torch.version.hip`, `self.is_rocm_pytorch()`)."""
    if isinstance(node, ast.Call):
        if dotted(node.func) in _ENVIRONMENT and node.args:
            name = constant(node.args[0])
            return Holds(name_holds(name, False).platform, False) if name else UNKNOWN
        node = node.func
    chain = dotted(node)
    if chain.endswith("version.hip"):
        return ROCM_ALL
    if chain.endswith("version.cuda"):
        return CUDA_ALL
    return name_holds(chain.rpartition(".")[2], False) if chain else UNKNOWN


def read_name(node: ast.expr) -> str | None:
    """The name a compared operand reads: a variable, an attribute, a getter called without
    arguments, or an environment variable."""
    if isinstance(node, ast.Call) and dotted(node.func) in _ENVIRONMENT:
        return constant(node.args[0]) if node.args else None
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("os.environ", "environ"):
        return constant(node.slice)
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func  # a getter (FBGEMM's `self.variant() == "rocm"`): read as the name it gets
    chain = dotted(node)
    if chain.endswith(("version.hip", "version.cuda")):
        return "torch_" + chain.rpartition(".")[2]
    return chain.rpartition(".")[2] or None


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a chain of names and attributes, "" for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def constant(node: ast.expr | None) -> str | None:
    """The text of a string literal, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def is_none(node: ast.expr) -> bool:
    """Whether `node` is the literal None."""
    return isinstance(node, ast.Constant) and node.value is None
