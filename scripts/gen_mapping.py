#!/usr/bin/env python3
"""Generate rules/hipify_map.tsv from AMD HIPIFY's API tables (third_party/hipify/*.md).

Usage: python scripts/gen_mapping.py [--source DIR] [--output FILE] [--check]

One output row per row of each primary `*_supported_by_HIP.md` table, joined by position with the
table's `*_supported_by_HIP_and_ROC.md` or `*_supported_by_HIP_and_MIOPEN.md` table when there is
one. Any line the parser does not understand stops it with `file:line: reason`.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from generated import generator_main, render

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "third_party" / "hipify"
DEFAULT_OUTPUT = ROOT / "rules" / "hipify_map.tsv"

PRIMARY_SUFFIX = "_supported_by_HIP.md"
JOINT_SUFFIXES = ("_supported_by_HIP_and_ROC.md", "_supported_by_HIP_and_MIOPEN.md")

COLUMNS = (
    "cuda", "library", "section",
    "hip", "hip_added", "hip_deprecated", "hip_changed", "hip_removed", "hip_experimental",
    "cuda_scale", "cuda_added", "cuda_deprecated", "cuda_changed", "cuda_removed",
    "roc", "roc_added", "roc_deprecated", "roc_changed", "roc_removed", "roc_experimental",
)  # fmt: skip

CUDA_FLAGS = ("A", "D", "C", "R")
TARGET_FLAGS = ("A", "D", "C", "R", "E")
CUDNN_LIBRARY = "CUDNN API"
CUDA_VERSION = re.compile(r"\d+\.\d+")
RELEASE_VERSION = re.compile(r"\d+\.\d+\.\d+")

TITLE = re.compile(r"# (?P<library>.+?) supported by(?P<targets>.*)")
SECTION = re.compile(r"## \*\*(?P<number>\d+)\. (?P<name>.+)\*\*")
LEGEND = "\\*A - Added; D - Deprecated; C - Changed; R - Removed; E - Experimental"
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


class TableError(Exception):
    """A source line the generator cannot parse."""


@dataclass(frozen=True)
class Row:
    """One data row of a table: its section, its cells (unquoted) and where it was read."""

    where: str
    section: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A parsed table file: its API (title), target column groups and rows."""

    library: str
    targets: tuple[str, ...]
    rows: tuple[Row, ...]


def parse_header(line: str, where: str) -> tuple[str, ...]:
    """The target groups (`HIP`, `ROC`...) named by a `|**CUDA**|**A**|...|` header line."""
    cells = [c.strip().removeprefix("**").removesuffix("**") for c in line.strip("|").split("|")]
    groups = cells[1 + len(CUDA_FLAGS) :]
    targets = tuple(groups[:: 1 + len(TARGET_FLAGS)])
    expected = ["CUDA", *CUDA_FLAGS] + [f for t in targets for f in (t, *TARGET_FLAGS)]
    if not targets or cells != expected:
        raise TableError(f"{where}: malformed table header {line[:60]!r}")
    return targets


def align_line(targets: tuple[str, ...]) -> str:
    """The expected alignment line under a header with these target groups."""
    cells = [":--", *(":-:" for _ in CUDA_FLAGS)]
    for _ in targets:
        cells += [":--", *(":-:" for _ in TARGET_FLAGS)]
    return "|" + "|".join(cells) + "|"


def unescape(text: str) -> str:
    """Markdown text with backslash escapes (`\\*`, `\\_`...) resolved."""
    return MARKDOWN_ESCAPE.sub(r"\1", text)


def name_cell(text: str, where: str) -> str:
    """A name cell: `code` (taken literally), bare markdown text (unescaped) or empty."""
    if len(text) >= 2 and text[0] == text[-1] == "`":
        name = text[1:-1].replace("\\|", "|")  # GFM tables escape a pipe even in code
        if not name:
            raise TableError(f"{where}: empty code span")
    else:
        name = unescape(text)
    if "`" in name or "\t" in name or "\n" in name:
        raise TableError(f"{where}: malformed name cell {text!r}")
    return name


