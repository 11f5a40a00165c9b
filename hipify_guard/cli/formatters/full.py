"""Each finding with its source lines, carets under the span, and the proposed change."""

from __future__ import annotations

from ...engine.diagnostics import Diagnostic, FileReport
from .common import RenderOptions, diagnostics, paint
from .concise import closing, fix_lines, headline
from .preview import caret_spans


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The full text report: one block per finding, then the closing summary."""
    blocks = ["\n".join(block(item, options)) + "\n" for item in diagnostics(reports)]
    tail = closing(reports, options)
    return "\n".join(blocks + (["\n".join(tail) + "\n"] if tail else []))


def block(item: Diagnostic, options: RenderOptions) -> list[str]:
    """One finding: headline, source lines with carets, then the fix."""
    width = len(str(item.location.row + len(item.lines)))
    gutter = paint(" " * width + " |", options, fg="blue")
    lines = [headline(item, options), gutter]
    spans = caret_spans(item)
    for offset, text in enumerate(item.lines):
        lines.append(paint(f"{item.location.row + offset:>{width}} |", options, fg="blue") + f" {text}")
        if offset < len(spans):
            start, end = spans[offset]
            label = f" {item.code}" if offset == len(spans) - 1 else ""
            marks = paint("^" * (end - start) + label, options, fg="red", bold=True)
            lines.append(f"{gutter} {_indent(text, start)}{marks}")
    lines.append(gutter)
    return lines + fix_lines(item, options, indent=" " * width + " ", row_indent="")


def _indent(text: str, width: int) -> str:
    """Blanks as wide as text[:width], keeping its tabs so the carets line up."""
    return "".join(char if char == "\t" else " " for char in text[:width]).ljust(width)
