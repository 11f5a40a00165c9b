"""ruff-compatible JSON: one array of findings (conventions §2)."""

from __future__ import annotations

import json
from typing import Any

from ...engine.diagnostics import Diagnostic, FileReport, Location
from .common import RenderOptions, diagnostics


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The JSON array report."""
    return json.dumps([as_dict(item) for item in diagnostics(reports)], indent=2) + "\n"


def as_dict(item: Diagnostic) -> dict[str, Any]:
    """One finding as the JSON object of conventions §2."""
    fix = None
    if item.fix is not None:
        fix = {
            "applicability": item.fix.applicability,
            "message": item.fix.message,
            "edits": [
                {"content": edit.content, "location": _location(edit.location),
                 "end_location": _location(edit.end_location)}
                for edit in item.fix.edits
            ],
        }
    return {
        "code": item.code,
        "name": item.name,
        "message": item.message,
        "filename": item.filename,
        "location": _location(item.location),
        "end_location": _location(item.end_location),
        "url": None,
        "fix": fix,
    }


def _location(location: Location) -> dict[str, int]:
    return {"row": location.row, "column": location.column}
