"""Hypothesis strategies for `#if` expressions, in the dialect an oracle understands.

GCC reads the whole C++ preprocessor grammar. pcpp (driven through the verifier's
normalisation, `hipify_guard.fix.verify.pcpp_value`) has its own limits, so its dialect leaves
them out:

- `%` is Python's floored modulo (`-7 % 2` is 1, C says -1): no `%`;
- `/` divides in floating point (inexact above 2**53): only values below 2**32 are divided;
- a comparison of unsigned operands has an unsigned type (C: int, so `(1u < 0) - 1` is -1):
  no unsigned values at all;
- `a ? b : c ? d : e` groups from the left: every `?:` is parenthesised;
- negative shift counts, multi-character and `u`/`U`/`u8` character literals are rejected, and
  `'\\377'` is 255: shift counts are `& 63`, and the characters are plain ASCII ones.

Every expression is free of division by zero: a divisor is always written `((...) | 1)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from hipify_guard.cpp.numbers import INT_MAX, UINT_MAX

DEFINED_MACROS = ("A", "B", "C")
UNDEFINED_MACROS = ("D", "E")
MACRO_VALUES = (0, 1, -1, 2, -3, 7, 100, 9000, 11000, 11080, 12040, 2**31, 2**40)


@dataclass(frozen=True)
class Dialect:
    """What an oracle understands."""

    name: str
    binary_ops: tuple[str, ...]
    unary_ops: tuple[str, ...]
    chars: tuple[str, ...]
    free_shift_counts: bool
    exact_division: bool  # `/` on any 64-bit value (pcpp divides in floating point: inexact above 2**53)
    unsigned: bool  # unsigned literals (a `u` suffix, or too large for a signed type)
    bare_ternaries: bool  # `?:` without parentheses


_COMMON_BINARY = (
    "||", "&&", "|", "^", "&", "==", "!=", "<", ">", "<=", ">=", "<<", ">>", "+", "-", "*", "/",
    "or", "and", "bitor", "xor", "bitand", "not_eq",
)
_COMMON_UNARY = ("!", "~", "-", "+", "not", "compl")
_COMMON_CHARS = ("'a'", "'0'", "'\\n'", "'\\t'", "'\\0'", "'\\x41'", "'\\''", "'\\\\'", "'\"'", "L'x'", "'\\101'")

GCC = Dialect("gcc", (*_COMMON_BINARY, "%"), _COMMON_UNARY,
              (*_COMMON_CHARS, "'\\377'", "'\\x80'", "'ab'", "'abcd'", "u'x'", "U'x'", "u8'a'", "L'\\xff'"),
              free_shift_counts=True, exact_division=True, unsigned=True, bare_ternaries=True)
PCPP = Dialect("pcpp", _COMMON_BINARY, _COMMON_UNARY, _COMMON_CHARS,
               free_shift_counts=False, exact_division=False, unsigned=False, bare_ternaries=False)

_SUFFIXES = ("", "u", "U", "l", "L", "ul", "lu", "UL", "LU", "uL", "Lu", "ll", "LL", "ull", "llu",
             "ULL", "LLU", "uLL", "LLu", "Ull", "llU")
_SIZE_SUFFIXES = ("z", "Z", "uz", "zu", "UZ", "Zu")
_INTERESTING_VALUES = (0, 1, 7, 8, 9, 10, 15, 16, 63, 64, 65, 255, 9000, 10000, 11000, 11080, 12040,
                       2**31 - 1, 2**31, 2**32, INT_MAX - 1, INT_MAX, INT_MAX + 1, UINT_MAX)


def _separated(digits: str, group: int) -> str:
    """Digit separators every `group` digits from the right (0: none)."""
    if group == 0 or len(digits) <= group:
        return digits
    head = len(digits) % group or group
    parts = [digits[:head]] + [digits[i : i + group] for i in range(head, len(digits), group)]
    return "'".join(parts)


@st.composite
def integer_literals(draw: st.DrawFn, unsigned: bool = True) -> str:
    """A literal in any base, with digit separators and any valid suffix (signed ones only
    unless `unsigned`)."""
    top = UINT_MAX if unsigned else INT_MAX
    value = draw(st.one_of(st.integers(0, 20), st.sampled_from([v for v in _INTERESTING_VALUES if v <= top]),
                           st.integers(0, top)))
    base = draw(st.sampled_from(("dec", "hex", "HEX", "oct", "bin")))
    group = draw(st.sampled_from((0, 0, 1, 2, 3, 4)))
    if base == "dec":
        text = _separated(str(value), group)
    elif base in ("hex", "HEX"):
        digits = format(value, "x" if base == "hex" else "X")
        text = draw(st.sampled_from(("0x", "0X"))) + _separated(digits, group)
    elif base == "oct":
        text = "0" + _separated(format(value, "o"), group) if value else "0"
    else:
        text = draw(st.sampled_from(("0b", "0B"))) + _separated(format(value, "b"), group)
    suffixes = _SUFFIXES + (_SIZE_SUFFIXES if value <= 2**31 else ())
    if not unsigned:
        suffixes = tuple(suffix for suffix in suffixes if "u" not in suffix.lower())
    return text + draw(st.sampled_from(suffixes))


def _atoms(dialect: Dialect) -> st.SearchStrategy[str]:
    names = st.sampled_from(DEFINED_MACROS + UNDEFINED_MACROS)
    return st.one_of(
        integer_literals(dialect.unsigned),
        st.sampled_from(dialect.chars),
        names,
        st.sampled_from(("true", "false")),
        names.map(lambda name: f"defined {name}"),
        names.map(lambda name: f"defined({name})"),
        names.map(lambda name: f"defined ( {name} )"),
    )


def _binary(dialect: Dialect, operand: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw: st.DrawFn) -> str:
        left, op, right = draw(operand), draw(st.sampled_from(dialect.binary_ops)), draw(operand)
        if op in ("/", "%"):
            right = f"(({right}) | 1)"  # never zero, whatever the precedence around it
            if not dialect.exact_division:  # the operands must be exactly these: parenthesise
                return f"((({left}) & 4294967295) {op} {right})"
        elif op in ("<<", ">>") and not dialect.free_shift_counts:
            return f"({left} {op} (({right}) & 63))"
        return _maybe_parenthesised(draw, f"{left} {op} {right}")

    return build()


def _maybe_parenthesised(draw: st.DrawFn, text: str) -> str:
    return f"({text})" if draw(st.booleans()) else text


def expressions(dialect: Dialect) -> st.SearchStrategy[str]:
    """Expressions mixing every operator, precedence left to the parsers (parentheses at random)."""

    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        unary = st.tuples(st.sampled_from(dialect.unary_ops), children).map(lambda pair: f"{pair[0]} {pair[1]}")
        wrapped = st.booleans() if dialect.bare_ternaries else st.just(True)
        ternary = st.tuples(children, children, children, wrapped).map(
            lambda parts: ("({} ? {} : {})" if parts[3] else "{} ? {} : {}").format(*parts[:3])
        )
        return st.one_of(unary, _binary(dialect, children), _binary(dialect, children), ternary)

    return st.recursive(_atoms(dialect), extend, max_leaves=12)


def macro_values() -> st.SearchStrategy[dict[str, int]]:
    """Values for the defined macros of a batch."""
    return st.fixed_dictionaries({name: st.sampled_from(MACRO_VALUES) for name in DEFINED_MACROS})
