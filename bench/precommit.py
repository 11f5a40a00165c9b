#!/usr/bin/env python3
"""What the pre-commit hook costs in a large repository: N just-edited files checked from its root.

Usage: python bench/precommit.py --tree DIR [--under csrc] [--files 10] [--runs 11]
                                 [--tool PATH]... [--no-cache] [--python] [--plain]

For each `--tool` (several are measured side by side, their runs interleaved), a full `check .`
first primes a cache of its own (the build facts, as in a checkout someone works in). Then each
run appends a comment line to each of the N files (new bytes: no cached result can answer them)
and times `check --force-exclude --exit-zero -q FILE...` from the tree's root, as pre-commit
runs the hook. The files are the N C/C++/CUDA files (with `--python`, Python files) below
`--under` that mention the rules' trigger names most often (the ones a hook has work on; with
`--plain`, the first N in path order that mention none, as most commits' files), and get their
bytes back at the end.
Prints per tool the median and spread of the wall time and the median CPU time (user + system),
with the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import measure, trigger_names_of_all_rules  # noqa: E402

_CPP = (".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".cu", ".cuh", ".inl", ".hip")
_PYTHON = (".py",)


def busiest_files(tree: Path, under: str, count: int, extensions: tuple[str, ...] = _CPP,
                  plain: bool = False) -> list[str]:
    """The `count` files of those extensions below `tree/under` that mention trigger names most
    (ties: by path); `plain`: the first `count` by path that mention none."""
    names = [name.encode() for name in trigger_names_of_all_rules()]
    ranked = []
    for folder, _, files in os.walk(tree / under):
        for name in files:
            if name.endswith(extensions):
                path = Path(folder, name)
                data = path.read_bytes()
                ranked.append((-sum(data.count(wanted) for wanted in names), str(path.relative_to(tree))))
    if plain:
        return sorted(path for mentions, path in ranked if not mentions)[:count]
    return [path for _, path in sorted(ranked)[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the repository's root (a git work tree)")
    parser.add_argument("--under", default="csrc", help="the folder whose files are edited")
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--tool", action="append", help="a hipify-guard executable (repeat to compare)")
    parser.add_argument("--no-cache", action="store_true", help="time the hook runs with --no-cache")
    parser.add_argument("--python", action="store_true", help="edit Python files instead of C/C++ ones")
    parser.add_argument("--plain", action="store_true", help="edit files that mention no trigger name")
    options = parser.parse_args()
    tools = options.tool or [str(Path(sys.executable).with_name("hipify-guard"))]
    tree = options.tree.resolve()
    files = busiest_files(tree, options.under, options.files, _PYTHON if options.python else _CPP, options.plain)
    comment = "#" if options.python else "//"
    print(f"{len(files)} files: {' '.join(files)}", file=sys.stderr)
    original = {path: (tree / path).read_bytes() for path in files}
    here = os.getcwd()
    os.chdir(tree)
    load_before = os.getloadavg()
    walls: dict[str, list[float]] = {tool: [] for tool in tools}
    cpus: dict[str, list[float]] = {tool: [] for tool in tools}
    with tempfile.TemporaryDirectory(prefix="hg-precommit-") as caches:
        envs = {tool: {**os.environ, "HIPIFY_GUARD_CACHE_DIR": os.path.join(caches, str(n))}
                for n, tool in enumerate(tools)}
        try:
            for tool in tools:
                measure([tool, "check", "--exit-zero", "-q", "."], envs[tool])
            extra = ["--no-cache"] if options.no_cache else []
            for run in range(options.runs):
                for number, tool in enumerate(tools if run % 2 == 0 else tools[::-1]):
                    for path in files:
                        (tree / path).write_bytes(original[path] + f"\n{comment} pre-commit edit {run}.{number}\n".encode())
                    wall, cpu, _, code = measure([tool, "check", "--force-exclude", "--exit-zero", "-q", *extra, *files],
                                                 envs[tool])
                    if code != 0:
                        raise SystemExit(f"{tool} exited {code}")
                    walls[tool].append(wall)
                    cpus[tool].append(cpu)
        finally:
            for path, data in original.items():
                (tree / path).write_bytes(data)
            os.chdir(here)
    load_after = os.getloadavg()
    for tool in tools:
        print(f"{tool}: median {statistics.median(walls[tool]) * 1000:.0f} ms wall "
              f"(min {min(walls[tool]) * 1000:.0f}, max {max(walls[tool]) * 1000:.0f}), "
              f"median CPU {statistics.median(cpus[tool]) * 1000:.0f} ms, {options.runs} runs")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")


if __name__ == "__main__":
    main()
