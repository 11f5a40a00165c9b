"""The byte scanner and the group tree: one test per lexical trap, spans that round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hipify_guard.cpp.groups import GroupTree
from hipify_guard.cpp.scanner import Directive, scan


def rows(data: bytes) -> list[tuple[str, bytes]]:
    """(kind, argument bytes) of every directive."""
    return [(d.kind, data[d.argument[0] : d.argument[1]]) for d in scan(data).directives]


def kinds(data: bytes) -> list[str]:
    return [d.kind for d in scan(data).directives]


def assert_round_trip(data: bytes, directive: Directive) -> None:
    """Every span of a directive points at what it names in the original bytes."""
    assert data[directive.hash] == ord("#")
    assert data[directive.keyword[0] : directive.keyword[1]] == directive.kind.encode()
    first, last = directive.argument
    assert directive.keyword[1] <= first <= last <= directive.end <= len(data)
    argument = data[first:last]
    assert argument == argument.lstrip(b" \t\f\v\r\n")
    if b'"' not in argument and b"'" not in argument:  # an unterminated literal keeps its blanks
        assert argument == argument.rstrip(b" \t\f\v\r\n")
    assert directive.end == len(data) or data[directive.end] in b"\r\n"


# -- comments ---------------------------------------------------------------------------------


def test_line_comment_hides_a_directive_and_ends_the_argument() -> None:
    data = b"// #if A\n#if B // trailing #if C\n#endif\n"
    assert rows(data) == [("if", b"B"), ("endif", b"")]


def test_line_comment_continued_by_a_backslash_hides_the_next_line() -> None:
    data = b"// note \\\n#if A\n#if B\n#endif\n"
    assert rows(data) == [("if", b"B"), ("endif", b"")]


def test_block_comment_hides_directives_on_one_or_many_lines() -> None:
    data = b"/* #if A */\n/*\n#if B\n#endif\n*/\n#if C\n#endif\n"
    assert rows(data) == [("if", b"C"), ("endif", b"")]


def test_block_comment_spanning_lines_inside_a_directive_continues_it() -> None:
    data = b"#if A /* first\n#if B */ && C\n#endif\n"
    first, endif = scan(data).directives
    assert data[first.argument[0] : first.argument[1]] == b"A /* first\n#if B */ && C"
    assert data[first.end : first.end + 1] == b"\n" and first.end == data.index(b"\n#endif")
    assert endif.kind == "endif"


def test_trailing_block_comment_is_not_part_of_the_argument() -> None:
    assert rows(b"#if A /* why */\n") == [("if", b"A")]


def test_a_run_of_comment_lines_lists_each_comment_and_keeps_the_directive_after_it() -> None:
    data = b"// one\n  // two #if X\n\t// three\n#if A // four\n// five \\\n#if B\n#endif\n"
    found = scan(data)
    assert [data[start:end] for start, end in found.comments] == [
        b"// one", b"// two #if X", b"// three", b"// four", b"// five \\\n#if B"]
    assert rows(data) == [("if", b"A"), ("endif", b"")]


@given(st.lists(st.sampled_from([b"// c", b"  // c #if X", b"//", b"// c \\", b"#if A // c", b"#endif",
                                 b"x; // c", b"/* c */", b""]), max_size=12))
@settings(max_examples=200, deadline=None)
def test_comment_runs_scan_as_line_by_line(lines: list[bytes]) -> None:
    """LF data skips runs of comment lines in one match; CRLF data takes them one by one: both
    must find the same comments and directives, line for line."""
    lf = b"\n".join(lines) + b"\n"
    crlf = lf.replace(b"\n", b"\r\n")
    one, other = scan(lf), scan(crlf)

    def lines_of(data: bytes, spans) -> list[bytes]:
        return [data[start:end].replace(b"\r\n", b"\n") for start, end in spans]
    assert lines_of(lf, one.comments) == lines_of(crlf, other.comments)
    assert [(d.kind, lf[slice(*d.argument)]) for d in one.directives] == [
        (d.kind, crlf[slice(*d.argument)].replace(b"\r\n", b"\n")) for d in other.directives]


@pytest.mark.parametrize("data", [
    b"/* c */ #if A\n#endif\n",
    b"/* a */ /* b */ # if A\n#endif\n",
    b"/* multi\nline */ #if A\n#endif\n",
    b"/* c */ \\\n #if A\n#endif\n",
])
def test_comment_at_line_start_before_the_hash_still_makes_a_directive(data: bytes) -> None:
    """GCC and Clang: a comment is whitespace, so `#` is still the first token of its line."""
    assert rows(data) == [("if", b"A"), ("endif", b"")]


def test_comment_after_code_does_not_start_a_line() -> None:
    assert kinds(b"x; /* multi\nline */ #if A\n#endif\n") == ["endif"]


def test_comment_between_hash_and_keyword() -> None:
    data = b"#/* c */if A\n# /* c */ endif\n"
    assert rows(data) == [("if", b"A"), ("endif", b"")]
    for directive in scan(data).directives:
        assert_round_trip(data, directive)


# -- literals ---------------------------------------------------------------------------------


def test_string_literal_hides_directives_and_comment_openers() -> None:
    data = b's = "#if A"; t = "a\\" /* #if"; u = "http://x";\n#if B\n#endif\n'
    assert rows(data) == [("if", b"B"), ("endif", b"")]


def test_string_continued_by_a_backslash_hides_the_next_line() -> None:
    assert kinds(b's = "abc\\\n#if X";\n#endif\n') == ["endif"]


def test_unterminated_string_ends_at_the_newline() -> None:
    assert kinds(b'#error "oops\n#if A\n#endif\n') == ["error", "if", "endif"]


def test_char_literals_with_quotes_and_escapes() -> None:
    data = b"c = '\"'; d = '\\''; e = '/*'; f = L'#'; g = u8'a';\n#if A\n#endif\n"
    assert rows(data) == [("if", b"A"), ("endif", b"")]


@pytest.mark.parametrize("prefix", [b"R", b"u8R", b"LR", b"uR", b"UR"])
def test_raw_string_with_prefix_hides_directives(prefix: bytes) -> None:
    data = b's = ' + prefix + b'"d(\n#if A\n)" "\\ )d";\n#if B\n#endif\n'
    assert rows(data) == [("if", b"B"), ("endif", b"")]


def test_raw_string_without_delimiter() -> None:
    assert kinds(b's = R"(\n#if A /* \n)";\n#endif\n') == ["endif"]


def test_identifier_ending_in_r_is_not_a_raw_string_prefix() -> None:
    data = b'#define FOOR\nint x = FOOR"(";\n#if A\n#endif\n'
    assert kinds(data) == ["define", "if", "endif"]


def test_digit_separators_are_not_char_literals() -> None:
    data = b"x = 1'000 /* '\n#if X\n*/\ny = 0xFF'FF + 1'000'000;\n#if A\n#endif\n"
    assert rows(data) == [("if", b"A"), ("endif", b"")]


def test_digit_separator_inside_a_directive_does_not_swallow_a_trailing_comment() -> None:
    """Regression: `1'000 // c` was read as a char literal up to the end of the line."""
    assert rows(b"#if A >= 1'000'000 // note\n") == [("if", b"A >= 1'000'000")]
    assert rows(b"#if A >= 0xFF'FF && B == 'x' /* c */\n") == [("if", b"A >= 0xFF'FF && B == 'x'")]


def test_a_separator_after_a_letter_digit_group_continues_the_number() -> None:
    """Regression (found by the property test): in `0x10'a0'00` the second `'` follows `a0`, a
    group that starts with a letter; it was read as a char literal that swallowed the comment."""
    assert rows(b"#if (X ? 0 || 0x10'a0'00 : 0) // note\n") == [("if", b"(X ? 0 || 0x10'a0'00 : 0)")]


def test_digit_separator_before_a_multiline_comment_in_a_directive() -> None:
    data = b"#if A >= 1'000 /* c\n#if B */\n#endif\n"
    assert rows(data) == [("if", b"A >= 1'000"), ("endif", b"")]


def test_char_literal_right_after_a_digit_separator_number() -> None:
    assert kinds(b"a = 1'0 + '\\''; /*\n#if X\n*/\n#endif\n") == ["endif"]


# -- lines ------------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_backslash_newline_continues_a_directive(newline: bytes) -> None:
    data = b"#if A \\" + newline + b"  && B" + newline + b"#endif" + newline
    first, endif = scan(data).directives
    assert data[first.argument[0] : first.argument[1]] == b"A \\" + newline + b"  && B"
    assert data[first.end : first.end + len(newline)] == newline
    assert endif.kind == "endif"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_every_newline_style_ends_a_directive(newline: bytes) -> None:
    data = newline.join([b"#if A", b"#elif B", b"#else", b"#endif", b""])
    assert rows(data) == [("if", b"A"), ("elif", b"B"), ("else", b""), ("endif", b"")]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_hash_on_a_line_that_continues_a_backslash_line_is_not_a_directive(newline: bytes) -> None:
    data = b"int x = 1; \\" + newline + b"#if A" + newline + b"#endif" + newline
    assert kinds(data) == ["endif"]


def test_hash_after_a_blank_continued_line_is_a_directive() -> None:
    """Only blanks precede the `#` on its logical line, as GCC sees it."""
    assert kinds(b"  \\\n  #if A\n#endif\n") == ["if", "endif"]


def test_bom_before_the_first_directive() -> None:
    data = b"\xef\xbb\xbf#if A\n#endif"
    first, endif = scan(data).directives
    assert (first.kind, first.hash) == ("if", 3)
    assert endif.end == len(data)


def test_bom_then_blanks_before_the_first_directive() -> None:
    assert rows(b"\xef\xbb\xbf  # if A\n#endif\n") == [("if", b"A"), ("endif", b"")]


def test_hash_preceded_and_followed_by_blanks() -> None:
    data = b" \t#  \t if A\n\f\v# \vendif\n"
    first, endif = scan(data).directives
    assert (first.kind, first.hash, data[slice(*first.keyword)]) == ("if", 2, b"if")
    assert (endif.kind, data[endif.hash - 2 : endif.hash]) == ("endif", b"\f\v")


def test_non_utf8_bytes_anywhere() -> None:
    data = b"// caf\xe9\n#if A /* \xff\xfe */\nchar* s = \"\xe9\";\n#elif B // \xc3\x28\n#endif \xe9\n"
    assert rows(data) == [("if", b"A"), ("elif", b"B"), ("endif", b"\xe9")]


def test_directive_at_end_of_file_without_newline() -> None:
    data = b"#if A\n#endif"
    assert scan(data).directives[-1].end == len(data)


# -- directive kinds --------------------------------------------------------------------------


def test_elifdef_and_elifndef() -> None:
    data = b"#ifdef A\n#elifdef B\n#elifndef C\n#else\n#endif\n"
    directives = scan(data).directives
    assert [(d.kind, data[slice(*d.argument)]) for d in directives] == [
        ("ifdef", b"A"), ("elifdef", b"B"), ("elifndef", b"C"), ("else", b""), ("endif", b""),
    ]
    assert all(d.is_conditional for d in directives)


def test_other_directives_are_listed_but_not_conditional() -> None:
    directives = scan(b"#include <a.h>\n#define X 1\n#pragma once\n").directives
    assert [(d.kind, d.is_conditional) for d in directives] == [
        ("include", False), ("define", False), ("pragma", False),
    ]


@pytest.mark.parametrize("line", [b"#", b"# ", b"#  // comment", b"# /* c */", b'# 12 "file.h"'])
def test_null_directive_and_line_marker_have_no_keyword(line: bytes) -> None:
    data = line + b"\n#if A\n#endif\n"
    first = scan(data).directives[0]
    assert (first.kind, first.hash) == ("", 0)
    assert kinds(data)[1:] == ["if", "endif"]


# -- problems ---------------------------------------------------------------------------------


def test_unterminated_block_comment_is_reported_without_crash() -> None:
    result = scan(b"#if A\n/* never closed\n#endif\n")
    assert [d.kind for d in result.directives] == ["if"]
    assert [(p.offset, p.message) for p in result.problems] == [(6, "unterminated /* comment")]


def test_unterminated_comment_inside_a_directive() -> None:
    result = scan(b"#if A /* oops\n#endif\n")
    assert [d.kind for d in result.directives] == ["if"]
    assert [p.offset for p in result.problems] == [6]


@pytest.mark.parametrize("prefix", [b"R", b"u8R", b"LR"])
def test_unterminated_raw_string_is_reported_without_crash(prefix: bytes) -> None:
    result = scan(b"#if A\n" + prefix + b'"x(\n#endif\n')
    assert [d.kind for d in result.directives] == ["if"]
    assert [(p.offset, p.message) for p in result.problems] == [(6, "unterminated raw string literal")]


# -- spans ------------------------------------------------------------------------------------

TRAPS = (
    b"\xef\xbb\xbf// header \xe9\n"
    b"  #  if defined(A) && \\\r\n     B >= 1'000 /* c \n #if */ // t\r\n"
    b"s = R\"x(\n#if NOT\n)x\";\n"
    b"#elifdef C\r#elifndef D\r"
    b"/* lead */ #else\n"
    b"#endif"
)


def test_spans_round_trip_on_every_trap() -> None:
    directives = scan(TRAPS).directives
    assert [d.kind for d in directives] == ["if", "elifdef", "elifndef", "else", "endif"]
    for directive in directives:
        assert_round_trip(TRAPS, directive)
    first = directives[0]
    assert TRAPS[first.argument[0] : first.argument[1]] == b"defined(A) && \\\r\n     B >= 1'000"


_FRAGMENTS = st.sampled_from([
    b"#", b"if", b" A", b"\n", b"\r\n", b"\r", b"\\", b"/*", b"*/", b"//", b'"', b"'", b'R"d(', b')d"',
    b"1'0", b" ", b"\t", b"\xe9", b"\xff", b"#endif", b"\n#elif B", b"u8R\"(", b")\"", b"x",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_FRAGMENTS, max_size=40).map(b"".join))
def test_any_bytes_scan_without_crash_and_spans_round_trip(data: bytes) -> None:
    result = scan(data)
    previous_end = -1
    for directive in result.directives:
        if directive.kind:
            assert_round_trip(data, directive)
        assert directive.hash > previous_end
        previous_end = directive.end
    GroupTree(result.directives)  # never raises


# -- group tree -------------------------------------------------------------------------------

NESTED = b"#if A\n#if B\nb\n#elif C\nc\n#else\nd\n#endif\n#define X\n#elif E\ne\n#endif\nz\n"


def test_nesting_arms_and_parents() -> None:
    tree = GroupTree(scan(NESTED).directives)
    assert not tree.problems
    outer, inner = tree.conditionals
    assert [a.directive.kind for a in outer.arms] == ["if", "elif"]
    assert [a.directive.kind for a in inner.arms] == ["if", "elif", "else"]
    assert inner.parent is outer.arms[0] and outer.parent is None
    assert [a.index for a in inner.arms] == [0, 1, 2]
    assert inner.arms[2].earlier == inner.arms[:2]
    assert outer.endif.hash == NESTED.rindex(b"#endif") and inner.endif.hash == NESTED.index(b"#endif")
    assert tree.arm_of[inner.arms[1].directive.hash] is inner.arms[1]


@pytest.mark.parametrize(("text", "where"), [
    (b"\nb\n", (1, 0)), (b"\nc\n", (1, 1)), (b"\nd\n", (1, 2)), (b"#define X", (0, 0)), (b"\ne\n", (0, 1)),
])
def test_enclosing_arm(text: bytes, where: tuple[int, int]) -> None:
    tree = GroupTree(scan(NESTED).directives)
    conditional, arm = where
    assert tree.enclosing(NESTED.index(text) + 1) is tree.conditionals[conditional].arms[arm]


def test_enclosing_outside_every_group() -> None:
    tree = GroupTree(scan(b"a\n" + NESTED).directives)
    assert tree.enclosing(0) is None
    assert tree.enclosing(len(NESTED) + 1) is None


@pytest.mark.parametrize(("data", "problems"), [
    (b"#endif\n", [("endif", "#endif without #if")]),
    (b"#else\n", [("else", "#else without #if")]),
    (b"#elif A\n", [("elif", "#elif without #if")]),
    (b"#if A\n#else\n#elif B\n#endif\n", [("elif", "#elif after #else")]),
    (b"#if A\n#else\n#else\n#endif\n", [("else", "#else after #else")]),
    (b"#if A\n#ifdef B\n#endif\n", [("if", "#if without #endif")]),
    (b"#ifndef A\n#endif\n#endif\n", [("endif", "#endif without #if")]),
])
def test_unbalanced_groups_are_structure_problems(data: bytes, problems: list[tuple[str, str]]) -> None:
    tree = GroupTree(scan(data).directives)
    assert [(p.directive.kind, p.message) for p in tree.problems] == problems


def test_missing_endif_names_the_opening_directive() -> None:
    data = b"#if A\n#if B\n#endif\n"
    tree = GroupTree(scan(data).directives)
    assert [p.directive.hash for p in tree.problems] == [0]


def test_directives_inside_comments_do_not_unbalance_the_tree() -> None:
    data = b"#if A\n/*\n#endif\n*/\n// #else\n\"#endif\"\n#endif\n"
    tree = GroupTree(scan(data).directives)
    assert not tree.problems and len(tree.conditionals) == 1
