"""GitHub Actions workflow commands: `::error file=F,line=L,...,title=CODE (name)::message`."""

from __future__ import annotations

from ...engine.catalogue import load_catalogue
from ...engine.diagnostics import Diagnostic, FileReport, ToolMessage
from ...walk.paths import repo_relative
from .common import RenderOptions, diagnostics


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """One workflow command per finding, then one per file the tool could not handle."""
    lines = [_finding(item) for item in diagnostics(reports)]
    for report in reports:
        lines += [_message(message, "error") for message in report.errors]
        lines += [_message(message, "notice") for message in report.notes]
    return "".join(line + "\n" for line in lines)


def escape_data(text: str) -> str:
    """The message part: `%`, CR and LF are percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: like the message, plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties: object) -> str:
    """`::level key=value,...::message` with every part escaped."""
    joined = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {joined}::{escape_data(message)}" if joined else f"::{level}::{escape_data(message)}"


def _finding(item: Diagnostic) -> str:
    rule = load_catalogue().get(item.code)
    level = "warning" if rule and rule.severity == "warning" else "error"
    title = f"{item.code} ({item.name})" if item.name else item.code
    return command(level, item.message, file=repo_relative(item.filename), line=item.location.row,
                   col=item.location.column, endLine=item.end_location.row, endColumn=item.end_location.column,
                   title=title)


def _message(message: ToolMessage, level: str) -> str:
    where: dict[str, object] = {"file": repo_relative(message.filename)}
    if message.row:
        where.update(line=message.row, col=message.column)
    return command(level, message.message, **where, title="hipify-guard")
