#!/usr/bin/env python3
"""Where a process pool starts to pay: -j1 against -j2 on the first N files of a tree.

Usage: python bench/break_even.py [TREE] [--sizes 100,200,400,800,1600] [--runs 5] [--python PY]

Runs `hipify-guard check --no-cache` on the first N files (in discovery order) of TREE (default:
the torch headers) with -j1 and -j2, forcing the pool for -j2 by lowering the threshold, and
prints the medians. `execute.PARALLEL_MIN_JOBS` is set from where -j2 becomes faster.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from run import torch_include  # noqa: E402

from hipify_guard.project.discovery import discover  # noqa: E402

# -j2 with the pool forced on, whatever PARALLEL_MIN_JOBS says.
FORCED = ("import sys; import hipify_guard.project.execute as e; e.PARALLEL_MIN_JOBS = 0; "
          "from hipify_guard.cli.main import main; sys.argv[0] = 'hipify-guard'; main()")


def median_time(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=torch_include())
    parser.add_argument("--python", default=sys.executable, help="the Python whose hipify_guard is measured")
    parser.add_argument("--sizes", default="100,200,400,800,1600")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    if options.tree is None:
        parser.error("no TREE given and the torch headers were not found")
    files = [path for _, path in discover([str(options.tree)])]
    print("| files | -j1 ms | -j2 (pool) ms |\n|---|---|---|")
    for size in map(int, options.sizes.split(",")):
        chosen = files[:size]
        args = ["check", "--no-cache", "--exit-zero", "-q", *chosen]
        serial = median_time([options.python, "-c", FORCED, *args, "-j1"], options.runs)
        pooled = median_time([options.python, "-c", FORCED, *args, "-j2"], options.runs)
        print(f"| {len(chosen)} | {serial * 1000:.0f} | {pooled * 1000:.0f} |", flush=True)


if __name__ == "__main__":
    main()
