#!/usr/bin/env python3
"""Benchmark hipify-guard against `rg -l` on real header and source trees (not a timed test).

Usage: python bench/run.py [--runs 5] [--scaled-runs 3] [--scales 1,4,16]
                           [--corpora cuda,torch,both,real,scaled] [--tool PATH]... [--jobs N]
                           [--out bench/results] [--scaled-into DIR] [--compare OLD.json]

Corpora: `cuda` = /usr/local/cuda/include (CUDA 13 headers), `torch` = the torch wheel's
`include` folder, `both` = the two together, `real` = the public source trees of
bench/real_trees.tsv laid out in bench/corpora/real by bench/real_trees.py (walked as one folder,
their `.gitignore` files respected), `scaled` = copies of cuda+torch (1x, 4x, 16x) under
bench/corpora/scaled (or --scaled-into), each copy with its own paths and a first line that makes
its bytes differ, so no content-keyed cache can share results between copies.

For each corpus it runs, each `--runs` times, every command in its own child process, timing
the wall clock and reading the child's peak RSS from `os.wait4` (the child's `getrusage`, its
own pool workers included): `rg -l` with the trigger names of all rules as fixed strings over
the same extensions (the floor: one read and a search per file, on every core); the pure-Python
floor (bench/walk_floor.py: `os.walk`, one read and `in` per file, one process); the tool cold
(`--no-cache`) and warm (a primed cache) with one job and with the default (all cores). The run
that primes the cache reports JSON: its findings per rule and a digest of them all (fixes
included) go into the results, and `--compare OLD.json` prints what changed per corpus and rule
(exit status 1 when something did). With several `--tool`s (a build before a change and one
after it), each corpus is measured for each in turn, in the same run, against the same rg and
floor, and their findings are compared with the first tool's. It prints a table of medians and
ratios to rg and writes the same as JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hipify_guard.checks import CHECKS  # noqa: E402
from hipify_guard.engine.lint import trigger_names  # noqa: E402
from hipify_guard.model.settings import Settings  # noqa: E402
from hipify_guard.project.discovery import DEFAULT_EXTENSIONS, discover  # noqa: E402

CUDA_INCLUDE = Path("/usr/local/cuda/include")
REAL = HERE / "corpora" / "real"
WALK_FLOOR = HERE / "walk_floor.py"


def torch_include() -> Path | None:
    """The torch wheel's header folder, found without importing torch."""
    from importlib.util import find_spec

    spec = find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "include"
    return folder if folder.is_dir() else None


def measure(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds (user + system), peak RSS in MB of the child and its
    descendants, exit status) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, child.returncode


def repeat(command: list[str], runs: int, env: dict[str, str] | None = None,
           before: Callable[[], None] | None = None) -> dict[str, object]:
    """Median and spread of `runs` runs (`before`: called before each); the peak RSS is the
    largest seen. CPU time says what a run costs when other work shares the cores (its wall
    time then grows)."""
    walls, cpus, peaks, codes = [], [], [], set()
    for _ in range(runs):
        if before is not None:
            before()
        wall, cpu, peak, code = measure(command, env)
        walls.append(wall)
        cpus.append(cpu)
        peaks.append(peak)
        codes.add(code)
    return {"median_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls),
            "median_cpu_s": statistics.median(cpus), "peak_rss_mb": max(peaks), "exit_codes": sorted(codes),
            "runs": runs}


def trigger_names_of_all_rules() -> list[str]:
    """The trigger names of every rule (a file that mentions none of them needs no rule)."""
    return [name.decode() for name in trigger_names(Settings(), sorted(CHECKS))]


def rg_command(paths: list[str]) -> list[str]:
    """`rg -l` over the files the tool would check, searching for every rule's trigger names."""
    globs = [arg for ext in sorted(DEFAULT_EXTENSIONS) for arg in ("--iglob", f"*.{ext}")]
    patterns = [arg for name in trigger_names_of_all_rules() for arg in ("-e", name)]
    return ["rg", "-l", "-F", "--no-config", "--no-ignore", "--hidden", "--no-messages", *globs, *patterns,
            "--", *paths]


