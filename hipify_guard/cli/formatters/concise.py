"""`path:line:col: CODE [*] message`, one line per finding, then the closing summary."""

from __future__ import annotations

from ...engine.diagnostics import Diagnostic, FileReport
from .common import RenderOptions, diagnostics, fixable, fixed_listing, paint, summary_line
from .preview import changed_lines


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The concise text report."""
    lines = []
    for item in diagnostics(reports):
        lines.append(headline(item, options))
        if options.show_fixes:
            lines += fix_lines(item, options, indent="    ", row_indent="    ")
    return "\n".join(lines + closing(reports, options)) + ("\n" if lines or options.summary else "")


def headline(item: Diagnostic, options: RenderOptions) -> str:
    """The one-line form of a finding, shared with the `full` format."""
    where = paint(f"{item.filename}:{item.location.row}:{item.location.column}:", options, bold=True)
    marker = paint(" [*]", options, fg="cyan") if fixable(item, options) else ""
    return f"{where} {paint(item.code, options, fg='red', bold=True)}{marker} {item.message}"


def fix_lines(item: Diagnostic, options: RenderOptions, indent: str, row_indent: str) -> list[str]:
    """The proposed fix: its applicability and message, then the lines it changes."""
    if item.fix is None:
        return []
    lines = [paint(f"{indent}= fix ({item.fix.applicability}): {item.fix.message}", options, fg="cyan")]
    width = len(str(item.location.row + len(item.lines)))
    for sign, row, text in changed_lines(item):
        colour = "red" if sign == "-" else "green"
        lines.append(paint(f"{row_indent}{row:>{width}} {sign} {text}", options, fg=colour))
    return lines


def closing(reports: list[FileReport], options: RenderOptions) -> list[str]:
    """The `--show-fixes` listing of applied fixes and the summary, unless `-q`."""
    if not options.summary:
        return []
    listing = fixed_listing(reports) if options.show_fixes else []
    return [*listing, *(f"note: {note}" for note in options.notes), summary_line(reports, options)]
