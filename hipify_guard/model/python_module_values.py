"""The constants a module-level variable holds on one platform (issue 25): the project's own
platform variables, such as text-generation-inference's `SYSTEM`, set to "rocm" under `if
torch.version.hip is not None:` and to "cuda" under `elif torch.version.cuda is not None ...`, then
compared (`if SYSTEM == "cuda":`) in the module and in the modules that import it.

The module's top-level statements are followed in order: an assignment of a value whose
constants the platform knows (`"rocm"`, `"cuda" if torch.version.cuda else "rocm"`) sets the
variable; an `if` whose test the platform decides takes one arm, any other both; an arm that
ends in an exit (`raise`, `sys.exit()`) does not go on. Any other binding of the name (a loop, an
import, a `def`, `+=`, a `global` in a function, an assignment of another value) leaves it
unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Constants = frozenset  # of str, bytes, int, float, bool, None
Truth = Callable[[ast.expr], "bool | None"]
Values = Callable[[ast.expr], "Constants | None"]  # the constants an expression can be on the platform
Ends = Callable[[ast.stmt], bool]  # whether a statement never lets the module run on
_CONSTANT_TYPES = (str, bytes, int, float, bool, type(None))
_UNBOUND = ("unbound",)  # (a state holding it: some path has not bound the name yet)
_DEAD = frozenset({("dead",)})  # no path reaches this point


@dataclass(frozen=True, slots=True)
class Platform:
    """How one platform sees the module's statements."""

    truth: Truth
    values: Values
    ends: Ends


def module_constants(tree: ast.Module, name: str, platform: Platform) -> list[Constants | None]:
    """The constants `name` can hold after each number of the module's top-level statements on
    `platform` (item k: after the first k); None where it is no such variable or not known."""
    states: list[Constants | None] = [None]
    if any(isinstance(node, ast.Global) and name in node.names for node in ast.walk(tree)):
        return states * (len(tree.body) + 1)  # (a function may set it whenever it runs)
    state: Constants | None = frozenset({_UNBOUND})
    for statement in tree.body:
        if state is not None and state != _DEAD:
            state = _statement(statement, state, name, platform)
        states.append(None if state is None or state == _DEAD or _UNBOUND in state else state)
    return states


def constant(node: ast.expr) -> tuple[bool, object]:
    """(whether `node` is a plain constant, its value)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, _CONSTANT_TYPES):
        return True, node.value
    return False, None


def _block(statements: Sequence[ast.stmt], state: Constants | None, name: str, platform: Platform) -> Constants | None:
    for statement in statements:
        if state is None or state == _DEAD:
            break
        state = _statement(statement, state, name, platform)
    return state


def _statement(node: ast.stmt, state: Constants, name: str, platform: Platform) -> Constants | None:
    if isinstance(node, ast.If):
        test = platform.truth(node.test)
        arms = [arm for arm, taken in ((node.body, True), (node.orelse, False)) if test is None or test is taken]
        results = [_block(arm, state, name, platform) for arm in arms]
        if None in results:
            return None
        alive = [result for result in results if result != _DEAD]
        return frozenset().union(*alive) if alive else _DEAD
    if isinstance(node, (ast.With, ast.AsyncWith)) and not _binds(node.items, name):
        return _block(node.body, state, name, platform)
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and _binds([node], name):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None:
            return platform.values(node.value)
        return None
    if _binds([node], name):
        return None
    return _DEAD if platform.ends(node) else state


def _binds(nodes: Sequence[ast.AST], name: str) -> bool:
    """Whether anything in `nodes` binds `name` (nested functions included: unknown is safe)."""
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                return True
            if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                    (alias.asname or alias.name.split(".")[0]) == name for alias in node.names):
                return True
            if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name == name:
                return True
    return False
