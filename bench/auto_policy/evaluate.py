#!/usr/bin/env python3
"""Measure `--policy auto` against the maintainers' ROCm decisions of guards.tsv/branches.jsonl.

Usage:
    python bench/auto_policy/evaluate.py --set dev [--tool hipify-guard] [--mirror-root /work/.mirror]
        [--trees /tmp/hg24-trees] [--report FILE] [--only ID_SUBSTRING]

For each guard of the set:

1. **The project at the parent commit.** The parent's whole tree is taken out of the mirror
   (`git archive`, kept under --trees) with an empty `.git` folder at its root, so that the tool
   judges the file in its own project: the build files decide R, RV and the ROCm models, as in
   the real checkout. Nothing else is configured (no rocm-macro, no rocm-build-macros).
2. **The settings.** `policy = "auto"` and `min-rocm` = the newest ROCm release out by the
   commit's date: the maintainer wrote the commit for the ROCm they built with. The comparison
   window: the ROCm releases (X.Y.0) from that one up to the newest release the maintainer's
   chain names, if newer (rccl's `ROCM_VERSION >= 60100`, written before 6.1 shipped).
3. **The real tool.** `hipify-guard check --no-cache --unsafe-fixes --config CFG
   --output-format json FILE` gives the finding and fix message at the guard's line, then
   `--fix` rewrites the file (restored afterwards).
4. **What ROCm runs.** The fixed file's skeleton (mine.py: every directive, the chain's lines
   replaced by markers, the enclosing chains forced onto it) is preprocessed by gcc under the
   same ROCm model as the maintainer's side (mine.py `rocm_model`, plus the fix's own macro R
   defined), at each release of the window and for the device pass where the file names a
   device macro. The arms whose code survives are compared with the maintainer's
   (`rocm_arms_after` of branches.jsonl, parent arms only; `new` = code the commit added).
   The maintainer's arms at a release between the data's releases are those of the closest
   data release below it (the data holds every release the chain's constants name, so the
   arms are constant in between).
5. **Decidable.** A guard is decidable when, at every release of the window, the maintainer's
   parent arms are what ROCm runs with the guard taken or with it skipped (the two choices a
   fix of the guard has). Otherwise the maintainer wrote new ROCm code in place of every
   choice (or ported the guarded body), and no rewrite of this guard can give the maintainer's
   code: it is listed with that reason.

Agreement: at every release of the window (and pass), ROCm runs the same parent arms after the
tool's fix as after the maintainer's commit.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mine  # noqa: E402  (the miner's parser, skeletons and ROCm model: one model for both sides)

HERE = os.path.dirname(os.path.abspath(__file__))

# ROCm releases (X.Y.0) and their dates: the tags of ROCm/HIP (roc-1.0.0 .. rocm-6.2.0, tag dates
# in the mirror), ROCm/rocm-core (rocm-6.3.0 2024-12-03, rocm-6.4.0 2025-04-11), and the release
# pages of ROCm/rocminfo (rocm-7.0.1 2025-09-17, so 7.0.0 before it; rocm-7.1.0 2025-10-30;
# rocm-7.2.0 2026-01-21).
RELEASES = [
    ((1, 0, 0), "2016-04-25"), ((1, 1, 0), "2016-05-11"), ((1, 2, 0), "2016-08-14"), ((1, 3, 0), "2016-11-08"),
    ((1, 4, 0), "2016-12-21"), ((1, 5, 0), "2017-05-02"), ((1, 6, 0), "2017-06-30"), ((1, 7, 0), "2017-12-19"),
    ((1, 9, 0), "2018-10-05"), ((2, 0, 0), "2018-12-20"), ((2, 1, 0), "2019-02-04"), ((2, 2, 0), "2019-03-04"),
    ((2, 3, 0), "2019-04-12"), ((2, 4, 0), "2019-05-02"), ((2, 5, 0), "2019-06-03"), ((2, 6, 0), "2019-07-09"),
    ((2, 7, 0), "2019-08-07"), ((2, 8, 0), "2019-09-24"), ((2, 9, 0), "2019-10-04"), ((2, 10, 0), "2019-11-22"),
    ((3, 0, 0), "2019-12-17"), ((3, 1, 0), "2020-02-27"), ((3, 3, 0), "2020-04-01"), ((3, 5, 0), "2020-06-01"),
    ((3, 6, 0), "2020-07-09"), ((3, 7, 0), "2020-08-20"), ((3, 8, 0), "2020-09-18"), ((3, 9, 0), "2020-10-28"),
    ((3, 10, 0), "2020-11-26"), ((4, 0, 0), "2020-12-18"), ((4, 1, 0), "2021-03-23"), ((4, 2, 0), "2021-05-10"),
    ((4, 3, 0), "2021-08-02"), ((4, 5, 0), "2021-10-27"), ((5, 0, 0), "2022-02-10"), ((5, 1, 0), "2022-03-30"),
    ((5, 2, 0), "2022-06-28"), ((5, 3, 0), "2022-09-30"), ((5, 4, 0), "2022-11-30"), ((5, 5, 0), "2023-05-01"),
    ((5, 6, 0), "2023-06-28"), ((5, 7, 0), "2023-09-15"), ((6, 0, 0), "2023-12-15"), ((6, 1, 0), "2024-04-16"),
    ((6, 2, 0), "2024-08-02"), ((6, 3, 0), "2024-12-03"), ((6, 4, 0), "2025-04-11"), ((7, 0, 0), "2025-09-16"),
    ((7, 1, 0), "2025-10-30"), ((7, 2, 0), "2026-01-21"),
]


def parse_release(text: str) -> tuple[int, int, int]:
    parts = [int(x) for x in text.split(".")]
    return tuple((parts + [0, 0])[:3])  # type: ignore[return-value]


def window(date: str, named: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The releases the maintainer's decision is about (module doc, 2): from the newest release
    out by the commit's date to the newest release the maintainer's chain names."""
    day = datetime.date.fromisoformat(date[:10])
    released = [v for v, d in RELEASES if datetime.date.fromisoformat(d) <= day]
    floor = released[-1] if released else RELEASES[0][0]
    ceiling = max([floor, *named])
    return [v for v, _ in RELEASES if floor <= v <= ceiling] + [v for v in named if v not in dict(RELEASES) and v >= floor]


