"""One ruff-compatible JSON object per line (conventions §2)."""

from __future__ import annotations

import json

from ...engine.diagnostics import FileReport
from .common import RenderOptions, diagnostics
from .json_format import as_dict


def render(reports: list[FileReport], options: RenderOptions) -> str:
    """The JSON Lines report: nothing at all when there are no findings."""
    return "".join(json.dumps(as_dict(item)) + "\n" for item in diagnostics(reports))
