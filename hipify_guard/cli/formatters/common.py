"""What every formatter needs: render options, fix availability and the run's totals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import click

from ...core.findings import SAFE, UNSAFE
from ...engine.diagnostics import Diagnostic, FileReport


class RenderOptions(NamedTuple):
    """How to render: which fixes count as available, and presentation switches."""

    unsafe_fixes: bool = False
    show_fixes: bool = False
    fixing: bool = False
    color: bool = False
    summary: bool = True  # the closing line (`-q` turns it off)
    notes: tuple[str, ...] = ()  # said once in the summary: the projects checked as ports (spec §13.4)


class Totals(NamedTuple):
    """Counts for the closing line."""

    remaining: int
    fixed: int
    safe_fixable: int
    unsafe_fixable: int


def diagnostics(reports: list[FileReport]) -> Iterator[Diagnostic]:
    """Every diagnostic of the run, in report order."""
    for report in reports:
        yield from report.diagnostics


def totals(reports: list[FileReport]) -> Totals:
    """Count remaining findings, fixes applied and fixes available."""
    items = list(diagnostics(reports))
    safe = sum(1 for d in items if d.fix and d.fix.applicability == SAFE)
    unsafe = sum(1 for d in items if d.fix and d.fix.applicability == UNSAFE)
    return Totals(len(items), sum(r.fixed for r in reports), safe, unsafe)


def fixable(diagnostic: Diagnostic, options: RenderOptions) -> bool:
    """Whether `--fix` (with the current unsafe setting) would apply this diagnostic's fix."""
    if diagnostic.fix is None:
        return False
    return diagnostic.fix.applicability == SAFE or (options.unsafe_fixes and diagnostic.fix.applicability == UNSAFE)


def summary_line(reports: list[FileReport], options: RenderOptions) -> str:
    """ruff's closing line: `Found N errors. [*] M fixable with --fix (K more with --unsafe-fixes).`"""
    count = totals(reports)
    if count.remaining == 0 and count.fixed == 0:
        return "All checks passed!"
    noun = "error" if count.remaining + count.fixed == 1 else "errors"
    if options.fixing or count.fixed:
        head = f"Found {count.remaining + count.fixed} {noun} ({count.fixed} fixed, {count.remaining} remaining)."
    else:
        head = f"Found {count.remaining} {noun}."
    applicable = count.safe_fixable + (count.unsafe_fixable if options.unsafe_fixes else 0)
    hidden = 0 if options.unsafe_fixes else count.unsafe_fixable
    parts = [head]
    if applicable:
        extra = f" ({hidden} more with --unsafe-fixes)" if hidden else ""
        parts.append(f"[*] {applicable} fixable with --fix{extra}.")
    elif hidden:
        parts.append(f"{hidden} fixable with --unsafe-fixes.")
    return "\n".join(parts)


def paint(text: str, options: RenderOptions, **style: Any) -> str:
    """`text` with ANSI styling (click.style keywords) when colour is on."""
    return click.style(text, **style) if options.color else text


def fixed_listing(reports: list[FileReport]) -> list[str]:
    """`--show-fixes` after fixing: `Fixed N errors:` and one `- path: K` line per fixed file."""
    fixed = [report for report in reports if report.fixed]
    if not fixed:
        return []
    count = sum(report.fixed for report in fixed)
    noun = "error" if count == 1 else "errors"
    return [f"Fixed {count} {noun}:", *(f"- {report.filename}: {report.fixed} fixed" for report in fixed)]
