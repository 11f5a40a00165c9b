#!/usr/bin/env python3
"""Per repository of the real-trees corpus: the macros the offered fixes test, with the evidence
`files` shows for them, and how many findings carry a fix or were refused one (spec §13).

Usage: python bench/rewrite_table.py FINDINGS.json [--trees bench/corpora/real] [--tool PATH] [--markdown]

FINDINGS.json is the output of `bench/real_findings.py --out` (the fixes of the default policy).
A finding is *refused* when its message says why no fix is offered (`no fix:`). The evidence is
what `hipify-guard files` prints for the first file whose fix uses each macro.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_CLAUSE = re.compile(r"defined\((\w+)\)")
_FIXABLE = ("HG101", "HG102", "HG103", "HG203", "HG204")
_CUDA = {"CUDA_VERSION", "CUDART_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__"}


def macros_of(finding: dict) -> list[str]:
    """The macros the fix's new clauses test (the text it inserts)."""
    if not finding.get("fix"):
        return []
    return sorted({name for edit in finding["fix"]["edits"] for name in _CLAUSE.findall(edit["content"])} - _CUDA)


def evidence(tool: str, tree: Path, filename: str) -> str:
    """What `files` says of the rewrites' ROCm macro for one file."""
    done = subprocess.run([tool, "files", "--output-format", "json", filename], cwd=tree, capture_output=True,
                          text=True, check=False)
    try:
        return json.loads(done.stdout)[0]["rewrites"]["rocm-macro"]["why"]
    except (ValueError, LookupError, TypeError):
        return f"(files: exit {done.returncode})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("findings", type=Path)
    parser.add_argument("--trees", type=Path, default=HERE / "corpora" / "real")
    beside = Path(sys.executable).with_name("hipify-guard")
    parser.add_argument("--tool", default=str(beside) if beside.exists() else "hipify-guard")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    findings = [item for item in json.loads(args.findings.read_text(encoding="utf-8")) if item["code"] in _FIXABLE]
    rows = collections.defaultdict(lambda: {"offered": 0, "refused": 0, "macros": collections.Counter(), "first": {}})
    for item in findings:
        row = rows[item["repository"]]
        if item.get("fix"):
            row["offered"] += 1
            for name in macros_of(item):
                row["macros"][name] += 1
                row["first"].setdefault(name, item["filename"])
        elif "no fix:" in item["message"]:
            row["refused"] += 1
    if args.markdown:
        print("| project | macro chosen (fixes) | evidence (`files`) | fixes offered / refused |")
        print("|---|---|---|---|")
    for repository, row in sorted(rows.items()):
        if not row["offered"] and not row["refused"]:
            continue
        chosen = ", ".join(f"`{name}` ({count})" for name, count in row["macros"].most_common()) or "-"
        why = "; ".join(f"{name}: {evidence(args.tool, args.trees / repository, filename)}"
                        for name, filename in row["first"].items())
        if args.markdown:
            print(f"| {repository.replace('+', '/')} | {chosen} | {why} | {row['offered']} / {row['refused']} |")
        else:
            print(f"{repository}\t{chosen}\toffered {row['offered']}\trefused {row['refused']}\n    {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
