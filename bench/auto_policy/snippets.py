#!/usr/bin/env python3
"""Measure `--policy auto` on guards whose maintainers decided ROCm in the code as it stands.

Usage:
    python bench/auto_policy/snippets.py [--cases bench/auto_policy/pytorch] [--sources DIR]
        [--in-tree ROOT_OF_TREES] [--tool hipify-guard] [--releases 6.0,6.2,6.4,7.0] [--report FILE] [-v]

A case (a row of `cases.tsv`) is one guard of a project's current code that tests a CUDA version
macro and the project's ROCm macro together (`#if defined(USE_ROCM) || CUDA_VERSION >= 11000`),
with the same guard without its ROCm part (`#if CUDA_VERSION >= 11000`): the guard as it was
before the maintainer decided, and the decision (`include`, `exclude`, `rocm-min=X.Y`) as the
code says it. The files are not kept here (they are the projects' code): `--sources` holds them as
`<owner>+<name>/<commit>/<path>`, the file at the row's commit (`note`), or its beginning up to
past the guard's chain (GitHub serves each at
https://raw.githubusercontent.com/<owner>/<name>/<commit>/<path>).

For each case, the file with the guard's ROCm part removed is checked alone in an empty folder
by the real tool (`check --no-cache --unsafe-fixes --policy auto`, then `--fix`): ROCm's macro is
`USE_ROCM` and its version macro `ROCM_VERSION`, PyTorch's, and the ROCm model is PyTorch's hipify
(`--models`), as PyTorch's own build has it. Then the chain's top-level skeleton (each arm's code
replaced by a marker) is preprocessed by gcc twice, with the maintainer's directive and with the
tool's, under a ROCm build (`USE_ROCM`, `__HIP_PLATFORM_AMD__`, `__HIPCC__`, `ROCM_VERSION`,
`HIP_VERSION`, `TORCH_HIP_VERSION` of the release; no CUDA macro) at each release of the window.
A case agrees when ROCm compiles the same arm at every release. No case is "undecidable": a
removed ROCm part always leaves a guard whose taking or skipping is the decision.

With `--together`, the case's siblings (the same file's other cases whose guard reads the same:
one feature, which the maintainer decided at once) are stripped with it, as they were before the
decision; one at a time, the rest of the feature keeps its ROCm part, which hides README step 5.

With `--in-tree ROOT` (the extensions set, `extensions/`), the file is `ROOT/<owner>+<name>/<path>`
and is checked inside its own tree (cwd the tree's root, no `--config`: the tool infers the
project's ROCm build): the stripped text is written to the real file, checked, fixed and read, and
the original bytes (and times) are always put back, checked by hash. The project's own ROCm
platform macros (`rocm-defines=` in `note`, `MAGMA_HAVE_HIP`-style names in the tool's line) are
defined as 1 in both skeletons' ROCm builds.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
_ROCM_MACROS = ("-DUSE_ROCM=1", "-D__HIP_PLATFORM_AMD__=1", "-D__HIPCC__=1", "-D__HIP__=1")
_PROJECT_ROCM = re.compile(r"\b(?:__HIP_PLATFORM_HCC__|(?:\w*?_)?(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|"
                           r"PLATFORM)_(?:HIP|ROCM|AMD|AMD_ROCM|HCC|HIPBLAS|HIP_DEVICE))\b")


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each logical line: backslash continuations joined."""
    lines = text.split("\n")
    result, number = [], 0
    while number < len(lines):
        first, line = number + 1, lines[number]
        while line.endswith("\\") and number + 1 < len(lines):
            number += 1
            line = line[:-1] + " " + lines[number]
        result.append((first, line))
        number += 1
    return result


def skeleton(text: str, guard_line: int, directive: str) -> str:
    """The chain's top-level directives, the guard's replaced by `directive`, each arm's code a
    marker `ARM_k` (nested conditionals dropped)."""
    out, depth, arm = [], 0, 0
    for number, line in logical_lines(text):
        match = _DIRECTIVE.match(line)
        kind = match.group(1) if match else None
        if kind in ("if", "ifdef", "ifndef"):
            depth += 1
            if depth > 1:
                continue
        elif kind == "endif":
            depth -= 1
            if depth > 0:
                continue
        elif kind in ("elif", "else"):
            if depth > 1:
                continue
        else:
            continue
        out.append(directive if number == guard_line else line.split("//")[0])
        if kind != "endif":
            out.append(f"ARM_{arm}")
            arm += 1
    return "\n".join(out) + "\n"