def floor_command(paths: list[str]) -> list[str]:
    """The pure-Python floor (walk, read, `in`) over the same extensions, in one process."""
    return [sys.executable, str(WALK_FLOOR), ",".join(sorted(DEFAULT_EXTENSIONS)),
            ",".join(trigger_names_of_all_rules()), *paths]


def tool_runs(tool: str, paths: list[str], runs: int, jobs: int, serial: bool, edited: str) -> dict[str, object]:
    """Cold and warm runs with `jobs` (0: the default, all cores), and with one job if `serial`;
    warm runs after an edit of the file `edited` (`edited_jN`); `findings`: what the run that
    primes the cache (cold, the first jobs) found."""
    results: dict[str, object] = {}
    modes = [("jN", [f"-j{jobs}"] if jobs else [])]
    if serial:
        modes.insert(0, ("j1", ["-j1"]))
    with tempfile.TemporaryDirectory(prefix="hg-bench-cache-") as cache:
        env = {**os.environ, "HIPIFY_GUARD_CACHE_DIR": cache}
        for label, job_args in modes:
            base = [tool, "check", "--exit-zero", "-q", *job_args, "--", *paths]
            results[f"cold_{label}"] = repeat([*base[:2], "--no-cache", *base[2:]], runs, env)
            if "findings" not in results:
                results["findings"] = findings_of([tool, "check", "--exit-zero", "--output-format", "json",
                                                   *job_args, "--", *paths], env)
            results[f"warm_{label}"] = repeat(base, runs, env)
        kept = os.stat(edited)
        try:
            results["edited_jN"] = repeat(base, runs, env, before=lambda: touch(edited))
        finally:
            os.utime(edited, ns=(kept.st_atime_ns, kept.st_mtime_ns))  # (its times as they were)
    return results


def touch(path: str) -> None:
    """An edit as a cache sees it, the bytes kept: the file's times set 30 s back (its ctime moves
    to now; 30 s: past the racy window, so the run may keep what it finds)."""
    when = time.time() - 30
    os.utime(path, (when, when))


def findings_of(command: list[str], env: dict[str, str]) -> dict[str, object]:
    """Per-rule counts and a digest of the findings (fixes included) of a JSON-reporting run."""
    completed = subprocess.run(command, capture_output=True, env=env, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])}... failed ({completed.returncode}): "
                         f"{completed.stderr.decode(errors='replace')[-2000:]}")
    findings = json.loads(completed.stdout)
    canonical = sorted(json.dumps(finding, sort_keys=True) for finding in findings)
    return {"total": len(findings), "per_rule": dict(sorted(Counter(f["code"] for f in findings).items())),
            "digest": hashlib.sha256("\n".join(canonical).encode()).hexdigest()}


