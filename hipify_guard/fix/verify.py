"""Prove a rewrite before it is written (spec §7, §11.6), like black's `--safe`.

The proof re-scans the new bytes, checks that every byte outside the edits is unchanged and
that no directive other than the rewritten ones changed, and proves each rewritten condition
equal to the original in every CUDA configuration, and on ROCm as the fix's expectation says:
symbolically (`symbolic`: the clauses on the ROCm macro folded away), and by evaluating both
with pcpp's expression evaluator (not the tool's own) over the critical configurations while
that fits its budget. A symbolic proof needs no sweep; without one, a sweep beyond the budget
leaves the rewrite unproven.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from ..core.findings import Edit, Expectation
from ..cpp.nodes import Binary, Identifier, Node, Number
from ..cpp.parser import ParseError, parse
from ..cpp.scanner import Directive, scan
from ..model.analysis import FileAnalysis
from ..model.platforms import UNDEFINED, Platform, Term, configurations, term
from .symbolic import proves

# pcpp evaluates ~6 us per byte of condition, 0.2 ms at least: a proof sweep is refused (the fix
# not applied) beyond this many configurations x (bytes of both conditions + 70), ~15 s. Without
# it a 60-term guard took 140 s to prove. Of the 82,848 conditions in the CUDA, torch and HIP
# headers, the few beyond it are not CUDA version guards.
MAX_PROOF_WORK = 2_500_000
_RENAMED_KINDS = {"ifdef": "if", "ifndef": "if", "elifdef": "elif", "elifndef": "elif"}
_PCPP_TOKEN = re.compile(
    r"(?P<number>\.?[0-9](?:[eEpP][+-]|'?[0-9A-Za-z_.])*)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<other>[\s\S])"
)
_PCPP_INTEGER = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)((?:[uU]|[lL]{1,2}|[zZ])*)")
_INT_MAX = (1 << 63) - 1
_ALTERNATIVES = {"and": "&&", "or": "||", "not": "!", "bitand": "&", "bitor": "|", "xor": "^",
                 "compl": "~", "not_eq": "!=", "true": "1", "false": "0"}


_FREE = object()


class VerificationError(Exception):
    """A rewrite could not be proven; the file must be left untouched."""


def verify(old: FileAnalysis, new: bytes, edits: Sequence[Edit], expectations: Sequence[Expectation]) -> None:
    """Raise VerificationError unless `new` is `old` with exactly the promised changes."""
    check_untouched_bytes(old.data, new, edits)
    new_directives = _check_structure(old, new)
    by_hash = {expectation.directive: expectation for expectation in expectations}
    touched = _touched(old.scan.directives, edits)
    for index, directive in enumerate(old.scan.directives):
        replacement = new_directives[index]
        if directive.hash in by_hash:
            _check_condition(old, directive, new, replacement, by_hash[directive.hash])
        elif index in touched and _argument(old.data, directive) != _argument(new, replacement):
            raise VerificationError(f"#{directive.kind} at offset {directive.hash} changed without a proof")


def _touched(directives: Sequence[Directive], edits: Sequence[Edit]) -> set[int]:
    """Indexes of the directives whose bytes (`#` to line end) an edit touches, by bisection:
    directives follow each other, so a file with 10,000 edits is not a 10,000 x 20,000 scan."""
    starts = [directive.hash for directive in directives]
    touched: set[int] = set()
    for edit in edits:
        index = bisect.bisect_right(starts, edit.end) - 1
        while index >= 0 and directives[index].end >= edit.start:
            touched.add(index)
            index -= 1
    return touched


def check_untouched_bytes(old: bytes, new: bytes, edits: Sequence[Edit]) -> None:
    """Raise VerificationError unless `new` is `old` with exactly `edits` applied."""
    position = shift = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < position:
            raise VerificationError("overlapping edits")
        if old[position : edit.start] != new[position + shift : edit.start + shift]:
            raise VerificationError(f"bytes before offset {edit.start} changed")
        if new[edit.start + shift : edit.start + shift + len(edit.content)] != edit.content:
            raise VerificationError(f"edit at offset {edit.start} not applied as planned")
        shift += len(edit.content) - (edit.end - edit.start)
        position = edit.end
    if old[position:] != new[position + shift :] or len(new) != len(old) + shift:
        raise VerificationError("bytes after the last edit changed")


def _check_structure(old: FileAnalysis, new: bytes) -> tuple[Directive, ...]:
    rescanned = scan(new)
    before = old.scan.directives
    after = rescanned.directives
    if len(before) != len(after) or len(rescanned.problems) != len(old.scan.problems):
        raise VerificationError("the rewrite changed the directive structure")
    for a, b in zip(before, after):
        if b.kind not in (a.kind, _RENAMED_KINDS.get(a.kind)):
            raise VerificationError(f"#{a.kind} became #{b.kind}")
    return after


def _argument(data: bytes, directive: Directive) -> bytes:
    return data[directive.argument[0] : directive.argument[1]]


def _check_condition(old: FileAnalysis, before: Directive, new: bytes, after: Directive, expectation: Expectation) -> None:
    old_text = _condition_text(old.data, before)
    new_text = _argument(new, after).decode("latin-1")
    try:
        old_term = term(parse(old_text.encode("latin-1"), 0, len(old_text)))
        new_term = term(parse(new_text.encode("latin-1"), 0, len(new_text)))
    except ParseError as error:
        raise VerificationError(f"rewritten condition does not parse: {error.message}") from None
    settings = old.settings.macros
    macros = (expectation.rocm_macro or settings.rocm_macro, expectation.version_macro or settings.rocm_version_macro)
    cuda = _with(old.cuda, macros[0], UNDEFINED)  # R: a macro only ROCm builds define
    proven = proves(old_term.node, new_term.node, cuda, macros, None)
    _sweep(old_text, new_text, (old_term, new_term), cuda, "CUDA", None, proven=proven)
    if expectation.rocm == "any":
        return
    arm = old.tree.arm_of[before.hash]
    promise = _promised(old_term.node, expectation, macros[1])
    for model in old.reachable_on_rocm(arm):
        model = _as_built(old, before, model, macros[0])
        proven = proves(old_term.node, new_term.node, model, macros, promise, settings.cuda_version_macros)
        _sweep(old_text, new_text, (old_term, new_term), model, model.title, expectation,
               version_macro=macros[1], proven=proven)


def _as_built(old: FileAnalysis, directive: Directive, model: Platform, rocm: str) -> Platform:
    """`model` with R as every ROCm build of the file defines it at the guard (spec §13.3): defined
    where the evidence is certain (`rewrite_macros`), free otherwise, so that a clause on a macro
    some ROCm build may leave undefined is never proven."""
    certain = old.rewrite_macros(directive.hash).rocm
    if certain is None or certain.name != rocm:
        return _with(model, rocm, _FREE)
    value = model.fixed.get(rocm, UNDEFINED)
    return model if value is not UNDEFINED else _with(model, rocm, 1)


def _with(platform: Platform, name: str, value: object) -> Platform:
    """`platform` with `name` fixed to `value` (_FREE: not fixed)."""
    fixed = {key: item for key, item in platform.fixed.items() if key != name}
    if value is not _FREE:
        fixed[name] = value
    return replace(platform, fixed=fixed)


def _promised(old: Node, expectation: Expectation, version_macro: str) -> Node | None:
    """What the rewritten condition must equal on ROCm, as a tree (None: the original)."""
    if expectation.rocm in ("false", "true"):
        return Number((0, 0), int(expectation.rocm == "true"), False)
    if expectation.rocm in ("min", "and-min"):
        minimum = Binary((0, 0), ">=", Identifier((0, 0), version_macro), Number((0, 0), expectation.rocm_min or 0, False))
        return minimum if expectation.rocm == "min" else Binary((0, 0), "&&", old, minimum)
    return None


def _condition_text(data: bytes, directive: Directive) -> str:
    argument = _argument(data, directive).decode("latin-1")
    if directive.kind in ("ifdef", "elifdef"):
        return f"defined({argument.split()[0]})"
    if directive.kind in ("ifndef", "elifndef"):
        return f"!defined({argument.split()[0]})"
    return argument


def _sweep(old_text: str, new_text: str, terms: tuple[Term, Term], platform: Platform, title: str,
           expected: Expectation | None, version_macro: str = "", proven: bool = False) -> None:
    """The second opinion: pcpp over the critical configurations (within its budget when the
    symbolic proof holds; otherwise the only proof, refused beyond the budget)."""
    configs = configurations(terms, platform)
    limit = MAX_PROOF_WORK // (len(old_text) + len(new_text) + 70)
    swept = None if configs is None else list(itertools.islice(configs, limit + 1))
    if swept is None or len(swept) > limit:
        if proven:
            return
        raise VerificationError(f"too many configurations to prove the rewrite on {title}, and no symbolic proof")
    for config in swept:
        after = pcpp_value(new_text, config)
        if expected is None or expected.rocm == "same":
            wanted = pcpp_value(old_text, config)
        elif expected.rocm == "min":
            version = config.get(version_macro)
            wanted = int(isinstance(version, int) and version >= (expected.rocm_min or 0))
        elif expected.rocm == "and-min":
            version = config.get(version_macro)
            old = pcpp_value(old_text, config)
            wanted = old if old == "error" else int(old == 1 and isinstance(version, int) and version >= (expected.rocm_min or 0))
        else:
            wanted = int(expected.rocm == "true")
        if after != wanted and not (proven and "error" in (after, wanted)):  # (pcpp cannot read `'ab'`)
            shown = ", ".join(f"{k}={v}" for k, v in sorted(config.items())) or "no macros defined"
            raise VerificationError(f"on {title} with {shown}: rewritten condition gives {after}, expected {wanted}")


def pcpp_value(text: str, config: dict[str, int | str]) -> int | str:
    """The truth value (0/1) of an `#if` expression by pcpp, or "error" (a configuration asked again,
    as the sweeps of one condition over the CUDA and ROCm models do, is answered once)."""
    return _pcpp_value(text, tuple(sorted(config.items())))


@lru_cache(maxsize=4096)
def _pcpp_value(text: str, items: tuple[tuple[str, int | str], ...]) -> int | str:
    config = dict(items)
    preprocessor = _preprocessor()
    for name in preprocessor.hipify_guard_defined:
        preprocessor.macros.pop(name, None)  # (what `undef` does, without tokenizing the name)
    preprocessor.hipify_guard_defined.clear()
    calls = {key: value for key, value in config.items() if "(" in key}
    for name, value in config.items():
        if name not in calls:
            preprocessor.define(list(_definition_tokens(name, value)))
            preprocessor.hipify_guard_defined.append(name)
    try:
        tokens = [_copied(token) for token in _pcpp_tokens(text, tuple(sorted(calls.items())))]
        value, _ = preprocessor.evalexpr(tokens)
    except Exception:  # noqa: BLE001 - pcpp reports every failure as an exception
        return "error"
    return int(value != 0)


@lru_cache(maxsize=1024)
def _definition_tokens(name: str, value: int | str) -> tuple:
    """pcpp's tokens of `#define name value` (a string value: defined empty), made once (`define`
    copies the tokens it is given)."""
    return tuple(_preprocessor().tokenize(f"{name} {'' if isinstance(value, str) else value}"))


@lru_cache(maxsize=1024)
def _pcpp_tokens(text: str, calls: tuple[tuple[str, int | str], ...]) -> tuple:
    """pcpp's tokens of the expression, made once per expression (a sweep asks it under many
    configurations); `evalexpr` rewrites the tokens it is given, so each evaluation gets copies."""
    return tuple(_preprocessor().tokenize(_for_pcpp(text, dict(calls))))


def _copied(token: object) -> object:
    """A copy of a pcpp token (a plain object: its attributes are all there is; `copy.copy`
    through `__reduce_ex__` took a sixth of a fix run's proofs)."""
    twin = object.__new__(type(token))
    twin.__dict__.update(token.__dict__)
    return twin


def _for_pcpp(text: str, calls: dict[str, int | str]) -> str:
    """Spell C++-only tokens the way pcpp understands, and put values in for opaque calls."""
    text = re.sub(r"\\\r?\n|\\\r", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//.*", "", text)
    pieces: list[str] = []
    pos = 0
    while pos < len(text):
        match = _PCPP_TOKEN.match(text, pos)
        kind, token = match.lastgroup, match.group()
        pos = match.end()
        if kind == "number":
            token = _plain_number(token)
        elif kind == "ident" and token in _ALTERNATIVES:  # before calls: `not (A)` is no call
            token = _ALTERNATIVES[token]
        elif kind == "ident" and text[pos:].lstrip().startswith("(") and token != "defined":
            token, pos = _call_value(text, token, pos, calls)
        pieces.append(token)
    return "".join(pieces)


def _plain_number(token: str) -> str:
    """An integer literal as pcpp reads it: decimal, `u` when unsigned, no other suffix.

    pcpp rejects binary, digit separators and the `ll`/`z` suffixes (all 64 bits, like `l`, on
    LP64), and reads a constant too large for a signed type as signed, unlike C.
    """
    match = _PCPP_INTEGER.fullmatch(token.replace("'", ""))
    if match is None:
        return token
    digits, suffix = match.groups()
    if digits[:2] in ("0x", "0X", "0b", "0B"):
        number = int(digits[2:], 16 if digits[1] in "xX" else 2)
    elif len(digits) > 1 and digits[0] == "0":
        if not set(digits) <= set("01234567"):
            return token
        number = int(digits, 8)
    else:
        number = int(digits)
    unsigned = "u" in suffix.lower() or number > _INT_MAX
    return f"{number}{'u' if unsigned else ''}"


def _call_value(text: str, name: str, pos: int, calls: dict[str, int | str]) -> tuple[str, int]:
    depth, end = 0, pos
    while end < len(text):
        depth += (text[end] == "(") - (text[end] == ")")
        end += 1
        if depth == 0 and text[end - 1] == ")":
            break
    key = re.sub(r"\s+", "", name + text[pos:end])
    return str(calls.get(key, 0)), end


@lru_cache(maxsize=1)
def _preprocessor():  # noqa: ANN202 - pcpp has no type hints
    import pcpp

    class _Quiet(pcpp.Preprocessor):
        """pcpp with C semantics for unknown names, raising on errors instead of printing."""

        def on_unknown_macro_in_expr(self, ident):  # noqa: ANN001, ANN202
            return 0

        def on_unknown_macro_in_defined_expr(self, tok):  # noqa: ANN001, ANN202
            return False

        def on_error(self, file, line, msg):  # noqa: ANN001, ANN202
            raise ValueError(msg)

    preprocessor = _Quiet()
    preprocessor.hipify_guard_defined = []
    return preprocessor
