"""`Bindings`: the names each statement binds, found by one climb per binding from the file's
index, held to a plain walk of each statement's subtree (`ast.walk`, what it replaced)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from hipify_guard.model.python_module_values import Bindings
from hipify_guard.python.source import PythonSource

EVERY_KIND = '''\
import os.path, numpy as np
from torch import version as v, cuda
x = y = 1
a, (b, *c) = 1, (2, 3)
d: int = 4
e += 1
del f
for g, h in []:
    i = 1
with open("p") as (j, k), open("q") as m:
    pass
try:
    pass
except OSError as n:
    pass
match x:
    case [p, *q] | {"k": p, **q}:
        pass
    case Point(x=r) as s:
        pass
def t(arg, *args, **kwargs):
    global GLOBAL_ONE
    u = [w for w in range(3)]
    if (z := 3):
        class Inner:
            pass
    lambda lam: lam
async def aa():
    async with b as bb:
        async for cc in bb:
            pass
@decorator
class Outer(Base):
    attribute = 1
    def method(self):
        nonlocal_name = 1
if x:
    import late
elif y:
    from . import relative
else:
    obj.attr = 1
    obj[0] = 2
'''


def _walked(node: ast.AST) -> set[str]:
    """The names `node`'s subtree binds, by `ast.walk` (the oracle)."""
    found = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Name) and not isinstance(item.ctx, ast.Load):
            found.add(item.id)
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(item.name)
        elif isinstance(item, (ast.Import, ast.ImportFrom)):
            found.update(alias.asname or alias.name.split(".")[0] for alias in item.names)
        elif isinstance(item, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and item.name:
            found.add(item.name)
    return found


def _held_to_the_walk(data: bytes) -> int:
    """Compare every statement's and `with` item's names; the number of nodes compared."""
    source = PythonSource(data)
    assert source.tree is not None
    bindings = Bindings(source)
    compared = 0
    for node in ast.walk(source.tree):
        if isinstance(node, (ast.stmt, ast.withitem)):
            assert set(bindings.of(node)) == _walked(node), ast.dump(node)[:200]
            compared += 1
    assert bindings.globals == {name for node in ast.walk(source.tree) if isinstance(node, ast.Global)
                                for name in node.names}
    return compared


def test_every_kind_of_binding_is_given_to_each_statement_around_it() -> None:
    assert _held_to_the_walk(EVERY_KIND.encode()) > 40
    source = PythonSource(EVERY_KIND.encode())
    bindings = Bindings(source)
    definition = next(node for node in source.nodes(ast.FunctionDef) if node.name == "t")
    assert {"t", "u", "w", "z", "Inner"} <= set(bindings.of(definition))
    assert "arg" not in bindings.of(definition) and "lam" not in bindings.of(definition)  # (parameters)
    assert bindings.globals == {"GLOBAL_ONE"}


@pytest.mark.skipif(sys.version_info < (3, 12), reason="`type` statements are Python 3.12")
def test_a_type_alias_binds_its_name() -> None:
    source = PythonSource(b"type Vector = list[float]\n")
    assert source.tree is not None
    assert set(Bindings(source).of(source.tree.body[0])) == {"Vector"}


def test_the_packages_own_modules_give_what_the_walk_gives() -> None:
    """Real files: this package's and the tests' modules, every statement of each."""
    compared = sum(_held_to_the_walk(path.read_bytes())
                   for folder in ("hipify_guard", "tests")
                   for path in sorted((Path(__file__).parents[1] / folder).rglob("*.py"))
                   if "/rules/" not in str(path))  # (rule fixtures include code that does not parse)
    assert compared > 10_000
