"""Where ROCm (or CUDA) can reach Python code (spec §12): the value of platform tests on that
platform, and the statements and operands a run there never reaches.

A test is three-valued on a platform: true, false, or unknown (None). Code is unreachable on ROCm
under a test false there (`if torch.version.cuda:`, the `else` of `if torch.version.hip:`, the
right of `torch.version.cuda is not None and ...`, a branch of `x if IS_ROCM else y`), after an
early exit under a test true there (`if torch.version.hip: return`, `raise`, `continue`,
`break`, `sys.exit()`, `pytest.skip()`), after an `assert` false there, after an import of a
CUDA-only module in any block (it raises ImportError there: vLLM's `try: from
vllm.vllm_flash_attn... import ...` goes to its `except`), in tests skipped there
(`@pytest.mark.skipif(torch.version.hip is not None, ...)`, `@skipIfRocm`, `pytestmark = ...`),
in a file that imports a CUDA-only module unconditionally at module level (`import cutlass.cute`:
`PythonPlatforms.cuda_modules`), after a call of a PyTorch operator only the project's CUDA build
registers (`PythonPlatforms.cuda_ops`: vLLM's `ops.gptq_marlin_gemm(...)`), in a function that
always ends in one (nothing it does matters there), and in a module-level function that the file calls only from such code. On ROCm a comparison of
the device capability is decided when every AMD GPU gives it the same value
(`python_capability`: all report a major of 9 or more), and `torch.distributed` has no MPI or
UCC. Names resolve through imports and one level of aliases (`symbols`); the project's flags are
`platforms`.
"""

from __future__ import annotations

import ast
from functools import cached_property

from ..python.names import dotted, imported_modules, last_name
from ..python.source import PythonSource
from .python_capability import OPERATORS, comparison_on_amd
from .python_module_values import Bindings, Constants, Platform, constant, module_constants
from .python_platform import CALL, ROCM_SKIP_DECORATORS, PythonPlatforms
from .python_project import PACKAGE, PythonProjectFacts
from .python_symbols import IMPORT, VALUE, Symbols

Value = tuple[bool | None, bool | None]  # (truth on the platform, whether it is None there); None: unknown
UNKNOWN: Value = (None, None)
VERSION_CUDA = ("torch", "version", "cuda")
VERSION_HIP = ("torch", "version", "hip")
_STRING, _NONE, _TRUE, _FALSE = (True, False), (False, True), (True, False), (False, False)
_GPU = ("torch", "cuda", "is_available", CALL)
_FIXED = {  # what the platform decides, by dotted name (rocm=True: ROCm, rocm=False: CUDA)
    True: {VERSION_CUDA: _NONE, VERSION_HIP: _STRING, _GPU: _TRUE,
           ("torch", "distributed", "is_mpi_available", CALL): _FALSE,
           ("torch", "distributed", "is_ucc_available", CALL): _FALSE},
    False: {VERSION_CUDA: _STRING, VERSION_HIP: _NONE, _GPU: _TRUE},
}
# Values the platform fixes, by the end of the dotted name: Triton's active target names its backend
# "hip" on ROCm (`triton.runtime.driver.active.get_current_target().backend`, as Triton's own AMD
# code and the kernels of the real trees test it).
_BACKEND = ("get_current_target", CALL, "backend")
_PLATFORM_STRINGS = {True: {_BACKEND: frozenset({"hip"})}, False: {_BACKEND: frozenset({"cuda"})}}
# vLLM's platform object answers for the one platform it runs on: on a CUDA or a ROCm GPU, the tests
# for the other platforms it supports are false (`current_platform.is_xpu()`).
_OTHER_PLATFORMS = frozenset({"is_xpu", "is_tpu", "is_hpu", "is_neuron", "is_cpu"})
_EXITS = {("sys", "exit"), ("exit",), ("quit",), ("os", "_exit"), ("pytest", "skip"), ("pytest", "fail"),
          ("pytest", "exit"), ("pytest", "xfail"), ("self", "skipTest")}
_MAX_DEPTH = 64  # nested tests deeper than this are unknown (no recursion limit for odd code)


