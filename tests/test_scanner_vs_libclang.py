"""The scanner's directives agree with libclang's raw tokens on the real CUDA headers.

libclang is an independent lexer: for each file, `clang_tokenize` over the whole file gives
the raw token array (comments included). A directive, seen from the tokens, is a `#`
punctuation token that is the first non-comment token of its logical line, followed on the
same logical line by an identifier or keyword. The token array is read as raw memory
(`int_data`: kind, location, length), never through `Token.spelling`, which raises on
non-UTF-8 bytes.
"""

from __future__ import annotations

import ctypes
import os
import re
import time
from pathlib import Path

import pytest

from hipify_guard.cpp.scanner import CONDITIONAL_KINDS, scan

CUDA_INCLUDE = Path(os.environ.get("HIPIFY_GUARD_CUDA_INCLUDE", "/usr/local/cuda/include"))
PUNCTUATION, KEYWORD, IDENTIFIER, LITERAL, COMMENT = range(5)
_CONTINUATION = re.compile(rb"\\[ \t\f\v]*(?:\r\n|\n|\r)")
_WORDS = 6  # a CXToken is unsigned int_data[4] + void *ptr_data: six 32-bit words

Row = tuple[str, int, tuple[int, int], tuple[int, int] | None]


def _cindex():
    cindex = pytest.importorskip("clang.cindex", reason="libclang (PyPI `libclang`) is not installed")
    try:
        cindex.conf.lib  # noqa: B018 - loads the shared library
    except Exception as error:  # noqa: BLE001 - any loading failure is a reason to skip
        pytest.skip(f"libclang cannot be loaded: {error}")
    return cindex


def _raw_tokens(cindex, index, path: Path, size: int) -> tuple[list[int], list[int], list[int]]:
    """(kinds, byte offsets, lengths) of every token of the file, comments included."""
    options = cindex.TranslationUnit.PARSE_INCOMPLETE | cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
    unit = cindex.TranslationUnit.from_source(
        str(path), args=["-x", "c++", "-std=c++17", "-nostdinc", "-w"], options=options, index=index,
    )
    file = cindex.File.from_name(unit, str(path))
    start = cindex.SourceLocation.from_offset(unit, file, 0)
    extent = cindex.SourceRange.from_locations(start, cindex.SourceLocation.from_offset(unit, file, size))
    tokens = ctypes.POINTER(cindex.Token)()
    count = ctypes.c_uint()
    cindex.conf.lib.clang_tokenize(unit, extent, ctypes.byref(tokens), ctypes.byref(count))
    try:
        words = memoryview(ctypes.string_at(tokens, count.value * ctypes.sizeof(cindex.Token))).cast("I")
        assert ctypes.sizeof(cindex.Token) == _WORDS * 4
        base = start.int_data  # raw encoding of the file's first byte
        return list(words[0::_WORDS]), [raw - base for raw in words[1::_WORDS]], list(words[2::_WORDS])
    finally:
        cindex.conf.lib.clang_disposeTokens(unit, tokens, count)


def _breaks_line(data: bytes, start: int, end: int) -> bool:
    """Whether whitespace `data[start:end]` holds a newline that is not a continuation."""
    gap = data[start:end]
    return (b"\n" in gap or b"\r" in gap) and bool(re.search(rb"[\r\n]", _CONTINUATION.sub(b" ", gap)))


def clang_directives(data: bytes, kinds: list[int], offsets: list[int], lengths: list[int]) -> list[Row]:
    """Directives as libclang's tokens show them: (keyword, hash, keyword span, argument span)."""
    found = []
    count = len(kinds)
    for i in range(count):
        if kinds[i] != PUNCTUATION or lengths[i] != 1 or data[offsets[i]] != 0x23:
            continue
        j = i - 1
        while j >= 0 and kinds[j] == COMMENT:
            j -= 1
        edges = [offsets[k] + lengths[k] for k in range(j, i)] if j >= 0 else []
        starts = [offsets[k] for k in range(j + 1, i + 1)]
        if j >= 0 and not any(_breaks_line(data, e, s) for e, s in zip(edges, starts)):
            continue  # not the first token of its line
        line = _logical_line(data, kinds, offsets, lengths, i)
        if not line or kinds[line[0]] not in (KEYWORD, IDENTIFIER):
            continue
        word = line[0]
        keyword = data[offsets[word] : offsets[word] + lengths[word]].decode("latin-1")
        rest = line[1:]
        argument = (offsets[rest[0]], offsets[rest[-1]] + lengths[rest[-1]]) if rest else None
        found.append((keyword, offsets[i], (offsets[word], offsets[word] + lengths[word]), argument))
    return found


