"""What a Python name or attribute chain denotes: its dotted name, resolved through the file's
imports and one level of local aliases (`v = torch.version.cuda`, `from torch.version import
cuda`, `import torch.version as tv`, `major, minor = torch.cuda.get_device_capability()`).

A name is resolved in its scope (function, class, comprehension, module) as Python does; a name
with several different bindings in that scope (a parameter, a loop variable, two assignments)
is opaque: nothing is assumed about it.
"""

from __future__ import annotations

import ast

from ..core.records import record
from ..python.names import last_name, string_value
from ..python.source import PythonSource
from .python_platform import CALL, CALL_WITH_ARGUMENTS

IMPORT, DEFINITION, VALUE, ITEM, OTHER = "import", "definition", "value", "item", "other"
SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
          ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_BINDERS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.arguments, ast.Assign,
            ast.AnnAssign, ast.NamedExpr, ast.Global, ast.Nonlocal, ast.For, ast.AsyncFor, ast.comprehension,
            ast.withitem, ast.AugAssign, ast.Delete, ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping)


@record(slots=True)
class Binding:
    """What one name is bound to in one scope."""

    kind: str  # IMPORT (`names`: the module or object), DEFINITION (a def or class), VALUE, ITEM, OTHER
    names: tuple[str, ...] = ()
    node: ast.expr | None = None  # VALUE: the assigned expression; ITEM: the unpacked one
    index: int = -1  # ITEM: the position in the unpacked value


