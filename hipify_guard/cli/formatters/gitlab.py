"""GitLab Code Quality report: a JSON array of CodeClimate-style issues."""

from __future__ import annotations

import json
from typing import Any

from ...engine.catalogue import load_catalogue
from ...engine.diagnostics import Diagnostic, FileReport
from ...walk.paths import repo_relative
from ..fingerprints import fingerprints
from .common import RenderOptions, diagnostics


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The Code Quality JSON array (`[]` when there is nothing to report)."""
    items = list(diagnostics(reports))
    issues = [_issue(item, fingerprint) for item, fingerprint in zip(items, fingerprints(items))]
    return json.dumps(issues, indent=2) + "\n"


def _issue(item: Diagnostic, fingerprint: str) -> dict[str, Any]:
    rule = load_catalogue().get(item.code)
    severity = "minor" if rule and rule.severity == "warning" else "major"
    return {
        "type": "issue",
        "check_name": item.code,
        "description": f"{item.code} {item.message}",
        "categories": ["Compatibility"],
        "severity": severity,
        "fingerprint": fingerprint,
        "location": {
            "path": repo_relative(item.filename),
            "lines": {"begin": item.location.row, "end": item.end_location.row},
        },
    }
