"""Where and how the report is written: format, statistics, colour, quiet/silent, output file."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO, NamedTuple, TextIO

from ..engine.diagnostics import FileReport, ToolMessage
from .formatters import FORMATTERS, RenderOptions

COLOR_CHOICES = ("auto", "always", "never")


class OutputOptions(NamedTuple):
    """The output switches of `check`."""

    output_format: str = "concise"
    output_file: str | None = None
    statistics: bool = False
    color: str = "auto"
    quiet: bool = False
    silent: bool = False


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """`always`/`never` as given; `auto`: FORCE_COLOR, then NO_COLOR, then whether `stream` is a terminal."""
    if choice != "auto":
        return choice == "always"
    if environ.get("FORCE_COLOR", "") not in ("", "0", "false"):
        return True
    if environ.get("NO_COLOR", ""):
        return False
    try:
        return stream.isatty() and environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


def render(reports: list[FileReport], base: RenderOptions, options: OutputOptions, color: bool) -> str:
    """The report text: the chosen format, or the statistics."""
    render_options = base._replace(color=color, summary=not options.quiet)
    if options.statistics:
        from .formatters import statistics  # (as each format: imported when asked for, with json)

        return statistics.render(reports, render_options, options.output_format)
    return FORMATTERS[options.output_format](reports, render_options)


def emit_report(reports: list[FileReport], base: RenderOptions, options: OutputOptions, *,
                to_stderr: bool = False) -> None:
    """Write the report to the output file, or to stdout (stderr when stdout carries fixed code)."""
    if options.output_file is not None:
        write_file(options.output_file, render(reports, base, options, color=options.color == "always"))
        return
    if options.silent:
        return
    stream = sys.stderr if to_stderr else sys.stdout
    write_text(stream, render(reports, base, options, color=use_color(options.color, stream)))


def emit_messages(reports: list[FileReport], options: OutputOptions) -> None:
    """Problems with files on stderr: notes unless `-q`/`-s`, errors unless `-s`."""
    if options.silent:
        return
    for report in reports:
        if not options.quiet:
            for message in report.notes:
                write_text(sys.stderr, message_line(message, "warning") + "\n")
        for message in report.errors:
            write_text(sys.stderr, message_line(message, "error") + "\n")


def message_line(message: ToolMessage, level: str) -> str:
    """`path[:row:col]: level: message`."""
    where = message.filename
    if message.row:
        where += f":{message.row}:{message.column}"
    return f"{where}: {level}: {message.message}"


def write_text(stream: TextIO, text: str) -> None:
    """Write `text` as UTF-8 whatever the locale (undecodable characters replaced)."""
    if not text:
        return
    stream.flush()
    binary: BinaryIO | None = getattr(stream, "buffer", None)
    if binary is None:
        stream.write(text)
    else:
        binary.write(text.encode("utf-8", "replace"))
        binary.flush()


def write_file(path: str, text: str) -> None:
    """Write a report or baseline file (UTF-8), creating its folder."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(text.encode("utf-8", "replace"))