def rocm_arms(chain: str, release: tuple[int, int], gcc: str) -> str:
    """The markers of the arms a ROCm build of `release` compiles."""
    major, minor = release
    defines = [*_ROCM_MACROS, f"-DROCM_VERSION={major * 10000 + minor * 100}",
               f"-DHIP_VERSION={major * 10_000_000 + minor * 100_000}", f"-DTORCH_HIP_VERSION={major * 100 + minor}",
               f"-DHIP_VERSION_MAJOR={major}", f"-DHIP_VERSION_MINOR={minor}"]
    done = subprocess.run([gcc, "-E", "-P", "-x", "c", *defines, "-"], input=chain, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[0] if done.stderr.strip() else "gcc failed")
    return ",".join(re.findall(r"ARM_\d+", done.stdout)) or "none"


def without_rocm(text: str, line: int, original: str, stripped: str) -> str:
    """The file with the guard at `line` (its logical line, which must read `original`) replaced
    by `stripped`; a continued directive keeps its line count (blank lines after it)."""
    lines = text.split("\n")
    for number, logical in logical_lines(text):
        if number == line:
            if re.sub(r"\s+", "", logical.split("//")[0]) != re.sub(r"\s+", "", original):
                raise RuntimeError(f"line {line} is not the maintainer's guard: {logical.strip()[:80]}")
            count = _physical_count(lines, line)
            lines[line - 1:line - 1 + count] = [stripped] + [""] * (count - 1)
            return "\n".join(lines)
    raise RuntimeError(f"the file has no line {line}")


def _physical_count(lines: list[str], line: int) -> int:
    """How many physical lines the logical line starting at `line` (1-based) spans."""
    count = 1
    while lines[line - 2 + count].endswith("\\") and line - 1 + count < len(lines):
        count += 1
    return count


def chain_from(text: str, line: int) -> str:
    """The conditional chain that starts at `line` (1-based), through its `#endif`."""
    lines = text.split("\n")
    depth, index = 0, line - 1
    while index < len(lines):
        count = _physical_count(lines, index + 1)
        match = _DIRECTIVE.match(" ".join(lines[index:index + count]))
        kind = match.group(1) if match else None
        depth += kind in ("if", "ifdef", "ifndef")
        depth -= kind == "endif"
        index += count
        if depth == 0:
            return "\n".join(lines[line - 1:index]) + "\n"
    raise RuntimeError("the guard's chain has no #endif in the file")


