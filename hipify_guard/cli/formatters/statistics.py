"""`--statistics`: a count per rule instead of the findings (JSON with the JSON formats)."""

from __future__ import annotations

import json
from collections import Counter

from ...engine.diagnostics import FileReport
from .common import RenderOptions, diagnostics, fixable, summary_line

JSON_FORMATS = frozenset({"json", "json-lines"})


def render(reports: list[FileReport], options: RenderOptions, output_format: str) -> str:
    """`COUNT<TAB>CODE<TAB>[*] name` lines, most frequent first; or a JSON array."""
    items = list(diagnostics(reports))
    counts = Counter(item.code for item in items)
    names = {item.code: item.name for item in items}
    fixes = Counter(item.code for item in items if fixable(item, options))
    order = sorted(counts, key=lambda code: (-counts[code], code))
    if output_format in JSON_FORMATS:
        rows = [{"code": code, "name": names[code], "count": counts[code], "fixable": fixes[code] > 0}
                for code in order]
        return json.dumps(rows, indent=2) + "\n"
    width = len(str(max(counts.values(), default=0)))
    lines = [f"{counts[code]:>{width}}\t{code}\t{'[*] ' if fixes[code] else '    '}{names[code]}" for code in order]
    if options.summary:
        lines.append(summary_line(reports, options))
    return "".join(line + "\n" for line in lines)
