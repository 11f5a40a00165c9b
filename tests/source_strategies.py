"""Hypothesis strategies for whole source files: conditional groups (nested, sometimes
unbalanced), every directive spelling the scanner knows, comments, strings, raw strings, char
literals and code, with LF, CRLF or lone-CR line ends, a BOM and non-UTF-8 bytes.

Conditions are realistic CUDA version guards (so that rules fire and fixes get made) or the
expressions of `expression_strategies` in GCC's dialect with their macros renamed to CUDA, ROCm
and free names. Everything `well_formed` produces is valid input for `gcc -E -x c++` (no lone CR,
balanced groups), so gcc can be the oracle of a rewrite.
"""

from __future__ import annotations

import re

from expression_strategies import GCC, expressions
from hypothesis import strategies as st

RENAMES = {"A": "CUDA_VERSION", "B": "CUDART_VERSION", "C": "FOO", "D": "__CUDACC_VER_MAJOR__", "E": "USE_ROCM"}
VERSIONS = (0, 1, 9000, 10020, 11000, 11080, 12000, 12040, 13000)
GUARDS = (
    "CUDA_VERSION >= {n}", "defined(CUDA_VERSION) && CUDA_VERSION >= {n}", "CUDA_VERSION < {n}",
    "!defined(CUDA_VERSION) || CUDA_VERSION < {n}", "CUDART_VERSION >= {n}", "defined(CUDART_VERSION) && CUDART_VERSION < {n}",
    "__CUDACC_VER_MAJOR__ >= 11", "CUDA_VERSION", "defined(CUDA_VERSION)", "!defined(CUDA_VERSION)",
    "CUDA_VERSION >= {n} || defined(FOO)", "(CUDA_VERSION >= {n})", "CUDA_VERSION >= {n} ? 1 : 0",
    "defined(CUDA_VERSION) && CUDA_VERSION >= {n} && !defined(USE_ROCM)", "defined(USE_ROCM)",
    "CUDA_VERSION >= {n} && FOO", "CUDA_VERSION / 1000 >= 11", "CUDA_VERSION >= {n} /* inner */ && 1",
    "defined __HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "0", "1",
)
NAMES = ("CUDA_VERSION", "CUDART_VERSION", "USE_ROCM", "FOO", "__HIP_PLATFORM_AMD__")
_NAME = re.compile(r"\b[A-E]\b")
_LITERAL = re.compile(r"\b[0-9][0-9A-Za-z_'.]*|'(?:[^'\\]|\\.)*'")


def conditions() -> st.SearchStrategy[str]:
    """An `#if` condition: mostly realistic guards, sometimes any GCC-dialect expression (with few
    constants, so that proving its rewrite takes pcpp and gcc a moment, not minutes)."""
    guard = st.tuples(st.sampled_from(GUARDS), st.sampled_from(VERSIONS)).map(lambda t: t[0].format(n=t[1]))
    generated = expressions(GCC).filter(lambda text: len(_LITERAL.findall(text)) <= 4)
    return st.one_of(guard, guard, guard, generated.map(lambda text: _NAME.sub(lambda m: RENAMES[m.group()], text)))


_LEADS = st.sampled_from(("", " ", "\t", "  "))
_AFTER_HASH = st.sampled_from(("", " ", "  ", "/* c */"))
_TRAILING = st.sampled_from(("", "", " // note", " /* note */", " /* two\nlines */", "  // hipify \xe9"))


def directive(draw: st.DrawFn, keyword: str, argument: str = "") -> str:
    """`#keyword argument` with blanks, a comment between `#` and the keyword, a trailing comment or
    a line continuation at random. Newlines are `\\n` here; `render` converts them. (A plain
    function of `draw`: strategies made inside a draw cost hypothesis a lambda-source lookup each.)"""
    spaces = [index for index, char in enumerate(argument) if char == " "]
    if spaces and draw(st.booleans()):
        cut = spaces[draw(st.integers(0, len(spaces) - 1))]
        argument = argument[:cut] + " \\\n    " + argument[cut + 1 :]
    text = f"{draw(_LEADS)}#{draw(_AFTER_HASH)}{keyword}{' ' + argument if argument else ''}{draw(_TRAILING)}\n"
    return text


