"""Rewrite a guard into one of the explicit forms of PyTorch's HIP note (spec §6).

With R the ROCm macro and RV the ROCm version macro of the guard (`rewrite_macros`: the macros
every ROCm build of the file defines there, in the project's own words):

- exclude:  `A && !defined(R)`, A wrapped only when its top operator is `||` or `?:`;
- include:  `(A) || defined(R)`, A bare only when it is a primary;
- rocm-min: `(A) || (defined(R) && RV >= N)`, wrapped like include. When A is not already
  false on ROCm, A is excluded first: `(A && !defined(R)) || (defined(R) && RV >= N)`.
- raise-min: `A && (!defined(R) || RV >= N)`, wrapped like exclude: ROCm keeps A's outcome
  from ROCm N on and loses the branch below it (HG203); CUDA is unchanged.

Where other macros decide a guard too (`CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)`), the
`preserve` fix works on each decisive CUDA test T alone (spec §11.2): `(T && !defined(R))` where
T is false on ROCm, `(T || defined(R))` where it is true; every CUDA and every ROCm configuration
keeps its value whatever the other macros are.

Edits only insert text before and after the condition (or turn `#ifdef X` into
`#if defined(X)`), so comments, continuations and every other byte stay as they were.
"""

from __future__ import annotations

import re

from ..core.findings import DISPLAY_ONLY, SAFE, Edit, Expectation, Fix
from ..cpp.groups import Arm
from ..cpp.nodes import Binary, Node, Paren, Ternary, is_primary
from ..model.analysis import FileAnalysis
from ..model.code_tokens import tokens
from ..model.implicit import Fate

EXCLUDE, INCLUDE, ROCM_MIN, RAISE_MIN = "exclude", "include", "rocm-min", "raise-min"
_ALTERNATIVE = re.compile(rb"(?<![A-Za-z0-9_])(?:and|or|not)(?![A-Za-z0-9_])")
_SYMBOLIC = re.compile(rb"&&|\|\||!(?!=)")
_STYLE_BYTES = 4 << 20  # of a file's code read for its spelling of the operators
_DEFINED_KEYWORDS = {"ifdef": b"if", "ifndef": b"if", "elifdef": b"elif", "elifndef": b"elif"}


def guard_fix(
    file: FileAnalysis,
    arm: Arm,
    form: str,
    *,
    applicability: str,
    message: str,
    rocm_false_today: bool = False,
    rocm_min: tuple[int, int, int] | None = None,
) -> Fix | None:
    """A fix that rewrites the arm's condition into `form`, or None if it cannot be done: no macro
    is certain for ROCm (or, for the version forms, for its version) at the guard (spec §13.2).
    `rocm_min` is a ROCm release, written on the version macro's scale."""
    condition = file.condition(arm).term
    directive = arm.directive
    if condition is None:
        return None
    macros = file.rewrite_macros(directive.hash)
    if macros.rocm is None or contradicts(file, arm, form):
        return None
    rocm = macros.rocm.name
    number = macros.version_number(rocm_min) if rocm_min is not None else None
    if form in (ROCM_MIN, RAISE_MIN) and number is None:
        return None
    version = macros.version.name if macros.version else ""
    node = condition.node
    loose = _binds_looser_than_and(node)
    and_, or_, not_ = _operators(file, arm)
    if form == EXCLUDE:
        prefix, suffix = ("(", ")") if loose else ("", "")
        suffix += f" {and_} {not_}defined({rocm})"
        expected = "false"
    elif form == RAISE_MIN:
        prefix, suffix = ("(", ")") if loose else ("", "")
        suffix += f" {and_} ({not_}defined({rocm}) {or_} {version} >= {number})"
        expected = "and-min"
    elif form == INCLUDE:
        prefix, suffix = ("", "") if is_primary(node) else ("(", ")")
        suffix += f" {or_} defined({rocm})"
        expected = "true"
    else:
        if rocm_false_today:
            prefix, suffix = ("", "") if is_primary(node) else ("(", ")")
        else:
            prefix, suffix = ("((", ")") if loose else ("(", "")
            suffix += f" {and_} {not_}defined({rocm}))"
        suffix += f" {or_} (defined({rocm}) {and_} {version} >= {number})"
        expected = "min"
    edits = _edits(file, arm, node, prefix.encode(), suffix.encode())
    if edits is None:
        return None
    return Fix(applicability, message, edits, Expectation(directive.hash, expected, number, rocm, version))


def test_fix(file: FileAnalysis, arm: Arm, fate: Fate, *, message: str) -> Fix | None:
    """The `preserve` fix at each decisive CUDA test (module doc), or None where a test's value
    differs between the ROCm models (no explicit form keeps both) or no macro is certain for ROCm."""
    macros = file.rewrite_macros(arm.directive.hash)
    if arm.directive.kind not in ("if", "elif") or not fate.tests or macros.rocm is None or contradicts(file, arm, None):
        return None
    rocm = macros.rocm.name
    and_, or_, not_ = _operators(file, arm)
    edits: list[Edit] = []
    for test, value in sorted(fate.tests, key=lambda item: item[0].span):
        if value is None:
            return None
        clause = f" {or_} defined({rocm})" if value else f" {and_} {not_}defined({rocm})"
        if isinstance(test, Paren) and not _needs_wrapping(test.inner, value):  # `(A && B && !defined(R))`
            edits.append(Edit(test.inner.span[1], test.inner.span[1], clause.encode()))
            continue
        inner = ("(", ")") if _needs_wrapping(test, value) else ("", "")
        edits += [Edit(test.span[0], test.span[0], f"({inner[0]}".encode()),
                  Edit(test.span[1], test.span[1], f"{inner[1]}{clause})".encode())]
    return Fix(SAFE, message, tuple(edits), Expectation(arm.directive.hash, "same", rocm_macro=rocm))


