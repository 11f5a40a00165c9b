"""The `#if` expression parser and evaluator: unit tests, then differential tests against
pcpp's evaluator (the verifier's second opinion) and against `gcc -E` on generated expressions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_tool
from expression_strategies import GCC, PCPP, expressions, macro_values
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hipify_guard.cpp.evaluator import EMPTY, EvalError, evaluate, is_unsigned, truth
from hipify_guard.cpp.nodes import Binary, Call, Defined, Identifier, Number, Paren, Ternary, Unary, walk
from hipify_guard.cpp.numbers import INT_MAX, UINT_MAX
from hipify_guard.cpp.parser import MAX_DEPTH, MAX_NESTING, ParseError, parse
from hipify_guard.fix.verify import pcpp_value

BATCH = 150  # distinct expressions per example (one gcc run)
BATCHES = 10  # hypothesis examples per differential test
# A failure names the exact expressions that disagree, so shrinking a batch would only cost time.
DIFFERENTIAL = settings(max_examples=BATCHES, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
                        suppress_health_check=list(HealthCheck))


def tree(text: str | bytes):  # noqa: ANN201 - any node type
    data = text.encode("latin-1") if isinstance(text, str) else text
    return parse(data, 0, len(data))


def value(text: str, config: dict | None = None) -> tuple[int, bool]:
    return evaluate(tree(text), config or {})


def signed(text: str, config: dict | None = None) -> int:
    number, unsigned = value(text, config)
    assert not unsigned, f"{text} should be signed"
    return number


@pytest.fixture
def cli_recursion_limit():
    """The CLI raises the recursion limit (cli.main); deep expressions rely on it."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    yield
    sys.setrecursionlimit(old)


# -- grammar ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("100 / 10 / 5", 2), ("7 % 4 * 2", 6),
    ("1 << 2 + 1", 8), ("1 + 2 << 1", 6), ("1 < 2 == 1", 1), ("3 > 2 > 1", 0), ("1 == 1 != 0", 1),
    ("6 & 3 == 3", 0), ("1 | 2 ^ 3 & 4", 3), ("1 ^ 1 | 1", 1), ("0 || 1 && 0", 0), ("1 || 0 && 0", 1),
    ("2 & 1 || 4", 1), ("- 2 * 3", -6), ("! 0 + 1", 2), ("~ 0 & 5", 5), ("1 + - + - 1", 2),
])
def test_precedence_and_associativity(text: str, expected: int) -> None:
    assert signed(text) == expected


def test_binary_tree_shape_follows_precedence() -> None:
    node = tree("A || B && C | D")
    assert isinstance(node, Binary) and node.op == "||"
    assert node.right.op == "&&" and node.right.right.op == "|"


@pytest.mark.parametrize(("text", "expected"), [
    ("1 ? 2 : 3", 2), ("0 ? 2 : 3", 3), ("0 ? 1 : 0 ? 3 : 4", 4), ("1 ? 0 ? 5 : 6 : 7", 6),
    ("1 ? 2 : 3 + 10", 2), ("0 || 0 ? 8 : 9", 9), ("(1 ? 2 : 3) * 4", 8),
])
def test_ternary(text: str, expected: int) -> None:
    assert signed(text) == expected


def test_ternary_is_right_associative() -> None:
    node = tree("A ? B : C ? D : E")
    assert isinstance(node, Ternary) and isinstance(node.otherwise, Ternary)


@pytest.mark.parametrize(("text", "expected"), [
    ("!0", 1), ("!5", 0), ("!!5", 1), ("~0", -1), ("~5", -6), ("-5", -5), ("- -5", 5), ("+3", 3),
    ("-(2 - 7)", 5), ("not 0", 1), ("compl 0", -1),
])
def test_unary(text: str, expected: int) -> None:
    assert signed(text) == expected


# -- shifts and integer semantics (GCC, 64 bits) ----------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("1 << 62", 1 << 62), ("1 << 63", -(1 << 63)), ("1 << 64", 0), ("1 << 100", 0),
    ("-1 >> 1", -1), ("-8 >> 1", -4), ("-8 >> 70", -1), ("8 >> 70", 0), ("1 >> -1", 2),
    ("4 << -1", 2), ("-1 << 3", -8), ("(1 << 63) >> 63", -1),
])
def test_shifts_follow_gcc(text: str, expected: int) -> None:
    assert signed(text) == expected


