"""One Python build file's statements, followed in order by the setup.py reader.

Values are followed as items, each with the literal it came from and the conditions it is there
under (`_Item`): strings, lists, `+`/`+=`/`.append`/`.extend`, `os.path.join`, `Path(...) / ...`,
`glob.glob(...)`, `Path.glob/rglob`, comprehensions and loops over them, function bodies (once);
what is not followed is one vague item. Source paths passed to calls or returned are uses; a
list only assigned counts where it is assigned (`build_facts.Flows`). `-D` flags and
`define_macros` entries that reach flags variables or keywords are definitions.
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field, replace

from ..core.records import record
from .build_conditions import CUDA, CUDA_SOME, EVERYWHERE, ROCM, UNKNOWN, Condition, Context, Holds, holds_of
from .build_facts import Definition, Evidence, Flows, Mention
from .build_flags import flag_definitions, holds_flags, macro
from .python_tests import condition_of, constant, dotted, is_none, is_test
from .source_paths import SOURCE, UNKNOWN_TEXT, relative_path, source_pattern

MAX_COMBINATIONS = 16  # items a path join may make (a folder loop times its parts)
_GLOB = re.compile(r"[*?\[]")
_FLAG_KEYWORDS = frozenset({"extra_compile_args", "define_macros", "extra_cflags", "extra_cuda_cflags",
                            "extra_hip_cflags", "extra_sycl_cflags"})
_CMAKE_FOLDER_KEYWORDS = ("source_dir", "sourcedir", "cmake_path")  # where a CMakeExtension's project is
_IGNORED_CALLS = frozenset({  # their arguments are not compiled
    "len", "print", "isinstance", "hasattr", "getattr", "exists", "isfile", "isdir", "islink", "warn", "warning",
    "info", "debug", "error", "format", "startswith", "endswith", "open", "copy", "copy2", "copyfile", "copytree",
    "move", "rename", "remove", "unlink", "makedirs", "mkdir", "symlink", "write", "read", "splitext", "basename",
    "getsize", "getmtime", "stat", "chmod", "rmtree", "search", "match", "sub", "split", "strip", "touch",
})
_FLOWING_CALLS = frozenset({"list", "sorted", "set", "tuple", "reversed", "frozenset", "str", "fspath", "normpath",
                            "realpath", "abspath", "resolve", "absolute", "expanduser", "as_posix"})
_OS_CONSTANTS = {"os.curdir": ".", "os.path.curdir": ".", "os.sep": "/", "os.path.sep": "/"}
_MODULES = frozenset({"os", "os.path", "path", "osp", "glob", "pathlib", "shutil", "sys", "torch", "str"})


@record(frozen=False)
class ModuleFacts:
    """What the modules of one project's setup.py files found (shared by all of them)."""

    root: str
    mentions: Flows = field(default_factory=Flows)
    definitions: Flows = field(default_factory=Flows)
    hipify: list[Evidence] = field(default_factory=list)
    # (module, where it is built, its line, the setup.py's folder) of each extension constructed
    extensions: list[tuple[str, Holds, Evidence, str]] = field(default_factory=list)
    # (the CMake project's folder, where it is built, its line) of each `CMakeExtension(...)`
    cmake_extensions: list[tuple[str, Holds, Evidence]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def mention(self, item: _Item, context: Context, supports: bool, stored: bool, base: str) -> None:
        """A source path or glob the module names (anything else is ignored)."""
        found = source_pattern(self.root, base, item.text)
        if found is None:
            return
        pattern, vague = found
        holds = context.holds
        supports = supports and not (vague or item.vague)
        exclude = tuple(excluded for text in item.exclude if (excluded := relative_path(self.root, os.path.join(
            self.root, base, text.replace("\\", "/")))))
        mention = Mention(pattern, holds.platform, context.condition, item.evidence, supports, base, stored, exclude)
        self.mentions.record((item.evidence, item.text), mention, stored, mention.supports)

    def define(self, items: Iterable[_Item], context: Context, stored: bool, base: str) -> None:
        """The `-D` words of items that reach compiler flags (of the builds of the setup.py in `base`)."""
        for item in items:
            for name, value in flag_definitions([item.text]):
                joined = item.context.joined(context)
                holds = joined.holds
                definition = Definition(name, value, holds.platform, holds.always, joined.condition, item.evidence,
                                        base)
                self.definitions.record((item.evidence, item.text), definition, stored)


@record(slots=True)
class _Item:
    """A string the reader follows: its text, its literal's evidence, its conditions; `glob` patterns are globs."""

    text: str
    evidence: Evidence
    context: Context
    glob: bool = False
    vague: bool = False
    exclude: tuple[str, ...] = ()  # texts of the items a comprehension's `not in` filter took out of it


@record(slots=True)
class _Value:
    """What an expression evaluates to, as far as the reader follows it: string items, or a list of them."""

    items: tuple[_Item, ...] = ()
    is_list: bool = False


_NOTHING = _Value()


class Module:
    """One Python file's statements, followed in order."""

    def __init__(self, facts: ModuleFacts, path: str, base: str, text: str, tree: ast.Module,
                 contrasted: frozenset[str]) -> None:
        self.facts = facts
        self.contrasted = contrasted
        self.path = path
        self.base = base  # relative paths in it are taken from the setup.py's folder
        self.tree = tree
        self.lines = text.splitlines()

    def run(self, context: Context = EVERYWHERE) -> None:
        try:
            self.block(self.tree.body, _Scope({}, {}), context)
        except RecursionError:
            self.facts.notes.append(f"{self.path}: nested too deeply; the rest left out")

    def evidence(self, node: ast.AST) -> Evidence:
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        return Evidence(self.path, line, text[:200])

    # -- statements ---------------------------------------------------------------------------

    def block(self, statements: Sequence[ast.stmt], scope: _Scope, context: Context) -> None:
        for statement in statements:
            self.statement(statement, scope, context)

    def statement(self, node: ast.stmt, scope: _Scope, context: Context) -> None:
        if isinstance(node, ast.If):
            self.branch(node, scope, context, None)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = self.value(node.value, scope, context)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self.store(target, value, scope, context, reset=True)
                if isinstance(target, ast.Name) and is_test(node.value):
                    scope.tests[target.id] = condition_of(node.value, scope.tests, self.contrasted)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            self.store(node.target, self.value(node.value, scope, context), scope, context, reset=False)
        elif isinstance(node, ast.Expr):
            self.value(node.value, scope, context)
        elif isinstance(node, (ast.Return, ast.Yield)) and node.value is not None:
            self.use(self.value(node.value, scope, context), context)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.store(node.target, self.value(node.iter, scope, context), scope, context, reset=True)
            self.block(node.body + node.orelse, scope, context)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = _Scope(dict(scope.values), dict(scope.tests))
            self.block(node.body, inner, context)
            test = _returned_test(node)
            if test is not None:  # `def _is_cuda(): return torch.version.cuda is not None and ...`
                scope.tests[node.name + "()"] = condition_of(test, inner.tests, self.contrasted)
        elif isinstance(node, (ast.ClassDef, ast.With, ast.AsyncWith)):
            self.block(node.body, scope, context)
        elif isinstance(node, ast.While):
            self.block(node.body + node.orelse, scope, context.within(UNKNOWN, "while"))
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            for part in (node.body, *[handler.body for handler in node.handlers], node.orelse, node.finalbody):
                self.block(part, scope, context)

    def branch(self, node: ast.If, scope: _Scope, context: Context, previous: Condition | None) -> None:
        """An `if` (or an `elif`, after `previous`): a known test of its own decides, else with the tests before it.
        An arm that tests CUDA (among options: `torch.version.cuda is not None ... or FORCE_CUDA`) before a
        ROCm arm of the same chain (`elif torch.version.hip`) is the CUDA build's, as in xformers' setup.py."""
        own = condition_of(node.test, scope.tests, self.contrasted)
        shown = f"if {_source(node.test)}:"
        condition = own if previous is None or holds_of(own).known else ("and", (("not", previous), own))
        holds = holds_of(condition)
        if not holds.known and _platforms(own) == {CUDA} and self._rocm_arm_follows(node, scope):
            holds = CUDA_SOME
        self.block(node.body, scope, context.within(holds, shown))
        negation = ("not", own) if previous is None else ("and", (("not", previous), ("not", own)))
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            self.branch(node.orelse[0], scope, context, ("or", (previous, own)) if previous else own)
        elif node.orelse:
            self.block(node.orelse, scope, context.within(holds_of(negation), f"else of {shown}"))

    def _rocm_arm_follows(self, node: ast.If, scope: _Scope) -> bool:
        while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            if holds_of(condition_of(node.test, scope.tests, self.contrasted)).platform == ROCM:
                return True
        return False

    def store(self, target: ast.expr, value: _Value, scope: _Scope, context: Context, reset: bool) -> None:
        """Assign or extend a name (conditional assignments keep the old items: both may hold)."""
        placed = tuple(replace(item, context=item.context.joined(context)) for item in value.items)
        name = _target_name(target)
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.store(element, value, scope, context, reset)
            return
        if name is None:
            return
        old = scope.values.get(name, _NOTHING)
        keep = () if reset and context.holds == EVERYWHERE.holds else old.items
        scope.values[name] = _Value(tuple(dict.fromkeys(keep + placed)), value.is_list or old.is_list)
        for item in placed:
            self.facts.mention(item, item.context, supports=True, stored=True, base=self.base)
        if holds_flags(_flag_name(target)):
            self.facts.define(placed, context, stored=True, base=self.base)

    def use(self, value: _Value, context: Context, supports: bool = True) -> None:
        for item in value.items:
            self.facts.mention(item, item.context.joined(context), supports, stored=False, base=self.base)

    # -- values -------------------------------------------------------------------------------

    def value(self, node: ast.expr, scope: _Scope, context: Context) -> _Value:
        """What `node` evaluates to, as items; calls it does not follow use their arguments."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return _Value((_Item(node.value, self.evidence(node), context),))
            return _NOTHING
        if isinstance(node, ast.JoinedStr):
            return self._formatted(node, scope, context)
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return _Value((_Item(os.path.join(self.facts.root, self.path), self.evidence(node), context),))
            return scope.values.get(node.id) or self.unknown(node, context)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return self._sequence(node, scope, context)
        if isinstance(node, ast.Dict):
            return _merged([self.value(item, scope, context) for item in node.values if item is not None], True)
        if isinstance(node, ast.Starred):
            return self.value(node.value, scope, context)
        if isinstance(node, ast.BinOp):
            return self._binary(node, scope, context)
        if isinstance(node, ast.IfExp):
            return self._conditional(node, scope, context)
        if isinstance(node, ast.BoolOp):
            return _merged([self.value(item, scope, context) for item in node.values], False)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self._comprehension(node, scope, context)
        if isinstance(node, ast.Subscript):
            return scope.values.get(_target_name(node) or "") or self.unknown(node, context)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, scope, context)
        if isinstance(node, ast.Call):
            return self._call(node, scope, context)
        return _NOTHING

    def _sequence(self, node: ast.List | ast.Tuple | ast.Set, scope: _Scope, context: Context) -> _Value:
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:  # a define_macros entry: ("NAME", value)
            name, value = constant(node.elts[0]), node.elts[1]
            if name and macro(name):
                return _Value((_Item(_define_flag(name, value), self.evidence(node), context),), True)
        return _merged([self.value(element, scope, context) for element in node.elts], True)

    def _formatted(self, node: ast.JoinedStr, scope: _Scope, context: Context) -> _Value:
        text, vague = "", False
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value
                continue
            inner = self.value(part.value, scope, context) if isinstance(part, ast.FormattedValue) else _NOTHING
            if len(inner.items) == 1 and not inner.items[0].vague:
                text += inner.items[0].text
            else:
                text, vague = text + UNKNOWN_TEXT, True
        return _Value((_Item(text, self.evidence(node), context, vague=vague),))

    def _binary(self, node: ast.BinOp, scope: _Scope, context: Context) -> _Value:
        left, right = self.value(node.left, scope, context), self.value(node.right, scope, context)
        if isinstance(node.op, ast.Sub):
            self.use(right, context, supports=False)  # what is taken out is still named: never claimed
            return left
        if isinstance(node.op, ast.Div) and len(left.items) == 1 and len(right.items) == 1:
            return _Value((_joined_path(left.items[0], right.items[0]),))
        if isinstance(node.op, ast.Mod) and len(left.items) == 1:
            item = left.items[0]
            return _Value((replace(item, text=re.sub(r"%[-#0 +]*[0-9.]*[sdifr]", UNKNOWN_TEXT, item.text),
                                             vague=True),))
        if isinstance(node.op, ast.Add):
            if not left.is_list and not right.is_list and len(left.items) == 1 and len(right.items) == 1:
                first, second = left.items[0], right.items[0]
                return _Value((replace(first, text=first.text + second.text,
                                                 vague=first.vague or second.vague),))
            return _merged([left, right], True)
        return _NOTHING

    def _conditional(self, node: ast.IfExp, scope: _Scope, context: Context) -> _Value:
        condition = condition_of(node.test, scope.tests, self.contrasted)
        shown = f"{_source(node.test)}"
        yes = self.value(node.body, scope, context.within(holds_of(condition), f"if {shown}"))
        no = self.value(node.orelse, scope, context.within(holds_of(condition, negate=True), f"not {shown}"))
        return _merged([yes, no], yes.is_list or no.is_list)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, scope: _Scope,
                       context: Context) -> _Value:
        inner = _Scope(dict(scope.values), dict(scope.tests))
        taken_out: list[str] = []
        for generator in node.generators:
            self.store(generator.target, self.value(generator.iter, inner, context), inner, context, reset=True)
            for test in generator.ifs:  # `if s not in excluded`: what is taken out is never claimed (torchao)
                if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn):
                    removed = self.value(test.comparators[0], scope, context)
                    self.use(removed, context, supports=False)
                    taken_out += [item.text for item in removed.items if not item.vague]
        items = self.value(node.elt, inner, context).items
        if taken_out:
            items = tuple(replace(item, exclude=item.exclude + tuple(taken_out)) for item in items)
        return _Value(items, True)

    def _attribute(self, node: ast.Attribute, scope: _Scope, context: Context) -> _Value:
        known = _OS_CONSTANTS.get(dotted(node))
        if known is not None:  # torchao's `os.path.dirname(os.path.curdir)`
            return _Value((_Item(known, self.evidence(node), context),))
        if node.attr == "parent":  # Path(...).parent
            return _Value(tuple(_path_op(item, posixpath.dirname) for item in self.value(node.value, scope,
                                                                                          context).items))
        return scope.values.get(_target_name(node) or "") or self.unknown(node, context)

    def unknown(self, node: ast.expr, context: Context) -> _Value:
        """A value the reader does not follow (a call's result, an imported name): one vague item."""
        return _Value((_Item(UNKNOWN_TEXT, self.evidence(node), context, vague=True),))

    def _call(self, node: ast.Call, scope: _Scope, context: Context) -> _Value:
        function = dotted(node.func)
        last = node.func.attr if isinstance(node.func, ast.Attribute) else function
        if "hipify" in function.lower():
            self.facts.hipify.append(self.evidence(node))
        if last.endswith("Extension"):
            named = constant(node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None))
            if named:
                self.facts.extensions.append((named, context.holds, self.evidence(node), self.base))
            folder = self._cmake_folder(node, scope, context) if "cmake" in last.lower() else None
            if folder is not None:
                self.facts.cmake_extensions.append((folder, context.holds, self.evidence(node)))
        arguments = [self.value(argument, scope, context) for argument in node.args]
        if isinstance(node.func, ast.Attribute) and last in ("append", "extend", "insert", "add", "update"):
            added = _merged(arguments[-1:], True)
            self.store(node.func.value, added, scope, context, reset=False)
            return _NOTHING
        if isinstance(node.func, ast.Attribute) and last in ("glob", "rglob", "iglob") and function not in (
                "glob.glob", "glob.iglob"):
            owner = self.value(node.func.value, scope, context)
            return self._path_glob(node, owner, arguments, last == "rglob", context)
        if last in ("glob", "iglob"):
            recursive = any(keyword.arg == "recursive" and _constant_true(keyword.value) for keyword in node.keywords)
            return _Value(tuple(_globbed(item, recursive) for value in arguments[:1] for item in value.items), True)
        if function in ("os.path.join", "path.join", "join", "Path", "pathlib.Path", "PurePath", "osp.join"):
            return self._joined(arguments, node, context)
        if last == "dirname":
            return _Value(tuple(_path_op(item, posixpath.dirname) for value in arguments[:1] for item in value.items))
        if last == "replace" and isinstance(node.func, ast.Attribute) and len(node.args) == 2:
            return self._replaced(node, scope, context, arguments)
        if last in _FLOWING_CALLS:  # (a method's object flows too: `Path(x).resolve()`, not `os.path.abspath(x)`)
            method = isinstance(node.func, ast.Attribute) and dotted(node.func.value) not in _MODULES
            owner = self.value(node.func.value, scope, context) if method else _NOTHING
            return _merged(arguments + [owner], bool(arguments) and any(value.is_list for value in arguments))
        if last not in _IGNORED_CALLS:
            for value in arguments:
                self.use(value, context)
            self._keywords(node, scope, context)
        return self.unknown(node, context)

    def _cmake_folder(self, node: ast.Call, scope: _Scope, context: Context) -> str | None:
        """The root-relative folder of a `CMakeExtension`'s CMake project: its `source_dir` (or
        `sourcedir`, `cmake_path`, the second argument) where that is a folder of the tree with a
        CMakeLists.txt (lmdeploy's `str(Path(__file__).parent.absolute())`, TransformerEngine's
        `root_path / Path("transformer_engine/common")`), None where it is given but not followed;
        without one, the setup.py's folder."""
        given = next((keyword.value for keyword in node.keywords if keyword.arg in _CMAKE_FOLDER_KEYWORDS),
                     node.args[1] if len(node.args) > 1 else None)
        if given is None:
            return self.base
        for item in self.value(given, scope, context).items:
            folder = relative_path(self.facts.root, os.path.join(self.facts.root, self.base, item.text))
            if folder is not None and os.path.isfile(os.path.join(self.facts.root, folder, "CMakeLists.txt")):
                return folder
        return None

    def _keywords(self, node: ast.Call, scope: _Scope, context: Context) -> None:
        for keyword in node.keywords:
            value = self.value(keyword.value, scope, context)
            if keyword.arg in _FLAG_KEYWORDS:
                self.facts.define(value.items, context, stored=False, base=self.base)
            else:
                self.use(value, context)

    def _joined(self, arguments: Sequence[_Value], node: ast.expr, context: Context) -> _Value:
        """`os.path.join(...)` / `Path(...)`: every combination of the parts' items (a few at most)."""
        combined: list[_Item] | None = None
        for value in arguments:
            items = value.items or self.unknown(node, context).items
            combined = list(items) if combined is None else [_joined_path(a, b) for a in combined for b in items]
            if len(combined) > MAX_COMBINATIONS:
                return self.unknown(node, context)
        return _Value(tuple(combined or ()))

    def _path_glob(self, node: ast.Call, owner: _Value, arguments: Sequence[_Value], recursive: bool,
                   context: Context) -> _Value:
        """`path.glob(pattern)` / `path.rglob(pattern)`."""
        if not arguments:
            return _NOTHING
        patterns = [replace(item, text="**/" + item.text) if recursive else item for item in arguments[0].items]
        joined = self._joined([owner, _Value(tuple(patterns))], node, context)
        return _Value(tuple(_globbed(item, True) for item in joined.items), True)

    def _replaced(self, node: ast.Call, scope: _Scope, context: Context, arguments: Sequence[_Value]) -> _Value:
        owner = self.value(node.func.value, scope, context)
        old, new = constant(node.args[0]), constant(node.args[1])
        if old is None or new is None:
            return _NOTHING
        return _Value(tuple(replace(item, text=item.text.replace(old, new)) for item in owner.items),
                      owner.is_list)


@record(frozen=False)
class _Scope:
    values: dict[str, _Value]
    tests: dict[str, Condition]


def _returned_test(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """The test a function without parameters returns when its body is assignments, then
    `return TEST` (a docstring allowed), else None."""
    if node.args.args or node.args.posonlyargs or node.args.kwonlyargs or node.args.vararg or node.args.kwarg:
        return None
    *before, last = node.body
    simple = all(isinstance(statement, (ast.Assign, ast.AnnAssign)) or (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)) for statement in before)
    return last.value if simple and isinstance(last, ast.Return) and last.value is not None and is_test(
        last.value) else None


def _merged(values: Iterable[_Value], is_list: bool) -> _Value:
    return _Value(tuple(dict.fromkeys(item for value in values for item in value.items)), is_list)


def _joined_path(first: _Item, second: _Item) -> _Item:
    text = second.text if second.text.startswith("/") else posixpath.join(first.text, second.text)
    evidence = second.evidence if SOURCE.search(second.text) or _GLOB.search(second.text) else first.evidence
    return _Item(text, evidence, first.context.joined(second.context), first.glob or second.glob,
                 first.vague or second.vague)


def _path_op(item: _Item, operation: Callable[[str], str]) -> _Item:
    return replace(item, text=operation(item.text))


def _globbed(item: _Item, recursive: bool) -> _Item:
    """A glob pattern in gitignore terms: without `recursive=True`, `**` is `*`."""
    text = item.text if recursive else item.text.replace("**", "*")
    return replace(item, text=text, glob=True)


def _define_flag(name: str, value: ast.expr) -> str:
    """A `define_macros` entry as the flag setuptools passes: (X, None) -> -DX, (X, "1") -> -DX=1."""
    if is_none(value):
        return f"-D{name}"
    if isinstance(value, ast.Constant) and isinstance(value.value, (str, int)) and not isinstance(value.value, bool):
        return f"-D{name}={value.value}"
    return f"-D{name}={UNKNOWN_TEXT}"


def _target_name(node: ast.expr) -> str | None:
    """The variable a target names: `x`, `self.x`, `x["nvcc"]` (all keys of a dict are one variable)."""
    if isinstance(node, ast.Subscript):
        return _target_name(node.value)
    return dotted(node) or None


def _flag_name(node: ast.expr) -> str:
    """The name that says whether a target holds flags: a subscript's key (`settings['define_macros']`) or its own."""
    if isinstance(node, ast.Subscript):
        key = constant(node.slice)
        if key is not None and (holds_flags(key) or key in ("cxx", "nvcc", "hipcc", "nvcc_dlink")):
            return "flags"
        return _flag_name(node.value)
    return dotted(node)


def _constant_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _platforms(condition: Condition) -> set[str]:
    """The platforms the tests of a condition name (its atoms', ROCM or CUDA)."""
    kind, operand = condition
    if kind == "atom":
        return {operand.platform} if operand.platform else set()
    if kind == "test":
        return {holds.platform for holds in operand if holds.platform}
    if kind == "not":
        return _platforms(operand)
    return set().union(*map(_platforms, operand))


def _source(node: ast.expr) -> str:
    try:
        text = ast.unparse(node)
    except (ValueError, RecursionError):  # (never for a parsed tree, but never fatal)
        text = "..."
    return text if len(text) <= 100 else text[:97] + "..."