@dataclass
class Result:
    guard: dict
    releases: list = field(default_factory=list)
    tool_message: str = ""
    tool_code: str = ""
    tool_line: str = ""
    verdict: str = ""  # agree, disagree, undecidable, error
    reason: str = ""
    per_release: list = field(default_factory=list)  # (release, pass, maintainer, tool, choices)
    configured: str = ""  # the rocm-macro the evaluator had to configure


def arms_of(text: str) -> set[str]:
    return {part for part in text.split("+") if part not in ("new", "none", "")}


def maintainer_arms(after: dict[str, str], release, device: bool) -> str:
    keyed = []
    for key, value in after.items():
        name, _, rest = key.partition(" ")
        if (rest == "device") == device:
            keyed.append((parse_release(name), value))
    keyed.sort()
    below = [value for version, value in keyed if version <= release]
    return below[-1] if below else keyed[0][1]


class Trees:
    """The parent trees, taken out of the mirrors once."""

    def __init__(self, root: str, mirror_root: str) -> None:
        self.root, self.mirror_root = root, mirror_root

    def mirror(self, repo: str) -> str:
        return os.path.join(self.mirror_root, repo.replace("/", "+", 1), "repo")

    def tree(self, repo: str, commit: str) -> str:
        """The parent's sources and build files (what the tool reads; blobs a mirror lacks are
        left out), with an empty `.git` folder marking the work tree's root."""
        path = os.path.join(self.root, f"{repo.replace('/', '+')}@{commit[:12]}")
        if os.path.isdir(os.path.join(path, ".git")):
            return path
        shutil.rmtree(path, ignore_errors=True)
        git = ["git", "--git-dir", self.mirror(repo)]
        listing = subprocess.run(git + ["ls-tree", "-r", "-l", "--full-tree", commit], capture_output=True,
                                 check=True).stdout.decode("utf-8", errors="replace")
        wanted = []
        for entry in listing.splitlines():
            meta, _, name = entry.partition("\t")
            mode, kind, blob, size = meta.split()
            if kind == "blob" and mode != "120000" and size.isdigit() and int(size) < 4 << 20 and _kept(name):
                wanted.append((name, blob))
        batch = subprocess.run(git + ["cat-file", "--batch"], input="".join(f"{b}\n" for _, b in wanted).encode(),
                               capture_output=True, check=True).stdout
        at = 0
        for name, _blob in wanted:
            header_end = batch.index(b"\n", at)
            header = batch[at:header_end].split()
            if header[-1] == b"missing":
                at = header_end + 1
                continue
            size = int(header[2])
            target = os.path.join(path, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(batch[header_end + 1:header_end + 1 + size])
            at = header_end + 2 + size
        os.makedirs(os.path.join(path, ".git"))
        return path

    def blob(self, repo: str, commit: str, path: str) -> str:
        return subprocess.run(["git", "--git-dir", self.mirror(repo), "show", f"{commit}:{path}"],
                              capture_output=True, check=True).stdout.decode("utf-8", errors="replace")


_KEPT_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc",
                  ".cu", ".cuh", ".hip", ".py", ".cmake", ".in", ".txt", ".toml", ".cfg", ".ac", ".am", ".mk",
                  ".bzl", ".bazel")
