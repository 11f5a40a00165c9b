"""`hipify-guard map NAME...`: what each source of API knowledge says about a CUDA or HIP name.

The sources (guard-semantics.md §11.4): HIPIFY's tables (what hipify-perl/clang rename), PyTorch's
hipify table (what the `torch-hipify` model compiles) and HIP 6.3's own headers; then what each
built-in ROCm model's build has for the name. A name is looked up as a CUDA name, then as a HIP
name (exact, case-sensitive). Exit status: 0 every name was found, 1 some name is in no source
(near misses are suggested), 2 usage error.
"""

from __future__ import annotations

import json
import sys
from dataclasses import field

import click

from ..core.records import record
from ..model.api_knowledge import NATIVE, TORCH, ApiView, knowledge
from ..model.hip_headers import Declaration, load_hip_headers
from ..model.mapping import VERSION_GETTERS, ApiEntry, load_table
from ..model.rocm_versions import version_text
from ..model.torch_mapping import TorchMapping, load_torch_table

EXIT_FOUND, EXIT_UNKNOWN = 0, 1
_VERSIONS = ("added", "deprecated", "changed", "removed", "experimental")
_MODELS = ((NATIVE, "native HIP"), (TORCH, "PyTorch's hipify"))


@record(frozen=False)
class Lookup:
    """What the sources say about one queried name."""

    query: str
    direction: str  # "cuda-to-hip", "hip-to-cuda", "hip-header" (only HIP declares it) or "unknown"
    entries: tuple[ApiEntry, ...] = ()  # HIPIFY's rows
    torch: tuple[TorchMapping, ...] = ()  # PyTorch's renames of the name, or to it
    headers: tuple[Declaration, ...] = ()  # HIP's declarations of the name and of its HIP names
    models: dict[str, ApiView | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


def lookup(name: str) -> Lookup:
    """Look `name` up in every source, as a CUDA name first, else as a HIP name."""
    table, torch = load_table(), load_torch_table()
    renamed = torch.get(name)
    models = {way: knowledge().view(name, way) for way, _ in _MODELS}
    if table.by_cuda(name) or renamed is not None:
        entries = table.by_cuda(name)
        renames = (renamed,) if renamed else ()
        hip_names = [e.hip for e in entries if e.hip] + [m.hip_name for m in renames]
        return Lookup(name, "cuda-to-hip", entries, renames, _declarations([name, *hip_names]), models,
                      _warnings(entries))
    entries, renames = table.by_hip(name), torch.by_hip(name)
    headers = _declarations([name])
    if entries or renames:
        return Lookup(name, "hip-to-cuda", entries, renames, headers, models, _warnings(entries))
    if headers:
        return Lookup(name, "hip-header", headers=headers, models=models)
    return Lookup(name, "unknown", suggestions=table.near(name))


def _declarations(names: list[str]) -> tuple[Declaration, ...]:
    """HIP's declarations of the names that it declares, each once."""
    headers = load_hip_headers()
    return tuple(found for name in dict.fromkeys(names) if (found := headers.get(name)) is not None)


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
        return f"{result.query}: not in the mapping tables nor in HIP's headers{hint}\n"
    lines = []
    if result.direction == "hip-to-cuda":
        count = len({e.cuda for e in result.entries} | {m.cuda for m in result.torch})
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
    if not result.entries:
        lines.append(f"{result.query}: not in HIPIFY's tables")
    lines.append(f"  PyTorch's hipify: {_torch_text(result)}")
    lines.append(f"  HIP's headers: {_headers_text(result.headers)}")
    lines.append("  ROCm builds: " + "; ".join(f"{title}: {_model_text(result.models[way])}" for way, title in _MODELS))
    lines += [f"    warning: {warning}" for warning in result.warnings]
    return "".join(line + "\n" for line in lines)


def _torch_text(result: Lookup) -> str:
    if not result.torch:
        return "does not rename it"
    if result.direction == "hip-to-cuda":
        return "renames " + ", ".join(f"`{m.cuda}` to it ({m.table})" for m in result.torch)
    (rename,) = result.torch
    marked = ", marked HIP_UNSUPPORTED" if rename.unsupported else ""
    return f"renames it to `{rename.hip}` ({rename.table}{marked})"


def _headers_text(headers: tuple[Declaration, ...]) -> str:
    if not headers:
        return "do not declare it"
    return "; ".join(_header_text(header) for header in headers)


def _header_text(header: Declaration) -> str:
    opt_in = f", only when {' and '.join(header.opt_in)} is defined" if header.opt_in else ""
    since = (f", since ROCm {version_text(header.since)} (first in {header.evidence})" if header.since
             else ", no release recorded")
    return f"declare `{header.name}` in {header.header}{opt_in}{since}"


def _model_text(view: ApiView | None) -> str:
    if view is None:
        return "not judged (no source of this model knows it)"
    if view.missing:
        return "no equivalent"
    added = f", added in HIP {version_text(view.added)}" if view.added else ""
    opt_in = f", needs -D{' -D'.join(view.opt_in)}" if view.opt_in else ""
    return f"`{view.hip}` ({view.source}{added}{opt_in})"


def _versions(entry: ApiEntry, prefix: str, kinds: tuple[str, ...]) -> str:
    parts = [f"{kind} {value}" for kind in kinds if (value := getattr(entry, f"{prefix}_{kind}"))]
    return ", ".join(parts) if parts else "no version recorded"


def render_json(results: list[Lookup]) -> str:
    """One JSON array, one object per queried name: every source's answer and each model's."""
    items = [{"query": r.query, "found": r.direction != "unknown", "direction": r.direction,
              "entries": [{**e._asdict(), "supported": e.supported} for e in r.entries],
              "torch_hipify": [m._asdict() for m in r.torch],
              "hip_headers": [{**h._asdict(), "since": version_text(h.since) if h.since else None} for h in r.headers],
              "models": {way: _model_json(view) for way, view in r.models.items()},
              "warnings": r.warnings, "suggestions": r.suggestions} for r in results]
    return json.dumps(items, indent=2) + "\n"


def _model_json(view: ApiView | None) -> dict[str, object] | None:
    if view is None:
        return None
    return {"hip": view.hip, "source": view.source, "added": version_text(view.added) if view.added else None,
            "opt_in": list(view.opt_in)}


@click.command("map")
@click.argument("names", nargs=-1, required=True)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def map_command(names: tuple[str, ...], output_format: str) -> None:
    """Look up CUDA or HIP API NAMES: HIPIFY's tables, PyTorch's hipify table, HIP's headers.

    Exit status: 0 all names found, 1 some name unknown (near misses are suggested), 2 usage error.
    """
    results = [lookup(name) for name in names]
    if output_format == "json":
        click.echo(render_json(results), nl=False)
    else:
        for result in results:
            click.echo(render_text(result), nl=False, err=result.direction == "unknown")
    sys.exit(EXIT_UNKNOWN if any(r.direction == "unknown" for r in results) else EXIT_FOUND)
