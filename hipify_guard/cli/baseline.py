"""`--write-baseline F` records today's findings; `--baseline F` reports only new ones."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ..engine.diagnostics import FileReport
from .fingerprints import identities
from .output import write_file

FORMAT = "hipify-guard-baseline"
FORMAT_VERSION = 1


class BaselineError(ValueError):
    """A baseline file that cannot be read or written."""


def write_baseline(path: str, reports: list[FileReport]) -> int:
    """Write the fingerprints of every finding in `reports`; returns how many."""
    entries = [
        {"fingerprint": identity.fingerprint, "code": identity.code, "path": identity.path,
         "anchor": identity.anchor, "occurrence": identity.occurrence}
        for report in reports for identity in identities(report.diagnostics)
    ]
    text = json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "findings": entries}, indent=2) + "\n"
    try:
        write_file(path, text)
    except OSError as error:
        raise BaselineError(f"cannot write baseline {path}: {error.strerror or error}") from None
    return len(entries)


def read_baseline(path: str) -> frozenset[str]:
    """The fingerprints recorded in a baseline file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"baseline {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(f"{path} is not a hipify-guard baseline (no \"format\": \"{FORMAT}\")")
    if data.get("version") != FORMAT_VERSION:
        raise BaselineError(f"baseline {path} has version {data.get('version')!r}; expected {FORMAT_VERSION}")
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("fingerprint"), str)
                                                 for e in entries):
        raise BaselineError(f"baseline {path}: \"findings\" must be a list of objects with a \"fingerprint\"")
    return frozenset(entry["fingerprint"] for entry in entries)


def only_new(reports: list[FileReport], known: frozenset[str]) -> list[FileReport]:
    """The reports without the findings whose fingerprint is in the baseline."""
    result = []
    for report in reports:
        ids = identities(report.diagnostics)
        kept = [item for item, identity in zip(report.diagnostics, ids) if identity.fingerprint not in known]
        result.append(replace(report, diagnostics=kept))
    return result
