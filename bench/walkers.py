#!/usr/bin/env python3
"""How fast folders are walked with their `.gitignore` rules: the tool's walk against rignore's.

Usage: python bench/walkers.py FOLDER [--runs 3]

Each walker runs in a child process of its own (a cold start, as in `check --no-cache`), `--runs`
times: `os.walk` (no ignore rules: the floor), rignore's `walk` (bindings to ripgrep's `ignore`
crate: git's rules, when the package is installed; it yields every entry it does not ignore) and
the tool's walk with discovery (`project_walk` + `discovery.discover`: the files `check` would
take, and the scans the build-file reader and the header index read). Prints per walker the
median wall and CPU time and what it counted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WALKERS = {
    "os.walk": "import os, sys; print(sum(len(f) for _, _, f in os.walk(sys.argv[1])), 'files')",
    "rignore": ("import sys, rignore; print(sum(1 for p in rignore.walk(sys.argv[1], ignore_hidden=False, "
                "read_git_exclude=True, read_parents_ignores=True, require_git=False) if p.is_file()), 'entries')"),
    "hipify-guard": ("import sys; from hipify_guard.project.discovery import discover; "
                     "print(sum(1 for _ in discover([sys.argv[1]])), 'files to check')"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    environment = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    for name, code in WALKERS.items():
        walls, cpus, said = [], [], ""
        for _ in range(options.runs):
            started = os.times()
            completed = subprocess.run([sys.executable, "-c", code, options.folder], capture_output=True, text=True,
                                       env=environment, check=False)
            ended = os.times()
            if completed.returncode != 0:
                said = completed.stderr.strip().splitlines()[-1] if completed.stderr else "failed"
                break
            walls.append(ended.elapsed - started.elapsed)
            cpus.append(ended.children_user + ended.children_system - started.children_user - started.children_system)
            said = completed.stdout.strip()
        if walls:
            print(f"{name}: median {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU ({said})")
        else:
            print(f"{name}: {said}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