_KEPT_NAMES = ("Makefile", "makefile", "GNUmakefile", "BUILD", "WORKSPACE", "meson.build", "configure")


def _kept(name: str) -> bool:
    """Sources, headers and build files: what the tool reads of a project."""
    base = name.rsplit("/", 1)[-1]
    return base.endswith(_KEPT_SUFFIXES) or base in _KEPT_NAMES or base.startswith("Makefile")


def run_tool(tool: str, config: str, tree: str, path: str) -> tuple[list[dict], str]:
    """The JSON report of the file, and the file's text after `--fix` (restored after)."""
    target = os.path.join(tree, path)
    with open(target, "rb") as f:
        original = f.read()
    base = [tool, "check", "--no-cache", "--unsafe-fixes", "--config", config, "--exit-zero"]
    report = subprocess.run(base + ["--output-format", "json", path], cwd=tree, capture_output=True)
    findings = json.loads(report.stdout or b"[]")
    try:
        subprocess.run(base + ["-q", "--fix", path], cwd=tree, capture_output=True)
        with open(target, "rb") as f:
            fixed = f.read()
    finally:
        with open(target, "wb") as f:
            f.write(original)
    return findings, fixed.decode("utf-8", errors="replace")


def chain_arms(pp: mine.Preprocessor, src: mine.Source, line: int, names: set[str], release, device: bool,
               forced_guard: str | None = None) -> str:
    """The arms of the chain of the directive at `line` whose code ROCm runs (mine.arms_before)."""
    guard = src.by_start[line]
    lo, hi = src.chain_range(guard.chain)
    forced = mine.forced_path(src, guard.chain)
    if forced_guard is not None:
        forced[guard.start] = forced_guard
    survivors, error = mine.surviving(pp, mine.skeleton(src, (lo, hi), forced), names, release, device)
    if error:
        raise RuntimeError(error)
    return mine.arms_before(src, guard, survivors)


