"""The platform model of spec §3: CUDA configurations and ROCm models over the macro sets of §4.

A platform fixes some macros (always defined with a value, or always undefined), renames others
(PyTorch's hipify turns CUDA_VERSION into TORCH_HIP_VERSION) and leaves the rest free. The
outcome of a condition on a platform is found by a sweep: a comparison `X op c` changes value
only at `c`, so per free macro it suffices to try "undefined" and the constants of the
expression (written, or folded from a constant operand such as `(255 | 1)`) minus one,
themselves and plus one, with 0 and 1 among them (the value of an undefined macro, of `defined`
and of a comparison), their negations when the expression adds, subtracts or complements, and
products and quotients of pairs of constants for guards that do arithmetic on a version.

That is exact where a macro's value is only compared with a constant (or with another macro) or
used as a truth value. A free macro whose value goes into arithmetic, a bitwise operator or a
shift (`X / 1000`, `~X`, `X & 4`) is *approximate*: the result can change between critical
values. A sweep over such a term proves only what it finds (two values: DEPENDS; a satisfying
configuration), never that a value is constant or a path unsatisfiable (`inexact`), unless the
macro has a range (PyTorch's TORCH_HIP_VERSION), which the deciding sweeps then try value by
value (`exhaustive`).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import field

from ..core.records import record
from ..cpp.evaluator import EMPTY, Configuration, EvalError, evaluate, truth
from ..cpp.nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary, children, walk

MAX_CONFIGURATIONS = 50_000
MAX_EVALUATIONS = 200_000  # configurations x literals of one satisfiability sweep
UNDEFINED = None

CUDA_VERSION_MACROS = (
    "CUDA_VERSION", "CUDART_VERSION",
    "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__",
)
CUDA_ARCH_MACROS = ("__CUDA_ARCH__",)
ROCM_MACROS = (
    "USE_ROCM", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIP_PLATFORM_NVIDIA__",
    "__HIP_PLATFORM_NVCC__", "__HIPCC__", "__HIP__", "__HIP_DEVICE_COMPILE__",
    "HIP_VERSION", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH",
    "ROCM_VERSION", "TORCH_HIP_VERSION",
)
PLATFORM_MACROS = ("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_HCC__", "__HIP_PLATFORM_NVCC__")
TORCH_HIP_VERSION_RANGE = (100, 1999)  # HIP 1.0 .. 19.99 as major*100 + minor


class Outcome(enum.Enum):
    """The value of a condition over every configuration of a platform."""

    TRUE = "true"
    FALSE = "false"
    DEPENDS = "depends"  # true in some configurations, false in others
    ERROR = "error"  # no configuration gives a value (e.g. an empty macro used as a number)
    UNKNOWN = "unknown"  # too many configurations to decide


@record(slots=True, eq=False)
class Platform:
    """A CUDA configuration set or a ROCm model."""

    name: str
    title: str
    is_rocm: bool
    fixed: Mapping[str, int | str | None] = field(default_factory=dict)
    renames: Mapping[str, str] = field(default_factory=dict)
    ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    build: str = ""  # the facts of a known build on top of the model (`builds.on_build`), as flags


@record(slots=True)
class Term:
    """An expression with the names, opaque calls and constants that its sweep needs."""

    node: Node
    names: frozenset[str]
    calls: frozenset[str]
    constants: frozenset[int]
    valued: frozenset[str] | None = None  # the names read as values, not only by `defined` (None: all)
    approximate: frozenset[str] = frozenset()  # names and call keys whose values go into arithmetic

    def reads_value(self, name: str) -> bool:
        """Whether the value of `name` matters (it is used outside `defined`)."""
        return self.valued is None or name in self.valued


_COMPARISONS = frozenset(("==", "!=", "<", ">", "<=", ">="))
_LOGICAL, _COMPARED, _ARITHMETIC = 2, 1, 0  # how a value is used (see `_approximate`)


def term(node: Node) -> Term:
    """Collect what the sweep of `node` needs."""
    names, calls, constants, valued = set(), set(), {0, 1}, set()
    arithmetic = additive = related = False
    items = list(walk(node))
    variable: set[int] = set()  # the ids of the nodes whose value depends on a macro
    for item in reversed(items):  # operands before the operators that use them
        operands = children(item)
        if isinstance(item, (Identifier, Defined, Call)) or any(id(operand) in variable for operand in operands):
            variable.add(id(item))
            constants.update(_folded(operands, variable))
    for item in items:
        if isinstance(item, (Identifier, Defined)):
            names.add(item.name)
            if isinstance(item, Identifier):
                valued.add(item.name)
        elif isinstance(item, Call):
            calls.add(item.key)
        elif isinstance(item, Number):
            constants.add(item.value)
        elif isinstance(item, Binary) and item.op in ("*", "/", "%", "<<", ">>"):
            arithmetic = True
        if isinstance(item, (Binary, Unary)) and item.op in ("+", "-", "~"):
            additive = True  # `~x` is `-x - 1`
        if isinstance(item, Binary) and item.op in _COMPARISONS and id(item.left) in variable and id(item.right) in variable:
            related = True  # `X <= Y`: both above every constant (or in one gap) is a case of its own
    return Term(node, frozenset(names), frozenset(calls), frozenset(_critical(constants, arithmetic, additive, related)),
                frozenset(valued), frozenset(_approximate(node, variable)))


def _folded(operands: tuple[Node, ...], variable: set[int]) -> Iterator[int]:
    """The values of the constant operands (`~'a'`, `(255 | 1)`) of an operator that reads a macro."""
    for operand in operands:
        if id(operand) not in variable and not isinstance(operand, Number):
            try:
                yield evaluate(operand, {})[0]
            except EvalError:
                continue


def _approximate(node: Node, variable: set[int]) -> Iterator[str]:
    """The names and calls whose values go into arithmetic: everything but a truth value (`!X`,
    `X && Y`, `#if X`) or an operand of a comparison with a constant or with another macro."""
    stack = [(node, _LOGICAL)]
    while stack:
        item, use = stack.pop()
        if isinstance(item, (Identifier, Call)):
            if use == _ARITHMETIC:
                yield item.name if isinstance(item, Identifier) else item.key
        elif isinstance(item, Paren):
            stack.append((item.inner, use))
        elif isinstance(item, Unary):
            stack.append((item.operand, _operand_use(item.op, use)))
        elif isinstance(item, Ternary):
            stack += [(item.cond, _LOGICAL), (item.then, use), (item.otherwise, use)]
        elif isinstance(item, Binary):
            if item.op in ("&&", "||"):
                stack += [(item.left, _LOGICAL), (item.right, _LOGICAL)]
            elif item.op in _COMPARISONS:
                plain = (id(item.left) not in variable or id(item.right) not in variable
                         or _is_name(item.left) and _is_name(item.right))
                side = _COMPARED if plain else _ARITHMETIC
                stack += [(item.left, side), (item.right, side)]
            else:
                stack += [(item.left, _ARITHMETIC), (item.right, _ARITHMETIC)]


def _operand_use(op: str, use: int) -> int:
    """How the operand of a unary operator is used: `+X` like X, `!X` as a truth value, `-X` as
    one only where X's truth is all that matters, `~X` in arithmetic."""
    if op == "+":
        return use
    return _LOGICAL if op == "!" or op == "-" and use == _LOGICAL else _ARITHMETIC


