"""The `hipify-guard` command line. It only wires the steps together."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from . import __version__
from .diagnostics import FileReport, ToolMessage
from .discovery import discover
from .engine import active_codes
from .formatters import FORMATTERS, RenderOptions
from .execute import execute
from .runner import CHECK, DIFF, FIX, Job
from .selection import Selection, validate
from .settings import Policy, Settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(click.ClickException):
    """A bad option value or configuration: exit status 2 (click's plain exception exits 1)."""

    exit_code = EXIT_ERROR


def _codes(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hipify-guard")
def cli() -> None:
    """Make every CUDA version guard say explicitly what happens on AMD ROCm."""


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes (verified before writing).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that change ROCm's branch.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a diff; write nothing.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when something was fixed.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--policy", default="preserve", show_default=True,
              help="preserve | exclude | include | rocm-min=X.Y[.Z]: how fixes decide ROCm's branch.")
@click.option("--select", help="Comma-separated codes or prefixes to enable (ALL for every rule).")
@click.option("--ignore", help="Comma-separated codes or prefixes to disable.")
@click.option("--extend-select", help="Codes or prefixes to enable on top of --select.")
@click.option("--output-format", type=click.Choice(sorted(FORMATTERS)), default="concise", show_default=True)
@click.option("--show-fixes", is_flag=True, help="Show the fix of each finding.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
def check_command(paths: Sequence[str], fix: bool, unsafe_fixes: bool, show_diff: bool,
                  exit_non_zero_on_fix: bool, exit_zero: bool, policy: str, select: str | None,
                  ignore: str | None, extend_select: str | None, output_format: str, show_fixes: bool,
                  quiet: bool) -> None:
    """Check C/C++/CUDA/HIP files for CUDA version guards with an implicit ROCm outcome."""
    try:
        settings = Settings(policy=Policy.parse(policy))
    except ValueError as error:
        raise UsageError(f"--policy: {error}") from None
    selection = Selection(_codes(select) or ("ALL",), _codes(ignore), _codes(extend_select))
    _validate_selection(selection)
    mode = DIFF if show_diff else FIX if fix else CHECK
    codes = tuple(active_codes(selection))
    jobs = [Job(name, path, settings, codes, mode, unsafe_fixes) for name, path in discover(paths or (".",))]
    reports = execute(jobs)
    options = RenderOptions(unsafe_fixes=unsafe_fixes, show_fixes=show_fixes, fixing=mode != CHECK)
    _print_messages(reports)
    if mode == DIFF:
        click.echo("".join(report.diff for report in reports), nl=False)
    else:
        text = FORMATTERS[output_format](reports, options)
        if quiet and output_format == "concise":
            text = "".join(line + "\n" for line in text.splitlines()[:-1])
        click.echo(text, nl=False)
    sys.exit(_exit_status(reports, mode, exit_zero, exit_non_zero_on_fix))


def _validate_selection(selection: Selection) -> None:
    from .checks import CHECKS

    unknown = validate((*selection.select, *selection.ignore, *selection.extend_select), CHECKS)
    if unknown:
        raise UsageError(f"unknown rule code or prefix: {', '.join(unknown)}")


def _print_messages(reports: list[FileReport]) -> None:
    for report in reports:
        for message in report.notes:
            click.echo(_message_line(message, "warning"), err=True)
        for message in report.errors:
            click.echo(_message_line(message, "error"), err=True)


def _message_line(message: ToolMessage, level: str) -> str:
    where = message.filename
    if message.row:
        where += f":{message.row}:{message.column}"
    return f"{where}: {level}: {message.message}"


def _exit_status(reports: list[FileReport], mode: str, exit_zero: bool, exit_non_zero_on_fix: bool) -> int:
    if any(report.errors for report in reports):
        return EXIT_ERROR
    if exit_zero:
        return EXIT_CLEAN
    if mode == DIFF:
        return EXIT_FINDINGS if any(report.diff for report in reports) else EXIT_CLEAN
    if any(report.diagnostics for report in reports):
        return EXIT_FINDINGS
    if exit_non_zero_on_fix and any(report.fixed for report in reports):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def main() -> None:
    """Console-script entry point: exit 2 with one clear line on an unexpected error."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(EXIT_ERROR if isinstance(error, click.UsageError) else error.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_ERROR)
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(EXIT_ERROR)
    except Exception as error:  # noqa: BLE001 - last line of defence: no traceback for users
        click.echo(f"hipify-guard: internal error: {type(error).__name__}: {error}", err=True)
        sys.exit(EXIT_ERROR)
