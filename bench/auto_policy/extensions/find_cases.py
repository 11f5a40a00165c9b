#!/usr/bin/env python3
"""Find, in the real-trees corpus, every guard that decides ROCm next to a CUDA version test.

Usage:
    python bench/auto_policy/extensions/find_cases.py [--trees bench/corpora/real]
        [--list bench/real_trees.tsv] [--out bench/auto_policy/extensions] [--gcc gcc]

Standard library and gcc (as the C preprocessor) only; it does not import hipify_guard (the tool
measured) and reads nothing the tool wrote. Writes `cases.tsv` (the columns of
`../pytorch/cases.tsv`) and `find_cases.log` (counts, every skipped directive and why) to `--out`.

The rule, applied to every tree of `--list` laid out under `--trees` (`<owner>+<name>/`, ready
when its `.commit` names the listed commit), in list order, files in sorted path order:

1. Files: `.c .cc .cpp .cxx .h .hh .hpp .cu .cuh .inl`, `.git` folders left out. Skipped: the
   PyTorch trees themselves (pytorch/pytorch, ROCm/pytorch), and vendored copies of another
   listed project: a file under a folder named as that repository (compared lowercase without
   `-`, `_`, `.`) whose path below the folder is a file of that repository's tree too
   (whisper.cpp's `ggml/src/ggml-cuda/common.cuh`, ggml's `src/ggml-cuda/common.cuh`), reported
   per folder.
2. Directives: backslash continuations joined (the directive's `line` is its first physical line),
   then comments removed (`/* */` across lines, `//`; string and character literals respected),
   whitespace runs collapsed. Every `#if` and `#elif` whose condition names a CUDA version macro
   (`CUDA_VERSION CUDART_VERSION __CUDACC_VER_MAJOR__ __CUDACC_VER_MINOR__`) and a ROCm macro:
   `USE_ROCM ROCM_VERSION TORCH_HIP_VERSION HIP_VERSION HIP_VERSION_MAJOR HIP_VERSION_MINOR
   __HIP_PLATFORM_AMD__ __HIP_PLATFORM_HCC__ __HIPCC__ __HIP__`, or a project platform macro like
   `USE_ROCM` (`<...>_USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|PLATFORM_` then
   `HIP|ROCM|AMD|AMD_ROCM|HCC|HIPBLAS|HIP_DEVICE` ending the name: `GGML_USE_HIP`,
   `MAGMA_HAVE_HIP`, `USE_AMD_ROCM`, `MFEM_USE_HIP`; never a name with NVIDIA, NVCC, CUDA, MUSA or
   SYCL). HIP device macros (`__HIP_ARCH_*`, `__HIP_DEVICE_COMPILE__`, `__AMDGCN__`) and other
   HIP-like names are not ROCm macros here; directives naming only those are logged as near misses.
3. Separable: the condition, outer parentheses removed, is a top-level `||` or `&&` of operands
   (split at parenthesis depth 0, no top-level `?:`); the ROCm part is every operand naming a ROCm
   macro and no CUDA version macro; it must be non-empty, and the other operands (`A`, joined
   back with the same operator, in their order and text) must name a CUDA version macro and no ROCm
   macro. Anything else is counted and logged as not separable. The stripped directive is
   `#if A` (`#elif A`).
4. Decision: gcc -E on `#if <condition>` under a ROCm build, with the defines of snippets.py's
   `rocm_arms` (`USE_ROCM __HIP_PLATFORM_AMD__ __HIPCC__ __HIP__`, `ROCM_VERSION HIP_VERSION
   TORCH_HIP_VERSION HIP_VERSION_MAJOR/MINOR` of the release, no CUDA macro) plus `#define X 1`
   for each ROCm macro of the ROCm part that it does not define (project macros,
   `__HIP_PLATFORM_HCC__`; named in `note` as `rocm-defines=`, for snippets.py), at ROCm releases
   5.0 .. 5.7, 6.0 .. 6.4, 7.0, 7.1 plus any release in that window the condition's version
   constants name (`ROCM_VERSION >= 60500`: 6.5). Taken at every release: `include`; at none:
   `exclude`; from a release on: `rocm-min=X.Y`; otherwise (or gcc fails) the directive is logged
   and not used. For an `#elif` this is the decision of its own condition.

5. In scope (both logged when they fail): the stripped guard `A` must be a version test ROCm
   meets implicitly, true on some build where no CUDA platform macro (`__CUDA_ARCH__`, `__NVCC__`,
   `__CUDACC__`, a `<...>_HAVE_CUDA`-style switch) is defined, by the values of its other names
   (gcc over a grid: undefined, 1, 999999 and each constant of `A` and its neighbours, for the
   CUDA version macros, thresholds such as ggml's `CUDART_HMAX` and switches such as
   `GGML_USE_MUSA`); `defined(MAGMA_HAVE_CUDA) && CUDA_VERSION >= 11000` or
   `defined(__CUDA_ARCH__) && ...` is not (ROCm's exclusion was explicit before the maintainer
   added ROCm: a port, not a decision on an implicit guard). And ROCm must reach the guard: the
   conditionals around it (the arms that contain it, each earlier arm of their chains), under the
   ROCm build of rule 4 at 6.2, with every chain that names no ROCm macro taken to contain it
   (cupy's `#ifndef CUPY_USE_HIP` around `cupy_cub.cu`'s guards: no ROCm build compiles them).

Ids e001, e002 ... follow the order of finding. No code is copied but the directive lines.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import os
import re
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh", ".inl")
PYTORCH_TREES = {"pytorch/pytorch", "ROCm/pytorch"}
CUDA_MACROS = {"CUDA_VERSION", "CUDART_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__"}
ROCM_NAMED = {"USE_ROCM", "ROCM_VERSION", "TORCH_HIP_VERSION", "HIP_VERSION", "HIP_VERSION_MAJOR",
              "HIP_VERSION_MINOR", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__"}
ROCM_ARMS_DEFINES = {"USE_ROCM", "ROCM_VERSION", "TORCH_HIP_VERSION", "HIP_VERSION", "HIP_VERSION_MAJOR",
                     "HIP_VERSION_MINOR", "__HIP_PLATFORM_AMD__", "__HIPCC__", "__HIP__"}
PROJECT_PLATFORM = re.compile(r"(?:^|_)(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|PLATFORM)_"
                              r"(?:HIP|ROCM|AMD|AMD_ROCM|HCC|HIPBLAS|HIP_DEVICE)$")
NOT_ROCM = re.compile(r"NVIDIA|NVCC|CUDA|MUSA|SYCL")
HIP_LIKE = re.compile(r"HIP|ROCM|AMDGCN|AMDGPU|HCC")
RELEASES = [(5, m) for m in range(8)] + [(6, m) for m in range(5)] + [(7, 0), (7, 1)]
IDENT = re.compile(r"[A-Za-z_]\w*")
LITERALS = {'"': re.compile(r'"(?:\\.|[^"\\])*"'), "'": re.compile(r"'(?:\\.|[^'\\])'")}  # string, character
DIRECTIVE = re.compile(r"^\s*#\s*(if|elif)\b(.*)$", re.S)
CUDA_PLATFORM = re.compile(r"^__(?:CUDA_ARCH|NVCC|CUDACC|CUDACC_RTC)__$|"
                           r"(?:^|_)(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|PLATFORM)_CUDA\w*$")
CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.S)


def is_rocm(name: str) -> bool:
    """A ROCm macro of rule 2."""
    return name in ROCM_NAMED or (not NOT_ROCM.search(name) and bool(PROJECT_PLATFORM.search(name)))


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first physical line, text) of each logical line; comments removed (replaced by a space)."""
    physical = text.split("\n")
    spliced, number = [], 0
    while number < len(physical):
        first, line = number + 1, physical[number].rstrip("\r")
        while line.endswith("\\") and number + 1 < len(physical):
            number += 1
            line = line[:-1] + physical[number].rstrip("\r")
        spliced.append((first, line))
        number += 1
    result, in_comment = [], False
    for first, line in spliced:
        out, index = [], 0
        while index < len(line):
            if in_comment:
                end = line.find("*/", index)
                if end < 0:
                    index = len(line)
                    continue
                in_comment, index = False, end + 2
                out.append(" ")
                continue
            char = line[index]
            if line.startswith("//", index):
                break
            if line.startswith("/*", index):
                in_comment, index = True, index + 2
                continue
            literal = LITERALS[char].match(line, index) if char in LITERALS else None
            if literal:
                out.append(literal.group())
                index = literal.end()
                continue
            out.append(char)
            index += 1
        result.append((first, "".join(out)))
    return result


