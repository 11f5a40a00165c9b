"""Dotted names of expressions, read from the syntax alone (what the code spells, not what it means)."""

from __future__ import annotations

import ast


def dotted(node: ast.AST) -> tuple[str, ...] | None:
    """`a.b.c` as ("a", "b", "c"); None when the expression is not a chain of names."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


def last_name(node: ast.AST) -> str:
    """The last name an expression spells: `c` of `a.b.c` and of `a.b.c(...)`, "" for others."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    """The argument passed as `keyword=` or at `position` (None: not given, or behind a `*`)."""
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return call.args[position]
    return None


def string_value(node: ast.AST | None) -> str | None:
    """The value of a plain string literal (None for anything else, f-strings included)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def imported_modules(statement: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement may load, as spelled (relative ones with their dots): each
    `import a.b`, and for `from m import x` both `m` and `m.x` (`x` may be a submodule)."""
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    module = "." * statement.level + (statement.module or "")
    joined = module if module.endswith(".") else module + "."
    return [module, *(joined + alias.name for alias in statement.names if alias.name != "*")]
