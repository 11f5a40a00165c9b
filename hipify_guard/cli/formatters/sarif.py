"""SARIF 2.1.0 with what GitHub code scanning needs beyond the schema (conventions §5).

URIs are relative to the project root of `hipify_guard.paths` (the git work tree, else the
current directory), with `uriBaseId` `%SRCROOT%`; a file outside that root gets a `file://` URI.
"""

from __future__ import annotations

import json
from typing import Any

from ... import __version__
from ...engine.catalogue import Rule, load_catalogue
from ...engine.diagnostics import Diagnostic, DiagnosticFix, FileReport, Location, ToolMessage
from ...walk.paths import artifact_uri, root_uri
from ..fingerprints import VERSION as FINGERPRINT_KEY
from ..fingerprints import fingerprints
from .common import RenderOptions, diagnostics

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
ROOT_ID = "%SRCROOT%"


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """One SARIF log with one run."""
    items = list(diagnostics(reports))
    rules = _rules(items)
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    results = [_result(item, index[item.code], fingerprint) for item, fingerprint in zip(items, fingerprints(items))]
    run = {
        "tool": {"driver": {"name": "hipify-guard", "version": __version__, "semanticVersion": __version__,
                            "rules": rules}},
        "originalUriBaseIds": {ROOT_ID: {"uri": root_uri()}},
        "columnKind": "unicodeCodePoints",
        "invocations": [_invocation(reports)],
        "results": results,
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _rules(items: list[Diagnostic]) -> list[dict[str, Any]]:
    """Every catalogue rule, plus any code found without a catalogue page."""
    catalogue = load_catalogue()
    described = [_rule(rule) for rule in catalogue.values()]
    unknown = sorted({item.code for item in items} - set(catalogue))
    return described + [_bare_rule(code) for code in unknown]


def _rule(rule: Rule) -> dict[str, Any]:
    full = " ".join(rule.section("What it does").split()) or rule.summary
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full},
        "help": {"text": rule.documentation.strip(), "markdown": rule.documentation.strip()},
        "defaultConfiguration": {"level": _level(rule.severity)},
        "properties": {"tags": ["rocm", "portability"], "fix": rule.fix},
    }


def _bare_rule(code: str) -> dict[str, Any]:
    text = f"{code} (no catalogue page)"
    return {"id": code, "shortDescription": {"text": text}, "fullDescription": {"text": text},
            "help": {"text": text, "markdown": text}}


def _level(severity: str) -> str:
    return "warning" if severity == "warning" else "error"


def _result(item: Diagnostic, rule_index: int, fingerprint: str) -> dict[str, Any]:
    rule = load_catalogue().get(item.code)
    result: dict[str, Any] = {
        "ruleId": item.code,
        "ruleIndex": rule_index,
        "level": _level(rule.severity if rule else "error"),
        "message": {"text": item.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": _artifact(item.filename),
            "region": _region(item.location, item.end_location),
        }}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if item.fix is not None:
        result["fixes"] = [_fix(item.filename, item.fix)]
    return result


def _artifact(filename: str) -> dict[str, str]:
    uri = artifact_uri(filename)
    return {"uri": uri} if uri.startswith("file://") else {"uri": uri, "uriBaseId": ROOT_ID}


def _region(start: Location, end: Location) -> dict[str, int]:
    return {"startLine": start.row, "startColumn": start.column, "endLine": end.row, "endColumn": end.column}


def _fix(filename: str, fix: DiagnosticFix) -> dict[str, Any]:
    replacements = [
        {"deletedRegion": _region(edit.location, edit.end_location), "insertedContent": {"text": edit.content}}
        for edit in fix.edits
    ]
    return {"description": {"text": f"{fix.message} ({fix.applicability} fix)"},
            "artifactChanges": [{"artifactLocation": _artifact(filename), "replacements": replacements}]}


def _invocation(reports: list[FileReport]) -> dict[str, Any]:
    errors = [message for report in reports for message in report.errors]
    notes = [message for report in reports for message in report.notes]
    notifications = [_notification(m, "error") for m in errors] + [_notification(m, "note") for m in notes]
    return {"executionSuccessful": not errors, "toolExecutionNotifications": notifications}


def _notification(message: ToolMessage, level: str) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": _artifact(message.filename)}
    if message.row:
        location["region"] = {"startLine": message.row, "startColumn": max(message.column, 1)}
    return {"level": level, "message": {"text": message.message}, "locations": [{"physicalLocation": location}]}
