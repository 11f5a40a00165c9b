#!/usr/bin/env python3
"""Findings per rule over the real-trees corpus, each repository checked as its own project.

Usage: python bench/real_findings.py [--tool PATH] [--trees bench/corpora/real] [--out FILE.json]
                                     [--compare OLD.json] [--only NAME,...] [--sample N --seed S --rules HG1]

Runs `check --no-cache --exit-zero --output-format json .` inside every tree (so each is a
project of its own, as in a user's checkout: its build files, its `.gitignore`s) and writes every
finding, with its repository, to `--out`. It prints the count per rule (and, with `--compare`, the
counts of an earlier run beside them). `--sample N` prints N findings drawn at random (seeded)
among the rules given, with their source line, for checking by hand.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(tool: str, trees: Path, only: set[str]) -> list[dict]:
    """Every finding of every tree, each with its `repository`."""
    found = []
    for tree in sorted(path for path in trees.iterdir() if path.is_dir()):
        if only and tree.name not in only and tree.name.split("+")[1] not in only:
            continue
        completed = subprocess.run([tool, "check", "--no-cache", "--exit-zero", "--output-format", "json", "."],
                                   cwd=tree, capture_output=True, text=True, check=False)
        if completed.returncode != 0:
            print(f"{tree.name}: exit {completed.returncode}: {completed.stderr.strip()[-500:]}", file=sys.stderr)
            continue
        for item in json.loads(completed.stdout or "[]"):
            item["repository"] = tree.name
            found.append(item)
    return found


def counts(findings: list[dict]) -> collections.Counter:
    return collections.Counter(item["code"] for item in findings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    beside = Path(sys.executable).with_name("hipify-guard")
    parser.add_argument("--tool", default=str(beside) if beside.exists() else "hipify-guard")
    parser.add_argument("--trees", type=Path, default=HERE / "corpora" / "real")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--only", default="")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="HG1")
    args = parser.parse_args()
    findings = run(args.tool, args.trees.resolve(), {name for name in args.only.split(",") if name})
    if args.out:
        args.out.write_text(json.dumps(findings, indent=1), encoding="utf-8")
    now = counts(findings)
    before = counts(json.loads(args.compare.read_text(encoding="utf-8"))) if args.compare else None
    for code in sorted(set(now) | set(before or {})):
        print(f"{code}\t{now[code]}" + (f"\t(was {before[code]})" if before is not None else ""))
    print(f"total\t{sum(now.values())}" + (f"\t(was {sum(before.values())})" if before is not None else ""))
    if args.sample:
        chosen = [item for item in findings if item["code"].startswith(tuple(args.rules.split(",")))]
        for item in random.Random(args.seed).sample(chosen, min(args.sample, len(chosen))):
            print(f"{item['repository']}/{item['filename'].removeprefix('./')}:{item['location']['row']}: "
                  f"{item['code']} {item['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