def test_shift_result_takes_the_left_operand_type() -> None:
    assert value("1u << 63") == (1 << 63, True)
    assert value("(1u << 63) >> 63") == (1, True)
    assert value("1 << 2u") == (4, False)


@pytest.mark.parametrize(("text", "expected"), [
    ("-1 > 0u", 1), ("-1 < 0", 1), ("0u - 1 == 18446744073709551615", 1), ("-1 / 2u > 0", 1),
    ("(0u - 1) / 2 == 9223372036854775807", 1), ("1 - 2u > 0", 1), ("(1 ? -1 : 0u) > 0", 1),
    ("(0 ? 1u : -1) > 0", 1), ("(1 < 2) - 2 < 0", 1), ("(1 && 1u) - 2 < 0", 1), ("-(1u) > 0", 1),
    ("~0u == 18446744073709551615u", 1), ("18446744073709551615 == -1", 1), ("9223372036854775808 > 0", 1),
])
def test_unsigned_arithmetic_and_comparisons(text: str, expected: int) -> None:
    assert signed(text) == expected


def test_signedness_of_results() -> None:
    assert value("0u - 1") == (UINT_MAX, True)
    assert value("-9223372036854775808") == (1 << 63, True)  # the literal is unsigned
    assert value("(-9223372036854775807 - 1) / -1") == (-(1 << 63), False)  # wraps as GCC
    assert is_unsigned(tree("1 ? 2u : 3"), {}) and not is_unsigned(tree("1u == 1u"), {})


@pytest.mark.parametrize("suffix", [
    "u", "U", "l", "L", "ul", "lu", "uL", "Lu", "UL", "LU", "ll", "LL", "ull", "llu", "uLL", "LLu",
    "ULL", "LLU", "Ull", "llU", "z", "Z", "uz", "zu", "UZ", "Zu", "uZ", "zU",
])
def test_integer_suffixes_in_any_combination(suffix: str) -> None:
    number, unsigned = value(f"42{suffix}")
    assert number == 42 and unsigned == ("u" in suffix.lower())


@pytest.mark.parametrize("text", ["1lL", "1Ll", "1uu", "1lul", "1lll", "1zz", "1zl", "1q", "0x", "0b2", "1f"])
def test_invalid_suffixes_and_digits_do_not_parse(text: str) -> None:
    with pytest.raises(ParseError):
        tree(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("0x1F", 31), ("0X1f", 31), ("017", 15), ("0", 0), ("00", 0), ("0b101", 5), ("0B11", 3),
    ("1'000'000", 1_000_000), ("0x1'F", 31), ("0b1'0'1", 5), ("0'17", 15), ("0xFFFFFFFF", 2**32 - 1),
])
def test_bases_and_digit_separators(text: str, expected: int) -> None:
    assert value(text) == (expected, False)


@pytest.mark.parametrize(("text", "expected"), [
    ("'a'", 97), ("'\\n'", 10), ("'\\0'", 0), ("'\\x41'", 65), ("'\\101'", 65), ("'\\''", 39),
    ("'\\\\'", 92), ("'\"'", 34), ("'\\377'", -1), ("'\\x80'", -128), ("'ab'", 0x6162),
    ("'abcd'", 0x61626364), ("'abcde'", 0x62636465), ("L'x'", 120), ("L'\\xff'", 255),
    ("u'x'", 120), ("U'x'", 120), ("u8'a'", 97), ("'\\e'", 27),
])
def test_character_literals(text: str, expected: int) -> None:
    assert value(text)[0] == expected


def test_u8_character_literal_is_a_plain_char_as_in_gcc() -> None:
    """Regression: u8'a' was unsigned; GCC (and Clang before C++20) give it the type of char."""
    assert value("u8'a'") == (97, False)
    assert value("u8'\\xff'") == (-1, False)


@pytest.mark.parametrize("text", ["''", "'\\q'"])
def test_invalid_character_literals(text: str) -> None:
    with pytest.raises(ParseError):
        tree(text)


# -- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["defined X", "defined(X)", "defined ( X )", "defined\t(X)"])
def test_defined_forms(text: str) -> None:
    node = tree(text)
    assert isinstance(node, Defined) and node.name == "X"
    assert truth(node, {"X": 0}) and not truth(node, {})