def _is_name(node: Node) -> bool:
    while isinstance(node, Paren) or isinstance(node, Unary) and node.op == "+":
        node = node.inner if isinstance(node, Paren) else node.operand
    return isinstance(node, (Identifier, Call, Defined))


def inexact(item: Term, platform: Platform) -> bool:
    """Whether a free macro of `platform` without a range is approximate in `item` (module doc)."""
    for name in item.approximate:
        target = platform.renames.get(name, name)
        if target not in platform.fixed and target not in platform.ranges:
            return True
    return False


def _critical(constants: set[int], arithmetic: bool, additive: bool, related: bool = False) -> set[int]:
    """Each constant (0 and 1 among them: an undefined macro, `defined`, a comparison) minus one,
    itself and plus one (and two, if the expression compares two macros: `X <= Y || Y <= 97` is
    false only at Y = 98, X = 99); negated too if the expression adds; products and quotients of
    pairs if it multiplies."""
    values = set()
    steps = (-2, -1, 0, 1, 2) if related else (-1, 0, 1)
    for constant in constants:
        values.update(constant + step for step in steps)
        if additive:  # `X + c` is 0 at X == -c
            values.update((-constant - 1, -constant, -constant + 1))
    if arithmetic:
        for a, b in itertools.permutations(constants, 2):
            if b not in (0, 1, -1):
                values.update((a * b - 1, a * b, a * b + 1, a // b, a % b))
    return values


@record(slots=True)
class MacroSet:
    """Which macros are CUDA version macros and which are ROCm macros (spec §4)."""

    cuda_version_macros: frozenset[str] = frozenset(CUDA_VERSION_MACROS)
    rocm_macros: frozenset[str] = frozenset(ROCM_MACROS)
    rocm_macro: str = "USE_ROCM"  # the rewrites' ROCm macro where nothing better is known (spec §13.2)
    rocm_version_macro: str = "ROCM_VERSION"
    # Whether the configuration names them (`rocm-macro`, `rocm-version-macro`): then every ROCm
    # build defines them, as the configuration says.
    rocm_macro_configured: bool = False
    rocm_version_macro_configured: bool = False


@record(slots=True)
class UserModel:
    """A ROCm model from the configuration: macro definitions on top of what every ROCm model has.

    Each definition is a value, EMPTY (defined with no value) or UNDEFINED; the CUDA version
    macros it does not mention are undefined, as in native HIP.
    """

    name: str
    title: str
    definitions: tuple[tuple[str, int | str | None], ...]

    def platform(self, macros: MacroSet) -> Platform:
        """The model as a Platform for a macro set."""
        cuda_undefined = {name: UNDEFINED for name in macros.cuda_version_macros}
        return Platform(self.name, self.title, True, {**cuda_undefined, **_rocm_common(macros), **dict(self.definitions)})


def _rocm_common(macros: MacroSet) -> dict[str, int | str | None]:
    """What every ROCm model fixes (spec §3; not the rewrites' macro, which only a build's
    evidence defines, spec §13.1: `Settings.rocm_models`)."""
    return {
        "__HIP_PLATFORM_AMD__": EMPTY,
        "__HIP_PLATFORM_NVIDIA__": UNDEFINED,
        "__HIP_PLATFORM_NVCC__": UNDEFINED,
        "__CUDACC__": UNDEFINED,
    }


def builtin_models(macros: MacroSet) -> dict[str, Platform]:
    """The ROCm models `hip` and `torch-hipify` for a macro set."""
    common = _rocm_common(macros)
    cuda_undefined = {name: UNDEFINED for name in macros.cuda_version_macros}
    hip = Platform("hip", "native HIP", True, {**cuda_undefined, **common})
    torch_fixed = {name: UNDEFINED for name in macros.cuda_version_macros if name != "CUDA_VERSION"}
    torch = Platform(  # PyTorch's own build and cpp_extension (since 1.11) define USE_ROCM in every ROCm compile
        "torch-hipify", "PyTorch's hipify", True, {**torch_fixed, **common, "USE_ROCM": 1},
        renames={"CUDA_VERSION": "TORCH_HIP_VERSION"},
        ranges={"TORCH_HIP_VERSION": TORCH_HIP_VERSION_RANGE},
    )
    return {hip.name: hip, torch.name: torch}


def cuda_platform(macros: MacroSet) -> Platform:
    """Every CUDA configuration: the ROCm macros undefined, everything else free."""
    undefined = {name: UNDEFINED for name in (*macros.rocm_macros, macros.rocm_macro, macros.rocm_version_macro)}
    return Platform("cuda", "CUDA", False, undefined)


def outcome(item: Term, platform: Platform) -> Outcome:
    """The value of a condition on `platform`, other macros left free."""
    configs = configurations((item,), platform, exhaustive=True)
    if configs is None:
        return Outcome.UNKNOWN
    seen: set[bool] = set()
    for config in configs:
        try:
            seen.add(truth(item.node, config))
        except EvalError:
            continue
        if len(seen) == 2:
            return Outcome.DEPENDS
    if inexact(item, platform):
        return Outcome.UNKNOWN
    if not seen:
        return Outcome.ERROR
    return Outcome.TRUE if True in seen else Outcome.FALSE


def satisfiable(literals: Sequence[tuple[Term, bool]], platform: Platform) -> bool:
    """Whether some configuration of `platform` makes every (condition, wanted value) hold.

    Literals that share no macro are decided separately; a literal whose value is unknown
    (an evaluation error, too many configurations, an inexact sweep) is assumed to be satisfiable.
    """
    for component in _components(literals, platform):
        if any(inexact(item, platform) for item, _ in component):
            continue
        configs = configurations([item for item, _ in component], platform, exhaustive=True, literals=len(component))
        if configs is None:
            continue
        if not any(_holds(component, config) for config in configs):
            return False
    return True


def _holds(literals: Sequence[tuple[Term, bool]], config: Configuration) -> bool:
    for item, wanted in literals:
        try:
            if truth(item.node, config) != wanted:
                return False
        except EvalError:
            continue
    return True


def _components(literals: Sequence[tuple[Term, bool]], platform: Platform) -> list[list[tuple[Term, bool]]]:
    """Group literals that share a free macro (union-find over variable names)."""
    parent: dict[str, str] = {}

    def find(name: str) -> str:
        while parent.setdefault(name, name) != name:
            parent[name] = name = parent[parent[name]]  # path halving: near-constant time
        return name

    keyed = []
    for index, literal in enumerate(literals):
        variables = _variables(literal[0], platform)
        anchor = find(f"#{index}")
        for variable in variables:
            parent[find(variable)] = anchor
        keyed.append((literal, anchor))
    groups: dict[str, list[tuple[Term, bool]]] = {}
    for literal, anchor in keyed:
        groups.setdefault(find(anchor), []).append(literal)
    return list(groups.values())


def _variables(item: Term, platform: Platform) -> set[str]:
    renamed = {platform.renames.get(name, name) for name in item.names}
    return {name for name in renamed if name not in platform.fixed} | set(item.calls)


def configurations(items: Sequence[Term], platform: Platform, exhaustive: bool = False,
                   literals: int = 1) -> Iterator[dict[str, int | str]] | None:
    """Every critical configuration for `items` on `platform`, or None if there are too many (or
    too many to try against `literals` literals each: MAX_EVALUATIONS).
    `exhaustive`: a macro with a range that is approximate in an item takes every value of it."""
    constants = frozenset().union(*(item.constants for item in items))
    targets: dict[str, list[str]] = {}
    for name in sorted(frozenset().union(*(item.names for item in items))):
        targets.setdefault(platform.renames.get(name, name), []).append(name)
    constants |= _fixed_values(targets, platform)
    approximate = frozenset().union(*(item.approximate for item in items)) if exhaustive else frozenset()
    choices = [_candidates(target, platform, constants, any(item.reads_value(name) for item in items for name in names),
                           whole_range=not approximate.isdisjoint(names))
               for target, names in targets.items()]
    calls = sorted(frozenset().union(*(item.calls for item in items)))
    choices += [sorted(constants)] * len(calls)
    total = 1
    for options in choices:
        total *= len(options)
        if total > MAX_CONFIGURATIONS or total * literals > MAX_EVALUATIONS:
            return None
    keys = [*targets.values(), *([call] for call in calls)]
    return _assignments(keys, choices)


def _fixed_values(targets: Iterable[str], platform: Platform) -> frozenset[int]:
    """The values a platform gives macros of the expression (`-DROCM_VERSION=60200` of a build),
    and their neighbours: `FOO >= ROCM_VERSION` changes value there like `FOO >= 60200`."""
    values = (platform.fixed.get(target) for target in targets)
    return frozenset(value + step for value in values if isinstance(value, int) for step in (-1, 0, 1))


def _assignments(keys: list[list[str]], choices: list[list[int | str | None]]) -> Iterator[dict[str, int | str]]:
    for values in itertools.product(*choices):
        config: dict[str, int | str] = {}
        for names, value in zip(keys, values):
            if value is not UNDEFINED:
                for name in names:
                    config[name] = value
        yield config


def _candidates(target: str, platform: Platform, constants: frozenset[int], valued: bool = True,
                whole_range: bool = False) -> list[int | str | None]:
    """The values to try for a free macro: undefined and the critical values (or its whole range);
    a macro only ever tested with `defined` needs one defined value (4 such tests: 16
    configurations, not 6,561)."""
    if target in platform.fixed:
        return [platform.fixed[target]]
    bounds = platform.ranges.get(target)
    if not valued:
        return [UNDEFINED, bounds[0] if bounds else 1]
    if bounds is None:
        return [UNDEFINED, *sorted(constants)]
    low, high = bounds
    if whole_range:
        return [UNDEFINED, *range(low, high + 1)]
    return [UNDEFINED, low, *sorted(v for v in constants if low < v < high), high]
