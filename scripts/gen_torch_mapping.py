#!/usr/bin/env python3
"""Generate rules/torch_hipify_map.tsv from PyTorch's hipify table (third_party/torch-hipify).

Usage: python scripts/gen_torch_mapping.py [--source FILE] [--output FILE] [--check]

The source, PyTorch's `torch/utils/hipify/cuda_to_hip_mappings.py`, is read as data: it is
parsed with `ast` and never imported or run. `CUDA_TO_HIP_MAPPINGS` lists the tables PyTorch's
hipify applies, in order; each is an `OrderedDict([...])` literal of `(cuda, hip)` pairs, or of
`(cuda, (hip, KIND, ...))` in older releases, where a `HIP_UNSUPPORTED` among the kinds marks a
name that has no HIP equivalent (hipify still renames it). One output row per pair whose CUDA
name is an identifier (include paths and `cub::`-qualified names are left out), in that order;
PyTorch's hipify keeps the last mapping of a name, and so does the loader. Anything else in a
table stops the script with `file:line: reason`.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

from generated import generator_main, render

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "third_party" / "torch-hipify" / "cuda_to_hip_mappings.py"
DEFAULT_OUTPUT = ROOT / "rules" / "torch_hipify_map.tsv"
COLUMNS = ("cuda", "hip", "table", "unsupported")
LIST_NAME = "CUDA_TO_HIP_MAPPINGS"
UNSUPPORTED = "HIP_UNSUPPORTED"
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class MappingError(Exception):
    """A part of the source the generator cannot read as data."""


def assignments(tree: ast.Module) -> dict[str, ast.expr]:
    """Top-level `NAME = value` assignments, by name."""
    return {node.targets[0].id: node.value for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)}


def table_names(values: dict[str, ast.expr], where: str) -> list[str]:
    """The names listed in CUDA_TO_HIP_MAPPINGS, in order."""
    listed = values.get(LIST_NAME)
    if not isinstance(listed, ast.List) or not all(isinstance(e, ast.Name) for e in listed.elts):
        raise MappingError(f"{where}: {LIST_NAME} is not a list of table names")
    return [element.id for element in listed.elts]


def pairs(name: str, value: ast.expr | None, where: str) -> list[tuple[str, ast.expr, int]]:
    """The (cuda, hip value, line) pairs of one `OrderedDict([...])` table."""
    is_call = isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute | ast.Name)
    if not (is_call and len(value.args) == 1 and isinstance(value.args[0], ast.List)):
        raise MappingError(f"{where}: {name} is not an OrderedDict([...]) literal")
    found = []
    for item in value.args[0].elts:
        if not (isinstance(item, ast.Tuple) and len(item.elts) == 2 and _is_text(item.elts[0])):
            raise MappingError(f"{where}:{item.lineno}: {name}: expected a (name, mapping) pair")
        found.append((item.elts[0].value, item.elts[1], item.lineno))
    return found


def hip_cell(value: ast.expr, where: str) -> tuple[str, bool]:
    """The HIP name of a mapping and whether it is marked HIP_UNSUPPORTED."""
    if _is_text(value):
        return value.value, False
    if isinstance(value, ast.Tuple) and value.elts and _is_text(value.elts[0]):
        kinds = [_kind(kind, where) for kind in value.elts[1:]]
        return value.elts[0].value, UNSUPPORTED in kinds
    raise MappingError(f"{where}: expected a HIP name or a (name, KIND, ...) tuple")


def _kind(node: ast.expr, where: str) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    raise MappingError(f"{where}: expected a constant name such as {UNSUPPORTED}")


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def build_rows(source: Path) -> list[tuple[str, ...]]:
    """One row per identifier-named mapping, in the order PyTorch's hipify applies them."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    values = assignments(tree)
    rows = []
    for table in table_names(values, str(source)):
        for cuda, value, line in pairs(table, values.get(table), str(source)):
            if not IDENTIFIER.fullmatch(cuda):
                continue
            hip, unsupported = hip_cell(value, f"{source}:{line}")
            if not hip or any(c in hip for c in "\t\n"):
                raise MappingError(f"{source}:{line}: bad HIP name {hip!r}")
            rows.append((cuda, hip, table, "1" if unsupported else ""))
    if not rows:
        raise MappingError(f"{source}: no mappings found")
    return rows


def source_notice(source: Path) -> list[str]:
    """The comment lines: provenance from SOURCE.md and the licence."""
    meta = (source.parent / "SOURCE.md").read_text(encoding="utf-8")
    release = re.search(r"\*\*Release:\*\*\s+(.+)", meta)
    if not release:
        raise MappingError(f"{source.parent / 'SOURCE.md'}:1: no **Release:** line")
    licence = (source.parent / "LICENSE").read_text(encoding="utf-8").strip().splitlines()
    return [
        "torch_hipify_map.tsv: what PyTorch's hipify renames, one row per identifier of its tables.",
        "GENERATED FILE, DO NOT EDIT. Regenerate with: python scripts/gen_torch_mapping.py",
        f"Source: {release[1].strip()}, torch/utils/hipify/cuda_to_hip_mappings.py",
        "(vendored in third_party/torch-hipify; see SOURCE.md there), read as data with `ast`.",
        "table: the table of CUDA_TO_HIP_MAPPINGS it is in; a name in several tables keeps its last",
        "row, as in PyTorch's hipify. unsupported: 1 when the source marks it HIP_UNSUPPORTED.",
        "The data is from PyTorch, under its BSD-3-Clause licence (also in third_party/torch-hipify/LICENSE):",
        "",
        *licence,
    ]


def make(args: argparse.Namespace) -> tuple[str, str]:
    """The TSV text for `--source`, and what it holds."""
    rows = build_rows(args.source)
    return render(source_notice(args.source), COLUMNS, rows), f"{len(rows)} rows"


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, verify) the TSV; 1 = out of date, 2 = bad input."""
    return generator_main(argv, __doc__.splitlines()[0], tool="gen_torch_mapping", source=DEFAULT_SOURCE,
                          source_help="cuda_to_hip_mappings.py", output=DEFAULT_OUTPUT, make=make,
                          errors=(MappingError, SyntaxError))


if __name__ == "__main__":
    sys.exit(main())