def version_cell(text: str, pattern: re.Pattern[str], where: str) -> str:
    """A version cell: empty or a version matching `pattern`."""
    version = unescape(text)
    if version and not pattern.fullmatch(version):
        raise TableError(f"{where}: bad version {text!r} (expected {pattern.pattern})")
    return version


def parse_cells(line: str, library: str, targets: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Split and check one data row of a `library` table into unquoted cells."""
    if not (line.startswith("|") and line.endswith("|")):
        raise TableError(f"{where}: table row must start and end with '|'")
    raw = [c.strip() for c in UNESCAPED_PIPE.split(line[1:-1])]
    width = 1 + len(CUDA_FLAGS) + len(targets) * (1 + len(TARGET_FLAGS))
    if len(raw) != width:
        raise TableError(f"{where}: {len(raw)} cells, expected {width}")
    cuda_pattern = RELEASE_VERSION if library == CUDNN_LIBRARY else CUDA_VERSION
    cells = [name_cell(raw[0], where)]
    if not cells[0]:
        raise TableError(f"{where}: empty CUDA name")
    cells += [version_cell(c, cuda_pattern, where) for c in raw[1 : 1 + len(CUDA_FLAGS)]]
    for start in range(1 + len(CUDA_FLAGS), width, 1 + len(TARGET_FLAGS)):
        group = raw[start : start + 1 + len(TARGET_FLAGS)]
        cells.append(name_cell(group[0], where))
        cells += [version_cell(c, RELEASE_VERSION, where) for c in group[1:]]
        if not cells[-1 - len(TARGET_FLAGS)] and any(cells[-len(TARGET_FLAGS) :]):
            raise TableError(f"{where}: versions without a target name")
    return tuple(cells)


def parse_title(line: str, where: str) -> tuple[str, tuple[str, ...]]:
    """The library and the targets (maybe none) of a `# <API> supported by <A and B>` title."""
    match = TITLE.fullmatch(line.strip())
    if not match:
        raise TableError(f"{where}: expected '# <API> supported by <target>' title")
    targets = match["targets"].strip()
    return match["library"], tuple(targets.split(" and ")) if targets else ()


def parse_table(path: Path) -> Table:
    """Parse one table file, failing with file:line on anything unexpected.

    The target groups come from the table headers, which must all agree, and with the title
    when it names them (one upstream title, CURAND's joint table, names none).
    """
    lines = path.read_text(encoding="utf-8").splitlines() or [""]
    library, targets = parse_title(lines[0], f"{path}:1")
    rows: list[Row] = []
    section, state = "", "text"  # state: text -> header -> rows
    for number, line in enumerate(lines[1:], start=2):
        where = f"{path}:{number}"
        line = line.strip()
        if match := SECTION.fullmatch(line):
            section, state = f"{match['number']}. {unescape(match['name'])}", "text"
        elif not line or line == LEGEND:
            state = "text"
        elif line.startswith("|**") and section and state == "text":
            targets = check_targets(targets, parse_header(line, where), where)
            state = "header"
        elif line == align_line(targets) and state == "header":
            state = "rows"
        elif state == "rows":
            rows.append(Row(where, section, parse_cells(line, library, targets, where)))
        else:
            raise TableError(f"{where}: unexpected line {line[:60]!r}")
    return Table(library, targets, tuple(rows))


def check_targets(known: tuple[str, ...], header: tuple[str, ...], where: str) -> tuple[str, ...]:
    """`header`'s targets, if they agree with those `known` from the title or earlier headers."""
    if known and known != header:
        raise TableError(f"{where}: header targets {header} differ from {known}")
    return header


def join_target(primary: Table, joint: Table, joint_path: Path) -> list[tuple[str, ...]]:
    """Rows of `primary` extended with the extra target group of `joint` (same rows, same order)."""
    if len(joint.rows) != len(primary.rows) or joint.targets[: len(primary.targets)] != primary.targets:
        raise TableError(f"{joint_path}:1: does not have the rows of its primary table")
    width = len(primary.rows[0].cells) if primary.rows else 0
    joined = []
    for base, extra in zip(primary.rows, joint.rows):
        if (extra.section, extra.cells[:width]) != (base.section, base.cells):
            raise TableError(f"{extra.where}: differs from {base.where}")
        joined.append(extra.cells)
    return joined


def table_rows(path: Path) -> list[tuple[str, ...]]:
    """Output rows (in COLUMNS order) for one primary table and its joint ROC/MIOpen table."""
    primary = parse_table(path)
    if primary.targets != ("HIP",):
        raise TableError(f"{path}:1: a primary table must be 'supported by HIP'")
    stem = path.name.removesuffix(PRIMARY_SUFFIX)
    joints = [j for j in (path.with_name(stem + s) for s in JOINT_SUFFIXES) if j.exists()]
    if len(joints) > 1:
        raise TableError(f"{path}:1: more than one joint table: {[j.name for j in joints]}")
    cells = join_target(primary, parse_table(joints[0]), joints[0]) if joints else None
    scale = "cuDNN" if primary.library == CUDNN_LIBRARY else "CUDA"
    no_roc = ("",) * (1 + len(TARGET_FLAGS))
    out = []
    for index, row in enumerate(primary.rows):
        # c: CUDA name, its A D C R; HIP name, its A D C R E; ROC/MIOpen name, its A D C R E.
        c = cells[index] if cells else row.cells + no_roc
        out.append((c[0], primary.library, row.section, *c[5:11], scale, *c[1:5], *c[11:17]))
    return out


def source_notice(source: Path) -> list[str]:
    """The comment lines: provenance from SOURCE.md and the licence from LICENSE.txt."""
    meta = (source / "SOURCE.md").read_text(encoding="utf-8")
    repo = re.search(r"\*\*Repository:\*\*\s+(\S+)", meta)
    commit = re.search(r"\*\*Commit:\*\*\s+`([0-9a-f]{40})`", meta)
    if not (repo and commit):
        raise TableError(f"{source / 'SOURCE.md'}:1: no **Repository:** URL or **Commit:** hash")
    licence = (source / "LICENSE.txt").read_text(encoding="utf-8").strip().splitlines()
    return [
        "hipify_map.tsv: CUDA -> HIP/ROC API mapping, one row per row of HIPIFY's primary tables.",
        "GENERATED FILE, DO NOT EDIT. Regenerate with: python scripts/gen_mapping.py",
        f"Source: {repo[1]} at commit {commit[1]}, docs/tables/*_supported_by_HIP*.md",
        "(vendored in third_party/hipify; see SOURCE.md there).",
        "Empty cell = none. hip empty = unsupported in HIP. cuda_* versions are on the cuda_scale",
        "scale (CUDA toolkit M.m, or cuDNN X.Y.Z for the CUDNN API); hip_* and roc_* versions are",
        "HIP/ROCm releases X.Y.Z. roc is the rocBLAS/rocSPARSE/rocSOLVER/rocRAND name, or the",
        "MIOpen name for the CUDNN API, from the *_HIP_and_ROC / *_HIP_and_MIOPEN tables.",
        "The data is from AMD HIPIFY, under the MIT License (also in third_party/hipify/LICENSE.txt):",
        "",
        *licence,
    ]


def build_rows(source: Path) -> list[tuple[str, ...]]:
    """All output rows: primary tables in file-name order, each in its own row order."""
    primaries = sorted(source.glob("*" + PRIMARY_SUFFIX))
    if not primaries:
        raise TableError(f"{source}: no *{PRIMARY_SUFFIX} tables")
    return [row for path in primaries for row in table_rows(path)]


def make(args: argparse.Namespace) -> tuple[str, str]:
    """The TSV text for `--source`, and what it holds."""
    rows = build_rows(args.source)
    return render(source_notice(args.source), COLUMNS, rows), f"{len(rows)} rows"


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, verify) the mapping TSV; 1 = out of date, 2 = bad input."""
    return generator_main(argv, __doc__.splitlines()[0], tool="gen_mapping", source=DEFAULT_SOURCE,
                          source_help="HIPIFY tables folder", output=DEFAULT_OUTPUT, make=make, errors=(TableError,))


if __name__ == "__main__":
    sys.exit(main())
