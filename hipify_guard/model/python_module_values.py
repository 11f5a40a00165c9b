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
from collections.abc import Callable, Iterator, Sequence

from ..core.records import record

Constants = frozenset  # of str, bytes, int, float, bool, None
Truth = Callable[[ast.expr], "bool | None"]
Values = Callable[[ast.expr], "Constants | None"]  # the constants an expression can be on the platform
Ends = Callable[[ast.stmt], bool]  # whether a statement never lets the module run on
_CONSTANT_TYPES = (str, bytes, int, float, bool, type(None))
_UNBOUND = ("unbound",)  # (a state holding it: some path has not bound the name yet)
_DEAD = frozenset({("dead",)})  # no path reaches this point


class Bindings:
    """The names each statement of one module binds (once per statement), and those a function
    declares `global`."""

    def __init__(self, tree: ast.Module) -> None:
        self.globals = frozenset(name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names)
        self._bound: dict[int, frozenset[str]] = {}

    def of(self, node: ast.AST) -> frozenset[str]:
        """Every name anything in `node` binds (nested functions included: unknown is safe)."""
        known = self._bound.get(id(node))
        if known is None:
            known = self._bound[id(node)] = frozenset(_bound_names(node))
        return known


@record(slots=True)
class Platform:
    """How one platform sees the module's statements."""

    truth: Truth
    values: Values
    ends: Ends
    bindings: Bindings


def module_constants(tree: ast.Module, name: str, platform: Platform) -> list[Constants | None]:
    """The constants `name` can hold after each number of the module's top-level statements on
    `platform` (item k: after the first k); None where it is no such variable or not known."""
    states: list[Constants | None] = [None]
    if name in platform.bindings.globals:
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
    binds = name in platform.bindings.of(node)
    if binds and isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None:
            return platform.values(node.value)
        return None
    if isinstance(node, ast.If):
        test = platform.truth(node.test)
        arms = [arm for arm, taken in ((node.body, True), (node.orelse, False)) if test is None or test is taken]
        results = [_block(arm, state, name, platform) for arm in arms]
        if None in results:
            return None
        alive = [result for result in results if result != _DEAD]
        return frozenset().union(*alive) if alive else _DEAD
    if isinstance(node, (ast.With, ast.AsyncWith)) and not any(name in platform.bindings.of(item) for item in node.items):
        return _block(node.body, state, name, platform)
    if binds:
        return None
    return _DEAD if platform.ends(node) else state


def _bound_names(root: ast.AST) -> Iterator[str]:
    for node in ast.walk(root):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from (alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            yield node.name
