#!/usr/bin/env python3
"""Findings per rule over the real-trees corpus, each repository checked as its own project.

Usage: python bench/real_findings.py [--tool PATH] [--trees bench/corpora/real] [--out FILE.json]
                                     [--compare OLD.json] [--only NAME,...] [--policy POLICY]
                                     [--sample N --seed S --rules HG1 [--fixes] [--per-repository K]]

Runs `check --no-cache --exit-zero --output-format json .` inside every tree (so each is a
project of its own, as in a user's checkout: its build files, its `.gitignore`s) and writes every
finding, with its repository, to `--out`. It prints the count per rule (and, with `--compare`, the
counts of an earlier run beside them). `--sample N` prints N findings drawn at random (seeded)
among the rules given, with their source line, for checking by hand (`--fixes`: only findings
with a fix, each with the line as the fix writes it; `--per-repository K`: at most K of each
repository; `--policy`: the fixes of that policy, with `--unsafe-fixes`).
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
RUN_FLAGS: list[str] = []  # more options of every check run (`--policy`)


def run(tool: str, trees: Path, only: set[str]) -> list[dict]:
    """Every finding of every tree, each with its `repository`."""
    found = []
    for tree in sorted(path for path in trees.iterdir() if path.is_dir()):
        if only and tree.name not in only and tree.name.split("+")[1] not in only:
            continue
        completed = subprocess.run([tool, "check", "--no-cache", "--exit-zero", "--output-format", "json", *RUN_FLAGS, "."],
                                   cwd=tree, capture_output=True, text=True, check=False)
        if completed.returncode != 0:
            print(f"{tree.name}: exit {completed.returncode}: {completed.stderr.strip()[-500:]}", file=sys.stderr)
            continue
        for item in json.loads(completed.stdout or "[]"):
            item["repository"] = tree.name
            found.append(item)
    return found


def _drawn(findings: list[dict], count: int, seed: int, per_repository: int) -> list[dict]:
    """`count` findings drawn at random (seeded), at most `per_repository` of each repository."""
    shuffled = random.Random(seed).sample(findings, len(findings))
    taken: collections.Counter = collections.Counter()
    drawn = []
    for item in shuffled:
        if len(drawn) < count and (not per_repository or taken[item["repository"]] < per_repository):
            taken[item["repository"]] += 1
            drawn.append(item)
    return drawn


def _fixed_line(trees: Path, item: dict) -> str:
    """The finding's first changed line as the fix writes it (edits on that line applied)."""
    path = trees / item["repository"] / item["filename"]
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    row = min(edit["location"]["row"] for edit in item["fix"]["edits"])
    line = lines[row - 1]
    for edit in sorted(item["fix"]["edits"], key=lambda e: e["location"]["column"], reverse=True):
        if edit["location"]["row"] == row == edit["end_location"]["row"]:
            start, end = edit["location"]["column"] - 1, edit["end_location"]["column"] - 1
            line = line[:start] + edit["content"] + line[end:]
    return line.strip()


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
    parser.add_argument("--fixes", action="store_true", help="sample only findings with a fix, and show the fixed line")
    parser.add_argument("--per-repository", type=int, default=0, help="draw at most this many per repository")
    parser.add_argument("--policy", default="", help="the check's --policy (with --unsafe-fixes)")
    args = parser.parse_args()
    if args.policy:
        RUN_FLAGS.extend(["--unsafe-fixes", "--policy", args.policy])
    findings = run(args.tool, args.trees.resolve(), {name for name in args.only.split(",") if name})
    if args.out:
        args.out.write_text(json.dumps(findings, indent=1), encoding="utf-8")
    now = counts(findings)
    before = counts(json.loads(args.compare.read_text(encoding="utf-8"))) if args.compare else None
    for code in sorted(set(now) | set(before or {})):
        print(f"{code}\t{now[code]}" + (f"\t(was {before[code]})" if before is not None else ""))
    print(f"total\t{sum(now.values())}" + (f"\t(was {sum(before.values())})" if before is not None else ""))
    if args.sample:
        chosen = [item for item in findings if item["code"].startswith(tuple(args.rules.split(",")))
                  and (item.get("fix") or not args.fixes)]
        for item in _drawn(chosen, args.sample, args.seed, args.per_repository):
            print(f"{item['repository']}/{item['filename'].removeprefix('./')}:{item['location']['row']}: "
                  f"{item['code']} {item['message']}")
            if args.fixes:
                print(f"    fix ({item['fix']['applicability']}): {_fixed_line(args.trees.resolve(), item)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
