"""What a Python file with findings asks the project's other modules (`python_project`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ..core.findings import Finding
from ..python.names import imported_modules
from .python_analysis import PythonFile
from .python_project import CALLERS, IMPORTS, PACKAGE, VALUE

_TORCH = "torch"
_TESTS = (ast.Compare, ast.BoolOp, ast.If, ast.While, ast.IfExp, ast.Assert)


def requests(file: PythonFile, findings: Iterable[Finding]) -> frozenset[str]:
    """What the file asks of the other modules, given its findings: the callers of the module-level
    functions that hold one, the values of the names it imports from modules other than torch's
    and tests (`from .utils import SYSTEM`, then `SYSTEM == "cuda"`), and whether its own package
    or a module it imports at module level imports a CUDA-only module on the way."""
    findings = list(findings)
    tree = file.tree
    if not findings or tree is None:
        return frozenset()
    asked = set()
    functions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for finding in findings:
        for function in functions:
            start, end = file.span(function)
            if start <= finding.start < end:
                asked.add(CALLERS + function.name)
    tested = _tested_names(file)
    for node in file.nodes(ast.ImportFrom):
        module = "." * node.level + (node.module or "")
        if module.split(".")[0] == _TORCH:
            continue
        asked.update(f"{VALUE}{module}:{alias.name}" for alias in node.names
                     if alias.name != "*" and (alias.asname or alias.name) in tested)
    asked.add(IMPORTS + PACKAGE)
    asked.update(IMPORTS + module for statement in tree.body if isinstance(statement, (ast.Import, ast.ImportFrom))
                 for module in imported_modules(statement) if module.split(".")[0] != _TORCH)
    return frozenset(asked)


def _tested_names(file: PythonFile) -> set[str]:
    """The plain names the file uses in tests (conditions, comparisons, `and`/`or`), and the
    functions it calls there (`if is_cuda_version_at_least(12, 8) and ...`)."""
    parents = file.source.parents
    names = set()
    for node in file.nodes(ast.Name):
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:  # a function called in a test: its value
            parent = parents.get(id(parent))
        if isinstance(parent, _TESTS) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
            names.add(node.id)
    return names
