"""What `hipify-guard eval` computes: an #if expression's value and its outcome on each platform.

The value is taken under the given definitions (`-D NAME[=V]`, `-U NAME`; other names are
undefined, as in the preprocessor). The outcome on a platform sweeps every configuration of
that platform, with the given definitions fixing the macros the platform leaves free. The rules
run on `#if EXPR` as a one-line file, so the verdict and its fix are the ones `check` gives.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.records import record
from ..core.findings import Finding, apply_edits
from ..cpp.evaluator import EMPTY, EvalError, evaluate
from ..cpp.numbers import LiteralError, integer_value
from ..cpp.parser import ParseError, parse
from ..model.analysis import FileAnalysis
from ..model.platforms import UNDEFINED, Outcome, Platform, outcome, term
from ..model.settings import Settings
from .lint import check

Definitions = dict[str, "int | str | None"]  # a value, EMPTY, or UNDEFINED (-U)
OUTCOME_TEXT = {
    Outcome.TRUE: "true",
    Outcome.FALSE: "false",
    Outcome.DEPENDS: "depends on the build (true in some configurations, false in others)",
    Outcome.ERROR: "an error (the expression has no value there, e.g. an empty macro used as a number)",
    Outcome.UNKNOWN: "unknown (too many configurations to sweep, or arithmetic on a free macro that no sweep decides)",
}
PREFIX = b"#if "


class EvalUsageError(ValueError):
    """A bad expression or definition; the message says where."""


@record
class Evaluation:
    """The answers for one expression."""

    expression: str
    definitions: Definitions
    value: int | None
    error: str
    outcomes: tuple[tuple[Platform, Outcome], ...]
    findings: tuple[Finding, ...]
    source: bytes  # the one-line file the rules ran on

    def fixed_source(self, finding: Finding) -> str:
        """The line `#if EXPR` after the finding's fix."""
        assert finding.fix is not None
        return apply_edits(self.source, finding.fix.edits).decode("utf-8", "replace").splitlines()[0]


def definitions(defines: tuple[str, ...], undefines: tuple[str, ...]) -> Definitions:
    """`-D NAME`, `-D NAME=`, `-D NAME=VALUE` and `-U NAME` as a mapping (later wins)."""
    result: Definitions = {}
    for item in defines:
        name, equals, text = item.partition("=")
        _check_name(name, "-D")
        result[name] = _value(name, text) if equals else 1
    for name in undefines:
        _check_name(name, "-U")
        result[name] = UNDEFINED
    return result


def _check_name(name: str, option: str) -> None:
    if not name.isidentifier():
        raise EvalUsageError(f"{option} {name!r}: not a macro name")


def _value(name: str, text: str) -> int | str:
    if not text.strip():
        return EMPTY
    negative = text.strip().startswith("-")
    try:
        value, _ = integer_value(text.strip().lstrip("-"))
    except LiteralError as error:
        raise EvalUsageError(f"-D {name}={text}: {error}") from None
    return -value if negative else value


def run(expression: str, given: Definitions, settings: Settings, codes: tuple[str, ...]) -> Evaluation:
    """Evaluate `expression` (raises EvalUsageError when it does not parse)."""
    source = PREFIX + expression.encode("utf-8", "surrogateescape") + b"\n#endif\n"
    end = len(PREFIX) + len(expression.encode("utf-8", "surrogateescape"))
    try:
        node = parse(source, len(PREFIX), end)
    except ParseError as error:
        column = error.offset - len(PREFIX)
        raise EvalUsageError(f"{error.message}\n  {expression}\n  {' ' * column}^") from None
    config = {name: value for name, value in given.items() if value is not UNDEFINED}
    try:
        value, error = evaluate(node, config)[0], ""
    except EvalError as problem:
        value, error = None, problem.message
    item = term(node)
    file = FileAnalysis("<eval>", source, settings)
    platforms = (file.cuda, *file.rocm_models)
    outcomes = tuple((platform, outcome(item, _with(platform, given))) for platform in platforms)
    findings = check(file, codes)
    return Evaluation(expression, given, value, error, outcomes, tuple(findings), source)


def platform_label(platform: Platform) -> str:
    """How a report names a platform: `CUDA`, or `ROCm, <model title> (<model name>)`."""
    return f"ROCm, {platform.title} ({platform.name})" if platform.is_rocm else "CUDA"


def _with(platform: Platform, given: Definitions) -> Platform:
    """The platform with the given definitions fixing what it leaves free (its own facts win)."""
    return replace(platform, fixed={**given, **platform.fixed})
