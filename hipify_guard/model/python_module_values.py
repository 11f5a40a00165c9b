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
from collections.abc import Set as AbstractSet

from ..core.records import record
from ..python.source import PythonSource

Constants = frozenset  # of str, bytes, int, float, bool, None
Truth = Callable[[ast.expr], "bool | None"]
Values = Callable[[ast.expr], "Constants | None"]  # the constants an expression can be on the platform
Ends = Callable[[ast.stmt], bool]  # whether a statement never lets the module run on
_CONSTANT_TYPES = (str, bytes, int, float, bool, type(None))
_UNBOUND = ("unbound",)  # (a state holding it: some path has not bound the name yet)
_DEAD = frozenset({("dead",)})  # no path reaches this point
_NONE: frozenset[str] = frozenset()


class Bindings:
    """The names each statement of one module binds, and those a function declares `global`."""

    def __init__(self, source: PythonSource) -> None:
        self.source = source
        self.globals = frozenset(name for node in source.nodes(ast.Global) for name in node.names)
        self._bound: dict[int, set[str]] | None = None

    def of(self, node: ast.AST) -> AbstractSet[str]:
        """Every name anything in `node` binds (nested functions included: unknown is safe)."""
        if self._bound is None:
            self._bound = self._by_node()
        return self._bound.get(id(node), _NONE)

    def _by_node(self) -> dict[int, set[str]]:
        """Each binding's name, given to the node that binds it and to every node above it (one
        climb per binding: walking each statement's subtree instead cost half of a flow)."""
        bound: dict[int, set[str]] = {}
        parents = self.source.parents
        for node, name in _bindings(self.source):
            while node is not None:
                names = bound.get(id(node))
                if names is None:
                    bound[id(node)] = {name}
                elif name in names:
                    break  # (so are the nodes above)
                else:
                    names.add(name)
                node = parents.get(id(node))
        return bound


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


def _bindings(source: PythonSource) -> Iterator[tuple[ast.AST, str]]:
    """(node, the name it binds) for every binding of the module: a stored or deleted name, a
    `def` or `class`, an import, an `except ... as`, a pattern's capture, a `type` alias."""
    for node in source.nodes(ast.Name):
        if not isinstance(node.ctx, ast.Load):
            yield node, node.id
    for kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        for node in source.nodes(kind):
            yield node, node.name
    for kind in (ast.Import, ast.ImportFrom):
        for node in source.nodes(kind):
            for alias in node.names:
                yield node, alias.asname or alias.name.split(".")[0]
    for kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar):
        for node in source.nodes(kind):
            if node.name:
                yield node, node.name
    type_alias = getattr(ast, "TypeAlias", None)  # (Python 3.12: its `name` field is not indexed)
    for node in source.nodes(type_alias) if type_alias else ():
        if isinstance(node.name, ast.Name):
            yield node, node.name.id