def unwrap(expr: str) -> str:
    """`expr` without parentheses enclosing all of it."""
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        depth = 0
        for index, char in enumerate(expr):
            depth += (char == "(") - (char == ")")
            if depth == 0 and index < len(expr) - 1:
                return expr
        expr = expr[1:-1].strip()
    return expr


def split_top(expr: str, op: str) -> list[str] | None:
    """The operands of `op` at parenthesis depth 0 (None: unbalanced or a top-level `?`)."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(expr):
        char = expr[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return None
        elif char == "?" and depth == 0:
            return None
        elif depth == 0 and expr.startswith(op, index):
            parts.append(expr[start:index].strip())
            index += len(op)
            start = index
            continue
        index += 1
    if depth:
        return None
    parts.append(expr[start:].strip())
    return parts


def separate(condition: str) -> tuple[str, list[str], list[str]] | str:
    """(operator, kept operands A, ROCm part) of rule 3, or why the condition is not separable."""
    expr = unwrap(condition)
    for op in ("||", "&&"):
        operands = split_top(expr, op)
        if operands is None:
            return "unbalanced parentheses or a top-level ?:"
        if len(operands) > 1:
            break
    else:
        return "not a top-level || or && (one operand)"
    if any(not operand for operand in operands):
        return "empty operand"
    names = [set(IDENT.findall(operand)) for operand in operands]
    rocm = [o for o, n in zip(operands, names) if any(map(is_rocm, n)) and not n & CUDA_MACROS]
    kept = [o for o, n in zip(operands, names) if not (any(map(is_rocm, n)) and not n & CUDA_MACROS)]
    if not rocm:
        return f"no {op} operand names ROCm without a CUDA version macro"
    kept_names = set().union(*(set(IDENT.findall(o)) for o in kept)) if kept else set()
    if not kept_names & CUDA_MACROS:
        return "the other operands name no CUDA version macro"
    if any(map(is_rocm, kept_names)):
        return "an operand names both a ROCm and a CUDA version macro"
    return op, kept, rocm


def releases_of(condition: str) -> list[tuple[int, int]]:
    """The window's releases plus those in it the condition's version constants name."""
    named = set()
    for macro, value in re.findall(r"\b(ROCM_VERSION|TORCH_HIP_VERSION|HIP_VERSION)\s*[<>=!]=?\s*(\d+)", condition):
        number = int(value)
        if macro == "ROCM_VERSION":
            named.add((number // 10000, number // 100 % 100))
        elif macro == "TORCH_HIP_VERSION":
            named.add((number // 100, number % 100))
        elif number >= 1_000_000:
            named.add((number // 10_000_000, number // 100_000 % 100))
    return sorted(set(RELEASES) | {r for r in named if RELEASES[0] <= r <= RELEASES[-1]})


def taken(condition: str, defines: list[str], release: tuple[int, int], gcc: str) -> bool:
    """Whether a ROCm build of `release` takes `#if condition` (snippets.py's rocm_arms defines)."""
    chain = "".join(f"#define {name} 1\n" for name in defines) + f"#if {condition}\nREACHED\n#endif\n"
    return taken_text(chain, release, gcc)


def taken_text(text: str, release: tuple[int, int], gcc: str) -> bool:
    """Whether `REACHED` survives gcc -E of `text` under a ROCm build of `release`."""
    major, minor = release
    flags = ["-DUSE_ROCM=1", "-D__HIP_PLATFORM_AMD__=1", "-D__HIPCC__=1", "-D__HIP__=1",
             f"-DROCM_VERSION={major * 10000 + minor * 100}", f"-DHIP_VERSION={major * 10_000_000 + minor * 100_000}",
             f"-DTORCH_HIP_VERSION={major * 100 + minor}", f"-DHIP_VERSION_MAJOR={major}", f"-DHIP_VERSION_MINOR={minor}"]
    done = subprocess.run([gcc, "-E", "-P", "-x", "c", *flags, "-"], input=text, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[0] if done.stderr.strip() else "gcc failed")
    return "REACHED" in done.stdout


def decide(condition: str, defines: list[str], gcc: str) -> str:
    """include, exclude, rocm-min=X.Y, or other (rule 4)."""
    releases = releases_of(condition)
    outcome = [taken(condition, defines, release, gcc) for release in releases]
    if all(outcome):
        return "include"
    if not any(outcome):
        return "exclude"
    first = outcome.index(True)
    if all(outcome[first:]):
        return f"rocm-min={releases[first][0]}.{releases[first][1]}"
    return "other: " + ",".join(f"{r[0]}.{r[1]}={int(t)}" for r, t in zip(releases, outcome))


def true_on_some_cuda_version(condition: str, gcc: str) -> bool:
    """Rule 5: whether `#if condition` holds on some build where no CUDA platform macro is defined
    (`__CUDA_ARCH__`, `__NVCC__`, `MAGMA_HAVE_CUDA`...), by the values of its other names: the
    CUDA version macros and thresholds such as ggml's `CUDART_HMAX`."""
    named = sorted(name for name in set(IDENT.findall(condition)) - {"defined"} if not CUDA_PLATFORM.search(name))
    values = [None, *sorted({1, 999999} | {int(c) + d for c in re.findall(r"\b\d+\b", condition)
                                           for d in (-1, 0, 1) if int(c) + d > 0})]  # None: undefined
    grid = itertools.product(values, repeat=len(named)) if len(values) ** len(named) <= 20000 else (
        (value,) * len(named) for value in values)  # (too many names: every name the same value)
    blocks = []
    for index, assignment in enumerate(grid):
        blocks.append("".join(f"#undef {name}\n" + (f"#define {name} {value}\n" if value is not None else "")
                              for name, value in zip(named, assignment)) + f"#if {condition}\nHIT_{index}\n#endif\n")
    done = subprocess.run([gcc, "-E", "-P", "-undef", "-x", "c", "-"], input="".join(blocks), capture_output=True, text=True)
    return "HIT_" in done.stdout


def reached_on_rocm(logical: list[tuple[int, str]], line: int, defines: list[str], gcc: str) -> bool:
    """Rule 5: whether a ROCm build reaches the directive at `line` through the conditionals around it."""
    chains: list[list[tuple[str, str]]] = []  # per open chain: its arms so far (keyword, condition)
    for number, text in logical:
        if number >= line:
            break
        match = CONDITIONAL.match(text)
        if not match:
            continue
        keyword, rest = match.group(1), " ".join(match.group(2).split())
        if keyword in ("if", "ifdef", "ifndef"):
            chains.append([(keyword, rest)])
        elif keyword in ("elif", "else") and chains:
            chains[-1].append((keyword, rest))
        elif keyword == "endif" and chains:
            chains.pop()
    skeleton = []
    for arms in chains:
        if not any(is_rocm(name) for _, condition in arms for name in IDENT.findall(condition)):
            skeleton.append("#if 1")
            continue
        for keyword, condition in arms:
            skeleton.append(f"#{keyword} {condition}" if keyword != "else" else "#else")
            skeleton.append("SKIPPED")
        skeleton.pop()
    text = "\n".join([*(f"#define {name} 1" for name in defines), *skeleton, "REACHED", *("#endif" for _ in chains)]) + "\n"
    return taken_text(text, (6, 2), gcc)


def squash(name: str) -> str:
    return re.sub(r"[-_.]", "", name.lower())


def copy_of(path: str, repo: str, names: dict[str, str], trees: str) -> tuple[str, str] | None:
    """(folder, repository) when `path` is under a folder named as another listed repository and
    its path below that folder is a file of that repository's tree (rule 1), else None."""
    parts = path.split(os.sep)
    for index, part in enumerate(parts[:-1]):
        other = names.get(squash(part))
        if other and other != repo:
            rest = os.path.join(trees, other.replace("/", "+"), *parts[index + 1:])
            if os.path.isfile(rest):
                return os.sep.join(parts[:index + 1]), other
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", default=os.path.join(ROOT, "bench", "corpora", "real"))
    parser.add_argument("--list", default=os.path.join(ROOT, "bench", "real_trees.tsv"))
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--gcc", default="gcc")
    args = parser.parse_args()
    with open(args.list, encoding="utf-8") as handle:
        listed = [tuple(line.split("\t")[:2]) for line in handle.read().splitlines() if line.strip() and not line.startswith("#")]
    names = {squash(repo.split("/")[1]): repo for repo, _ in listed}
    log, rows, counts = [], [], Counter()
    for repo, commit in listed:
        tree = os.path.join(args.trees, repo.replace("/", "+"))
        if repo in PYTORCH_TREES:
            log.append(f"skipped tree {repo}: a PyTorch tree")
            continue
        stamp = os.path.join(tree, ".commit")
        with open(stamp, encoding="utf-8") if os.path.exists(stamp) else open(os.devnull) as handle:
            ready = handle.read().strip() == commit
        if not ready:
            log.append(f"MISSING tree {repo} (no .commit for {commit})")
            counts["missing trees"] += 1
            continue
        vendored: Counter[tuple[str, str]] = Counter()
        for folder, dirs, files in os.walk(tree):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            relfolder = os.path.relpath(folder, tree)
            for name in sorted(files):
                if not name.endswith(EXTENSIONS) or os.path.islink(os.path.join(folder, name)):
                    continue
                path = os.path.normpath(os.path.join(relfolder, name))
                copy = copy_of(path, repo, names, args.trees)
                with open(os.path.join(folder, name), "rb") as handle:
                    text = handle.read().decode("utf-8", errors="replace")
                lines = logical_lines(text)
                for line, logical in lines:
                    match = DIRECTIVE.match(logical)
                    if not match:
                        continue
                    kind, condition = match.group(1), " ".join(match.group(2).split())
                    idents = set(IDENT.findall(condition))
                    if not idents & CUDA_MACROS:
                        continue
                    if not any(map(is_rocm, idents)):
                        if any(HIP_LIKE.search(n) and not NOT_ROCM.search(n) for n in idents):
                            counts["near miss (HIP-like name, not a ROCm macro of rule 2)"] += 1
                            log.append(f"near miss\t{repo}\t{path}:{line}\t#{kind} {condition}")
                        continue
                    directive = f"#{kind} {condition}"
                    where = f"{repo}\t{path}:{line}\t{directive}"
                    if copy:
                        vendored[copy] += 1
                        counts["vendored copy"] += 1
                        log.append(f"vendored copy of {copy[1]}\t{where}")
                        continue
                    parsed = separate(condition)
                    if isinstance(parsed, str):
                        counts["not separable"] += 1
                        log.append(f"not separable ({parsed})\t{where}")
                        continue
                    op, kept, rocm = parsed
                    defines = sorted({n for o in rocm for n in IDENT.findall(o) if is_rocm(n)} - ROCM_ARMS_DEFINES)
                    try:
                        decision = decide(condition, defines, args.gcc)
                    except RuntimeError as error:
                        decision = f"other: gcc: {error}"
                    if decision.startswith("other"):
                        counts["no single decision"] += 1
                        log.append(f"no single decision ({decision})\t{where}")
                        continue
                    stripped = f" {op} ".join(kept)
                    if not true_on_some_cuda_version(stripped, args.gcc):
                        counts["out of scope: the stripped guard is CUDA-only by a platform test"] += 1
                        log.append(f"out of scope (`{stripped}` holds on no build without a CUDA platform macro)\t{where}")
                        continue
                    if not reached_on_rocm(lines, line, defines, args.gcc):
                        counts["out of scope: no ROCm build reaches the guard"] += 1
                        log.append(f"out of scope (no ROCm build reaches it)\t{where}")
                        continue
                    counts["cases"] += 1
                    note = commit + (f"; rocm-defines={','.join(defines)}" if defines else "")
                    rows.append((f"e{len(rows) + 1:03d}", repo, path, str(line), directive,
                                 f"#{kind} {stripped}", decision, note))
        for (folder, copy), number in sorted(vendored.items()):
            log.append(f"skipped folder {repo}:{folder}/ (a copy of {copy}): {number} directives")
    with open(os.path.join(args.out, "cases.tsv"), "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
        writer.writerow(("id", "repo", "path", "line", "original_directive", "stripped_directive", "decision", "note"))
        writer.writerows(rows)
    summary = [f"{key}: {value}" for key, value in sorted(counts.items())]
    summary += [f"cases {repo}: {n}" for repo, n in Counter(row[1] for row in rows).most_common()]
    summary += [f"decision {d}: {n}" for d, n in sorted(Counter(row[6] for row in rows).items())]
    with open(os.path.join(args.out, "find_cases.log"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(summary + [""] + log) + "\n")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