def evaluate(guard: dict, row: dict, trees: Trees, tool: str, configs: str, pp: mine.Preprocessor) -> Result:
    result = Result(guard)
    after = guard["rocm_arms_after"]
    devices = sorted({" device" in key for key in after})
    named = sorted({parse_release(key.split()[0]) for key in after} - set(mine.CHAIN_RELEASES))
    releases = window(row["date"], named)
    result.releases = releases
    floor = releases[0]
    config = os.path.join(configs, f"min-rocm-{floor[0]}.{floor[1]}.toml")
    if not os.path.exists(config):
        with open(config, "w") as f:
            f.write(f'policy = "auto"\nmin-rocm = "{floor[0]}.{floor[1]}"\n')
    tree = trees.tree(guard["repo"], guard["parent"])
    findings, fixed = run_tool(tool, config, tree, guard["path"])
    line = guard["line"]
    at = [f for f in findings if f["location"]["row"] == line and f["code"].startswith("HG1")]
    wanted_macro = next((m for m in row["rocm_macro"].split(",") if mine.rocm_kind(m) == "platform"), "")
    if at and "set `rocm-macro`" in at[0]["message"] and wanted_macro:
        # No macro is certain from the build files: the project's configuration would name one.
        # The evaluator names the ROCm macro the maintainer's line tests (the project's own word).
        config = os.path.join(configs, f"min-rocm-{floor[0]}.{floor[1]}-{wanted_macro}.toml")
        with open(config, "w") as f:
            f.write(f'policy = "auto"\nmin-rocm = "{floor[0]}.{floor[1]}"\nrocm-macro = "{wanted_macro}"\n')
        result.configured = wanted_macro
        findings, fixed = run_tool(tool, config, tree, guard["path"])
        at = [f for f in findings if f["location"]["row"] == line and f["code"].startswith("HG1")]
    if at:
        result.tool_code = at[0]["code"]
        result.tool_message = (at[0].get("fix") or {}).get("message") or f"no fix: {at[0]['message']}"
    else:
        result.tool_message = "no finding at the guard"
    parent = mine.parse_source(trees.blob(guard["repo"], guard["parent"], guard["path"]))
    child = mine.parse_source(trees.blob(guard["repo"], guard["commit"], guard["new_path"]))
    fixed_src = mine.parse_source(fixed)
    if len(fixed_src.lines) != len(parent.lines) or line not in fixed_src.by_start:
        result.verdict, result.reason = "error", "the fix changed the file's lines"
        return result
    result.tool_line = fixed_src.by_start[line].text
    names = mine.region_names(parent, 1, len(parent.lines)) | mine.region_names(child, 1, len(child.lines))
    fix_names = mine.cond_names(fixed_src.by_start[line].cond) - mine.cond_names(parent.by_start[line].cond)
    tool_names = names | {name for name in fix_names if name not in mine.version_macros((1, 0, 0))}
    kind = parent.by_start[line].kind
    taken, skipped = ("#if 1", "#if 0") if kind.startswith("if") else ("#elif 1", "#elif 0")
    decidable = agree = True
    for release in releases:
        for device in devices:
            wanted = arms_of(maintainer_arms(after, release, device))
            rocm_tool = arms_of(chain_arms(pp, fixed_src, line, tool_names | set(_defined_r(fix_names)), release,
                                           device))
            choices = [arms_of(chain_arms(pp, parent, line, names, release, device, force))
                       for force in (taken, skipped)]
            result.per_release.append((release, device, wanted, rocm_tool, choices))
            decidable = decidable and wanted in choices
            agree = agree and wanted == rocm_tool
    if guard["rocm_reaches"] == "no":
        result.verdict = "undecidable"
        result.reason = ("ROCm does not reach the guard at the parent (an enclosing group excludes it): the decision "
                         "took effect with other changes of the same commit")
    elif not cuda_test_decides(pp, parent, line):
        result.verdict = "undecidable"
        result.reason = ("the CUDA version test does not decide the guard on ROCm at the parent (another test, such "
                         "as a CUDA build macro or __CUDA_ARCH__, does): not an implicit guard, no policy applies")
    elif not decidable:
        result.verdict = "undecidable"
        result.reason = ("the maintainer's ROCm runs code the commit added in place of every arm this guard "
                         "can choose (new ROCm code, or the guarded body ported in the same commit)")
    elif guard["id"] in BEYOND:
        result.verdict, result.reason = "undecidable", BEYOND[guard["id"]]
    else:
        result.verdict = "agree" if agree else "disagree"
    return result


_CUDA_HIGH = {"CUDA_VERSION": 99990, "CUDART_VERSION": 99990, "__CUDACC_VER_MAJOR__": 99, "__CUDACC_VER_MINOR__": 9,
              "__CUDACC_VER_BUILD__": 999}
_CUDA_LOW = {"CUDA_VERSION": 1000, "CUDART_VERSION": 1000, "__CUDACC_VER_MAJOR__": 1, "__CUDACC_VER_MINOR__": 0,
             "__CUDACC_VER_BUILD__": 0}


def cuda_test_decides(pp: mine.Preprocessor, parent: mine.Source, line: int) -> bool:
    """Whether some value of the CUDA version macros changes the guard's value under the ROCm
    model (mine.py's: platform macros defined, other identifiers swept), i.e. whether the guard
    is implicit on ROCm at all."""
    cond = parent.by_start[line].cond
    defs = mine.file_defines(parent, cond)
    _keys, configs, _free = mine.rocm_configs(cond, defs, set(), [(6, 2, 0)])
    values = []
    builds = {name: None for name in mine.cond_names(cond) if mine.CUDA_PLATFORM_RE.search(name)}  # one GPU backend a build
    for setting in (None, _CUDA_HIGH, _CUDA_LOW):
        chosen = [dict(config, **builds, **{k: (None if setting is None else setting[k]) for k in _CUDA_HIGH})
                  for config in configs]
        values.append(pp.truth_table(cond, chosen, defs))
    return values[0] != values[1] or values[0] != values[2]