def for_the_project(file: FileAnalysis, fix: Fix | None) -> Fix | None:
    """A rule's guard rewrite as the project takes it: shown, not applied (display-only), where the project
    builds with its build files but none of them builds for ROCm (spec §13.4: NVIDIA's nccl,
    CUTLASS, TransformerEngine). Their maintainers merged 5 of 24 such rewrites in the hand checks
    (bench/handchecks/s27_fixes_round5.md, s28_fixes_round6.md), against 14 of 16 in projects that
    build for ROCm. `rocm-macro` in the configuration (the project has a ROCm build: a port under
    way) applies them, as does a policy other than the default `preserve` (`--policy auto` is
    asked to decide what the port does)."""
    if fix is None or not file.settings.rewrites_shown_only:
        return fix
    return fix._replace(applicability=DISPLAY_ONLY,
                        message=f"{fix.message} (shown only: no build file of the project builds for ROCm; "
                                "set `rocm-macro` to apply it)")


def _operators(file: FileAnalysis, arm: Arm) -> tuple[str, str, str]:
    """`&&`, `||` and `!` as the condition spells them: `and`, `or` and `not ` where it writes the
    alternative tokens (DeepEP's `#if defined(CUDART_VERSION) and CUDART_VERSION >= 13000`); a
    condition without operators is spelled as the file spells them (`_file_writes_words`)."""
    start, end = arm.directive.argument
    if _ALTERNATIVE.search(file.data, start, end) or (
            not _SYMBOLIC.search(file.data, start, end) and _file_writes_words(file)):
        return "and", "or", "not "
    return "&&", "||", "!"


def _file_writes_words(file: FileAnalysis) -> bool:
    """Whether the file spells the logical operators `and`/`or` and never `&&`/`||`: in its
    conditions when they have any, else in its code (comments and literals left out; the first
    _STYLE_BYTES read). Kept per file."""
    return file.kept(_file_writes_words, lambda: _words_style(file))


def _words_style(file: FileAnalysis) -> bool:
    data, directives = file.data, file.scan.directives
    conditions = [directive.argument for directive in directives if directive.kind in ("if", "elif")]
    words = any(_ALTERNATIVE.search(data, *span) for span in conditions)
    if any(_SYMBOLIC.search(data, *span) for span in conditions):
        return False
    if words:
        return True
    starts = [0, *(directive.end for directive in directives)]
    ends = [*(directive.hash for directive in directives), len(data)]
    for start, end in zip(starts, ends):
        if start >= _STYLE_BYTES:
            break
        for _, token in tokens(data, start, min(end, _STYLE_BYTES)):
            if token in (b"&&", b"||"):
                return False
            words = words or token in (b"and", b"or")
    return words


def contradicts(file: FileAnalysis, arm: Arm, form: str | None) -> bool:
    """Whether a clause on R alone would contradict what is already said (spec §14.7): the guard is
    evaluated only where the enclosing groups put ROCm, or in a file only ROCm compiles (no CUDA
    build reaches it), or it already
    tests ROCm and `form` would override that (`(A || defined(R)) && !defined(R)`). A version form
    (rocm-min, HG203's raise-min) adds what no enclosing group says: never a contradiction."""
    if form in (ROCM_MIN, RAISE_MIN):  # a version clause says more than R's value: not decided by R alone
        return False
    if file.settings.rocm_only or not file.reachable(arm, file.cuda, inside=False):
        return True
    condition = file.condition(arm).term
    return condition is not None and bool(condition.names & file.platforms.explicit_rocm)


def _edits(file: FileAnalysis, arm: Arm, node: Node, prefix: bytes, suffix: bytes) -> tuple[Edit, ...] | None:
    directive = arm.directive
    start, end = directive.argument
    keyword = _DEFINED_KEYWORDS.get(directive.kind)
    if keyword is None:
        if prefix:
            return Edit(start, start, prefix), Edit(end, end, suffix)
        return (Edit(end, end, suffix),)
    name_start, name_end = node.span
    if (name_start, name_end) != (start, end):  # `#ifdef X junk`: leave it to the author
        return None
    test = b"!defined(" if directive.kind.endswith("ndef") else b"defined("
    text = prefix + test + file.data[start:end] + b")" + suffix
    return Edit(*directive.keyword, keyword), Edit(start, end, text)


def _needs_wrapping(node: Node, include: bool) -> bool:
    """Whether `node` needs parentheses before `|| defined(R)` (include) or `&& !defined(R)`."""
    return isinstance(node, Ternary) if include else _binds_looser_than_and(node)


def _binds_looser_than_and(node: Node) -> bool:
    return isinstance(node, Ternary) or (isinstance(node, Binary) and node.op == "||")
