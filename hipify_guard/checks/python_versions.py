"""HG301, HG302, HG305: torch's version strings in Python code (spec §12).

On ROCm `torch.version.cuda` is None: using it as a string raises there (HG301), and a test of
the CUDA version whose value a stand-in for that None decides (`... if torch.version.cuda else 0`,
then `>= 12`) is false or true there by accident (HG302; testing `torch.version.cuda` itself, or
against None, is the HIP note's own CUDA test). Version strings compared as strings order "6.10"
before "6.2" (HG305).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..core.findings import SAFE, Finding, Fix
from ..core.languages import PYTHON
from ..fix.python_rewrite import rocm_exclusion, rocm_inclusion
from ..model.python_analysis import PythonFile
from ..model.python_stand_ins import decided, module_function, stand_in
from ..model.python_values import CUDA, HIP, derives, is_version, string_constant, version_uses
from ..python.names import dotted, last_name
from .registry import check

CUDA_TRIGGERS = ("version.cuda", "torch.version")
_PARSERS = frozenset({"float", "int", "len", "list", "tuple", "Version", "parse", "parse_version", "LooseVersion",
                      "StrictVersion"})
_REGEX_ARGUMENT = {"match": 1, "fullmatch": 1, "search": 1, "findall": 1, "finditer": 1, "split": 1, "sub": 2}
_ORDERED = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


@check("HG301", lambda settings: CUDA_TRIGGERS, language=PYTHON)
def cuda_version_used_as_string(file: PythonFile) -> Iterator[Finding]:
    """`torch.version.cuda` used where None raises (`.split()`, `float()`, `Version()`, `<`), reachable on ROCm."""
    for use in version_uses(file, CUDA):
        raising = _raising(file, use)
        if raising is None:
            continue
        site, error, what = raising
        if not file.flow.reachable(site) or _caught(file, site, error):
            continue
        name = f"`{file.shown(use)}`" + ("" if _spells_it(use) else " (`torch.version.cuda`)")
        message = (f"{name} is None on ROCm, where {what} raises {error}: check `torch.version.cuda is not None` "
                   f"(or `torch.version.hip`) first")
        yield Finding("HG301", message, *file.span(site))


def _raising(file: PythonFile, use: ast.expr, deep: bool = True) -> tuple[ast.expr, str, str] | None:
    """(the expression that fails, the exception, what it does) when None at `use` raises; a
    function of the module it is passed to is followed one call deep (when `deep`)."""
    parent = file.source.parents.get(id(use))
    if isinstance(parent, ast.Attribute) and not parent.attr.startswith("__"):
        return parent, "AttributeError", f"`.{parent.attr}`"
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return parent, "TypeError", "indexing it"
    call = file.source.parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
    function = module_function(file, call) if isinstance(call, ast.Call) and call.func is not use else None
    if function is not None:
        return _raising_in(file, function, call, use) if deep else None
    if isinstance(parent, ast.Call) and any(argument is use for argument in parent.args):
        position = next(number for number, argument in enumerate(parent.args) if argument is use)
        name = last_name(parent.func)
        regex = (dotted(parent.func) or ())[:1] == ("re",) and _REGEX_ARGUMENT.get(name) == position
        if (position == 0 and name in _PARSERS) or regex:
            return parent, "TypeError", f"`{name}()`"
    if isinstance(parent, ast.Compare):
        sides = [parent.left, *parent.comparators]
        index = next(number for number, side in enumerate(sides) if side is use)
        around = parent.ops[max(index - 1, 0) : index + 1]
        if any(isinstance(op, _ORDERED) for op in around):
            return parent, "TypeError", "an ordered comparison"
        if index > 0 and isinstance(parent.ops[index - 1], (ast.In, ast.NotIn)):
            return parent, "TypeError", "`in`"
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        return parent, "TypeError", "`+`"
    return None


def _raising_in(file: PythonFile, function: ast.FunctionDef, call: ast.Call,
                argument: ast.expr) -> tuple[ast.expr, str, str] | None:
    """(the call, the exception, what it does) when the module's `function` uses the parameter
    `argument` is passed to in a way None raises, before anything tests it (the project's own
    `version_at_least(torch.version.cuda, "12.3")`, which parses it; one call deep)."""
    parameter = _parameter(function, call, argument)
    if parameter is None:
        return None
    for statement in function.body:
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Name) and node.id == parameter):
                continue
            if not isinstance(node.ctx, ast.Load):
                return None  # (assigned again)
            raising = _raising(file, node, deep=False)
            if raising is not None and _unconditional(file, raising[0], statement) and not _caught(
                    file, raising[0], raising[1]):
                return call, raising[1], f"`{function.name}()` ({raising[2]} of its `{parameter}`)"
        if any(isinstance(node, ast.Name) and node.id == parameter for node in ast.walk(statement)):
            return None  # (tested, passed on or stored first: not followed further)
    return None


def _parameter(function: ast.FunctionDef, call: ast.Call, argument: ast.expr) -> str | None:
    """The name of the parameter `argument` is passed to in `call`."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    for number, given in enumerate(call.args):
        if given is argument:
            preceding = call.args[:number]
            if any(isinstance(item, ast.Starred) for item in preceding) or number >= len(positional):
                return None
            return positional[number].arg
    for keyword in call.keywords:
        if keyword.value is argument and keyword.arg is not None:
            names = {item.arg for item in (*positional, *arguments.kwonlyargs)}
            return keyword.arg if keyword.arg in names else None
    return None