def _logical_line(data: bytes, kinds, offsets, lengths, hash_index: int) -> list[int]:
    """Indices of the non-comment tokens after the `#` on the same logical line."""
    line = []
    previous_end = offsets[hash_index] + 1
    for k in range(hash_index + 1, len(kinds)):
        if _breaks_line(data, previous_end, offsets[k]):
            break
        previous_end = offsets[k] + lengths[k]
        if kinds[k] != COMMENT:
            line.append(k)
    return line


def scanner_directives(data: bytes) -> list[Row]:
    """The same rows from hipify-guard's scanner (argument spans for conditionals only)."""
    rows = []
    for directive in scan(data).directives:
        if not directive.kind:
            continue  # a null directive or a line marker: no keyword
        argument = None
        if directive.argument[0] < directive.argument[1]:
            argument = directive.argument
        rows.append((directive.kind, directive.hash, directive.keyword, argument))
    return rows


def _comparable(rows: list[Row]) -> list[Row]:
    """Argument spans are compared for conditional directives only (#error text is not C)."""
    return [row if row[0] in CONDITIONAL_KINDS else (*row[:3], None) for row in rows]


def _headers() -> list[Path]:
    return sorted(p for p in CUDA_INCLUDE.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.mark.skipif(not CUDA_INCLUDE.is_dir(), reason=f"{CUDA_INCLUDE} is missing (no CUDA toolkit headers)")
def test_directives_agree_with_libclang_on_cuda_headers() -> None:
    cindex = _cindex()
    index = cindex.Index.create()
    began = time.perf_counter()
    compared = 0
    mismatches = []
    headers = _headers()
    for path in headers:
        data = path.read_bytes()
        ours = _comparable(scanner_directives(data))
        theirs = _comparable(clang_directives(data, *_raw_tokens(cindex, index, path, len(data))))
        compared += len(theirs)
        if ours != theirs:
            extra = sorted(set(ours) - set(theirs))[:3]
            missing = sorted(set(theirs) - set(ours))[:3]
            mismatches.append(f"{path}: scanner only {extra}, libclang only {missing}")
    elapsed = time.perf_counter() - began
    print(f"\nlibclang comparison: {len(headers)} files, {compared} directives, {elapsed:.1f} s")
    assert not mismatches, "\n".join(mismatches[:20])
    assert len(headers) > 1000 and compared > 40_000, "the CUDA header folder looks incomplete"


SYNTHETIC = (
    b"\xef\xbb\xbf// caf\xe9 #if X\n"
    b"/* c */ #if A\n#endif\n#/* c */if B\n#endif\n  \\\n  #if C\n#endif\n"
    b"x = 1'000 /* '\n#if X\n*/\n#if D >= 1'000 /* c\n#if E */ // t\n#endif\n"
    b's = u8R"d(\n#if Y\n)d"; t = "#if Z"; c = \'"\';\n'
    b"int y; \\\n#if W\n# \\\n elif F \\\r\n && G\r#else\r\n#  endif\n#\n# 12 \"f.h\"\n"
    b"#define S(x) #x\n#define T \\\n  # x\n"
)


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_lexical_traps_agree_with_libclang(tmp_path: Path, newline: bytes) -> None:
    """The comparison itself can fail: hand-written traps, each checked against libclang."""
    cindex = _cindex()
    path = tmp_path / "traps.h"
    data = SYNTHETIC.replace(b"\n", newline)
    path.write_bytes(data)
    theirs = _comparable(clang_directives(data, *_raw_tokens(cindex, cindex.Index.create(), path, len(data))))
    assert [row[0] for row in theirs] == ["if", "endif", "if", "endif", "if", "endif", "if", "endif",
                                          "elif", "else", "endif", "define", "define"]
    assert _comparable(scanner_directives(data)) == theirs