class PlatformFlow:
    """What one platform (ROCm, or with `rocm=False` CUDA) reaches in one parsed file."""

    def __init__(self, source: PythonSource, symbols: Symbols, platforms: PythonPlatforms, rocm: bool = True,
                 project: PythonProjectFacts | None = None, bindings: Bindings | None = None) -> None:
        self.parents = source.parents
        self.source = source
        self.symbols = symbols
        self.platforms = platforms
        self.rocm = rocm
        self.project = project or PythonProjectFacts()
        self._bindings = bindings  # (what the module's statements bind: the same on both platforms)
        self._fixed = _FIXED[rocm]
        self._dead: set[int] = set()
        self._values: dict[int, Value] = {}
        self._variables: dict[str, list[Constants | None]] = {}  # module-level variable -> its states
        self._positions: dict[int, int] = {}  # top-level statement -> its place
        self._falls: dict[int, bool] = {}  # function -> whether the platform can run past its body's end
        if source.tree is not None:
            self._module(source.tree)

    def reachable(self, node: ast.AST) -> bool:
        """Whether a run on the platform can reach `node` (no enclosing statement or operand it cannot)."""
        while node is not None:
            if id(node) in self._dead:
                return False
            node = self.parents.get(id(node))
        return True

    # -- values on the platform ----------------------------------------------------------------

    def truth(self, node: ast.expr) -> bool | None:
        """The truth of `node` on the platform: True, False, or None when it depends on more than that."""
        return self.value(node)[0]

    def value(self, node: ast.expr) -> Value:
        """(truth, is None) of `node` on the platform."""
        known = self._values.get(id(node))
        if known is None:
            known = self._values[id(node)] = self._value(node, 0, aliases=True)
        return known

    def _value(self, node: ast.expr, depth: int, aliases: bool) -> Value:
        """`aliases`: whether a name may still be read through its alias (one level in all)."""
        if depth > _MAX_DEPTH:
            return UNKNOWN
        inner = depth + 1
        if isinstance(node, ast.Constant):
            return bool(node.value), node.value is None
        if isinstance(node, ast.BoolOp):
            truths = [self._value(operand, inner, aliases)[0] for operand in node.values]
            decisive = isinstance(node.op, ast.Or)  # `or` is true once one operand is, `and` false
            if decisive in truths:
                return decisive, (False if decisive else None)
            return (not decisive, None) if all(t is not None for t in truths) else UNKNOWN
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = self._value(node.operand, inner, aliases)[0]
            return (None if truth is None else not truth), False
        if isinstance(node, ast.Compare):
            truth = _all(self._comparison(left, op, right, inner, aliases)
                         for left, op, right in zip([node.left, *node.comparators], node.ops, node.comparators))
            if truth is None and self.rocm:
                on_gpus = comparison_on_amd(self.symbols, node, helpers=True)
                truth = on_gpus[0] if on_gpus and len(set(on_gpus)) == 1 else None
            return truth, False
        if isinstance(node, ast.IfExp):
            test = self._value(node.test, inner, aliases)[0]
            branches = [self._value(b, inner, aliases) for b, wanted in ((node.body, True), (node.orelse, False))
                        if test is None or test is wanted]
            return branches[0] if len(branches) == 1 or branches[0] == branches[1] else UNKNOWN
        if isinstance(node, ast.NamedExpr):
            return self._value(node.value, inner, aliases)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and node.args:
            return self._value(node.args[0], inner, aliases)[0], False
        return self._named(node, inner, aliases)

    def _named(self, node: ast.expr, depth: int, aliases: bool) -> Value:
        """Names, attributes and calls: torch's version strings, the flags, and aliases of tests."""
        names = self.symbols.names(node, aliases)
        if names in self._fixed:
            return self._fixed[names]
        flag = self.flag(node, names)
        if flag is not None:
            return flag == self.rocm, False
        if names and len(names) >= 3 and names[-1] == CALL and names[-3] == "current_platform" and (
                names[-2] in _OTHER_PLATFORMS):
            return _FALSE
        returned = self._returned(node) if isinstance(node, ast.Call) else None
        if returned is not None:
            return returned
        alias = self.symbols.value(node) if aliases else None
        if alias is not None:
            return self._value(alias, depth, aliases=False)
        held = self.constants(node)
        return _value_of(held) if held else UNKNOWN

    def _returned(self, call: ast.Call) -> Value | None:
        """What a call returns on the platform: a plain module-level function of the file by its
        reachable `return`s (vLLM's `get_flash_attn_version()`: `return None` in the `except` of a
        try-import of a CUDA-only module), or a function imported from a project module by what
        the project's facts say it returns (torchao's `is_cuda_version_at_least(12, 8)`: False
        where `torch.version.cuda` is None); None: unknown."""
        function = self._function(call.func.id, call) if isinstance(call.func, ast.Name) else None
        held = self.returned_constants(function) if function is not None else None
        if held is None and function is None:
            names = self.symbols.names(call.func, aliases=False)
            held = self.project.constants((*names, CALL), self.rocm) if names else None
        return _value_of(held) if held else None

    def returned_constants(self, function: ast.FunctionDef) -> frozenset[object] | None:
        """The constants a module-level function of the file (`module_function`) returns on the
        platform, where every `return` the platform reaches gives a literal (falling off its end:
        None); None: unknown."""
        if id(function) in self._dead:
            return None
        values = {None} if self._falls.get(id(function), True) else set()
        for node in _own_nodes(function):
            if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
                return None
            if isinstance(node, ast.Return) and self.reachable(node):
                plain, value = constant(node.value) if node.value is not None else (True, None)
                if not plain:
                    return None
                values.add(value)
        return frozenset(values)

    def _function(self, name: str, at: ast.AST) -> ast.FunctionDef | None:
        """The module-level function `name` that code at `at` calls (see `module_function`)."""
        if self.source.tree is None or self.symbols.bound_in(name, at) is not self.source.tree:
            return None
        return self.module_function(name)

    def module_function(self, name: str) -> ast.FunctionDef | None:
        """The file's undecorated module-level `def name`, if it defines `name` once (and as that)."""
        found = [node for node in self.source.tree.body if isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name] if self.source.tree else []
        if len(found) != 1 or not isinstance(found[0], ast.FunctionDef) or found[0].decorator_list:
            return None
        return found[0]

    def constants(self, node: ast.expr) -> Constants | None:
        """The constants `node` can be on the platform: a literal, a module-level variable of the
        file (`python_module_values`), or one it imports that the project's facts know; None: unknown."""
        if not isinstance(node, (ast.Name, ast.Attribute)):
            return self._literals(node)
        binding = self.symbols.binding(node.id, node) if isinstance(node, ast.Name) else None
        if binding is not None and binding.kind == VALUE:  # (one level: the literals it is assigned)
            return self._literals(binding.node)
        if isinstance(node, ast.Name) and isinstance(self.symbols.bound_in(node.id, node), ast.Module) and (
                binding is None or binding.kind != IMPORT):
            return self._variable(node)
        names = self.symbols.names(node, aliases=False)
        return (self._platform_strings(names) or self.project.constants(names, self.rocm)) if names else None

    def _platform_strings(self, names: tuple[str, ...]) -> Constants | None:
        """The strings the platform fixes for a dotted name (`_PLATFORM_STRINGS`)."""
        return next((values for end, values in _PLATFORM_STRINGS[self.rocm].items() if names[-len(end):] == end), None)

    def _literals(self, node: ast.expr) -> Constants | None:
        """A literal's constants: `"cuda"`, `(8, 0)`, `"cuda" if torch.version.cuda else "rocm"`."""
        plain, value = constant(node)
        if plain:
            return frozenset({value})
        if isinstance(node, ast.Attribute):
            names = self.symbols.names(node, aliases=False)
            return self._platform_strings(names) if names else None
        if isinstance(node, ast.IfExp):
            test = self.truth(node.test)
            arms = [self._literals(arm) for arm, taken in ((node.body, True), (node.orelse, False))
                    if test is None or test is taken]
            return None if None in arms else frozenset().union(*arms)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [constant(item) for item in node.elts]
            return frozenset({tuple(value for _, value in items)}) if all(plain for plain, _ in items) else None
        return None

    def _variable(self, node: ast.Name) -> Constants | None:
        """A module-level variable's constants where `node` reads it: after the top-level statements
        before the one that holds it, or after them all in a function (which runs later)."""
        tree = self.source.tree
        statement, inner = node, None
        while self.parents.get(id(statement)) is not tree:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = statement
            statement = self.parents.get(id(statement))
            if statement is None:
                return None
        if not self._positions:
            self._positions = {id(item): number for number, item in enumerate(tree.body)}
        upto = len(tree.body) if inner is not None else self._positions[id(statement)]
        if node.id not in self._variables:
            self._variables[node.id] = []  # (while it is computed: a test that needs it is unknown)
            self._variables[node.id] = module_constants(tree, node.id, self.statements)
        states = self._variables[node.id]
        return states[upto] if states else None

    @cached_property
    def statements(self) -> Platform:
        """How the platform sees a module's top-level statements (for `module_constants`)."""
        return Platform(self.truth, self.constants, self.ends, self._bindings or Bindings(self.source))

    def ends(self, statement: ast.stmt) -> bool:
        """Whether a module-level statement never lets the module run on: `raise`, `sys.exit()`."""
        return isinstance(statement, ast.Raise) or (isinstance(statement, ast.Expr) and isinstance(
            statement.value, ast.Call) and _spelled(statement.value.func) in _EXITS)

    def flag(self, node: ast.expr, names: tuple[str, ...] | None) -> bool | None:
        """True/False when `node` is a ROCm/CUDA flag of the project (as resolved or as spelled), else None."""
        found = self.platforms.flag(names) if names else None
        if found is None:
            spelled = _spelled(node)
            found = self.platforms.flag(spelled) if spelled else None
        return found

    def _comparison(self, left: ast.expr, op: ast.cmpop, right: ast.expr, depth: int, aliases: bool) -> bool | None:
        """One `left op right` on the platform, where None-ness decides it (`torch.version.cuda is not None`,
        `torch.version.cuda == "11.8"`, `torch.version.cuda in ("11.8", "12.1")`) or constants do."""
        is_none = [self._value(side, depth, aliases)[1] for side in (left, right)]
        if isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) and None not in is_none and True in is_none:
            return (is_none[0] == is_none[1]) == isinstance(op, (ast.Is, ast.Eq))
        if isinstance(op, (ast.In, ast.NotIn)) and is_none[0] and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            if all(isinstance(item, ast.Constant) and item.value is not None for item in right.elts):
                return isinstance(op, ast.NotIn)
        return self._between_constants(left, op, right)

    def _between_constants(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> bool | None:
        """`SYSTEM == "cuda"`: a comparison of constants, decided when every value each side can
        be on the platform gives the same answer."""
        if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)):
            return None
        sides = [self.constants(side) for side in (left, right)]
        if not (sides[0] and sides[1]):
            return None
        compare = OPERATORS.get(type(op)) or (lambda a, b: (a is b) == isinstance(op, ast.Is))
        try:
            answers = {compare(a, b) for a in sides[0] for b in sides[1]}
        except TypeError:  # (`in` with something else than a tuple of constants)
            return None
        return answers.pop() if len(answers) == 1 else None

    def names_platform(self, node: ast.expr) -> bool:
        """Whether the expression tests the platform by name: `torch.version.hip` or a flag of
        the project (directly or through one alias)."""
        for item in ast.walk(node):
            if isinstance(item, (ast.Name, ast.Attribute, ast.Call)):
                names = self.symbols.names(item)
                if names == VERSION_HIP or self.flag(item, names) is not None:
                    return True
                alias = self.symbols.value(item) if isinstance(item, ast.Name) else None
                if alias is not None and any(self.symbols.names(inner, aliases=False) == VERSION_HIP
                                             for inner in ast.walk(alias)):
                    return True
        return False

    # -- reachability ---------------------------------------------------------------------------

    def _module(self, tree: ast.Module) -> None:
        if (self.rocm and self.project.cuda_only_module(PACKAGE)) or any(
                self._skip_mark(statement) or self._module_skip(statement) or self._cuda_import(statement)
                for statement in tree.body):
            self._dead.add(id(tree))
            return
        self._block(tree.body, True)
        self._expressions()
        self._helpers(tree)

    def _cuda_import(self, statement: ast.stmt) -> bool:
        """On ROCm: whether the module-level statement imports a CUDA-only module, or a project
        module the project's facts know imports one."""
        if not self.rocm or not isinstance(statement, (ast.Import, ast.ImportFrom)):
            return False
        return any(self.platforms.cuda_module(name) or self.project.cuda_only_module(name)
                   for name in imported_modules(statement))

    def _expressions(self) -> None:
        """Operands of `and`/`or`, branches of conditional expressions and comprehension items
        that the platform never evaluates."""
        for node in self.source.nodes(ast.BoolOp):
            self._operands(node)
        for node in self.source.nodes(ast.IfExp):
            test = self.truth(node.test)
            for branch, wanted in ((node.body, True), (node.orelse, False)):
                if test is (not wanted):
                    self._dead.add(id(branch))
        for kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            for node in self.source.nodes(kind):
                if any(self.truth(test) is False for generator in node.generators for test in generator.ifs):
                    items = (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)
                    self._dead.update(map(id, items))

    def _helpers(self, tree: ast.Module, rounds: int = 3) -> None:
        """Module-level functions that the file refers to, but only from code the platform never
        reaches (`if not is_rocm(): check_cuda()`), are unreachable too (a few rounds: helpers of helpers)."""
        functions: dict[str, ast.AST] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[node.name] = node if node.name not in functions else None  # defined twice: unknown
        references: dict[str, list[ast.Name]] = {}
        for node in self.source.nodes(ast.Name) if functions else ():
            if functions.get(node.id) is not None:
                references.setdefault(node.id, []).append(node)
        elsewhere = self.project.unreached if self.rocm else frozenset()  # (callers in other modules)
        for _ in range(rounds):
            dead = [function for name, function in functions.items() if function is not None
                    and id(function) not in self._dead and (references.get(name) or name in elsewhere)
                    and not any(self.reachable(use) for use in references.get(name, ()))]
            if not dead:
                return
            self._dead.update(map(id, dead))

    def _operands(self, node: ast.BoolOp) -> None:
        """The operands after one that decides the `and` (false) or the `or` (true) on the platform."""
        stop = isinstance(node.op, ast.Or)
        for number, operand in enumerate(node.values[:-1]):
            if self.truth(operand) is stop:
                self._dead.update(id(later) for later in node.values[number + 1 :])
                return

    def _block(self, statements: list[ast.stmt], live: bool) -> bool:
        """Mark what the platform cannot reach in a statement list; whether it can run past its end."""
        for statement in statements:
            if not live:
                self._dead.add(id(statement))
                continue
            live = self._statement(statement)
        return live

    def _statement(self, node: ast.stmt) -> bool:
        """Visit a reachable statement; whether the platform can run on after it."""
        if isinstance(node, ast.If):
            test = self.truth(node.test)
            return self._block(node.body, test is not False) | self._block(node.orelse, test is not True)
        if isinstance(node, ast.While):
            test = self.truth(node.test)
            self._block(node.body, test is not False)
            self._block(node.orelse, test is not True)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self._block(node.body, True)
            self._block(node.orelse, True)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            self._block(node.body, True)  # (a context manager may swallow what ends its body)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            return self._try(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            skipped = any(self._skips(decorator) for decorator in node.decorator_list)
            if skipped:
                self._dead.add(id(node))
            else:
                self._falls[id(node)] = self._block(node.body, True)
                if self._never_completes(node):
                    self._dead.add(id(node))
        elif isinstance(node, ast.Match):
            for case in node.cases:
                self._block(case.body, True)
        elif isinstance(node, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
            return False
        elif isinstance(node, ast.Assert):
            return self.truth(node.test) is not False
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and self.rocm:
            return not any(self.platforms.cuda_module(name) for name in imported_modules(node))  # raises there
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            return _spelled(node.value.func) not in _EXITS and not self._cuda_op(node.value)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            return not self._cuda_op(node.value)  # (`out = ops.gptq_marlin_gemm(...)`)
        return True

    def _cuda_op(self, call: ast.Call) -> bool:
        """On ROCm: whether the call is of a PyTorch operator only the project's CUDA build
        registers (`ops.gptq_marlin_gemm(...)`, `torch.ops._C.gptq_marlin_gemm(...)`): it raises there."""
        if not (self.rocm and self.platforms.cuda_ops and isinstance(call.func, ast.Attribute)
                and call.func.attr in self.platforms.cuda_ops):
            return False
        names = self.symbols.names(call.func)
        return bool(names) and names[0] not in ("self", "cls")

    def _never_completes(self, function: ast.stmt) -> bool:
        """On ROCm: whether a function's body always ends in a call of a CUDA-only operator (it
        can neither run past its end nor reach a `return` before one): nothing it does matters there."""
        if not (self.rocm and self.platforms.cuda_ops) or self._falls[id(function)] or not isinstance(
                function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False  # (no such operator: nothing to look for in the function)
        own = _own_nodes(function)
        ends_in_op = [node for node in own if isinstance(node, ast.Call) and self._cuda_op(node) and self.reachable(node)]
        returns = (node for node in own if isinstance(node, ast.Return) and self.reachable(node))
        return bool(ends_in_op) and all(node.value in ends_in_op for node in returns)

    def _try(self, node: ast.Try) -> bool:
        body = self._block(node.body, True)
        orelse = self._block(node.orelse, body)
        handlers = [self._block(handler.body, True) for handler in node.handlers]
        final = self._block(node.finalbody, True)
        return (orelse or any(handlers)) and final

    def _skips(self, decorator: ast.expr) -> bool:
        """Whether a decorator skips the test on the platform (`skipif(T)` with T true there,
        `skipUnless(T)` with T false, an unconditional skip, on ROCm `@skipIfRocm`)."""
        if isinstance(decorator, ast.Call):
            name = last_name(decorator.func)
            test = decorator.args[0] if decorator.args else None
            if isinstance(test, ast.Constant) and isinstance(test.value, str):
                return False  # pytest evaluates a string condition itself
            if name in ("skipif", "skipIf") and test is not None:
                return self.truth(test) is True
            if name == "skipUnless" and test is not None:
                return self.truth(test) is False
            decorator = decorator.func
        spelled = dotted(decorator) or ("",)
        unconditional = spelled[-2:] in (("mark", "skip"), ("unittest", "skip"))
        return unconditional or (self.rocm and spelled[-1] in ROCM_SKIP_DECORATORS)

    def _module_skip(self, statement: ast.stmt) -> bool:
        """`pytest.skip(..., allow_module_level=True)` at module level, alone or as the first
        statement under a test true on the platform (torchao: `if is_ROCM(): pytest.skip(...)`):
        no test of the module runs there, so nothing in it is reached for them."""
        if isinstance(statement, ast.If):
            if self.truth(statement.test) is not True or not statement.body:
                return False
            statement = statement.body[0]
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            return False
        call = statement.value
        return _spelled(call.func) == ("pytest", "skip") and any(
            keyword.arg == "allow_module_level" and isinstance(keyword.value, ast.Constant) and keyword.value.value
            for keyword in call.keywords)

    def _skip_mark(self, statement: ast.stmt) -> bool:
        """`pytestmark = pytest.mark.skipif(T, ...)` (or a list of marks) with T true on the platform."""
        if not (isinstance(statement, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == "pytestmark" for target in statement.targets)):
            return False
        value = statement.value
        marks = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
        return any(isinstance(mark, ast.Call) and self._skips(mark) for mark in marks)


def _value_of(held: frozenset[object]) -> Value:
    """(truth, is None) of a value that is one of the constants `held` (None where they differ)."""
    truths, nones = {bool(item) for item in held}, {item is None for item in held}
    return (truths.pop() if len(truths) == 1 else None), (nones.pop() if len(nones) == 1 else None)


def _own_nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of a function's body, not those of the functions, lambdas and classes in it."""
    found, stack = [], list(function.body)
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _spelled(node: ast.expr) -> tuple[str, ...] | None:
    """The dotted name as written (`current_platform.is_rocm()` -> (..., "is_rocm", CALL))."""
    if isinstance(node, ast.Call):
        if node.args or node.keywords:
            return None
        base = dotted(node.func)
        return None if base is None else (*base, CALL)
    return dotted(node)


def _all(truths) -> bool | None:  # noqa: ANN001 - an iterable of truths
    """Three-valued `and` of a comparison chain's links."""
    result: bool | None = True
    for truth in truths:
        if truth is False:
            return False
        if truth is None:
            result = None
    return result
