"""`hipify-guard eval 'EXPR' [-D NAME[=V]]... [-U NAME]...`: what does this guard do on ROCm?"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from ..cpp.evaluator import EMPTY
from ..engine.catalogue import load_catalogue
from ..engine.evaluation import OUTCOME_TEXT, Evaluation, EvalUsageError, definitions, platform_label, run
from ..model.platforms import UNDEFINED
from ..project.config import ConfigError
from ..project.workspace import Project

GUARD_RULES = "HG1"  # the rules about one condition; code and tool rules need more than an expression


class EvalFailed(click.ClickException):
    """A bad expression, definition or configuration: exit status 2, no usage text."""

    exit_code = 2


@click.command("eval")
@click.argument("expression")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]",
              help="Define a macro (1 without a value; empty with `NAME=`). Repeatable.")
@click.option("-U", "undefines", multiple=True, metavar="NAME", help="Undefine a macro. Repeatable.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, exists=True),
              help="Use this configuration file (default: the closest one to the current folder).")
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def eval_command(expression: str, defines: tuple[str, ...], undefines: tuple[str, ...], config_file: str | None,
                 isolated: bool, output_format: str) -> None:
    """Evaluate an #if expression: its value, its outcome on CUDA and each ROCm model, and the verdict."""
    from ..checks import CHECKS

    if config_file and isolated:
        raise click.UsageError("--config and --isolated cannot be used together")
    try:
        project = Project(CHECKS, None, config_file, isolated)
        options = project.options(os.path.join(os.getcwd(), "<eval>"))
        codes = tuple(code for code in project.codes("<eval>", options) if code.startswith(GUARD_RULES))
        result = run(expression, definitions(defines, undefines), project.settings(options), codes)
    except (ConfigError, EvalUsageError) as error:
        raise EvalFailed(str(error)) from None
    if output_format == "json":
        click.echo(json.dumps(as_json(result), indent=2))
    else:
        click.echo(as_text(result))


def as_text(result: Evaluation) -> str:
    """The human report."""
    lines = [f"expression: {result.expression}", f"value: {_value(result)}{_given(result)}"]
    width = max(len(platform_label(platform)) + 1 for platform, _ in result.outcomes)
    lines += [f"{platform_label(platform) + ':':{width}}  {OUTCOME_TEXT[value]}" for platform, value in result.outcomes]
    names = load_catalogue()
    for finding in result.findings:
        name = names[finding.code].name if finding.code in names else ""
        lines.append(f"{finding.code} {name}: {finding.message}")
        if finding.fix is not None:
            lines.append(f"  fix ({finding.fix.applicability}): {result.fixed_source(finding)}")
    if not result.findings:
        lines.append("no finding: the outcome on ROCm is explicit, or the guard is not about CUDA versions")
    return "\n".join(lines)


def _value(result: Evaluation) -> str:
    if result.value is None:
        return f"error: {result.error}"
    return f"{result.value} ({'true' if result.value else 'false'})"


def _given(result: Evaluation) -> str:
    shown = [f"{name}={_shown(value)}" for name, value in result.definitions.items()]
    return f" with {', '.join(shown)}; other names undefined" if shown else " (every name undefined)"


def _shown(value: int | str | None) -> str:
    return "<undefined>" if value is UNDEFINED else "<empty>" if value == EMPTY else str(value)


def as_json(result: Evaluation) -> dict[str, Any]:
    """The machine report."""
    return {
        "expression": result.expression,
        "definitions": {name: (None if v is UNDEFINED else "" if v == EMPTY else v) for name, v in result.definitions.items()},
        "value": result.value,
        "error": result.error or None,
        "outcomes": [{"platform": p.name, "title": p.title, "rocm": p.is_rocm, "outcome": value.value}
                     for p, value in result.outcomes],
        "findings": [{"code": f.code, "message": f.message,
                      "fix": None if f.fix is None else {"applicability": f.fix.applicability,
                                                         "message": f.fix.message, "result": result.fixed_source(f)}}
                     for f in result.findings],
    }
