#!/usr/bin/env python3
"""Generate rules/hip_headers.tsv: what HIP 6.3's own headers declare (third_party/hip-headers).

Usage: python scripts/gen_hip_headers.py [--source DIR] [--since FILE] [--output FILE] [--check]

One row per name that a header of the vendored HIP 6.3 snapshot declares on AMD GPUs (see
scripts/hip_declarations.py), in name order: the first header declaring it (without an opt-in
macro when one does), the opt-in macros it needs otherwise (`HIP_ENABLE_WARP_SYNC_BUILTINS`),
and since which ROCm release HIP's headers have declared it, with the evidence, from
third_party/hip-headers/since.tsv (written from the headers' release history by
scripts/gen_hip_history.py). HIP's headers record no per-API version; that history is the only
evidence they give, and a name since.tsv does not know gets no release.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generated import generator_main, render
from hip_declarations import declarations, is_amd_header

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "third_party" / "hip-headers"
DEFAULT_OUTPUT = ROOT / "rules" / "hip_headers.tsv"
COLUMNS = ("name", "header", "opt_in", "since", "evidence")


class HeaderError(Exception):
    """An input the generator cannot read."""


def snapshot_declarations(source: Path) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each name the snapshot's headers declare -> (header, opt-in macros), headers in path order."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for path in sorted((source / "hip").rglob("*")):
        relative = path.relative_to(source).as_posix()
        if not path.is_file() or not is_amd_header(relative):
            continue
        for name, needs in declarations(relative, path.read_bytes()).items():
            if name not in found or (found[name][1] and not needs):
                found[name] = (relative, needs)
    if not found:
        raise HeaderError(f"{source / 'hip'}: no header declares anything")
    return found


def read_since(path: Path) -> dict[str, tuple[str, str]]:
    """name -> (release, evidence) from since.tsv."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    if not lines or lines[0] != "name\tsince\tevidence":
        raise HeaderError(f"{path}: the header row is not name, since, evidence")
    rows = {}
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != 3:
            raise HeaderError(f"{path}: data row {number}: {len(cells)} cells, expected 3")
        rows[cells[0]] = (cells[1], cells[2])
    return rows


def build_rows(source: Path, since: Path) -> list[tuple[str, ...]]:
    """The output rows, in name order."""
    history = read_since(since)
    rows = []
    for name, (header, needs) in sorted(snapshot_declarations(source).items()):
        release, evidence = history.get(name, ("", ""))
        rows.append((name, header, " ".join(needs), release, evidence))
    return rows


def source_notice(source: Path) -> list[str]:
    """The comment lines: provenance from SOURCE.md and the licence."""
    meta = (source / "SOURCE.md").read_text(encoding="utf-8")
    licence = (source / "LICENSE-HIP.txt").read_text(encoding="utf-8").strip().splitlines()
    commits = [line.strip() for line in meta.splitlines() if line.startswith("| `hip/")]
    return [
        "hip_headers.tsv: the names HIP 6.3's own headers declare on AMD GPUs, one row per name.",
        "GENERATED FILE, DO NOT EDIT. Regenerate with: python scripts/gen_hip_headers.py",
        "Source: HIP's public headers for ROCm 6.3, vendored in third_party/hip-headers (see SOURCE.md):",
        *commits,
        "header: where it is declared (relative to the include folder). opt_in: macros it needs defined",
        "(empty: none). since: the ROCm release from which HIP's headers have declared it, unbroken up",
        "to 6.3 (empty: no evidence); evidence: where that starts (third_party/hip-headers/since.tsv).",
        "The data is from AMD's HIP and clr repositories, under the MIT License (third_party/hip-headers/):",
        "",
        *licence,
    ]


def make(args: argparse.Namespace) -> tuple[str, str]:
    """The TSV text for `--source` and `--since`, and what it holds."""
    rows = build_rows(args.source, args.since or args.source / "since.tsv")
    return render(source_notice(args.source), COLUMNS, rows), f"{len(rows)} names"


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, verify) the TSV; 1 = out of date, 2 = bad input."""
    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--since", type=Path, help="since.tsv (default: the one in --source)")

    return generator_main(argv, __doc__.splitlines()[0], tool="gen_hip_headers", source=DEFAULT_SOURCE,
                          source_help="the vendored headers folder", output=DEFAULT_OUTPUT, make=make,
                          errors=(HeaderError,), options=options)


if __name__ == "__main__":
    sys.exit(main())