def corpus_facts(paths: list[str]) -> dict[str, object]:
    """Files and bytes the tool checks under `paths`, and the file the edited runs touch (the middle one)."""
    files = [path for _, path in discover(paths)]
    return {"files": len(files), "bytes": sum(os.path.getsize(path) for path in files),
            "edited": files[len(files) // 2] if files else ""}


def bench_corpus(name: str, paths: list[str], tools: list[str], runs: int, jobs: int,
                 serial: bool) -> list[dict[str, object]]:
    """All measurements of one corpus: one entry per tool (`name [label]` when there are several)."""
    print(f"== {name}: {' '.join(paths)}", file=sys.stderr, flush=True)
    shared: dict[str, object] = {"paths": paths, **corpus_facts(paths)}
    shared["rg"] = repeat(rg_command(paths), runs)
    shared["py_floor"] = repeat(floor_command(paths), runs)
    entries = []
    for tool in tools:
        label = f"{name} [{tool_label(tool)}]" if len(tools) > 1 else name
        entries.append({"name": label, "corpus": name, "tool": tool, **shared,
                        **tool_runs(tool, paths, runs, jobs, serial, str(shared["edited"]))})
    return entries


def tool_label(tool: str) -> str:
    """A short name for a tool: its virtual environment's folder (`/tmp/after/bin/hipify-guard`: after)."""
    return Path(tool).parent.parent.name or tool


def across_tools(entries: list[dict[str, object]]) -> tuple[str, bool]:
    """Whether every tool found the same on each corpus as the first tool: (report, anything differed)."""
    lines, changed = [], False
    first: dict[str, dict[str, object]] = {}
    for entry in entries:
        corpus = entry["corpus"]
        if corpus not in first:
            first[corpus] = entry
            continue
        same = entry["findings"]["digest"] == first[corpus]["findings"]["digest"]
        changed = changed or not same
        lines.append(f"{entry['name']}: findings {'identical to' if same else 'DIFFERENT from'} "
                     f"{first[corpus]['name']} ({entry['findings']['total']}: "
                     + ", ".join(f"{code} {count}" for code, count in entry["findings"]["per_rule"].items()) + ")")
    return "\n".join(lines), changed


def generate_scaled(sources: list[str], copies: int, into: Path) -> list[str]:
    """Copies c00..c{copies-1} of the checked files of `sources` (made once, reused)."""
    into.mkdir(parents=True, exist_ok=True)
    made = []
    for copy in range(copies):
        folder = into / f"c{copy:02d}"
        if not (folder / ".complete").exists():
            _make_copy(sources, folder, copy)
        made.append(str(folder))
    return made


def _make_copy(sources: list[str], folder: Path, copy: int) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    for number, source in enumerate(sources):
        for _, path in discover([source]):
            target = folder / f"tree{number}_{copy:02d}" / os.path.relpath(path, source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(f"// bench copy {copy}\n".encode() + Path(path).read_bytes())
    (folder / ".complete").write_text("")


def table(entries: list[dict[str, object]]) -> str:
    """A Markdown table: medians in ms, ratios to rg, CPU ms, peak RSS."""
    columns = ("py_floor", "cold_jN", "cold_j1", "warm_jN", "warm_j1", "edited_jN")
    lines = ["| corpus | files | MB | rg -l ms (cpu) | " + " | ".join(f"{c} ms (x rg; cpu)" for c in columns)
             + " | peak RSS MB |", "|" + "---|" * (5 + len(columns))]
    for entry in entries:
        floor = entry["rg"]["median_s"]
        cells = [f"{entry[c]['median_s'] * 1000:.0f} ({entry[c]['median_s'] / floor:.2f}x; "
                 f"{entry[c]['median_cpu_s'] * 1000:.0f})" if c in entry else "-" for c in columns]
        peak = max(entry[c]["peak_rss_mb"] for c in columns[1:] if c in entry)
        lines.append(f"| {entry['name']} | {entry['files']} | {entry['bytes'] / 1e6:.1f} | {floor * 1000:.0f} "
                     f"({entry['rg']['median_cpu_s'] * 1000:.0f}) | "
                     + " | ".join(cells) + f" | {peak} |")
    return "\n".join(lines)


def compare(entries: list[dict[str, object]], previous: dict[str, object]) -> tuple[str, bool]:
    """What changed in the findings since a previous results file: (report, whether anything did)."""
    before = {entry["name"]: entry.get("findings") for entry in previous["corpora"]}
    lines, changed = [], False
    for entry in entries:
        old, new = before.get(entry["name"]), entry["findings"]
        if old is None:
            lines.append(f"{entry['name']}: not in the previous results")
            continue
        rules = sorted(set(old["per_rule"]) | set(new["per_rule"]))
        moved = [f"{code} {old['per_rule'].get(code, 0)} -> {new['per_rule'].get(code, 0)}" for code in rules
                 if old["per_rule"].get(code, 0) != new["per_rule"].get(code, 0)]
        if moved or old["digest"] != new["digest"]:
            changed = True
            lines.append(f"{entry['name']}: findings CHANGED ({old['total']} -> {new['total']}): "
                         + (", ".join(moved) or "same counts, different findings"))
        else:
            lines.append(f"{entry['name']}: findings identical ({new['total']}: "
                         + ", ".join(f"{code} {count}" for code, count in new["per_rule"].items()) + ")")
    return "\n".join(lines), changed


def growth(entries: list[dict[str, object]]) -> str:
    """How the scaled trees' cold runs grow with their size, relative to the 1x tree (per tool)."""
    lines = []
    for tool in dict.fromkeys(entry["tool"] for entry in entries):
        scaled = [entry for entry in entries if entry["corpus"].startswith("scaled") and entry["tool"] == tool]
        for entry in scaled[1:]:
            base = scaled[0]
            ratios = ", ".join(f"{c} {entry[c]['median_s'] / base[c]['median_s']:.2f}x"
                               for c in ("cold_jN", "warm_jN"))
            lines.append(f"{entry['name']} / {base['name']}: bytes {entry['bytes'] / base['bytes']:.2f}x, time {ratios}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scaled-runs", type=int, default=3, help="runs per command on the scaled trees (-jN only)")
    parser.add_argument("--scales", default="1,4,16")
    parser.add_argument("--corpora", default="cuda,torch,both,real,scaled")
    parser.add_argument("--tool", action="append", help="a hipify-guard executable (repeat to compare builds)")
    parser.add_argument("--jobs", type=int, default=0, help="the -j of the parallel runs (0: the default)")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument("--scaled-into", type=Path, default=HERE / "corpora" / "scaled",
                        help="where the scaled copies are made (once) and reused")
    parser.add_argument("--compare", type=Path, help="a previous results JSON: print what changed in the findings")
    options = parser.parse_args()
    tools = options.tool or [str(Path(sys.executable).with_name("hipify-guard"))]
    previous = json.loads(options.compare.read_text()) if options.compare else None
    wanted = options.corpora.split(",")
    torch = torch_include()
    trees = {"cuda": [str(CUDA_INCLUDE)], "torch": [str(torch)] if torch else []}
    trees["both"] = trees["cuda"] + trees["torch"]
    trees["real"] = [str(REAL)] if REAL.is_dir() else []
    if "real" in wanted and not trees["real"]:
        print(f"no {REAL}: lay it out with bench/real_trees.py (skipped)", file=sys.stderr)
    plan = [(name, trees[name]) for name in ("cuda", "torch", "both", "real") if name in wanted and trees[name]]
    if "scaled" in wanted:
        scales = [int(s) for s in options.scales.split(",")]
        copies = generate_scaled(trees["both"], max(scales), options.scaled_into)
        plan += [(f"scaled {s}x", copies[:s]) for s in scales]
    load_before = os.getloadavg()
    entries = [entry for name, paths in plan
               for entry in bench_corpus(name, paths, tools, options.scaled_runs if name.startswith("scaled") else options.runs,
                                         options.jobs, serial=not name.startswith("scaled"))]
    report = {"when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "load_before": load_before,
              "load_after": os.getloadavg(), "cpus": os.cpu_count(), "tools": tools,
              "rg_version": subprocess.run(["rg", "--version"], capture_output=True, text=True).stdout.split("\n")[0],
              "corpora": entries}
    options.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for target in (options.out / f"bench-{stamp}.json", options.out / "latest.json"):
        target.write_text(json.dumps(report, indent=2) + "\n")
    print(table(entries))
    print(growth(entries))
    print(f"\nload average before {load_before[0]:.2f}, after {report['load_after'][0]:.2f}; "
          f"JSON: {options.out / 'latest.json'}")
    between, differed = across_tools(entries)
    if between:
        print(f"\nfindings between the tools:\n{between}")
    if differed:
        sys.exit(1)
    if previous is not None:
        differences, changed = compare(entries, previous)
        print(f"\nfindings against {options.compare}:\n{differences}")
        sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
