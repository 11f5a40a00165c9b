"""`path:line:col: CODE [*] message`, one line per finding, then the closing summary."""

from __future__ import annotations

from ..diagnostics import FileReport
from .common import RenderOptions, diagnostics, fixable, summary_line


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The concise text report."""
    lines = []
    for item in diagnostics(reports):
        marker = " [*]" if fixable(item, options) else ""
        lines.append(f"{item.filename}:{item.location.row}:{item.location.column}: {item.code}{marker} {item.message}")
    lines.append(summary_line(reports, options))
    return "\n".join(lines) + "\n"