def test_defined_of_an_empty_macro_is_true() -> None:
    assert truth(tree("defined(__HIP_PLATFORM_AMD__)"), {"__HIP_PLATFORM_AMD__": EMPTY})


@pytest.mark.parametrize("text", ["defined", "defined(", "defined()", "defined(1)", "defined(X", "defined +"])
def test_malformed_defined(text: str) -> None:
    with pytest.raises(ParseError):
        tree(text)


def test_undefined_identifier_is_zero_and_defined_one_has_its_value() -> None:
    assert value("CUDA_VERSION < 11000") == (1, False)
    assert value("CUDA_VERSION < 11000", {"CUDA_VERSION": 12040}) == (0, False)


def test_empty_macro_used_as_a_number_is_an_eval_error() -> None:
    with pytest.raises(EvalError, match="empty"):
        value("__HIP_PLATFORM_AMD__", {"__HIP_PLATFORM_AMD__": EMPTY})


@pytest.mark.parametrize(("text", "name", "key"), [
    ("__has_include(<cuda_fp16.h>)", "__has_include", "__has_include(<cuda_fp16.h>)"),
    ("__has_include( \"a b.h\" )", "__has_include", "__has_include(\"ab.h\")"),
    ("FOO(1, (2))", "FOO", "FOO(1,(2))"),
    ("__has_cpp_attribute(nodiscard)", "__has_cpp_attribute", "__has_cpp_attribute(nodiscard)"),
])
def test_calls_are_opaque_terms(text: str, name: str, key: str) -> None:
    node = tree(text)
    assert isinstance(node, Call) and (node.name, node.key) == (name, key)
    assert value(text, {key: 5}) == (5, False)
    with pytest.raises(EvalError):
        value(text)


def test_call_inside_an_expression() -> None:
    text = "defined(__has_include) && __has_include(<x.h>) || 0"
    assert truth(tree(text), {"__has_include": 1, "__has_include(<x.h>)": 1})


@pytest.mark.parametrize(("text", "op"), [
    ("A and B", "&&"), ("A or B", "||"), ("A bitand B", "&"), ("A bitor B", "|"), ("A xor B", "^"),
    ("A not_eq B", "!="),
])
def test_alternative_tokens(text: str, op: str) -> None:
    node = tree(text)
    assert isinstance(node, Binary) and node.op == op


def test_alternative_unary_tokens() -> None:
    assert tree("not A").op == "!" and tree("compl A").op == "~"
    assert signed("not 0 and compl 0 == -1") == 1


def test_true_and_false() -> None:
    assert value("true") == (1, False) and value("false") == (0, False)
    assert signed("true + true") == 2


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1 / 0", "1 % 0", "5 / (3 - 3)", "A / B", "1 ? 2 / 0 : 3"])
def test_division_by_zero_is_an_eval_error(text: str) -> None:
    with pytest.raises(EvalError, match="division by zero"):
        value(text)


@pytest.mark.parametrize("text", ["0 && 1 / 0", "1 || 1 % 0", "0 ? 1 / 0 : 2"])
def test_unevaluated_division_by_zero_is_fine(text: str) -> None:
    value(text)


@pytest.mark.parametrize(("text", "message"), [
    ("1.0", "floating"), ("1e5", "floating"), ("0x1p3", "floating"), (".5", "floating"), ("1.5f", "floating"),
    ("08", "octal"), ("09", "octal"), ("0129", "octal"),
    ("18446744073709551616", "too large"),
])
def test_bad_literals_are_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        tree(text)


@pytest.mark.parametrize("text", [
    "", "   ", "(", "(1", "1)", "1 +", "* 1", "1 2", "A B", '"text"', "1 ? 2", "1 : 2", "@", "1 = 1",
    "A++", "#A", "1 ,",
])
def test_malformed_expressions_are_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        tree(text)


def test_parse_error_offset_points_into_the_file() -> None:
    data = b"#if A + + \n"
    with pytest.raises(ParseError) as caught:
        parse(data, 4, 9)
    assert caught.value.offset == 9


