"""A check's report as the editor's diagnostics: findings with their rule's severity, problems
with the file or the configuration as errors and notes, each at the place it names."""

from __future__ import annotations

from lsprotocol.types import Diagnostic, DiagnosticSeverity, Position, Range

from .. import api
from .documents import Document

SOURCE = "hipify-guard"
_SEVERITY = {"error": DiagnosticSeverity.Error, "warning": DiagnosticSeverity.Warning}


def diagnostics(document: Document, report: api.FileReport) -> list[Diagnostic]:
    """The editor's diagnostics for the report of a check of `document`."""
    lines = document.lines
    shown = [finding_diagnostic(document, finding) for finding in report.diagnostics]
    shown += [message(document, problem.message, DiagnosticSeverity.Error, problem.row, problem.column)
              for problem in report.errors]
    shown += [message(document, note.message, DiagnosticSeverity.Information, note.row, note.column)
              for note in report.notes]
    if document.replaced:
        first = document.first_replaced
        span = Range(lines.at_offset(first), lines.at_offset(first + 1))
        shown.append(Diagnostic(span, _not_unicode(document.replaced),
                                DiagnosticSeverity.Warning, source=SOURCE))
    return shown


def finding_diagnostic(document: Document, finding: api.Diagnostic) -> Diagnostic:
    """The editor's diagnostic of one finding."""
    rule = api.rules().get(finding.code)
    span = Range(document.lines.at(finding.location.row, finding.location.column),
                 document.lines.at(finding.end_location.row, finding.end_location.column))
    severity = _SEVERITY.get(rule.severity if rule else "", DiagnosticSeverity.Error)
    return Diagnostic(span, finding.message, severity, finding.code, source=SOURCE)


def message(document: Document, text: str, severity: DiagnosticSeverity, row: int = 0, column: int = 0) -> Diagnostic:
    """A diagnostic about the file or the tool rather than a finding: at its place, or the file's start."""
    at = document.lines.at(row, column or 1) if row else Position(0, 0)
    return Diagnostic(Range(at, at), text, severity, source=SOURCE)


def _not_unicode(count: int) -> str:
    return (f"{count} character{'s are' if count > 1 else ' is'} not valid Unicode (a lone UTF-16 surrogate): "
            f"checked as U+FFFD")
