"""Source lists kept in Starlark (`.bzl`) files that a CMake build reads: kineto's
`get_filelist("get_libkineto_cupti_srcs(with_api=False)" LIBKINETO_SRCS)` runs Python over
`libkineto_defs.bzl` and takes what the call returns.

Nothing is executed: each `.bzl` file is parsed with `ast` and its lists are evaluated as far as
they are literal: module-level names bound to lists of strings and sums of them, and functions
whose `return` composes those (a conditional expression gives both sides, since its test is not
known). A call `name(...)` of such a function gives every string it may return.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable, Sequence

_CALL = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(.*\)\s*", re.S)
_DEPTH = 32  # how deep names and calls are followed


class StarlarkLists:
    """The functions and lists of a project's `.bzl` files, by folder."""

    def __init__(self, files: Sequence[str], read: Callable[[str], str | None]) -> None:
        self._modules: dict[str, dict[str, ast.AST]] = {}  # folder -> name -> its list or its function
        for path in files:
            text = read(path)
            try:
                tree = ast.parse(text) if text else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            if tree is not None:
                self._modules.setdefault(posixpath.dirname(path), {}).update(_definitions(tree))

    def paths(self, folder: str, text: str) -> tuple[str, ...] | None:
        """The root-relative paths a call `text` of a function of a `.bzl` file in `folder` may
        return (None: not such a call)."""
        match = _CALL.fullmatch(text)
        names = self._modules.get(folder, {})
        if match is None or not isinstance(names.get(match.group(1)), ast.FunctionDef):
            return None
        found = _strings(names[match.group(1)], names, 0)
        return tuple(posixpath.join(folder, item) if folder else item for item in dict.fromkeys(found))


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    found: dict[str, ast.AST] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0],
                                                                                             ast.Name):
            found[statement.targets[0].id] = statement.value
        elif isinstance(statement, ast.FunctionDef):
            found[statement.name] = statement
    return found


def _strings(node: ast.AST, names: dict[str, ast.AST], depth: int) -> list[str]:
    """Every string `node` may give (a list's items, both sides of `+` and of a conditional)."""
    if depth > _DEPTH:
        return []
    inner = depth + 1
    if isinstance(node, ast.FunctionDef):
        return [item for statement in ast.walk(node) if isinstance(statement, ast.Return) and statement.value
                for item in _strings(statement.value, names, inner)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [item for element in node.elts for item in _strings(element, names, inner)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _strings(node.left, names, inner) + _strings(node.right, names, inner)
    if isinstance(node, ast.IfExp):
        return _strings(node.body, names, inner) + _strings(node.orelse, names, inner)
    if isinstance(node, ast.Name) and node.id in names:
        return _strings(names[node.id], names, inner)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
        return _strings(names[node.func.id], names, inner)
    return []