def run_tool(tool: str, text: str, name: str, line: int, models: str) -> tuple[str, str]:
    """The tool's message at the guard (or what it said instead) and the fixed guard's directive;
    `name`: the file's name; `models`: the configuration's ROCm models ("" for the tool's default)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        options = []
        if models:
            config = os.path.join(folder, "hipify-guard.toml")
            with open(config, "w", encoding="utf-8") as handle:
                handle.write(f"models = {json.dumps(models.split(','))}\n")
            options = ["--config", config]
        return check_and_fix(tool, folder, path, line, options)


def check_and_fix(tool: str, cwd: str, path: str, line: int, options: list[str]) -> tuple[str, str]:
    """The tool's messages at the guard of `line` (`check --policy auto`) and the directive there
    after `--fix`, run in `cwd` on `path`; the file is rewritten."""
    base = [tool, "check", "--no-cache", "--unsafe-fixes", "--policy", "auto", "--select", "HG101,HG102,HG103", *options]
    report = subprocess.run([*base, "--output-format", "json", path], capture_output=True, text=True, cwd=cwd)
    findings = [item for item in json.loads(report.stdout or "[]") if item["location"]["row"] == line]
    message = "; ".join(f"{item['code']}: {(item.get('fix') or {}).get('message') or item['message']}"
                        for item in findings) or "no finding at the guard"
    subprocess.run([*base, "-q", "--fix", path], capture_output=True, cwd=cwd)
    with open(os.path.join(cwd, path), encoding="utf-8") as handle:
        fixed = dict(logical_lines(handle.read())).get(line, "")
    return message, fixed.split("//")[0].strip()


def run_in_tree(tool: str, tree: str, path: str, text: str, line: int) -> tuple[str, str]:
    """As `run_tool`, on the file `path` inside its tree (cwd `tree`, the tool's own configuration):
    `text` is written to the real file for the check and the fix; its bytes are always restored."""
    target = os.path.join(tree, path)
    stat = os.stat(target)
    with open(target, "rb") as handle:
        before = handle.read()
    try:
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        return check_and_fix(tool, tree, path, line, [])
    finally:
        with open(target, "wb") as handle:
            handle.write(before)
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        with open(target, "rb") as handle:
            if hashlib.sha256(handle.read()).digest() != hashlib.sha256(before).digest():
                raise SystemExit(f"{target} could not be restored")


def judge(case: dict, args: argparse.Namespace, releases: list[tuple[int, int]],
          together: list[dict] = ()) -> tuple[str, str, list[str], list[str]]:
    """The tool's message and fixed directive for one case, and the arms a ROCm build of each
    release compiles with the maintainer's directive and with the tool's; the guards of `together`
    (other cases) are stripped of their ROCm part too."""
    commit = re.match(r"[0-9a-f]{40}", case["note"]).group()
    tree = os.path.join(args.in_tree or args.sources, case["repo"].replace("/", "+"))
    if args.in_tree:
        with open(os.path.join(tree, ".commit"), encoding="utf-8") as handle:
            if handle.read().strip() != commit:
                raise RuntimeError(f"{tree} is not at {commit}")
    source = os.path.join(tree, case["path"] if args.in_tree else os.path.join(commit, case["path"]))
    with open(source, encoding="utf-8", newline="") as handle:
        original = handle.read()
    line = int(case["line"])
    text = without_rocm(original, line, case["original_directive"], case["stripped_directive"])
    for other in together:  # (the rest of the feature, as it was before the maintainer decided)
        text = without_rocm(text, int(other["line"]), other["original_directive"], other["stripped_directive"])
    if args.in_tree:
        message, fixed = run_in_tree(args.tool, tree, case["path"], text, line)
    else:
        message, fixed = run_tool(args.tool, text, os.path.basename(case["path"]), line, args.models)
    chain = chain_from(text, line)
    named = re.search(r"rocm-defines=([\w,]+)", case["note"])
    project = sorted({*(named.group(1).split(",") if named else ()), *_PROJECT_ROCM.findall(fixed)} - {"USE_ROCM"})
    defines = "".join(f"#define {name} 1\n" for name in project)
    maintainer = [rocm_arms(defines + skeleton(chain, 1, case["original_directive"]), r, args.gcc) for r in releases]
    tool = [rocm_arms(defines + skeleton(chain, 1, fixed), r, args.gcc) for r in releases]
    return message, fixed, maintainer, tool


def siblings(case: dict, cases: list[dict]) -> list[dict]:
    """The other cases of the same file whose guard reads the same (without spaces): one feature's
    guards, which the maintainer decided together (FBGEMM's nine `kv_cache` guards), so that
    before the decision none of them named ROCm."""
    same = re.sub(r"\s+", "", case["original_directive"])
    return [other for other in cases if other is not case and other["repo"] == case["repo"]
            and other["path"] == case["path"] and re.sub(r"\s+", "", other["original_directive"]) == same]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=os.path.join(HERE, "pytorch"))
    parser.add_argument("--sources", default="/tmp/hg-pytorch-sources",
                        help="the cases' files, as <owner>+<name>/<commit>/<path>")
    parser.add_argument("--in-tree", metavar="ROOT_OF_TREES",
                        help="check each file in its tree ROOT/<owner>+<name>/<path> (no --config; --sources unused)")
    parser.add_argument("--tool", default=shutil.which("hipify-guard") or "hipify-guard")
    parser.add_argument("--gcc", default="gcc")
    parser.add_argument("--releases", default="6.0,6.2,6.4,7.0")
    parser.add_argument("--models", default="torch-hipify",
                        help="the ROCm models the project's build has (PyTorch's code: its hipify; '' for the default)")
    parser.add_argument("--report", help="write the per-case report (TSV) here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print agreeing cases too")
    parser.add_argument("--only", default="", help="comma-separated case ids to run (default: all)")
    parser.add_argument("--together", action="store_true",
                        help="strip the ROCm part of the case's siblings too (`siblings`: the feature's other guards)")
    args = parser.parse_args()
    releases = [tuple(int(part) for part in text.split(".")) for text in args.releases.split(",")]
    with open(os.path.join(args.cases, "cases.tsv"), encoding="utf-8") as handle:
        every = list(csv.DictReader(handle, delimiter="\t"))
    cases = [case for case in every if not args.only or case["id"] in args.only.split(",")]
    counts: Counter[str] = Counter()
    rows = []
    for case in cases:
        try:
            message, fixed, maintainer, tool = judge(case, args, releases, siblings(case, every) if args.together else [])
            verdict = "agree" if maintainer == tool else "disagree"
        except (RuntimeError, OSError, json.JSONDecodeError) as error:
            verdict, message, fixed, maintainer, tool = "error", str(error), "", [], []
        counts[verdict] += 1
        rows.append((case["id"], verdict, case["decision"], fixed, message))
        if verdict != "agree" or args.verbose:
            print(f"{verdict.upper()} {case['id']} {case['path']}:{case['line']} (maintainer: {case['decision']})")
            print(f"    maintainer: {case['original_directive']}\n    tool: {fixed}\n    {message}")
            for release, mine, theirs in zip(releases, maintainer, tool):
                print(f"    ROCm {release[0]}.{release[1]}: maintainer {mine}, tool {theirs}")
            print()
    decided = counts["agree"] + counts["disagree"]
    print(f"{len(cases)} cases; agree {counts['agree']}; disagree {counts['disagree']}; errors {counts['error']}"
          + (f"; agreement {counts['agree'] / decided:.1%}" if decided else ""))
    if args.report:
        with open(args.report, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(("id", "verdict", "maintainer", "tool_line", "tool_message"))
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
