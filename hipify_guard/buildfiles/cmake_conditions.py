"""CMake `if()` arguments -> a Condition of `build_conditions` (which builds it holds in).

CMake's precedence: parentheses, unary tests (`DEFINED X`, `TARGET t`, `EXISTS p` ...), binary
tests (`X STREQUAL "HIP"`, `V VERSION_LESS 6.1` ...), `NOT`, `AND`, `OR`. A test holds where the
names and values it reads say (`VLLM_GPU_LANG STREQUAL "HIP"`: ROCm builds, all of them;
`TARGET hip::device`: some ROCm builds); anything else is UNKNOWN.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Sequence

from .build_conditions import (
    ROCM,
    UNKNOWN,
    Condition,
    Holds,
    atom,
    compared_holds,
    hip_on_nvidia_test,
    name_holds,
    value_holds,
)
from .cmake_syntax import Argument

_UNARY = frozenset({"EXISTS", "COMMAND", "DEFINED", "TARGET", "POLICY", "TEST", "IS_DIRECTORY", "IS_SYMLINK",
                    "IS_ABSOLUTE", "IS_READABLE", "IS_WRITABLE", "IS_EXECUTABLE"})
_EQUALITY = frozenset({"STREQUAL", "EQUAL", "MATCHES"})
_BINARY = frozenset({"LESS", "GREATER", "LESS_EQUAL", "GREATER_EQUAL", "STRLESS", "STRGREATER", "STRLESS_EQUAL",
                     "STRGREATER_EQUAL", "VERSION_EQUAL", "VERSION_LESS", "VERSION_GREATER", "VERSION_LESS_EQUAL",
                     "VERSION_GREATER_EQUAL", "IN_LIST", "IS_NEWER_THAN", "PATH_EQUAL"}) | _EQUALITY
_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_.+-]+)\}")
_CONSTANT = re.compile(r"(?i)(?:on|off|yes|no|y|n|true|false|ignore|notfound|[+-]?[0-9.]+|.*-notfound)")


def parse_condition(arguments: Sequence[Argument], contrasted: Container[str] = frozenset(),
                    set_true: Callable[[str], Holds | None] | None = None) -> Condition:
    """The Condition of an `if()`/`elseif()`/`while()`; UNKNOWN where it cannot be read.

    `contrasted`: the variables some condition compares with a ROCm value (see `compared_holds`);
    `set_true`: where the project sets a variable true, for a name that says nothing itself
    (openmm's `OPENMM_BUILD_CUDA_LIB`, set ON only under `if(CUDAToolkit_FOUND)`).
    """
    parser = _Parser(arguments, contrasted, set_true)
    try:
        condition = parser.any_of()
    except IndexError:
        return atom(UNKNOWN)
    return condition if parser.position == len(arguments) else atom(UNKNOWN)


def contrasted_names(conditions: Iterable[Sequence[Argument]]) -> frozenset[str]:
    """The variables these conditions compare with a ROCm value (`FBGEMM_BUILD_VARIANT STREQUAL BUILD_VARIANT_ROCM`)."""
    names = set()
    for arguments in conditions:
        for index in range(1, len(arguments) - 1):
            if not arguments[index].quoted and arguments[index].text in _EQUALITY:
                left, right = arguments[index - 1], arguments[index + 1]
                for name, value in ((_name(left), right), (_name(right), left)):
                    if name and value_holds(value.text).platform == ROCM:
                        names.add(name)
    return frozenset(names)


class _Parser:
    def __init__(self, arguments: Sequence[Argument], contrasted: Container[str],
                 set_true: Callable[[str], Holds | None] | None) -> None:
        self.arguments = arguments
        self.contrasted = contrasted
        self.set_true = set_true
        self.position = 0

    def _keyword(self, *names: str) -> bool:
        if self.position < len(self.arguments):
            argument = self.arguments[self.position]
            if not argument.quoted and argument.text in names:
                self.position += 1
                return True
        return False

    def any_of(self) -> Condition:
        parts = [self.all_of()]
        while self._keyword("OR"):
            parts.append(self.all_of())
        return parts[0] if len(parts) == 1 else ("or", tuple(parts))

    def all_of(self) -> Condition:
        parts = [self.negation()]
        while self._keyword("AND"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else ("and", tuple(parts))

    def negation(self) -> Condition:
        if self._keyword("NOT"):
            return ("not", self.negation())
        return self.primary()

    def primary(self) -> Condition:
        if self._keyword("("):
            inner = self.any_of()
            if not self._keyword(")"):
                raise IndexError("unbalanced")
            return inner
        first = self.arguments[self.position]
        self.position += 1
        if not first.quoted and first.text in _UNARY:
            operand = self.arguments[self.position]
            self.position += 1
            return atom(_unary(first.text, operand))
        if self.position < len(self.arguments):
            operator = self.arguments[self.position]
            if not operator.quoted and operator.text in _BINARY:
                right = self.arguments[self.position + 1]
                self.position += 2
                return _vendor(first, operator.text, right) or atom(_binary(first, operator.text, right,
                                                                             self.contrasted))
        return atom(self._truth(first))

    def _truth(self, argument: Argument) -> Holds:
        name = _name(argument)
        if not name:
            return UNKNOWN
        holds = name_holds(name)
        if holds == UNKNOWN and self.set_true is not None:
            return self.set_true(name) or holds
        return holds


def _name(argument: Argument) -> str | None:
    """The variable an operand reads: `X`, `${X}`, `"${X}"`; None for literal values and environment variables."""
    text = argument.text
    match = _REFERENCE.fullmatch(text)
    if match:
        return match.group(1)
    if argument.quoted or "ENV{" in text or "$" in text or _CONSTANT.fullmatch(text):
        return None
    return text


def _unary(operator: str, operand: Argument) -> Holds:
    if operator not in ("DEFINED", "TARGET"):
        return UNKNOWN
    name = _name(operand)
    holds = name_holds(name) if name else UNKNOWN
    return Holds(holds.platform, False)


def _vendor(left: Argument, operator: str, right: Argument) -> Condition | None:
    """A comparison of the HIP compiler's vendor (`CMAKE_HIP_COMPILER_ID STREQUAL "NVIDIA"`), else None."""
    if operator not in _EQUALITY:
        return None
    name, value = (_name(left), right) if _name(left) is not None else (_name(right), left)
    return hip_on_nvidia_test(name, value.text) if name is not None else None


def _binary(left: Argument, operator: str, right: Argument, contrasted: Container[str]) -> Holds:
    left_name, right_name = _name(left), _name(right)
    if operator in _EQUALITY:
        if left_name is not None and value_holds(left.text).platform is None:
            holds = compared_holds(left_name, right.text, True, contrasted)
        elif right_name is not None and value_holds(right.text).platform is None:
            holds = compared_holds(right_name, left.text, True, contrasted)
        else:
            holds = UNKNOWN
        return holds if operator != "MATCHES" else Holds(holds.platform, False)
    found = [name_holds(name) for name in (left_name, right_name) if name] + [value_holds(left.text)]
    platforms = {holds.platform for holds in found if holds.known}
    return Holds(platforms.pop(), False) if len(platforms) == 1 else UNKNOWN