def _unconditional(file: PythonFile, site: ast.expr, statement: ast.stmt) -> bool:
    """Whether `site` runs whenever `statement` does: nothing between them decides (an `if`, a
    conditional expression, `and`/`or`, a loop, a nested function)."""
    node = file.source.parents.get(id(site))
    while node is not None and node is not statement:
        if isinstance(node, (ast.If, ast.IfExp, ast.BoolOp, ast.While, ast.For, ast.AsyncFor, ast.Lambda,
                             ast.FunctionDef, ast.AsyncFunctionDef, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp, ast.Try, ast.Match)):
            return False
        node = file.source.parents.get(id(node))
    return not isinstance(statement, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.Try, ast.Match,
                                      ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))


def _caught(file: PythonFile, node: ast.expr, error: str) -> bool:
    """Whether a `try` around `node` in its function catches `error` (or Exception, or everything)."""
    parents = file.source.parents
    child, parent = node, parents.get(id(node))
    while parent is not None and not isinstance(parent, _FUNCTIONS):
        if isinstance(parent, ast.Try) or type(parent).__name__ == "TryStar":
            if any(child is statement for statement in parent.body) and any(
                    _catches(handler, error) for handler in parent.handlers):
                return True
        child, parent = parent, parents.get(id(parent))
    return False


def _catches(handler: ast.ExceptHandler, error: str) -> bool:
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(last_name(kind) in (error, "Exception", "BaseException") for kind in kinds)


@check("HG302", lambda settings: CUDA_TRIGGERS, language=PYTHON)
def implicit_rocm_exclusion(file: PythonFile) -> Iterator[Finding]:
    """A CUDA version test whose ROCm value a stand-in for torch.version.cuda's None decides: the Python HG101/HG102."""
    seen: set[int] = set()
    flow = file.flow
    for root in _conditions(file):
        if flow.names_platform(root):
            continue
        for test, stood, value in _stand_in_tests(file, root):
            chain = _and_chain(file, test) if not value else test
            if id(chain) in seen or not flow.reachable(chain) or _cuda_tested(file, test, root):
                continue
            seen.add(id(chain))
            if not _decisive(file, chain, root):
                continue
            said, turns = ("true", "on") if value else ("false", "off")
            message = (f"`{file.shown(test)}` is {said} on ROCm only because `{file.shown(stood)}` stands in for "
                       f"`torch.version.cuda`, which is None there: this CUDA version test turns the branch {turns} "
                       "for ROCm without saying so (test `torch.version.cuda is not None`, or `torch.version.hip`)")
            edits = rocm_inclusion(file, chain) if value else rocm_exclusion(file, chain)
            verb = "Include ROCm explicitly (`or torch.version.hip is not None`)" if value else (
                "Exclude ROCm explicitly (`and torch.version.hip is None`)")
            fix = Fix(SAFE, f"{verb}; CUDA and ROCm keep their values", edits) if edits else None
            yield Finding("HG302", message, *file.span(test), fix)


def _stand_in_tests(file: PythonFile, root: ast.expr) -> Iterator[tuple[ast.Compare, ast.expr, bool]]:
    """(comparison, stand-in, its value on ROCm) for each comparison in `root` of a value that a
    stand-in replaces on ROCm with a constant version."""
    for node in ast.walk(root):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        sides = (node.left, node.comparators[0])
        for index, side in enumerate(sides):
            stood = stand_in(file, side)
            value = None if stood is None else decided(stood, node.ops[0], sides[1 - index], index == 0)
            if value is not None:
                yield node, stood, value
                break


