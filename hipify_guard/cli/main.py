"""The `hipify-guard` command line. It only wires the steps together."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

import click

from .. import __version__
from .formatters import FORMATTERS, RenderOptions
from .output import COLOR_CHOICES, OutputOptions, emit_messages, emit_report

if TYPE_CHECKING:
    from ..engine.diagnostics import FileReport
    from ..project.workspace import Project

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# Commands in modules of their own, imported when run (or listed by --help): `check` need not load them.
LAZY_COMMANDS = {"eval": "eval_command", "files": "files_command", "init": "init_command", "map": "map_command", "rule": "rule_command",
                 "server": "server_command"}


class UsageError(click.ClickException):
    """A bad option value or configuration: exit status 2 (click's plain exception exits 1)."""

    exit_code = EXIT_ERROR


class _Commands(click.Group):
    """The commands, with those of LAZY_COMMANDS imported on first use (click's lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module = LAZY_COMMANDS[cmd_name]
            return getattr(import_module(f"{__package__}.{module}"), module)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hipify-guard")
def cli() -> None:
    """Make every CUDA version guard say explicitly what happens on AMD ROCm."""


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes (verified before writing).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that change ROCm's branch.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a diff; write nothing.")
@click.option("--fix-read-only", is_flag=True,
              help="Also rewrite files without write permission for their owner (the mode is kept).")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when something was fixed.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--policy", help="preserve | exclude | include | rocm-min=X.Y[.Z] | auto: how fixes decide "
                                "ROCm's branch.  [default: preserve]")
@click.option("--select", help="Comma-separated codes or prefixes to enable (ALL for every rule).")
@click.option("--ignore", help="Comma-separated codes or prefixes to disable.")
@click.option("--extend-select", help="Codes or prefixes to enable on top of --select.")
@click.option("--per-file-ignores", multiple=True, metavar="GLOB:CODES",
              help="Ignore codes (comma-separated) in files matching GLOB (.gitignore syntax); repeatable.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Use this configuration file for every path (no search for the closest one).")
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option("--output-format", type=click.Choice(sorted(FORMATTERS)), default="concise", show_default=True)
@click.option("--show-fixes", is_flag=True, help="Show the fix of each finding (and, with --fix, what was fixed).")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the report to this file.")
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of the findings.")
@click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto", show_default=True,
              help="Colour the text report (auto: on a terminal; FORCE_COLOR and NO_COLOR are honoured).")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("-s", "--silent", is_flag=True, help="Print nothing; only the exit status tells.")
@click.option("--stdin-filename", help="Check standard input (PATH '-') as if it were this file.")
@click.option("--exclude", multiple=True, help="Patterns (.gitignore syntax) of files and folders to skip.")
@click.option("--extend-exclude", multiple=True, help="More patterns to skip, on top of --exclude.")
@click.option("--force-exclude", is_flag=True, help="Apply the exclusions to paths named on the command line too.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings that are not in this baseline file.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(dir_okay=False),
              help="Record every current finding in this baseline file and exit 0.")
@click.option("-j", "--jobs", "jobs_count", type=click.IntRange(min=0), default=0,
              help="Processes to use (default 0: one per core; small runs use one).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the results cache (see `clean`).")
@click.option("--compile-commands", type=click.Path(dir_okay=False),
              help="The ROCm build's compile_commands.json: check ROCm rules only on what it compiles, under its -D/-U.")
@click.option("--cuda-compile-commands", type=click.Path(dir_okay=False),
              help="The CUDA build's compile_commands.json: files only it compiles get the rules not about ROCm.")
@click.option("--rocm-files", multiple=True, metavar="GLOB",
              help="Files the ROCm build compiles (.gitignore syntax; repeatable, comma-separated); others are CUDA-only.")
def check_command(paths: Sequence[str], fix: bool, unsafe_fixes: bool, show_diff: bool, fix_read_only: bool,
                  exit_non_zero_on_fix: bool, exit_zero: bool, policy: str, select: str | None,
                  ignore: str | None, extend_select: str | None, output_format: str, show_fixes: bool,
                  output_file: str | None, statistics: bool, color: str, quiet: bool, silent: bool,
                  stdin_filename: str | None, exclude: tuple[str, ...], extend_exclude: tuple[str, ...],
                  force_exclude: bool, baseline_file: str | None, write_baseline_file: str | None,
                  jobs_count: int, no_cache: bool, per_file_ignores: tuple[str, ...],
                  config_file: str | None, isolated: bool, compile_commands: str | None,
                  cuda_compile_commands: str | None, rocm_files: tuple[str, ...]) -> None:
    """Check C/C++/CUDA/HIP files for CUDA version guards with an implicit ROCm outcome, and
    Python files for what PyTorch's HIP note warns about (HG3xx)."""
    from ..project.config import ConfigError
    from ..project.job import CHECK, DIFF, FIX
    from ..project.run_answer import RunAnswer, run_key
    from ..project.workspace import port_candidates, port_notes
    from ..walk.project_walk import remember_in
    from ..project.table_cache import use_user_tables
    from .argfiles import ArgfileError
    from .inputs import Inputs, MissingPath
    from .standard_input import write_stdout

    mode = DIFF if show_diff else FIX if fix else CHECK
    cache = None if no_cache or mode != CHECK else open_cache()
    remember_in(cache)  # (first: what the configuration is read from is noted for the run's answer)
    project = _project(config_file, isolated, policy=policy, select=select, ignore=ignore,
                       extend_select=extend_select, per_file_ignores=per_file_ignores,
                       exclude=exclude, extend_exclude=extend_exclude, compile_commands=compile_commands,
                       cuda_compile_commands=cuda_compile_commands, rocm_files=rocm_files)
    use_user_tables()
    output = OutputOptions(output_format, output_file, statistics, color, quiet, silent)
    try:
        inputs = Inputs.from_command_line(paths, stdin_filename, exclude + extend_exclude, force_exclude)
    except (ArgfileError, MissingPath) as error:
        raise UsageError(str(error)) from None
    known = _read_baseline(baseline_file) if baseline_file else None
    inputs.excluder, inputs.excluder_in = project.excluded, project.exclusions_in
    inputs.extensions = project.extensions(inputs.paths)
    try:
        targets = inputs.targets()  # (a configuration file in a walked folder is read now)
        key = None if cache is None or inputs.stdin else run_key(
            inputs.paths, inputs.exclude, force_exclude, project.overrides, config_file, isolated, unsafe_fixes)
        run = RunAnswer(cache, key, targets)
        answer = run.kept()
        jobs = [] if answer is not None else project.jobs(targets, inputs.paths, mode, unsafe_fixes, fix_read_only,
                                                          memo=cache)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    if answer is not None:
        reports, stdin_result, candidates = inputs.found() + answer.reports, None, answer.port_candidates
    else:
        reports, stdin_result = inputs.run(jobs, show_progress=not (quiet or silent), workers=jobs_count, cache=cache)
        candidates = port_candidates(jobs, reports)
        run.keep(jobs, reports[len(reports) - len(jobs):], candidates)
    if write_baseline_file:
        sys.exit(_write_baseline(write_baseline_file, reports, output))
    if known is not None:
        from .baseline import only_new

        reports = only_new(reports, known)
    options = RenderOptions(unsafe_fixes=unsafe_fixes, show_fixes=show_fixes, fixing=mode != CHECK,
                            notes=tuple(port_notes(candidates, reports)))
    emit_messages(reports, output)
    if mode == DIFF:
        click.echo("".join(report.diff for report in reports), nl=False)
    else:
        if stdin_result is not None and mode == FIX:
            write_stdout(stdin_result)
        emit_report(reports, options, output, to_stderr=stdin_result is not None and mode == FIX)
    sys.exit(_exit_status(reports, mode, exit_zero, exit_non_zero_on_fix))


@cli.command("clean")
def clean_command() -> None:
    """Delete the results cache (`$HIPIFY_GUARD_CACHE_DIR`, or .hipify-guard-cache in the project root)."""
    from ..project.cache import NotACache, cache_folder, clean

    folder = cache_folder()
    try:
        removed = clean(folder)
    except NotACache as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot remove {folder}: {error.strerror or error}") from None
    click.echo(f"Removed {folder}" if removed else f"No cache at {folder}")


def open_cache():
    """The results cache of the project, authenticated with the user's key (unusable folders only
    cost speed: see `Cache.save`)."""
    from ..project.cache import Cache, cache_folder, user_key

    return Cache(cache_folder(), user_key())


def _read_baseline(path: str) -> frozenset[str]:
    """The fingerprints recorded in a baseline file (its module is loaded only for a baseline run)."""
    from .baseline import BaselineError, read_baseline

    try:
        return read_baseline(path)
    except BaselineError as error:
        raise UsageError(str(error)) from None


def _write_baseline(path: str, reports: list[FileReport], output: OutputOptions) -> int:
    from .baseline import BaselineError, write_baseline

    emit_messages(reports, output)
    try:
        count = write_baseline(path, reports)
    except BaselineError as error:
        raise UsageError(str(error)) from None
    if not (output.quiet or output.silent):
        click.echo(f"Wrote {count} finding{'' if count == 1 else 's'} to the baseline {path}.", err=True)
    return EXIT_ERROR if any(report.errors for report in reports) else EXIT_CLEAN


def _project(config_file: str | None, isolated: bool, **options: object) -> Project:
    """The configuration of every checked path, with the command line's options on top."""
    from ..engine.catalogue import load_catalogue  # the rule codes: every rule has its page (not importing the rules)
    from ..project.config import ConfigError
    from ..project.workspace import Project, command_line_overrides

    if config_file and isolated:
        raise UsageError("--config and --isolated cannot be used together")
    try:
        return Project(load_catalogue(), command_line_overrides(**options), config_file, isolated)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _exit_status(reports: list[FileReport], mode: str, exit_zero: bool, exit_non_zero_on_fix: bool) -> int:
    from ..project.job import DIFF

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
        _run()
    finally:
        # The process ends: the interpreter's last collections would only walk every object of the
        # run (modules, tables, analyses) to free what the exit frees anyway (50 million instructions
        # of a 10-file pre-commit run). Frozen, they are skipped; files are closed by then.
        gc.freeze()


def _run() -> None:
    """The command line, its errors turned into exit statuses."""
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
        from ..project.config import ConfigError  # (a configuration file found on the way, wherever it is read)

        if isinstance(error, ConfigError):
            click.echo(f"Error: {error}", err=True)
        else:
            click.echo(f"hipify-guard: internal error: {type(error).__name__}: {error}", err=True)
        sys.exit(EXIT_ERROR)