CODE = (
    "int x = 1;\n", "call();\n", 'const char* s = "#if CUDA_VERSION < 9000";\n',
    'auto raw = R"doc(\n#if CUDA_VERSION >= 1\n#endif\n)doc";\n', "// #if CUDA_VERSION >= 11000\n",
    "/* #else\n   #endif */\n", "char c = '#'; char q = '\"';\n", "long big = 1'000'000;\n",
    "// caf\xe9 \xff\n", "#define WIDTH 64\n", "#include <cuda.h>\n", "#pragma once\n", "#\n",
    "int y = CUDA_VERSION;\n", "x = a \\\n    + b;\n",
)


CODE_LINES = st.lists(st.sampled_from(CODE), max_size=2)
CONDITIONS = conditions()


_KINDS = st.sampled_from(("if", "if", "if", "ifdef", "ifndef"))
_NAMES = st.sampled_from(NAMES)


@st.composite
def _conditional(draw: st.DrawFn, children: st.SearchStrategy[list[str]]) -> list[str]:
    kind = draw(_KINDS)
    argument = draw(CONDITIONS) if kind == "if" else draw(_NAMES)
    lines = [directive(draw, kind, argument), *draw(children)]
    for _ in range(draw(st.integers(0, 2))):
        lines += [directive(draw, "elif", draw(CONDITIONS)), *draw(children)]
    if draw(st.booleans()):
        lines += [directive(draw, "else"), *draw(children)]
    return [*lines, directive(draw, "endif")]


def _groups(depth: int) -> st.SearchStrategy[list[str]]:
    """Code and conditionals nested up to `depth` deep (plain recursion: `st.recursive` with its
    leaf limit spent most of the time retrying draws)."""
    if depth == 0:
        return CODE_LINES
    return st.lists(st.one_of(CODE_LINES, _conditional(_groups(depth - 1))), max_size=2).map(lambda parts: sum(parts, []))


GROUPS = _groups(3)


FILES = st.tuples(CODE_LINES, _conditional(GROUPS), GROUPS).map(lambda parts: "".join(sum(parts, [])))


@st.composite
def well_formed(draw: st.DrawFn) -> bytes:
    """A balanced file that gcc preprocesses: LF or CRLF, maybe a BOM, maybe no final newline."""
    text = draw(FILES)
    return render(text, draw(st.sampled_from(("\n", "\r\n"))), bom=draw(st.booleans()),
                  final_newline=draw(st.booleans()))


@st.composite
def any_source(draw: st.DrawFn) -> bytes:
    """Like `well_formed`, plus lone CR line ends and a few random byte edits (unbalanced groups,
    cut comments and strings, stray bytes) on top."""
    data = bytearray(render(draw(FILES), draw(st.sampled_from(("\n", "\r\n", "\r"))),
                            bom=draw(st.booleans()), final_newline=draw(st.booleans())))
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(("insert", "delete", "truncate")))
        if action == "insert":
            data[position:position] = draw(st.sampled_from((b"#endif\n", b"#else\n", b"#if X\n", b"/*", b'"', b"\\",
                                                            b"R\"(", b"'", b"\0", b"\xff", b"\r", b"(")))
        elif action == "delete":
            del data[position : position + draw(st.integers(1, 8))]
        else:
            del data[position:]
    return bytes(data)


def render(text: str, newline: str, *, bom: bool, final_newline: bool) -> bytes:
    """Text to bytes: `\\n` becomes `newline`, characters below 256 become single bytes (latin-1)."""
    if not final_newline and text.endswith("\n"):
        text = text[:-1]
    data = text.replace("\n", newline).encode("latin-1")
    return (b"\xef\xbb\xbf" if bom else b"") + data