def test_nesting_limits_are_parse_errors(cli_recursion_limit: None) -> None:
    tree("(" * MAX_NESTING + "1" + ")" * MAX_NESTING)
    with pytest.raises(ParseError, match="nested"):
        tree("(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1))
    with pytest.raises(ParseError, match="nested"):
        tree("!" * (MAX_NESTING + 1) + "1")
    assert signed("1" + " + 1" * (MAX_DEPTH - 1)) == MAX_DEPTH
    with pytest.raises(ParseError, match="levels"):
        tree("1" + " + 1" * MAX_DEPTH)


# -- spans ------------------------------------------------------------------------------------


def test_spans_point_into_the_original_bytes() -> None:
    data = b"#if defined(CUDA_VERSION) && \\\n  CUDA_VERSION >= 11'000u /* c */ // t\n"
    start, end = 4, data.index(b" /* c */")
    node = parse(data, start, end)
    assert data[slice(*node.span)] == b"defined(CUDA_VERSION) && \\\n  CUDA_VERSION >= 11'000u"
    texts = {type(n).__name__ + ":" + data[slice(*n.span)].decode() for n in walk(node)}
    assert texts >= {"Defined:defined(CUDA_VERSION)", "Identifier:CUDA_VERSION", "Number:11'000u",
                     "Binary:CUDA_VERSION >= 11'000u"}


def test_spans_of_parentheses_unary_ternary_and_alternative_tokens() -> None:
    data = b"xx( not A ) ? 1 : B bitor 2 yy"
    node = parse(data, 2, len(data) - 3)
    assert isinstance(node, Ternary) and node.span == (2, len(data) - 3)
    assert isinstance(node.cond, Paren) and data[slice(*node.cond.span)] == b"( not A )"
    assert isinstance(node.cond.inner, Unary) and data[slice(*node.cond.inner.span)] == b"not A"
    assert data[slice(*node.otherwise.span)] == b"B bitor 2"


def test_comments_and_continuations_inside_the_condition_are_skipped() -> None:
    assert signed("1 /* x */ + \\\n 2 // tail") == 3
    assert isinstance(tree("A /* ) */"), Identifier)
    assert isinstance(tree("5 //"), Number)


# -- differential: pcpp ------------------------------------------------------------------------


def _typed_literal(number: int, unsigned: bool) -> str:
    """A C spelling of the value that keeps its type."""
    if unsigned:
        return f"{number & UINT_MAX}u"
    return str(number) if number >= 0 else f"({number + 1} - 1)"


def _checks(text: str, number: int, unsigned: bool) -> str:
    """An expression that is 1 exactly when `text` has this value and signedness."""
    return f"({text}) == {_typed_literal(number, unsigned)} && ((0 * ({text}) - 1 < 0) == {int(not unsigned)})"


def _ours(text: str, macros: dict[str, int]) -> tuple[int, bool]:
    try:
        return value(text, macros)
    except (ParseError, EvalError) as error:
        pytest.fail(f"hipify-guard rejects {text!r}: {error}")


@pytest.mark.parametrize(("text", "expected"), [
    ("not (0)", 1), ("1 and (0)", 0), ("0 or (2)", 1), ("compl (0) == -1", 1), ("1 not_eq (2)", 1),
    ("(5 bitand (4)) == 4", 1), ("11000LL == 11000", 1), ("1ull - 2 > 0", 1), ("7z == 7", 1), ("7uz - 8 > 0", 1),
    ("0b1'0LL == 2", 1), ("0x8000000000000000 > 0", 1), ("9223372036854775808 > 0", 1), ("017ll == 15", 1),
])
def test_verifier_spells_literals_and_alternative_tokens_for_pcpp(text: str, expected: int) -> None:
    """Regressions: `not (` was taken for a macro call, `ll`/`z` made pcpp fail, and a
    constant too large for a signed type was signed."""
    assert signed(text) == expected
    assert pcpp_value(text, {}) == expected


def test_pcpp_agrees_on_generated_expressions() -> None:
    checked: set[str] = set()

    @DIFFERENTIAL
    @given(st.lists(expressions(PCPP), min_size=BATCH, max_size=BATCH, unique=True), macro_values())
    def run(texts: list[str], macros: dict[str, int]) -> None:
        problems = []
        for text in texts:
            number, unsigned = _ours(text, macros)
            if pcpp_value(_checks(text, number, unsigned), macros) != 1:
                problems.append(f"{text!r}: hipify-guard says {number} (unsigned={unsigned})")
        assert not problems, f"pcpp disagrees with {macros}:\n" + "\n".join(problems[:10])
        checked.update(texts)

    run()
    print(f"\npcpp cross-checked {len(checked)} distinct expressions")
    assert len(checked) >= 1000


# -- differential: gcc -------------------------------------------------------------------------

GCC_FLAGS = ("-E", "-P", "-undef", "-nostdinc", "-x", "c++", "-w")


def gcc_disagreements(gcc: str, texts: list[str], macros: dict[str, int], folder: Path) -> list[str]:
    """Evaluate every expression with hipify-guard, then let one gcc run check them all."""
    lines = []
    for index, text in enumerate(texts):
        number, unsigned = _ours(text, macros)
        lines += [f"#if {_checks(text, number, unsigned)}", f"ok_{index}", "#else",
                  f"bad_{index} {number} unsigned={unsigned}", "#endif"]
    source = folder / "batch.cpp"
    source.write_text("\n".join(lines) + "\n")
    defines = [f"-D{name}=({number})" for name, number in macros.items()]
    done = subprocess.run([gcc, *GCC_FLAGS, *defines, str(source)], capture_output=True, text=True, timeout=120)
    problems = [f"{texts[int(i)]!r}: hipify-guard says {rest}"
                for i, rest in re.findall(r"^bad_(\d+) (.*)$", done.stdout, re.M)]
    for line in re.findall(r"^.*batch\.cpp:(\d+):\d+: error: .*$", done.stderr, re.M):
        problems.append(f"gcc error on {texts[(int(line) - 1) // 5]!r}")
    if done.returncode and not problems:
        problems.append(done.stderr[:500])
    oks = len(re.findall(r"^ok_\d+$", done.stdout, re.M))
    assert problems or oks == len(texts), "gcc output has an unexpected shape"
    return problems


def test_gcc_agrees_on_generated_expressions(tmp_path: Path) -> None:
    gcc = require_tool("gcc")
    checked: set[str] = set()

    @DIFFERENTIAL
    @given(st.lists(expressions(GCC), min_size=BATCH, max_size=BATCH, unique=True), macro_values())
    def run(texts: list[str], macros: dict[str, int]) -> None:
        problems = gcc_disagreements(gcc, texts, macros, tmp_path)
        assert not problems, f"with {macros}:\n" + "\n".join(problems[:10])
        checked.update(texts)

    run()
    print(f"\ngcc cross-checked {len(checked)} distinct expressions")
    assert len(checked) >= 1000


@pytest.mark.parametrize("text", ["1 / 0", "1 % 0", "A / (B - B)", "1 ? 2 % 0 : 3"])
def test_division_by_zero_is_an_error_for_gcc_too(text: str, tmp_path: Path) -> None:
    gcc = require_tool("gcc")
    with pytest.raises(EvalError):
        value(text, {"A": 1, "B": 2})
    source = tmp_path / "zero.cpp"
    source.write_text(f"#if {text}\n#endif\n")
    done = subprocess.run([gcc, *GCC_FLAGS, "-DA=1", "-DB=2", str(source)], capture_output=True, text=True)
    assert done.returncode != 0 and "division by zero" in done.stderr


def test_literal_errors_are_gcc_errors_too(tmp_path: Path) -> None:
    """The literal errors above are errors for gcc too (so HG901 is not a false alarm)."""
    gcc = require_tool("gcc")
    for text in ("1.0", "08", "1lL", "''"):
        source = tmp_path / "bad.cpp"
        source.write_text(f"#if {text}\n#endif\n")
        done = subprocess.run([gcc, *GCC_FLAGS, str(source)], capture_output=True, text=True)
        assert done.returncode != 0, text


def test_sanity_of_the_checks_expression() -> None:
    """The differential tests can fail: a wrong value or a wrong signedness is caught."""
    assert pcpp_value(_checks("1 - 2u", UINT_MAX, True), {}) == 1
    assert pcpp_value(_checks("1 - 2u", -1, False), {}) == 0
    assert pcpp_value(_checks("5 * A", 55, False), {"A": 11}) == 1
    assert pcpp_value(_checks("5 * A", 54, False), {"A": 11}) == 0
    assert signed(_checks("-(1 << 63)", -(1 << 63), False)) == 1
    assert INT_MAX == 2**63 - 1