def _cuda_tested(file: PythonFile, test: ast.expr, root: ast.expr) -> bool:
    """Whether an `and` around the test also tests torch.version.cuda for truth or against None
    (the HIP note's own CUDA test: `torch.version.cuda is not None and ...`): then ROCm is said."""
    parents = file.source.parents
    node = test
    while node is not root:
        parent = parents.get(id(node))
        if parent is None:
            return False
        if isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.And):
            if any(other is not node and _is_cuda_test(file, other) for other in parent.values):
                return True
        node = parent
    return False


def _is_cuda_test(file: PythonFile, node: ast.expr) -> bool:
    """`torch.version.cuda` (or an alias) tested for truth, or against None (`is not None`, `!= None`)."""
    cuda = is_version(CUDA)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.IsNot, ast.NotEq)):
        sides = (node.left, node.comparators[0])
        return any(isinstance(side, ast.Constant) and side.value is None for side in sides) and any(
            derives(file, side, cuda) is not None for side in sides)
    if isinstance(node, ast.Call) and last_name(node.func) == "bool" and node.args:
        node = node.args[0]
    names = file.symbols.names(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    return names is not None and cuda(names)


def _conditions(file: PythonFile) -> Iterator[ast.expr]:
    """Tests of `if`, `while`, `assert` and conditional expressions, and boolean expressions
    assigned to a flag or returned by a function."""
    for node in file.nodes(ast.If, ast.While, ast.Assert, ast.IfExp):
        yield node.test
    for node in file.nodes(ast.Assign, ast.AnnAssign, ast.Return):
        if isinstance(node.value, (ast.BoolOp, ast.Compare)) or (
                isinstance(node.value, ast.UnaryOp) and isinstance(node.value.op, ast.Not)):
            yield node.value


def _and_chain(file: PythonFile, test: ast.expr) -> ast.expr:
    """The `and` expression a test is an operand of (the test itself when it is none)."""
    parents = file.source.parents
    node = test
    while isinstance(parents.get(id(node)), ast.BoolOp) and isinstance(parents[id(node)].op, ast.And):
        node = parents[id(node)]
    return node


def _decisive(file: PythonFile, node: ast.expr, root: ast.expr) -> bool:
    """Whether the condition's value can follow `node`'s on ROCm: no `and` with an operand false
    there, no `or` with one true there, between `node` and the condition's root."""
    parents = file.source.parents
    while node is not root:
        parent = parents.get(id(node))
        if parent is None:
            return True
        if isinstance(parent, ast.BoolOp):
            absorbing = isinstance(parent.op, ast.Or)
            if any(other is not node and file.flow.truth(other) is absorbing for other in parent.values):
                return False
        node = parent
    return True


@check("HG305", lambda settings: (*CUDA_TRIGGERS, "version.hip"), language=PYTHON)
def version_strings_compared_as_strings(file: PythonFile) -> Iterator[Finding]:
    """`torch.version.cuda`/`torch.version.hip` ordered against strings, character by character."""
    for compare in file.nodes(ast.Compare):
        sides = [compare.left, *compare.comparators]
        for number, op in enumerate(compare.ops):
            if not isinstance(op, _ORDERED):
                continue
            left, right = sides[number : number + 2]
            names = _version_string(file, left), _version_string(file, right)
            which, other = (names[0], right) if names[0] else (names[1], left)
            if which and (string_constant(other) or all(names)):
                message = (f"`{file.shown(compare)}` compares {which} as a string, character by character "
                           f"({_EXAMPLES[which]}): compare `packaging.version.Version` objects or tuples of integers")
                yield Finding("HG305", message, *file.span(compare))
                break


# Orders a string comparison gets wrong, on the scale of the version compared.
_EXAMPLES = {f"torch.version.{CUDA}": '"11.10" < "11.8", "9.2" > "10.0"', f"torch.version.{HIP}": '"6.10" < "6.2"'}


def _version_string(file: PythonFile, node: ast.expr) -> str:
    """"torch.version.cuda" or "torch.version.hip" when `node` is (a piece of) that string, else ""."""
    for which in (CUDA, HIP):
        if derives(file, node, is_version(which), strings_only=True) is not None:
            return f"torch.version.{which}"
    return ""



def _spells_it(node: ast.expr) -> bool:
    """Whether the expression spells `torch.version.cuda` out (else: an alias or an import of it)."""
    return isinstance(node, ast.Attribute) and (dotted(node) or ())[-2:] == ("version", "cuda")