def load_beyond(path: str) -> dict[str, str]:
    """Guards judged beyond a static tool by reading the commit, with the reason (undecidable.tsv;
    a data set without one has none)."""
    found: dict[str, str] = {}
    if not os.path.exists(path):
        return found
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.rstrip("\n").partition("\t")
                found[key] = reason
    return found


BEYOND: dict[str, str] = {}


def _defined_r(names: set[str]) -> set[str]:
    """The fix's own ROCm macro R joins the model's platform macros (it is defined in every ROCm
    build of the file, by the tool's evidence); its version macro is set per release already."""
    return {name for name in names if name not in mine.version_macros((1, 0, 0))}


def show_arms(arms: set[str]) -> str:
    return "+".join(sorted(arms)) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "heldout", "all"), default="dev")
    beside = os.path.join(os.path.dirname(sys.executable), "hipify-guard")  # (the venv's, when it is not on PATH)
    parser.add_argument("--tool", default=shutil.which("hipify-guard") or beside)
    parser.add_argument("--mirror-root", default="/work/.mirror")
    parser.add_argument("--trees", default="/tmp/hg24-trees")
    parser.add_argument("--data", default=HERE)
    parser.add_argument("--report", help="write the per-guard report (TSV) here")
    parser.add_argument("--only", help="only guards whose id contains this")
    parser.add_argument("-v", "--verbose", action="store_true", help="per-release arms of every guard")
    args = parser.parse_args(argv)
    BEYOND.update(load_beyond(os.path.join(args.data, "undecidable.tsv")))
    with open(os.path.join(args.data, "branches.jsonl"), encoding="utf-8") as f:
        guards = [json.loads(line) for line in f]
    with open(os.path.join(args.data, "guards.tsv"), encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    header = lines[0].rstrip("\n").split("\t")
    rows = {cells[0]: dict(zip(header, cells)) for cells in (line.rstrip("\n").split("\t") for line in lines[1:])}
    chosen = [g for g in guards if (args.set == "all" or g["split"] == args.set) and (not args.only or args.only in g["id"])]
    os.makedirs(args.trees, exist_ok=True)
    configs = os.path.join(args.trees, "configs")
    os.makedirs(configs, exist_ok=True)
    trees = Trees(args.trees, args.mirror_root)
    pp = mine.Preprocessor()
    results = []
    for guard in chosen:
        try:
            result = evaluate(guard, rows[guard["id"]], trees, args.tool, configs, pp)
        except (RuntimeError, subprocess.CalledProcessError, KeyError, json.JSONDecodeError) as error:
            result = Result(guard, verdict="error", reason=f"{type(error).__name__}: {error}")
        results.append(result)
        print(f"{result.verdict:11} {guard['id']}", file=sys.stderr)
    counts = Counter(r.verdict for r in results)
    decidable = counts["agree"] + counts["disagree"]
    print(f"set {args.set}: {len(results)} guards; decidable {decidable}; agree {counts['agree']}; "
          f"disagree {counts['disagree']}; undecidable {counts['undecidable']}; errors {counts['error']}"
          + (f"; agreement {counts['agree'] / decidable:.1%}" if decidable else ""))
    for result in results:
        if result.verdict == "agree" and not args.verbose:
            continue
        g = result.guard
        print(f"\n{result.verdict.upper()} {g['id']} (maintainer: {g['decision']}, {g['chain_decision']})")
        print(f"    old: {g['old_directive'][:150]}")
        print(f"    maintainer: {g['new_directive'][:150]}")
        print(f"    tool: {result.tool_line[:150]}")
        print(f"    {result.tool_code or '-'}: {result.tool_message[:400]}")
        if result.configured:
            print(f"    (configured rocm-macro = {result.configured}: the tool found none in the build files)")
        if result.reason:
            print(f"    reason: {result.reason}")
        for release, device, wanted, tool_arms, choices in result.per_release:
            if args.verbose or wanted != tool_arms:
                print(f"    ROCm {mine.fmt_version(release)}{' device' if device else ''}: maintainer "
                      f"{show_arms(wanted)}, tool {show_arms(tool_arms)} (choices: "
                      f"{show_arms(choices[0])} taken, {show_arms(choices[1])} skipped)")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("id\tsplit\tverdict\tmaintainer\ttool_line\ttool_message\treason\n")
            for r in results:
                f.write("\t".join([r.guard["id"], r.guard["split"], r.verdict, r.guard["decision"],
                                   r.tool_line, r.tool_message, r.reason]).replace("\n", " ") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
