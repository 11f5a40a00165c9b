#!/usr/bin/env python3
"""Generate rules/hip_signatures.tsv: the parameters and public members HIP's own headers declare.

Usage: python scripts/gen_hip_signatures.py [--source DIR] [--resource-dir DIR] [--output FILE] [--check]

libclang (PyPI `libclang`) parses the vendored HIP headers (third_party/hip-headers, see
SOURCE.md) in clang's HIP mode for AMD GPUs, host pass, with the opt-in warp-sync functions
turned on (`HIP_ENABLE_WARP_SYNC_BUILTINS`; which names need it is hip_headers.tsv's business).
PyPI's libclang has no resource headers (`stddef.h`, clang's HIP wrappers): `--resource-dir`
names the `include` folder of an installed clang's (default: the newest
/usr/lib/llvm-*/lib/clang/*/include or /usr/include/clang/*/include).

One row per fact, in order:

- `function NAME PARAMS`: one overload of a function (or function template) declared at file
  scope or in `extern "C"`: its parameter types as clang spells them, `, `-separated;
- `type NAME MEMBERS`: a struct, class or union defined at file scope (or a typedef of one:
  `half`), and the names of the data members code outside it can name (public ones, those of
  anonymous unions and structs inside it and of its public bases), `, `-separated, empty when
  there is none (`__half` keeps its `__x` and `data` protected).

`--policy auto` reads them to tell whether a branch's chosen argument or member is the CUDA
form HIP lacks (guard-semantics.md §14.5).
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
from pathlib import Path

from generated import generator_main, render

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "third_party" / "hip-headers"
DEFAULT_OUTPUT = ROOT / "rules" / "hip_signatures.tsv"
COLUMNS = ("kind", "name", "detail")
HEADERS = ("hip/hip_runtime.h", "hip/hip_fp16.h", "hip/hip_bf16.h", "hip/hip_complex.h", "hip/hip_cooperative_groups.h")


class SignatureError(Exception):
    """An input the generator cannot read."""


def default_resource_dir() -> Path | None:
    """An installed clang's resource headers, newest first."""
    candidates = sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*/include") + glob.glob("/usr/include/clang/*/include"),
                        key=lambda path: [int(part) if part.isdigit() else 0 for part in path.replace("-", "/").split("/")])
    return Path(candidates[-1]) if candidates else None


def parse(source: Path, resource: Path):
    """The translation unit of the headers."""
    import clang.cindex as cindex  # the generator only: the tool reads the table

    text = "".join(f"#include <{header}>\n" for header in HEADERS)
    arguments = ["-x", "hip", "-nogpuinc", "-nogpulib", "--offload-arch=gfx90a", "--cuda-host-only", "-std=c++17",
                 "-D__HIP_PLATFORM_AMD__=1", "-DHIP_ENABLE_WARP_SYNC_BUILTINS", "-w",
                 f"-I{source}", f"-isystem{resource}"]
    unit = cindex.Index.create().parse("hip_signatures.hip", args=arguments, unsaved_files=[("hip_signatures.hip", text)],
                                       options=0x200)  # KeepGoing
    return cindex, unit


def _public_fields(cindex, cursor, seen: set[str]) -> list[str]:
    kinds = cindex.CursorKind
    found: list[str] = []
    public = cindex.AccessSpecifier.PUBLIC
    for child in cursor.get_children():
        if child.kind == kinds.FIELD_DECL and child.access_specifier == public and child.spelling:
            found.append(child.spelling)
        elif child.kind in (kinds.UNION_DECL, kinds.STRUCT_DECL) and child.is_anonymous() and (
                child.access_specifier in (public, cindex.AccessSpecifier.INVALID)):
            found += _public_fields(cindex, child, seen)
        elif child.kind == kinds.CXX_BASE_SPECIFIER and child.access_specifier == public:
            base = child.referenced
            if base is not None and base.spelling not in seen:
                seen.add(base.spelling)
                found += _public_fields(cindex, base.get_definition() or base, seen)
    return found


def build_rows(source: Path, resource: Path) -> list[tuple[str, str, str]]:
    """The rows, sorted."""
    cindex, unit = parse(source, resource)
    kinds = cindex.CursorKind
    functions: set[tuple[str, str]] = set()
    types: dict[str, str] = {}
    aliases: dict[str, str] = {}

    def walk(cursor) -> None:
        for child in cursor.get_children():
            if not child.location.file or not str(child.location.file.name).startswith(str(source)):
                if child.kind in (kinds.LINKAGE_SPEC, kinds.UNEXPOSED_DECL):
                    walk(child)
                continue
            if child.kind in (kinds.FUNCTION_DECL, kinds.FUNCTION_TEMPLATE) and child.spelling:
                params = [argument.type.spelling for argument in child.get_arguments()]
                if child.kind == kinds.FUNCTION_TEMPLATE:
                    params = [c.type.spelling for c in child.get_children() if c.kind == kinds.PARM_DECL]
                functions.add((child.spelling, ", ".join(params)))
            elif child.kind in (kinds.STRUCT_DECL, kinds.CLASS_DECL, kinds.UNION_DECL) and child.is_definition() \
                    and child.spelling and not child.is_anonymous():
                types[child.spelling] = ", ".join(dict.fromkeys(_public_fields(cindex, child, {child.spelling})))
            elif child.kind in (kinds.TYPEDEF_DECL, kinds.TYPE_ALIAS_DECL) and child.spelling:
                target = child.underlying_typedef_type.get_canonical().spelling
                aliases[child.spelling] = target.removeprefix("struct ").removeprefix("union ").removeprefix("class ")
            elif child.kind in (kinds.LINKAGE_SPEC, kinds.UNEXPOSED_DECL):
                walk(child)

    walk(unit.cursor)
    for alias, target in aliases.items():  # `typedef __half half;`: the alias names the same members
        if target in types and alias not in types:
            types[alias] = types[target]
    if not functions:
        raise SignatureError(f"{source}: libclang found no function declaration")
    rows = [("function", name, params) for name, params in functions]
    rows += [("type", name, members) for name, members in types.items()]
    return sorted(rows)


def source_notice(source: Path) -> list[str]:
    meta = (source / "SOURCE.md").read_text(encoding="utf-8")
    commits = [line.strip() for line in meta.splitlines() if line.startswith("| `hip/")]
    licence = (source / "LICENSE-HIP.txt").read_text(encoding="utf-8").strip().splitlines()
    return [
        "hip_signatures.tsv: parameters and public members HIP 6.3's own headers declare (AMD GPUs, host pass).",
        "GENERATED FILE, DO NOT EDIT. Regenerate with: python scripts/gen_hip_signatures.py",
        "Read with libclang from the HIP headers vendored in third_party/hip-headers (see SOURCE.md):",
        *commits,
        "function NAME PARAMS: one overload and its parameter types; type NAME MEMBERS: the data members",
        "code outside a struct, class or union can name (empty: none).",
        "The data is from AMD's HIP and clr repositories, under the MIT License (third_party/hip-headers/):",
        "",
        *licence,
    ]


def make(args: argparse.Namespace) -> tuple[str, str]:
    resource = args.resource_dir or default_resource_dir()
    if resource is None or not resource.is_dir():
        raise SignatureError("no clang resource headers: give --resource-dir (an installed clang's include folder)")
    rows = build_rows(args.source.resolve(), resource)
    return render(source_notice(args.source), COLUMNS, rows), f"{len(rows)} rows"


def main(argv: list[str] | None = None) -> int:
    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--resource-dir", type=Path, help="an installed clang's resource include folder")

    return generator_main(argv, __doc__.splitlines()[0], tool="gen_hip_signatures", source=DEFAULT_SOURCE,
                          source_help="the vendored headers folder", output=DEFAULT_OUTPUT, make=make,
                          errors=(SignatureError, ImportError), options=options)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