class Symbols:
    """The bindings of every scope of one parsed file."""

    def __init__(self, source: PythonSource) -> None:
        self.parents = source.parents
        self._scopes: dict[int, dict[str, list[Binding]]] = {}
        self._aliases: dict[str, frozenset[str]] = {}
        for kind in _BINDERS:
            for node in source.nodes(kind):
                self._collect(node)

    # -- lookups --------------------------------------------------------------------------------

    def scope(self, node: ast.AST) -> ast.AST | None:
        """The innermost scope that holds `node` (for a def or class: the one it is defined in)."""
        parent = self.parents.get(id(node))
        while parent is not None and not isinstance(parent, SCOPES):
            parent = self.parents.get(id(parent))
        return parent

    def binding(self, name: str, at: ast.AST) -> Binding | None:
        """The binding of `name` that code at `at` sees (None: the file binds it nowhere visible)."""
        found = self._visible(name, at)
        return None if found is None else _single(found[1])

    def bound_in(self, name: str, at: ast.AST) -> ast.AST | None:
        """The scope whose binding of `name` code at `at` sees (None: the file binds it nowhere visible)."""
        found = self._visible(name, at)
        return None if found is None else found[0]

    def _visible(self, name: str, at: ast.AST) -> tuple[ast.AST, list[Binding]] | None:
        scope, innermost = self.scope(at), True
        while scope is not None:
            if innermost or not isinstance(scope, ast.ClassDef):  # class bodies are not enclosing scopes
                found = self._scopes.get(id(scope), {}).get(name)
                if found:
                    return scope, found
            scope, innermost = self.scope(scope), False
        return None

    def aliases_of(self, last: str) -> frozenset[str]:
        """The names that some scope binds to something whose name ends with `last`: imports
        (`from torch.version import cuda`) and aliases (`v = torch.version.cuda`,
        `major, minor = torch.cuda.get_device_capability()`). Only these names can denote it."""
        known = self._aliases.get(last)
        if known is None:
            known = self._aliases[last] = frozenset(
                name for bindings in self._scopes.values() for name, items in bindings.items()
                if any(_ends_with(binding, last) for binding in items))
        return known

    def bound_to(self, targets: tuple[tuple[str, ...], ...], at: ast.AST) -> tuple[str, tuple[str, ...]] | None:
        """(name, target): a name that code at `at` sees imported as one of `targets` (`torch` for
        ("torch",)), from the innermost scope out; None when there is none."""
        scope, innermost = self.scope(at), True
        while scope is not None:
            if innermost or not isinstance(scope, ast.ClassDef):
                for name, items in self._scopes.get(id(scope), {}).items():
                    if items[0].kind == IMPORT and items[0].names in targets and self.binding(name, at) == items[0]:
                        return name, items[0].names
            scope, innermost = self.scope(scope), False
        return None

    def value(self, node: ast.expr) -> ast.expr | None:
        """The expression a name is an alias of (its one assignment in its scope), else None."""
        if isinstance(node, ast.Name):
            bound = self.binding(node.id, node)
            if bound is not None and bound.kind == VALUE:
                return bound.node
        return None

    def names(self, node: ast.AST, aliases: bool = True) -> tuple[str, ...] | None:
        """The dotted name `node` denotes (`("torch", "version", "cuda")`; a call adds CALL or
        CALL_WITH_ARGUMENTS, `x[0]` adds "[0]"), through imports and, with `aliases`, one alias."""
        if isinstance(node, ast.Name):
            return self._name(node, aliases)
        if isinstance(node, ast.Attribute):
            base = self.names(node.value, aliases)
            return None if base is None else (*base, node.attr)
        if isinstance(node, ast.Call):
            return self._call(node, aliases)
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Constant) and type(index.value) is int:
                base = self.names(node.value, aliases)
                return None if base is None else (*base, f"[{index.value}]")
        return None

    def _name(self, node: ast.Name, aliases: bool) -> tuple[str, ...] | None:
        bound = self.binding(node.id, node)
        if bound is None or bound.kind == DEFINITION:
            return (node.id,)
        if bound.kind == IMPORT:
            return bound.names
        if bound.kind in (VALUE, ITEM) and aliases:
            base = self.names(bound.node, aliases=False)
            return base if base is None or bound.kind == VALUE else (*base, f"[{bound.index}]")
        return None

    def _call(self, node: ast.Call, aliases: bool) -> tuple[str, ...] | None:
        if isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) in (2, 3):
            attribute = string_value(node.args[1])  # getattr(torch.version, "hip", None)
            base = self.names(node.args[0], aliases)
            return None if base is None or attribute is None else (*base, attribute)
        base = self.names(node.func, aliases)
        if base is None:
            return None
        return (*base, CALL if not node.args and not node.keywords else CALL_WITH_ARGUMENTS)

    # -- bindings -------------------------------------------------------------------------------

    def _bind(self, scope: ast.AST | None, name: str, binding: Binding) -> None:
        if scope is not None:
            self._scopes.setdefault(id(scope), {}).setdefault(name, []).append(binding)

    def _collect(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self._imports(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._bind(self.scope(node), node.name, Binding(DEFINITION))
        elif isinstance(node, ast.arguments):
            function = self.parents.get(id(node))
            for argument in (*node.posonlyargs, *node.args, node.vararg, *node.kwonlyargs, node.kwarg):
                if argument is not None:
                    self._bind(function, argument.arg, Binding(OTHER))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._assign(node, target, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self._assign(node, node.target, node.value)
        elif isinstance(node, ast.NamedExpr):
            scope = self.scope(node)
            while isinstance(scope, _COMPREHENSIONS):  # `:=` binds in the enclosing function
                scope = self.scope(scope)
            self._bind(scope, node.target.id, Binding(VALUE, node=node.value))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                self._bind(self.scope(node), name, Binding(OTHER))
        else:
            self._opaque(node)

    def _imports(self, node: ast.Import | ast.ImportFrom) -> None:
        scope = self.scope(node)
        for alias in node.names:
            if isinstance(node, ast.Import):
                path = alias.name.split(".")
                names = tuple(path) if alias.asname else (path[0],)
                self._bind(scope, alias.asname or path[0], Binding(IMPORT, names))
            elif alias.name != "*":
                module = tuple(node.module.split(".")) if node.module else ()
                self._bind(scope, alias.asname or alias.name, Binding(IMPORT, (*module, alias.name)))

    def _assign(self, statement: ast.stmt, target: ast.expr, value: ast.expr) -> None:
        scope = self.scope(statement)
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, Binding(VALUE, node=value))
        elif isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
            same_shape = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            for index, element in enumerate(target.elts):
                item = Binding(VALUE, node=value.elts[index]) if same_shape else Binding(ITEM, node=value, index=index)
                self._bind(scope, element.id, item)
        else:
            self._opaque(target, scope)

    def _opaque(self, node: ast.AST, scope: ast.AST | None = None) -> None:
        """The names that loops, `with ... as`, `except ... as`, `+=`, `del` and patterns bind,
        as OTHER (the first iterable of a comprehension binds in the comprehension)."""
        targets: list[ast.AST] = []
        if scope is not None or isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.AugAssign)):
            targets = [node if scope is not None else node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        names = [n.id for target in targets for n in ast.walk(target)
                 if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
        if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        if isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
        if scope is None and names:
            scope = self.parents.get(id(node)) if isinstance(node, ast.comprehension) else self.scope(node)
        for name in names:
            self._bind(scope, name, Binding(OTHER))


def _ends_with(binding: Binding, last: str) -> bool:
    if binding.kind == IMPORT:
        return binding.names[-1] == last
    if binding.kind not in (VALUE, ITEM):
        return False
    node = binding.node
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and node.args[1:]:
        return string_value(node.args[1]) == last
    return last_name(node) == last


def _single(bindings: list[Binding]) -> Binding:
    """One binding, or OTHER when the scope binds the name in different ways (the same import
    twice, as in `try: import x` / `except: import x`, is one binding)."""
    first = bindings[0]
    if len(bindings) == 1 or (first.kind in (IMPORT, DEFINITION) and all(b == first for b in bindings)):
        return first
    return Binding(OTHER)
