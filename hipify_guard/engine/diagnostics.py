"""Findings resolved to lines and columns: what formatters print, independent of file bytes."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from ..core.records import record

if TYPE_CHECKING:
    from ..core.findings import Finding
    from ..core.source import LineIndex

MAX_SHOWN_LINES = 12


@record(slots=True)
class Location:
    """A 1-based row and column."""

    row: int
    column: int


@record(slots=True)
class DiagnosticEdit:
    """One edit of a fix, as text between two locations."""

    content: str
    location: Location
    end_location: Location


@record(slots=True)
class DiagnosticFix:
    """A fix as the formatters show it."""

    applicability: str
    message: str
    edits: tuple[DiagnosticEdit, ...]


@record(slots=True)
class Diagnostic:
    """One finding, ready to print."""

    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    fix: DiagnosticFix | None
    source_line: str
    anchor: str = ""  # normalised directive (or source line) text, for baseline fingerprints
    lines: tuple[str, ...] = ()  # source lines from `location.row` to the last row the finding or its fix touches


@record(slots=True)
class ToolMessage:
    """A problem with a file rather than with its code (unreadable, binary, not verified...)."""

    filename: str
    message: str
    row: int = 0
    column: int = 0


@record(frozen=False, slots=True)
class FileReport:
    """Everything one file contributes to the run's output."""

    filename: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fixed: int = 0
    diff: str = ""
    errors: list[ToolMessage] = field(default_factory=list)
    notes: list[ToolMessage] = field(default_factory=list)
    # HG107 across the run (see `defines`): near misses the file #defines, and the names its
    # findings (suppressed ones too) take to be defined nowhere.
    near_miss_defines: frozenset[str] = frozenset()
    assumed_undefined: frozenset[str] = frozenset()
    # Names its CUDA version guards compare with that the file itself does not define: their
    # values may come from a project header it includes (`workspace.settle_thresholds`).
    outside_names: frozenset[str] = frozenset()


def resolve(filename: str, findings: list[Finding], lines: LineIndex) -> list[Diagnostic]:
    """Turn offset-based findings into diagnostics with rows and columns."""
    from .catalogue import load_catalogue  # (a warm run shows cached diagnostics: no catalogue)

    catalogue = load_catalogue()
    diagnostics = []
    for finding in findings:
        start = Location(*lines.position(finding.start))
        fix = None
        if finding.fix is not None:
            edits = tuple(
                DiagnosticEdit(edit.content.decode("utf-8", "backslashreplace"),
                               Location(*lines.position(edit.start)), Location(*lines.position(edit.end)))
                for edit in finding.fix.edits
            )
            fix = DiagnosticFix(finding.fix.applicability, finding.fix.message, edits)
        rule = catalogue.get(finding.code)
        end = Location(*lines.position(finding.end))
        source = lines.line_text(start.row)
        diagnostics.append(Diagnostic(
            finding.code, rule.name if rule else "", finding.message, filename, start, end, fix, source,
            finding.anchor or " ".join(source.split()), _shown_lines(lines, start, end, fix),
        ))
    return diagnostics


def _shown_lines(lines: LineIndex, start: Location, end: Location, fix: DiagnosticFix | None) -> tuple[str, ...]:
    """The source lines a formatter needs to show the finding and its fix (at most MAX_SHOWN_LINES)."""
    last = max([end.row, *(edit.end_location.row for edit in (fix.edits if fix else ()))])
    last = min(last, start.row + MAX_SHOWN_LINES - 1)
    return tuple(lines.line_text(row) for row in range(start.row, last + 1))
