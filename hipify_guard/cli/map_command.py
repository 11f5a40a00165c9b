"""`hipify-guard map NAME...`: look names up in the CUDA <-> HIP mapping table.

A name is looked up as a CUDA name, then as a HIP name (exact, case-sensitive). Exit status:
0 every name was found, 1 some name is not in the table (near misses are suggested), 2 usage
error.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field

import click

from ..model.mapping import VERSION_GETTERS, ApiEntry, load_table

EXIT_FOUND, EXIT_UNKNOWN = 0, 1
_VERSIONS = ("added", "deprecated", "changed", "removed", "experimental")


@dataclass
class Lookup:
    """What the table says about one queried name."""

    query: str
    direction: str  # "cuda-to-hip", "hip-to-cuda" or "unknown"
    entries: tuple[ApiEntry, ...] = ()
    warnings: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


def lookup(name: str) -> Lookup:
    """Look `name` up as a CUDA name, else as a HIP name, else suggest near misses."""
    table = load_table()
    entries = table.by_cuda(name)
    if entries:
        return Lookup(name, "cuda-to-hip", entries, _warnings(entries))
    entries = table.by_hip(name)
    if entries:
        return Lookup(name, "hip-to-cuda", entries, _warnings(entries))
    return Lookup(name, "unknown", suggestions=table.near(name))


def _warnings(entries: tuple[ApiEntry, ...]) -> list[str]:
    """A scale warning for version getters, once per CUDA name."""
    found = []
    for cuda in dict.fromkeys(entry.cuda for entry in entries):
        scales = VERSION_GETTERS.get(cuda)
        if scales is None:
            continue
        hip = next((e.hip for e in entries if e.cuda == cuda and e.hip), "its HIP equivalent")
        found.append(f"the value scales differ: `{cuda}` gives {scales[0]}, `{hip}` gives {scales[1]}; "
                     f"a comparison with a CUDA-side number is wrong on ROCm")
    return found


def render_text(result: Lookup) -> str:
    """The human-readable answer for one name."""
    if result.direction == "unknown":
        hint = f"; did you mean {', '.join(result.suggestions)}?" if result.suggestions else ""
        return f"{result.query}: not in the mapping table{hint}\n"
    lines = []
    if result.direction == "hip-to-cuda":
        count = len(result.entries)
        lines.append(f"{result.query}: the HIP name of {count} CUDA name{'' if count == 1 else 's'}")
    for entry in result.entries:
        target = f"{entry.hip}" if entry.hip else "unsupported (HIP has no equivalent)"
        lines.append(f"{entry.cuda} -> {target}    [{entry.library}, {entry.section}]")
        lines.append(f"    CUDA{'' if entry.cuda_scale == 'CUDA' else ' (cuDNN versions)'}: "
                     f"{_versions(entry, 'cuda', _VERSIONS[:4])}")
        if entry.hip:
            lines.append(f"    HIP: {_versions(entry, 'hip', _VERSIONS)}")
        if entry.roc:
            label = "MIOpen" if entry.library == "CUDNN API" else "ROC"
            lines.append(f"    {label}: {entry.roc} ({_versions(entry, 'roc', _VERSIONS)})")
    lines += [f"    warning: {warning}" for warning in result.warnings]
    return "".join(line + "\n" for line in lines)


def _versions(entry: ApiEntry, prefix: str, kinds: tuple[str, ...]) -> str:
    parts = [f"{kind} {value}" for kind in kinds if (value := getattr(entry, f"{prefix}_{kind}"))]
    return ", ".join(parts) if parts else "no version recorded"


def render_json(results: list[Lookup]) -> str:
    """One JSON array, one object per queried name, with every column of each entry."""
    items = [{"query": r.query, "found": r.direction != "unknown", "direction": r.direction,
              "entries": [{**asdict(e), "supported": e.supported} for e in r.entries],
              "warnings": r.warnings, "suggestions": r.suggestions} for r in results]
    return json.dumps(items, indent=2) + "\n"


@click.command("map")
@click.argument("names", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def map_command(names: tuple[str, ...], output_format: str) -> None:
    """Look up CUDA or HIP API NAMES in the mapping table (from AMD HIPIFY).

    Exit status: 0 all names found, 1 some name unknown (near misses are suggested), 2 usage error.
    """
    results = [lookup(name) for name in names]
    if output_format == "json":
        click.echo(render_json(results), nl=False)
    else:
        for result in results:
            click.echo(render_text(result), nl=False, err=result.direction == "unknown")
    sys.exit(EXIT_UNKNOWN if any(r.direction == "unknown" for r in results) else EXIT_FOUND)
