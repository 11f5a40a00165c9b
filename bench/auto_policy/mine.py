#!/usr/bin/env python3
"""Mine the ROCm decisions maintainers made on CUDA version guards, from git histories.

Standalone: the Python standard library, the git CLI and gcc (as an exact C preprocessor).
It does not import hipify_guard, so that the data it produces does not depend on the tool it
is meant to measure.

For each repository (a bare git directory, optionally `DIR@REF`), it walks the history of REF
(default HEAD, merges skipped) with `git log -G` for commits whose patch adds or removes a line
naming a CUDA version macro (CUDA_VERSION, CUDART_VERSION, __CUDACC_VER_MAJOR/MINOR/BUILD__,
or a project alias of them), or a preprocessor conditional naming a ROCm macro. In each such
(commit, file) it reads the file at the parent and at the commit, finds every conditional that
tests a CUDA version macro and no ROCm macro at the parent (a *guard*), and keeps the guard when
the commit

* rewrites it (form `rewrite`): a directive line of the guard is removed and, in the same change
  block of the diff, a conditional is added that names a CUDA version macro *and* a ROCm macro;
  the two are paired by similarity, one to one; or
* adds a ROCm arm before it or around it (form `arm`): the guard's condition is kept (same
  text, as #if or #elif) and, in the commit, a conditional naming a ROCm macro is added as an
  earlier arm of its chain or as an arm of an enclosing chain.

The decision on ROCm is computed with gcc's preprocessor (`gcc -E -P -undef -nostdinc -x c++`):

* `rewrite`: the new condition is evaluated under a ROCm model (every ROCm macro it names
  defined, CUDA macros undefined) for ROCm releases 1.0 .. 7.9 (version macros set
  consistently: ROCM_VERSION, HIP_VERSION (pre-4.3 and later encodings), HIP_VERSION_MAJOR/...,
  TORCH_HIP_VERSION), for the host and the device pass (__HIP_DEVICE_COMPILE__), and for every
  assignment (undefined / 1) of the identifiers the model does not know. Constant true:
  `include`; constant false: `exclude`; false then true from a release on: `rocm-min=X.Y`;
  anything else (depends on an unknown identifier or the pass, not monotone): `other`.
* `arm`: the same, for "ROCm runs the guard's code" at the commit: it reaches the guard's arm in a
  skeleton of the file, or the ROCm arm the commit added has the guard's code (see below).

Then the whole chain: a skeleton of each file (every directive kept except #include, #error,
#warning, #pragma, #line; every other line of the chain's region replaced by a marker of its
line number; the chains enclosing the region forced onto it, except those the commit added with
a ROCm macro) is preprocessed under the ROCm model; the arms whose markers survive are the arms
ROCm takes. After the commit, surviving lines are mapped back to the parent's arms through the
diff (and the rewritten directive to the guard it replaces); surviving lines that the commit
added count as `new`.

Output: guards.tsv (one row per guard), branches.jsonl (the parent's chain: each arm's directive
and body, and the arms ROCm takes before/after per ROCm release), mine.log (counts and skipped
cases). See README.md next to this file.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

EXTENSIONS = ("c", "cc", "cpp", "cxx", "h", "hh", "hpp", "cu", "cuh", "hip", "inl")
PATHSPECS = [f"*.{e}" for e in EXTENSIONS]

CUDA_VERSION_MACROS = (
    "CUDA_VERSION",
    "CUDART_VERSION",
    "__CUDACC_VER_MAJOR__",
    "__CUDACC_VER_MINOR__",
    "__CUDACC_VER_BUILD__",
)
# Names a ROCm build never defines (native HIP): CUDA toolkit and nvcc macros.
CUDA_ONLY_RE = re.compile(
    r"^(?:__CUDA\w*|CUDA_\w+|CUDART_\w+|__CUDACC\w*|__NVCC\w*|__NVCOMPILER\w*|CUBLAS_\w+|"
    r"CUSPARSE_\w+|CUSOLVER_\w+|CUFFT_\w+|CURAND_\w+|CUDNN_\w+|__CUDNN\w*|NVTX_\w+|"
    r"CUTLASS_\w+|CUB_\w+|THRUST_\w+|__HIP_PLATFORM_NVIDIA__|__HIP_PLATFORM_NVCC__)$"
)
# ROCm macros, by what a ROCm build does with them (rocm_kind):
#   platform: defined in every ROCm build, host and device pass
#   version:  a ROCm/HIP version (swept over releases)
#   device:   defined in the device pass only
#   option:   a ROCm-only build option, defined in some ROCm builds only (free in the model)
ROCM_PLATFORM = {
    "USE_ROCM",
    "__HIP_PLATFORM_AMD__",
    "__HIP_PLATFORM_HCC__",
    "__HIPCC__",
    "__HIP__",
    "__HCC__",
    "__HIP_ROCclr__",
    "QMC_CUDA2HIP",  # QMCPACK: set when its CUDA sources are built through HIP
}
VERSION_MACROS = {
    "HIP_VERSION",
    "HIP_VERSION_MAJOR",
    "HIP_VERSION_MINOR",
    "HIP_VERSION_PATCH",
    "ROCM_VERSION",
    "ROCM_VERSION_MAJOR",
    "ROCM_VERSION_MINOR",
    "ROCM_VERSION_PATCH",
    "TORCH_HIP_VERSION",
}
ROCM_DEVICE_RE = re.compile(r"^(?:__HIP_DEVICE_COMPILE__|__HIP_ARCH_\w+|__AMDGCN__|__AMDGPU__|"
                            r"__AMDGCN_WAVEFRONT_SIZE\w*|__HCC_ACCELERATOR__)$")
# A project macro for the ROCm platform: a HIP/ROCM/AMD/HCC word right after USE/HAVE/ENABLE/
# USING/WITH/BUILD/COMPILING (or TARGET/PLATFORM), ending the name (GGML_USE_HIP, MAGMA_HAVE_HIP,
# USE_AMD_ROCM, KOKKOS_ENABLE_HIP, GKO_COMPILING_HIP, HYPRE_USING_HIP, MFEM_USE_HIP,
# RAJA_ENABLE_HIP, CUPY_USE_HIP, BUILD_HIP, GGML_USE_HIPBLAS, QUDA_TARGET_HIP,
# flashinfer's PLATFORM_HIP_DEVICE).
PROJECT_PLATFORM_RE = re.compile(
    r"(?:^|_)(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|PLATFORM)_(?:HIP|ROCM|AMD|"
    r"AMD_ROCM|HCC|HIPBLAS|HIP_PLATFORM_AMD|HIP_DEVICE)$"
)
# A ROCm-only option: the same words with more after them (KOKKOS_ENABLE_HIP_RELOCATABLE_...),
# a project prefix before HIP/ROCM and a feature after (GGML_HIP_GRAPHS), an AMD GPU target.
PROJECT_OPTION_RE = re.compile(
    r"(?:^|_)(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING)_(?:HIP|ROCM|AMD|HCC)\w*$"
    r"|^[A-Z][A-Z0-9]*_(?:HIP|ROCM)_[A-Z0-9_]+$|^__gfx\w+__$|^__HIP\w*__$"
)
NOT_ROCM_RE = re.compile(r"NVIDIA|NVCC|CUDA|MUSA|SYCL")
# A project macro for the CUDA platform (defined in every CUDA build: MAGMA_HAVE_CUDA, ...)
CUDA_PLATFORM_RE = re.compile(r"(?:^|_)(?:USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING)_CUDA$")


# gcc may not know these in #if; leave them alone (never "free identifiers").
KEYWORDS = {"defined", "true", "false", "__has_include", "__has_include_next", "__has_builtin",
            "__has_attribute", "__has_cpp_attribute", "__has_feature", "__has_extension"}

ROCM_RELEASES = [(M, m, 0) for M in range(1, 8) for m in range(10)]  # 1.0 .. 7.9
CHAIN_RELEASES = [(4, 0, 0), (5, 0, 0), (6, 0, 0), (6, 2, 0), (7, 0, 0)]
CURRENT_ROCM = (6, 2, 0)

DIRECTIVE_RE = re.compile(r"#\s*([A-Za-z_]\w*)?\s*(.*)", re.S)
IDENT_RE = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
NUMBER_RE = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b")
BODY_LIMIT = 200
ARM_KINDS = ("if", "ifdef", "ifndef", "elif", "else", "elifdef", "elifndef")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- names


def rocm_kind(name: str) -> str | None:
    """platform, version, device, option (see above), or None: not a ROCm macro."""
    if name in ROCM_PLATFORM:
        return "platform"
    if name in VERSION_MACROS:
        return "version"
    if ROCM_DEVICE_RE.match(name):
        return "device"
    if NOT_ROCM_RE.search(name):
        return None
    if PROJECT_PLATFORM_RE.search(name):
        return "platform"
    if PROJECT_OPTION_RE.search(name):
        return "option"
    return None


def is_rocm_macro(name: str) -> bool:
    return rocm_kind(name) is not None


def identifiers(cond: str) -> list[str]:
    # Drop character and string literals (in __has_include("x.h")) before reading names.
    text = re.sub(r'"[^"]*"|<[^<>]*\.[hH]\w*>', " ", cond)
    return IDENT_RE.findall(text)


def cond_names(cond: str) -> set[str]:
    return set(identifiers(cond))


# --------------------------------------------------------------------------- git


def git(gitdir: str, *args: str, check=True) -> str:
    proc = subprocess.run(
        ["git", "--git-dir", gitdir, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:3])}...: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", errors="replace")


class Blobs:
    """`git cat-file --batch`, one process per repository."""

    def __init__(self, gitdir: str):
        self.proc = subprocess.Popen(
            ["git", "--git-dir", gitdir, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def get(self, rev: str, path: str) -> str | None:
        self.proc.stdin.write(f"{rev}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().decode()
        if header.endswith("missing\n") or " " not in header:
            return None
        size = int(header.split()[2])
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)
        return data.decode("utf-8", errors="replace")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# --------------------------------------------------------------------------- directives


@dataclass
class Directive:
    start: int  # 1-based first physical line
    end: int  # last physical line (continuations)
    kind: str  # if, ifdef, ifndef, elif, else, endif, define, include, ...
    text: str  # the logical line, comments stripped, whitespace collapsed
    cond: str = ""  # the condition of if/elif (ifdef X -> defined(X), ifndef X -> !defined(X))
    chain: int = -1  # chain id for if/elif/else/endif
    arm: int = -1  # arm index in the chain (endif: number of arms)
    parent: tuple[int, int] | None = None  # (chain, arm) enclosing this directive


@dataclass
class Chain:
    id: int
    arms: list[Directive] = field(default_factory=list)
    endif: Directive | None = None
    parent: tuple[int, int] | None = None


@dataclass
class Source:
    lines: list[str]
    directives: list[Directive]
    by_start: dict[int, Directive]
    line_directive: dict[int, Directive]  # every physical line of a directive
    chains: list[Chain]
    balanced: bool
    code: dict[int, str]  # line -> code outside comments, for non-directive lines that have some
    defines: dict | None = None

    def arm_range(self, chain: int, arm: int) -> tuple[int, int]:
        """Body lines (first, last) of an arm, inclusive; may be empty (first > last)."""
        c = self.chains[chain]
        d = c.arms[arm]
        nxt = c.arms[arm + 1] if arm + 1 < len(c.arms) else c.endif
        return d.end + 1, (nxt.start - 1 if nxt else len(self.lines))

    def chain_range(self, chain: int) -> tuple[int, int]:
        c = self.chains[chain]
        return c.arms[0].start, (c.endif.end if c.endif else len(self.lines))

    def ancestors(self, chain: int) -> list[tuple[int, int]]:
        out = []
        p = self.chains[chain].parent
        while p is not None:
            out.append(p)
            p = self.chains[p[0]].parent
        return out

    def owner(self, line: int, chain: int) -> int | None:
        """The arm of `chain` whose directive or body holds `line`."""
        c = self.chains[chain]
        for i, d in enumerate(c.arms):
            lo = d.start
            hi = self.arm_range(chain, i)[1]
            if lo <= line <= hi:
                return i
        return None


def strip_comments(text: str, in_comment: bool) -> tuple[str, bool]:
    """Remove comments from one line (or logical line); return the rest and whether a block
    comment is still open at its end. String and character literals are kept."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        if in_comment:
            j = text.find("*/", i)
            if j < 0:
                return "".join(out), True
            i = j + 2
            in_comment = False
            out.append(" ")
            continue
        ch = text[i]
        if ch == "/" and i + 1 < n and text[i + 1] == "*":
            in_comment = True
            i += 2
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "/":
            break
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), in_comment


def parse_source(text: str) -> Source:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [l.rstrip("\r") for l in lines]
    directives: list[Directive] = []
    code_text: dict[int, str] = {}  # line -> its code without comments (lines with code only)
    in_comment = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if not in_comment and line.lstrip().startswith("#"):
            start = i
            parts = [line]
            # a backslash ends the line, maybe before spaces (gcc: "backslash and newline
            # separated by space" continues the line too)
            while parts[-1].rstrip().endswith("\\") and i + 1 < n:
                parts[-1] = parts[-1].rstrip()[:-1]
                i += 1
                parts.append(lines[i])
            logical = " ".join(parts)
            stripped, in_comment = strip_comments(logical, False)
            m = DIRECTIVE_RE.match(stripped.strip())
            kind = (m.group(1) or "") if m else ""
            rest = " ".join(m.group(2).split()) if m else ""
            d = Directive(start + 1, i + 1, kind, " ".join(stripped.split()))
            if kind in ("if", "elif"):
                d.cond = rest
            elif kind in ("ifdef", "elifdef"):
                d.cond = f"defined({rest.split()[0] if rest else ''})"
            elif kind in ("ifndef", "elifndef"):
                d.cond = f"!defined({rest.split()[0] if rest else ''})"
            directives.append(d)
        else:
            code, in_comment = strip_comments(line, in_comment)
            code = " ".join(code.split())
            if code:
                code_text[i + 1] = code
        i += 1

    chains: list[Chain] = []
    stack: list[Chain] = []
    balanced = True
    for d in directives:
        k = d.kind
        if k in ("if", "ifdef", "ifndef"):
            c = Chain(len(chains), parent=(stack[-1].id, len(stack[-1].arms) - 1) if stack else None)
            chains.append(c)
            stack.append(c)
            d.chain, d.arm, d.parent = c.id, 0, c.parent
            c.arms.append(d)
        elif k in ("elif", "else", "elifdef", "elifndef"):
            if not stack:
                balanced = False
                continue
            c = stack[-1]
            d.chain, d.arm, d.parent = c.id, len(c.arms), c.parent
            c.arms.append(d)
        elif k == "endif":
            if not stack:
                balanced = False
                continue
            c = stack.pop()
            d.chain, d.arm, d.parent = c.id, len(c.arms), c.parent
            c.endif = d
        else:
            if stack:
                d.parent = (stack[-1].id, len(stack[-1].arms) - 1)
    if stack:
        balanced = False
    for d in directives:  # a #define, #include... is code of the branch that holds it
        if d.kind not in ARM_KINDS and d.kind != "endif" and d.text:
            code_text[d.start] = d.text
    by_start = {d.start: d for d in directives}
    line_directive = {}
    for d in directives:
        for l in range(d.start, d.end + 1):
            line_directive[l] = d
    return Source(lines, directives, by_start, line_directive, chains, balanced, code_text)


# --------------------------------------------------------------------------- diff


@dataclass
class FileDiff:
    old_path: str
    new_path: str
    removed: set[int] = field(default_factory=set)
    added: set[int] = field(default_factory=set)
    # change blocks: (removed old lines, added new lines) of one contiguous run of -/+ lines
    blocks: list[tuple[list[int], list[int]]] = field(default_factory=list)
    hunks: list[tuple[int, int, int, int]] = field(default_factory=list)

    def block_of_old(self, line: int) -> int | None:
        for i, (old, _new) in enumerate(self.blocks):
            if line in old:
                return i
        return None

    def old_to_new(self, line: int) -> int | None:
        """The line at the commit of an unchanged parent line (None if removed)."""
        if line in self.removed:
            return None
        if line in self.ctx_old:
            return self.ctx_old[line]
        delta = 0
        for os_, ol, ns, nl in self.hunks:
            old_first = os_ if ol else os_ + 1
            new_first = ns if nl else ns + 1
            if line < old_first:
                break
            delta = (new_first + nl) - (old_first + ol)
        return line + delta

    def new_to_old(self, line: int) -> int | None:
        """The parent line of an unchanged line at the commit (None if added)."""
        if line in self.added:
            return None
        if line in self.ctx_new:
            return self.ctx_new[line]
        delta = 0
        for os_, ol, ns, nl in self.hunks:
            old_first = os_ if ol else os_ + 1
            new_first = ns if nl else ns + 1
            if line < new_first:
                break
            delta = (old_first + ol) - (new_first + nl)
        return line + delta


def parse_hunks(patch_lines: list[str], fd: FileDiff) -> None:
    fd.ctx_old = {}
    fd.ctx_new = {}
    i = 0
    n = len(patch_lines)
    while i < n:
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", patch_lines[i])
        if not m:
            i += 1
            continue
        os_, ol = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        ns, nl = int(m.group(3)), int(m.group(4) if m.group(4) is not None else 1)
        fd.hunks.append((os_, ol, ns, nl))
        o, nw = (os_ if ol else os_ + 1), (ns if nl else ns + 1)
        i += 1
        cur_old: list[int] = []
        cur_new: list[int] = []

        def flush():
            if cur_old or cur_new:
                fd.blocks.append((list(cur_old), list(cur_new)))
                cur_old.clear()
                cur_new.clear()

        while i < n and not patch_lines[i].startswith("@@"):
            pl = patch_lines[i]
            tag = pl[:1]
            if tag == " " or pl == "":
                flush()
                fd.ctx_old[o] = nw
                fd.ctx_new[nw] = o
                o += 1
                nw += 1
            elif tag == "-":
                fd.removed.add(o)
                cur_old.append(o)
                o += 1
            elif tag == "+":
                fd.added.add(nw)
                cur_new.append(nw)
                nw += 1
            elif tag == "\\":
                pass
            else:
                break
            i += 1
        flush()


def unquote_path(p: str) -> str:
    if p.startswith('"') and p.endswith('"'):
        return p[1:-1].encode("latin-1", errors="replace").decode("unicode_escape").encode(
            "latin-1", errors="replace").decode("utf-8", errors="replace")
    return p


@dataclass
class Commit:
    sha: str
    parents: list[str]
    date: str
    subject: str
    files: list[FileDiff]


LOG_CACHE: str | None = None


DIFF_OPTIONS = ["--no-color", "--no-ext-diff", "--no-textconv", "-M", "--unified=3", "-p"]
FORMAT = "--format=%x00commit %H %P%x00%aI%x00%s"
SKIPPED_COMMITS: list[str] = []


def log_commits(gitdir: str, ref: str, regex: str) -> list[Commit]:
    """Commits of `ref` (no merges) whose patch adds/removes a line matching `regex`, with the
    patches of the matching C/C++/CUDA/HIP files."""
    key = hashlib.sha256(f"{os.path.abspath(gitdir)}\0{ref}\0{regex}".encode()).hexdigest()[:24]
    cached = os.path.join(LOG_CACHE, key + ".log") if LOG_CACHE else None
    if cached and os.path.exists(cached):
        with open(cached, encoding="utf-8") as f:
            out = f.read()
        if os.path.exists(cached + ".skipped"):
            with open(cached + ".skipped", encoding="utf-8") as f:
                SKIPPED_COMMITS.extend(f.read().split("\n")[:-1])
        return parse_log(out)
    skipped_before = len(SKIPPED_COMMITS)
    proc = subprocess.run(
        ["git", "--git-dir", gitdir, "-c", "core.quotePath=false", "log", ref, "--no-merges",
         *DIFF_OPTIONS, "-G", regex, FORMAT, "--", *PATHSPECS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out = proc.stdout.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip()
        if "unable to read" not in err:
            raise RuntimeError(f"git log failed: {err[:200]}")
        out = log_around_missing_blobs(gitdir, ref, regex)
    if cached:
        os.makedirs(LOG_CACHE, exist_ok=True)
        if len(SKIPPED_COMMITS) > skipped_before:
            with open(cached + ".skipped", "w", encoding="utf-8") as f:
                f.write("".join(c + "\n" for c in SKIPPED_COMMITS[skipped_before:]))
        with open(cached + ".tmp", "w", encoding="utf-8") as f:
            f.write(out)
        os.replace(cached + ".tmp", cached)
    return parse_log(out)


def log_around_missing_blobs(gitdir: str, ref: str, regex: str) -> str:
    """The same as `git log -G` for a mirror some of whose blobs are absent (git log stops at
    the first): `git diff-tree --stdin --always` over the commit list, restarted after each
    commit it cannot read (listed in mine.log)."""
    shas = git(gitdir, "rev-list", "--no-merges", ref, "--", *PATHSPECS).split()
    outputs = []

    def diff_tree(commits):
        proc = subprocess.run(
            ["git", "--git-dir", gitdir, "-c", "core.quotePath=false", "diff-tree", "--stdin",
             "--always", *DIFF_OPTIONS, "-G", regex, FORMAT, "--", *PATHSPECS],
            input=("\n".join(commits) + "\n").encode(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        return proc.returncode, proc.stdout.decode("utf-8", errors="replace")

    while shas:
        rc, out = diff_tree(shas)
        if rc == 0:
            outputs.append(out)
            break
        # every commit read prints its header (--always); the one that failed is the last
        # header printed (cut short) or the commit after it: read the last one alone to know
        done = re.findall(r"\x00commit ([0-9a-f]{40})", out)
        if not done:
            failing = 0
        else:
            last = shas.index(done[-1])
            outputs.append(out[: out.rfind("\x00commit ")])
            rc1, out1 = diff_tree([shas[last]])
            if rc1 == 0:
                outputs.append(out1)
                failing = last + 1
            else:
                failing = last
        if failing < len(shas):
            SKIPPED_COMMITS.append(f"{repo_name(gitdir)} {shas[failing]}")
        shas = shas[failing + 1 :]
    return "".join(outputs)


def parse_log(out: str) -> list[Commit]:
    commits: list[Commit] = []
    for chunk in out.split("\x00commit ")[1:]:
        if chunk.count("\x00") < 2:
            continue  # cut short (never in a complete log)
        head, date, rest = chunk.split("\x00", 2)
        subject, _, patch = rest.partition("\n")
        ids = head.split()
        c = Commit(ids[0], ids[1:], date, subject, [])
        for part in re.split(r"^diff --git ", patch, flags=re.M)[1:]:
            plines = part.split("\n")
            old_path = new_path = None
            body_start = None
            for j, pl in enumerate(plines[:12]):
                if pl.startswith("--- "):
                    old_path = pl[4:]
                elif pl.startswith("+++ "):
                    new_path = pl[4:]
                    body_start = j + 1
                    break
            if body_start is None or old_path is None or new_path is None:
                continue  # binary, pure rename or mode change
            old_path, new_path = unquote_path(old_path), unquote_path(new_path)
            if old_path == "/dev/null" or new_path == "/dev/null":
                continue  # file added or deleted: nothing to pair
            fd = FileDiff(old_path[2:], new_path[2:])
            parse_hunks(plines[body_start:], fd)
            c.files.append(fd)
        if c.files and c.parents:
            commits.append(c)
    return commits


# --------------------------------------------------------------------------- evaluation


def version_macros(v: tuple[int, int, int]) -> dict[str, int]:
    M, m, p = v
    return {
        "ROCM_VERSION": M * 10000 + m * 100 + min(p, 99),
        "ROCM_VERSION_MAJOR": M,
        "ROCM_VERSION_MINOR": m,
        "ROCM_VERSION_PATCH": min(p, 99),
        "HIP_VERSION": (M * 10000000 + m * 100000 + p) if (M, m) >= (4, 3) else M * 100 + m,
        "HIP_VERSION_MAJOR": M,
        "HIP_VERSION_MINOR": m,
        "HIP_VERSION_PATCH": p,
        "TORCH_HIP_VERSION": M * 100 + m,
    }


def versions_from_constants(cond: str) -> set[tuple[int, int, int]]:
    """ROCm releases a condition's constants name (so that a threshold is found exactly)."""
    out = set()
    names = cond_names(cond)
    for tok in NUMBER_RE.findall(cond):
        c = int(tok, 0)
        if "ROCM_VERSION" in names and 10000 <= c < 1000000:
            out.add((c // 10000, c // 100 % 100, c % 100))
        if "HIP_VERSION" in names:
            if c >= 10000000:
                out.add((c // 10000000, c // 100000 % 100, c % 100000))
            elif 100 <= c < 1000:
                out.add((c // 100, c % 100, 0))
        if "TORCH_HIP_VERSION" in names and 100 <= c < 1000:
            out.add((c // 100, c % 100, 0))
    return {v for v in out if 1 <= v[0] <= 9 and v[1] < 100}


def fmt_version(v: tuple[int, int, int], exact_patch: bool = False) -> str:
    """X.Y, or X.Y.Z for a ROCm patch release (Z < 100; a larger Z is a HIP build number, which
    every ROCm X.Y release has passed)."""
    M, m, p = v
    return f"{M}.{m}" + (f".{p}" if p and exact_patch and p < 100 else "")


class Preprocessor:
    """Runs gcc's preprocessor on generated text; counts its calls."""

    def __init__(self, gcc: str = "gcc"):
        self.gcc = gcc
        self.calls = 0

    def run(self, text: str) -> tuple[str, str, int]:
        self.calls += 1
        proc = subprocess.run(
            [self.gcc, "-E", "-P", "-undef", "-nostdinc", "-x", "c++", "-w", "-"],
            input=text.encode(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        return (proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"),
                proc.returncode)

    def truth_table(self, cond: str, configs: list[dict[str, int | None]],
                    defs: dict[str, str] | None = None):
        """Value (True/False, None for an error) of `#if cond` under each configuration, with
        the file's own object-like macros `defs` defined once before."""
        names = sorted({k for c in configs for k in c} - set(defs or ()))
        lines: list[str] = [f"#define {k} {v}" for k, v in sorted((defs or {}).items())]
        if_line: dict[int, int] = {}
        for i, c in enumerate(configs):
            for k in names:
                lines.append(f"#undef {k}")
                v = c.get(k)
                if v is not None:
                    lines.append(f"#define {k} {v}")
            lines.append(f"#if {cond}")
            if_line[len(lines)] = i
            lines += [f"@@ {i} 1", "#else", f"@@ {i} 0", "#endif"]
        out, err, _ = self.run("\n".join(lines) + "\n")
        values: list[bool | None] = [None] * len(configs)
        for m in re.finditer(r"@@ (\d+) ([01])", out):
            values[int(m.group(1))] = m.group(2) == "1"
        for m in re.finditer(r"<stdin>:(\d+):\d+: error", err):
            i = if_line.get(int(m.group(1)))
            if i is not None:
                values[i] = None
        return values


# Platforms other than ROCm: their macros are undefined in a ROCm build.
OTHER_PLATFORM_RE = re.compile(r"MUSA|SYCL|__HIP_PLATFORM_NV")


def off_on_rocm(name: str, aliases: set[str]) -> bool:
    return (name in CUDA_VERSION_MACROS or name in aliases or bool(CUDA_ONLY_RE.match(name))
            or bool(OTHER_PLATFORM_RE.search(name)))


def file_defines(src: Source, cond: str) -> dict[str, str]:
    """Object-like macros that `cond` uses (transitively) and that the file #defines with one
    body only (not CUDA version or ROCm macros): name -> body."""
    if src.defines is None:
        bodies: dict[str, set] = defaultdict(set)
        for d in src.directives:
            if d.kind in ("define", "undef"):
                m = re.match(r"#\s*(?:define|undef)\s+([A-Za-z_]\w*)(\()?\s*(.*)", d.text)
                if not m:
                    continue
                bodies[m.group(1)].add(None if (d.kind == "undef" or m.group(2)) else m.group(3))
        src.defines = bodies
    out: dict[str, str] = {}
    todo = list(cond_names(cond))
    while todo:
        n = todo.pop()
        if n in out or n in CUDA_VERSION_MACROS or is_rocm_macro(n) or n in KEYWORDS:
            continue
        b = src.defines.get(n)
        if b and len(b) == 1 and None not in b:
            body = next(iter(b))
            out[n] = body
            todo += cond_names(body)
    return out


def file_defines_all(src: Source) -> set[str]:
    """Every name the file #defines (object- or function-like)."""
    if src.defines is None:
        file_defines(src, "")
    return set(src.defines)


def expr_names(cond: str, defs: dict[str, str]) -> set[str]:
    names = set(cond_names(cond))
    for body in defs.values():
        names |= cond_names(body)
    return names - set(defs) - KEYWORDS


def free_identifiers(names: set[str], aliases: set[str]) -> list[str]:
    """Names the ROCm model does not fix: tried undefined and defined as 1."""
    return sorted(n for n in names if rocm_kind(n) == "option"
                  or not (is_rocm_macro(n) or off_on_rocm(n, aliases)))


def assignments(free: list[str], text: str, limit: int = 96) -> list[dict[str, int | None]]:
    """Values tried for the free identifiers: undefined, 1, and each constant of the condition
    and the next integer (so that `NCCL_MAJOR >= 2` is seen both ways); every combination, or
    `limit` of them drawn with a fixed seed."""
    if not free:
        return [{}]
    consts = sorted({int(t, 0) for t in NUMBER_RE.findall(text)} | {0})
    values = [None, 1] + sorted({c + d for c in consts for d in (0, 1)} - {1})
    n = len(values) ** len(free)
    if n <= limit:
        combos = list(itertools.product(values, repeat=len(free)))
    else:
        rng = random.Random(text)
        combos = [(None,) * len(free), (1,) * len(free)]
        combos += [tuple(rng.choice(values) for _ in free) for _ in range(limit - 2)]
    return [dict(zip(free, c)) for c in combos]


def rocm_configs(cond: str, defs: dict[str, str], aliases: set[str], releases):
    """(release, pass, assignment) and the macro configuration of each, for the ROCm model."""
    names = expr_names(cond, defs)
    rocm_on = {n for n in names if rocm_kind(n) == "platform"}
    device_on = {n for n in names if rocm_kind(n) == "device"}
    off = {n for n in names if off_on_rocm(n, aliases) and not is_rocm_macro(n)}
    free = free_identifiers(names, aliases)
    keys, configs = [], []
    for v in releases:
        for device in (False, True):
            for a in assignments(free, cond + " " + " ".join(defs.values())):
                c: dict[str, int | None] = {n: 1 for n in rocm_on}
                c.update({n: None for n in off})
                c.update(version_macros(v))
                c.update({n: (1 if device else None) for n in device_on})
                c.update(a)
                keys.append((v, device, tuple(sorted(a.items()))))
                configs.append(c)
    return keys, configs, free


def classify(keys, values, free) -> tuple[str, str]:
    """Decision and a note from the truth table of a ROCm sweep."""
    if any(v is None for v in values):
        return "other", "preprocessor error under the ROCm model"
    by_release: dict[tuple, set] = defaultdict(set)
    for (rel, _device, _a), v in zip(keys, values):
        by_release[rel].add(v)
    releases = sorted(by_release)
    if any(len(by_release[r]) > 1 for r in releases):
        notes = []
        cell: dict = defaultdict(set)
        for (rel, _device, a), v in zip(keys, values):
            cell[(rel, a)].add(v)
        if any(len(x) > 1 for x in cell.values()):
            notes.append("depends on the pass (__HIP_DEVICE_COMPILE__)")
        cell = defaultdict(set)
        for (rel, device, _a), v in zip(keys, values):
            cell[(rel, device)].add(v)
        if any(len(x) > 1 for x in cell.values()):
            notes.append("depends on " + ",".join(free))
        return "other", "; ".join(notes) or "not constant"
    seq = [next(iter(by_release[r])) for r in releases]
    if all(seq):
        return "include", ""
    if not any(seq):
        return "exclude", ""
    first_true = seq.index(True)
    if all(seq[first_true:]):
        return f"rocm-min={fmt_version(releases[first_true], exact_patch=True)}", ""
    on = [fmt_version(r) for r, x in zip(releases, seq) if x]
    return "other", f"not monotone in the ROCm release (true at {on[0]}..{on[-1]}, {len(on)} points)"


def rocm_decision(pp: Preprocessor, cond: str, defs: dict[str, str], aliases: set[str]):
    text = cond + " " + " ".join(defs.values())
    releases = sorted(set(ROCM_RELEASES) | versions_from_constants(text))
    keys, configs, free = rocm_configs(cond, defs, aliases, releases)
    values = pp.truth_table(cond, configs, defs)
    decision, note = classify(keys, values, free)
    return decision, note, free


def cuda_equivalent(pp: Preprocessor, old: str, old_defs, new: str, new_defs,
                    aliases: set[str]) -> tuple[bool, str]:
    """Whether old and new agree when compiled for CUDA (CUDA version macros defined, ROCm macros
    undefined) over CUDA 7.0 .. 13.9 and random values of the other identifiers; a
    counter-example when not."""
    names = sorted(expr_names(old, old_defs) | expr_names(new, new_defs))
    text = " ".join([old, new, *old_defs.values(), *new_defs.values()])
    consts = {int(t, 0) for t in NUMBER_RE.findall(text)}
    cands = sorted({0, 1} | {c + d for c in consts for d in (-1, 0, 1) if c + d >= 0})
    cuda_versions = [(M, m) for M in range(7, 14) for m in range(10)]
    rng = random.Random(old + "\x00" + new)
    configs = []
    for i in range(420):
        M, m = cuda_versions[i % len(cuda_versions)]
        c: dict[str, int | None] = {}
        for n in names:
            if is_rocm_macro(n) or OTHER_PLATFORM_RE.search(n):
                c[n] = None
            elif n in ("__CUDACC__", "__NVCC__") or CUDA_PLATFORM_RE.search(n):
                c[n] = 1
            elif n in ("CUDA_VERSION", "CUDART_VERSION"):
                c[n] = M * 1000 + m * 10
            elif n == "__CUDACC_VER_MAJOR__":
                c[n] = M
            elif n == "__CUDACC_VER_MINOR__":
                c[n] = m
            elif n == "__CUDACC_VER_BUILD__":
                c[n] = rng.choice((0, 85, 148))
            else:
                c[n] = rng.choice([None] + cands)
        configs.append(c)
    # both conditions in one file: the definitions of each are set before its #if
    a = pp.truth_table(old, configs, old_defs)
    b = pp.truth_table(new, configs, new_defs)
    for c, x, y in zip(configs, a, b):
        if x != y:
            shown = {k: v for k, v in c.items() if v is not None}
            return False, f"old={x} new={y} at {shown}"
    return True, ""


# --------------------------------------------------------------------------- skeletons

SKIP_KINDS = {"include", "include_next", "import", "error", "warning", "pragma", "line", "ident",
              "sccs", "assert", "unassert", ""}


def skeleton(src: Source, region: tuple[int, int], forced: dict[int, str],
             reach: int | None = None) -> str:
    """The file with every directive kept (except SKIP_KINDS; `forced` replaces some, by start
    line) and every other line of `region` replaced by `@@ <line>`; each conditional directive
    of the region is followed by a marker of its own line. Other lines become empty."""
    out = [f"#define {name}(...) 0" for name in undefined_function_macros(src)]
    lo, hi = region
    for l in range(1, len(src.lines) + 1):
        d = src.line_directive.get(l)
        if d is not None:
            if d.start != l:
                continue
            if lo <= l <= hi and d.kind not in ARM_KINDS and d.kind != "endif":
                out.append(f"@@ {l}")  # a #define or #include of the region: code
            if d.kind in SKIP_KINDS:
                continue
            if l == reach:
                out.append("@@ R")
            out.append(forced.get(d.start, d.text).rstrip("\\ "))
            if lo <= l <= hi and d.kind in ARM_KINDS:
                out.append(f"@@ {l}")
        elif lo <= l <= hi:
            out.append(f"@@ {l}")
    return "\n".join(out) + "\n"



def undefined_function_macros(src: Source) -> list[str]:
    """Names called in a condition (NCCL_VERSION(2,10,0)) that the file does not #define as
    function-like macros: their header is not read, so the skeleton defines them as 0 (gcc
    would stop at the call)."""
    called, defined = set(), set()
    for d in src.directives:
        if d.cond:
            called |= {m for m in re.findall(r"(?<![\w.])([A-Za-z_]\w*)\s*\(", d.cond)}
        elif d.kind == "define":
            m = re.match(r"#\s*define\s+([A-Za-z_]\w*)\(", d.text)
            if m:
                defined.add(m.group(1))
    return sorted(called - defined - KEYWORDS)


def forced_path(src: Source, chain: int, keep: set[int] = frozenset()) -> dict[int, str]:
    """Directives to replace so that every chain enclosing `chain` takes the arm holding it
    (chains in `keep` are left to the preprocessor)."""
    forced = {}
    for c_id, arm in src.ancestors(chain):
        if c_id in keep:
            continue
        c = src.chains[c_id]
        for i, d in enumerate(c.arms):
            if i < arm:
                forced[d.start] = "#if 0" if i == 0 else "#elif 0"
            elif i == arm:
                forced[d.start] = "#if 1" if i == 0 else ("#else" if d.kind == "else" else "#elif 1")
    return forced


def rocm_model(names: set[str], v: tuple[int, int, int], device: bool) -> list[str]:
    """#defines of a ROCm build (native HIP) for a file whose conditions name `names`."""
    defs = {n: 1 for n in names if rocm_kind(n) == "platform"}
    defs.update({n: 1 for n in ("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__",
                                "__HIP__")})
    defs.update(version_macros(v))
    if device:
        defs.update({n: 1 for n in names if rocm_kind(n) == "device"})
        defs["__HIP_DEVICE_COMPILE__"] = 1
    return [f"#define {k} {val}" for k, val in sorted(defs.items())]


def surviving(pp: Preprocessor, skel: str, names: set[str], v, device) -> tuple[set[int], str]:
    text = "\n".join(rocm_model(names, v, device)) + "\n" + skel
    out, err, _ = pp.run(text)
    lines = {int(m.group(1)) for m in re.finditer(r"@@ (\d+)", out)}
    if "@@ R" in out:
        lines.add(0)
    errs = [l for l in err.splitlines() if "error" in l]
    return lines, (errs[0] if errs else "")


# --------------------------------------------------------------------------- guards


def names_cuda(cond: str, aliases: set[str]) -> set[str]:
    return {n for n in cond_names(cond) if n in CUDA_VERSION_MACROS or n in aliases}


def names_rocm(cond: str) -> set[str]:
    return {n for n in cond_names(cond) if is_rocm_macro(n)}


names_rocm_any = names_rocm


def norm(cond: str) -> str:
    return re.sub(r"\s+", "", cond)


def canon(cond: str) -> str:
    """A condition without spaces, `defined X` as `defined(X)`, outer parentheses dropped."""
    c = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
               lambda m: f"defined({m.group(1) or m.group(2)})", cond)
    c = norm(c)
    while c.startswith("(") and c.endswith(")") and _balanced(c[1:-1]):
        c = c[1:-1]
    return c


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def similarity(a: str, b: str) -> float:
    from difflib import SequenceMatcher

    return SequenceMatcher(None, norm(a), norm(b)).ratio()


@dataclass
class Guard:
    repo: str
    commit: Commit
    fd: FileDiff
    parent: Source
    child: Source
    g: Directive  # at the parent
    form: str  # rewrite | arm
    n: Directive | None  # the new directive (rewrite) or the kept guard (arm) at the commit
    rocm_dir: Directive | None = None  # arm form: the added ROCm directive
    position: str = ""  # arm form: before, around, after
    pairing: str = "kept"  # block, hunk: where the new line was found; kept: the guard was kept


COND_KINDS = ("if", "elif", "ifdef", "ifndef", "elifdef", "elifndef")


def explicit_before(src: Source, g: Directive) -> bool:
    """Does another arm of the guard's chain, or an arm enclosing it, name a ROCm macro?"""
    if any(names_rocm(a.cond) for a in src.chains[g.chain].arms if a is not g):
        return True
    return any(names_rocm(a.cond) for c_id, arm in src.ancestors(g.chain)
               for a in src.chains[c_id].arms[: arm + 1])


def hunk_of(fd: FileDiff, line: int, new: bool) -> int | None:
    for i, (os_, ol, ns, nl) in enumerate(fd.hunks):
        first, count = (ns, nl) if new else (os_, ol)
        first = first if count else first + 1
        if first <= line < first + max(count, 1):
            return i
    return None


def find_guards(repo, commit, fd, parent: Source, child: Source, aliases, stats) -> list[Guard]:
    """The guards of the parent that the commit made explicit for ROCm (see the module doc)."""
    guards = []
    old_guards = [d for d in parent.directives if d.kind in COND_KINDS
                  and names_cuda(d.cond, aliases) and not names_rocm(d.cond)]
    if not old_guards:
        return guards

    def added_conds(lines):
        out = {}
        for l in lines:
            d = child.line_directive.get(l)
            if d is not None and d.kind in COND_KINDS:
                out[d.start] = d
        return list(out.values())

    def removed_conds(lines):
        out = {}
        for l in lines:
            d = parent.line_directive.get(l)
            if d is not None and d.kind in COND_KINDS:
                out[d.start] = d
        return list(out.values())

    used_old: set[int] = set()
    used_new: set[int] = set()
    removed_guards = [g for g in old_guards
                      if any(l in fd.removed for l in range(g.start, g.end + 1))]
    # 1. pairs within one change block (a run of - and + lines)
    pairs = []
    for g in removed_guards:
        b = fd.block_of_old(next(l for l in range(g.start, g.end + 1) if l in fd.removed))
        if b is None:
            continue
        old_lines, new_lines = fd.blocks[b]
        one_to_one = len(removed_conds(old_lines)) == 1 and len(added_conds(new_lines)) == 1
        for d in added_conds(new_lines):
            pairs.append((similarity(g.cond, d.cond), g, d, one_to_one))
    pairs.sort(key=lambda t: (-t[0], t[1].start, t[2].start))
    for score, g, d, one_to_one in pairs:
        if g.start in used_old or d.start in used_new:
            continue
        if names_rocm(d.cond) and names_cuda(d.cond, aliases):
            form = "rewrite"
        elif canon(d.cond) == canon(g.cond) and not names_rocm(d.cond):
            form = "same"
        elif (names_rocm(d.cond) and one_to_one and (g.kind.startswith("el") == d.kind.startswith("el"))
              and not explicit_before(parent, g)):
            form = "replace"
        else:
            continue
        used_old.add(g.start)
        used_new.add(d.start)
        if form == "same":  # re-added with the same condition (maybe #if -> #elif)
            arm = arm_guard(repo, commit, fd, parent, child, g, d)
            if arm:
                guards.append(arm)
        else:
            guards.append(Guard(repo, commit, fd, parent, child, g, form, d, pairing="block"))
    # 2. a guard removed in one change block and rewritten in another block of the same hunk
    #    (a file reformatted around it): the new line must test the same CUDA macros
    for g in removed_guards:
        if g.start in used_old:
            continue
        h = hunk_of(fd, g.start, new=False)
        if h is None:
            continue
        os_, ol, ns, nl = fd.hunks[h]
        first = ns if nl else ns + 1
        cands = [d for d in added_conds(l for l in range(first, first + nl) if l in fd.added)
                 if d.start not in used_new and names_rocm(d.cond)
                 and names_cuda(d.cond, aliases) == names_cuda(g.cond, aliases)]
        best = max(cands, key=lambda d: (similarity(g.cond, d.cond), -d.start), default=None)
        if best is not None and similarity(g.cond, best.cond) >= 0.6:
            used_old.add(g.start)
            used_new.add(best.start)
            guards.append(Guard(repo, commit, fd, parent, child, g, "rewrite", best, pairing="hunk"))
    # 3. removed guards left: count the ROCm lines that replaced them, for the log
    for g in removed_guards:
        if g.start in used_old:
            continue
        b = fd.block_of_old(next(l for l in range(g.start, g.end + 1) if l in fd.removed))
        rocm_lines = [d for d in added_conds(fd.blocks[b][1] if b is not None else [])
                      if names_rocm(d.cond)]
        if rocm_lines:
            stats["not paired: a removed guard next to an added ROCm line"] += 1
            stats_examples["not paired"].append(
                f"{repo} {commit.sha[:12]} {fd.old_path}:{g.start}: {g.cond!r} | "
                f"{rocm_lines[0].cond!r}")
    # 4. guards the commit kept: a ROCm arm added before, around or after them?
    for g in old_guards:
        if g.start in used_old or g in removed_guards:
            continue
        nl = fd.old_to_new(g.start)
        if nl is None or nl not in child.by_start:
            continue
        arm = arm_guard(repo, commit, fd, parent, child, g, child.by_start[nl])
        if arm:
            guards.append(arm)
    return guards


stats_examples: dict[str, list[str]] = defaultdict(list)


def arm_guard(repo, commit, fd, parent, child, g, d) -> Guard | None:
    """The guard `g` kept as `d` at the commit: did the commit add a ROCm arm before it in its
    chain (position before), around it in an enclosing chain (around), or after it in its chain
    (after: kept only if ROCm takes that arm, see evaluate_guard)?"""
    if d.chain < 0 or canon(d.cond) != canon(g.cond):
        return None
    # a ROCm arm that the parent already had before, around or after the guard (and the commit
    # only edited): no new decision
    if explicit_before(parent, g):
        return None
    c = child.chains[d.chain]

    def names_rocm(cond):  # an option macro alone (GGML_HIP_GRAPHS) is not a ROCm arm
        return {n for n in names_rocm_any(cond) if rocm_kind(n) != "option"}

    for earlier in c.arms[: d.arm]:
        if earlier.start in fd.added and names_rocm(earlier.cond):
            return Guard(repo, commit, fd, parent, child, g, "arm", d, earlier, "before")
    for c_id, arm in child.ancestors(d.chain):
        anc = child.chains[c_id]
        for a in anc.arms[: arm + 1]:
            if a.start in fd.added and names_rocm(a.cond):
                return Guard(repo, commit, fd, parent, child, g, "arm", d, a, "around")
    for later in c.arms[d.arm + 1 :]:
        if later.start in fd.added and names_rocm(later.cond):
            return Guard(repo, commit, fd, parent, child, g, "arm", d, later, "after")
    return None


def added_rocm_chains(child: Source, fd: FileDiff, chain: int) -> list[int]:
    """Enclosing chains of `chain` that the commit added with a ROCm macro (outermost last)."""
    out = []
    for c_id, arm in child.ancestors(chain):
        anc = child.chains[c_id]
        if any(a.start in fd.added and names_rocm(a.cond) for a in anc.arms[: arm + 1]):
            out.append(c_id)
    return out


TRIVIAL = re.compile(r"^[{}();,\s]*$|^(return|break|continue|else|\}\s*else\s*\{?)\s*;?$")


def arms_after(child: Source, fd: FileDiff, parent: Source, g: Directive, survivors: set[int],
               region: tuple[int, int], pair: dict[int, int]) -> str:
    """Which of the parent chain's arms ROCm runs at the commit: its code lines that survive,
    mapped to the parent through the diff, or (a line the commit added) to the one parent arm
    whose body has the same code; `new` for added code no parent arm has. When no code line
    survives, the arm directives that do (their markers) are mapped instead."""
    p_lo, p_hi = parent.chain_range(g.chain)
    arm_code: dict[str, set[int]] = defaultdict(set)
    for pl, code in parent.code.items():
        if p_lo <= pl <= p_hi:
            arm = parent.owner(pl, g.chain)
            if arm is not None:
                arm_code[code].add(arm)
    taken, by_marker, by_content = set(), set(), set()
    new = False
    for l in sorted(survivors):
        if not (region[0] <= l <= region[1]):
            continue
        d = child.line_directive.get(l)
        if d is not None and d.kind in ARM_KINDS:
            pl = pair.get(l, fd.new_to_old(l))
            if pl is not None and parent.owner(pl, g.chain) is not None:
                by_marker.add(parent.owner(pl, g.chain))
            continue
        code = child.code.get(l)
        if code is None:
            continue
        pl = fd.new_to_old(l)
        if pl is not None:
            arm = parent.owner(pl, g.chain)
            if arm is not None:
                taken.add(arm)
                continue
            # an unchanged line from outside the parent chain (code the commit moved in)
        arms = arm_code.get(code, set())
        if len(arms) == 1:
            by_content |= arms
        elif not arms and not TRIVIAL.match(code):
            new = True
    # an added line with the code of one parent arm counts for that arm only when no surviving
    # line maps to a parent arm through the diff (branches swapped or moved); otherwise it is
    # new code next to the arm's own
    if taken:
        new = new or bool(by_content)
    else:
        taken = by_content
    if not taken and not new:
        taken = by_marker
    parts = [str(a) for a in sorted(taken)]
    if new:
        parts.append("new")
    return "+".join(parts) if parts else "none"


def arms_before(parent: Source, g: Directive, survivors: set[int]) -> str:
    """Which arms of the parent chain ROCm runs: those with code lines that survive (else those
    whose directive's marker survives)."""
    taken = {parent.owner(l, g.chain) for l in survivors if l in parent.code}
    if not taken - {None}:
        taken = {parent.owner(l, g.chain) for l in survivors}
    taken.discard(None)
    return "+".join(str(a) for a in sorted(taken)) if taken else "none"


def taken_at(decision: str, release: tuple[int, int, int]) -> bool | None:
    """Does a decision take the guard's arm on this ROCm release (None: other)?"""
    if decision == "include":
        return True
    if decision == "exclude":
        return False
    if decision.startswith("rocm-min="):
        v = tuple(int(x) for x in decision.split("=")[1].split("."))
        return release[: len(v)] >= v
    return None


def chain_decision(guard_arm: int, after: str) -> str:
    """What ROCm runs at the commit, relative to the guard: the code of the guard's arm
    (include), of another arm or none (exclude), code the commit added (rocm-code)."""
    parts = after.split("+")
    if "new" in parts:
        return "rocm-code"
    if parts == [str(guard_arm)]:
        return "include"
    if str(guard_arm) in parts:
        return "other"
    return "exclude"


def region_names(src: Source, lo: int, hi: int) -> set[str]:
    out = set()
    for d in src.directives:
        if lo <= d.start <= hi and d.cond:
            out |= cond_names(d.cond)
    return out


def evaluate_guard(pp: Preprocessor, gd: Guard, aliases: set[str]) -> dict | None:
    parent, child, g, fd = gd.parent, gd.child, gd.g, gd.fd
    if g.chain < 0 or (gd.n is not None and gd.n.chain < 0):
        return None
    row: dict = {}
    old_cond = g.cond
    row["old_directive"] = g.text
    # old condition on ROCm (native HIP: CUDA macros undefined; PyTorch's hipify: CUDA_VERSION
    # renamed to TORCH_HIP_VERSION)
    old_defs = file_defines(parent, old_cond)
    old_dec, _, _ = rocm_decision(pp, old_cond, old_defs, aliases)
    hip_cond = re.sub(r"\bCUDA_VERSION\b", "TORCH_HIP_VERSION", old_cond)
    old_hipify = (rocm_decision(pp, hip_cond, old_defs, aliases)[0] if hip_cond != old_cond
                  else old_dec)
    row["old_rocm"] = old_dec
    row["old_rocm_torch_hipify"] = old_hipify
    row["explicit_before"] = "yes" if explicit_before(parent, g) else "no"
    row["pairing"] = gd.pairing
    if gd.form in ("rewrite", "replace"):
        n = gd.n
        row["new_directive"] = n.text
        row["rocm_macro"] = ",".join(sorted(names_rocm(n.cond)))
        new_defs = file_defines(child, n.cond)
        decision, note, free = rocm_decision(pp, n.cond, new_defs, aliases)
        same, diff = cuda_equivalent(pp, old_cond, old_defs, n.cond, new_defs, aliases)
        row["cuda_same"] = "yes" if same else "no"
        row["note"] = note + ("; " if note and diff else "") + (f"CUDA changed: {diff}" if diff else "")
    else:
        row["new_directive"] = gd.n.text
        row["rocm_macro"] = ",".join(sorted(names_rocm(gd.rocm_dir.cond)))
        row["cuda_same"] = "n/a"
        row["note"] = (f"ROCm arm added {gd.position} the guard, line {gd.rocm_dir.start}: "
                       f"{gd.rocm_dir.text}")
        decision = None

    # chain regions and skeletons
    p_lo, p_hi = parent.chain_range(g.chain)
    n = gd.n
    kept = added_rocm_chains(child, fd, n.chain)
    outer = kept[-1] if kept else n.chain
    c_lo, c_hi = child.chain_range(outer)
    p_forced = forced_path(parent, g.chain)
    c_forced = forced_path(child, outer)
    p_skel = skeleton(parent, (p_lo, p_hi), p_forced)
    c_skel = skeleton(child, (c_lo, c_hi), c_forced)
    names = (region_names(parent, 1, len(parent.lines))
             | region_names(child, 1, len(child.lines)))
    device_too = any(rocm_kind(x) == "device" for x in names)
    releases = sorted(set(CHAIN_RELEASES) | versions_from_constants(
        " ".join(d.cond for d in child.directives if c_lo <= d.start <= c_hi))
        | versions_from_constants(" ".join(d.cond for d in parent.directives if p_lo <= d.start <= p_hi)))
    releases = [r for r in releases if (1, 0, 0) <= r]
    pair = {l: g.start for l in range(n.start, n.end + 1)}  # the new (kept) guard is the old one
    p_free = skeleton(parent, (p_lo, p_hi), {}, reach=p_lo)
    reached = {}
    before, after, errors = {}, {}, []
    guard_taken = {}
    rocm_arm_taken = []
    for v in releases:
        for device in ((False, True) if device_too else (False,)):
            key = fmt_version(v, exact_patch=True) + (" device" if device else "")
            sp, e1 = surviving(pp, p_skel, names, v, device)
            sc, e2 = surviving(pp, c_skel, names, v, device)
            for e in (e1, e2):
                if e:
                    errors.append(e)
            before[key] = arms_before(parent, g, sp)
            reached[(v, device)] = 0 in surviving(pp, p_free, names, v, device)[0]
            after[key] = arms_after(child, fd, parent, g, sc, (c_lo, c_hi), pair)
            # arm form: ROCm runs the guard's code when it reaches the guard's arm, or when the
            # arm the commit added for it holds the same code (flashinfer's
            # `#ifdef PLATFORM_HIP_DEVICE` + the guarded #define)
            guard_taken[(v, device)] = n.start in sc or after[key] == str(g.arm)
            rocm_arm_taken.append(sc)
    if gd.form == "arm" and gd.position == "after":
        if not any(gd.rocm_dir.start in s_ for s_ in rocm_arm_taken):
            return None  # ROCm never reaches the added arm: the guard's outcome is unchanged
    if gd.form == "arm":
        # decision: does ROCm reach the guard's arm, over the releases?
        keys = [(v, dev, ()) for (v, dev) in guard_taken]
        decision, note = classify(keys, list(guard_taken.values()), [])
        if note:
            row["note"] += "; " + note
    row["decision"] = decision
    keys = [(v, dev, ()) for (v, dev) in reached]
    reach, _ = classify(keys, list(reached.values()), [])
    row["rocm_reaches"] = {"include": "yes", "exclude": "no"}.get(reach, reach.replace("rocm-min=", "from "))
    cur = fmt_version(CURRENT_ROCM)
    row["rocm_arm_before"] = before.get(cur, "")
    row["rocm_arm_after"] = after.get(cur, "")
    row["chain_decision"] = chain_decision(g.arm, row["rocm_arm_after"])
    line_says = taken_at(row["decision"], CURRENT_ROCM)
    chain_says = {"include": True, "exclude": False}.get(row["chain_decision"])
    if line_says is not None and chain_says is not None and line_says != chain_says:
        row["note"] = (f"the new condition says {row['decision']} but ROCm {cur} runs "
                       + ("the guard's arm" if chain_says else "another arm")
                       + " (branches swapped or moved)" + ("; " + row["note"] if row["note"] else ""))
        row["decision"] = "other"
    row["chain_arms"] = len(parent.chains[g.chain].arms)
    row["guard_arm"] = g.arm
    row["chain_error"] = errors[0][:160] if errors else ""
    # names of the chains' conditions that the ROCm model leaves undefined (a project's own
    # configuration macros, set by its headers or build): the chain arms hold for them undefined
    defined_here = set(file_defines_all(parent)) | set(file_defines_all(child))
    region_conds = region_names(parent, p_lo, p_hi) | region_names(child, c_lo, c_hi)
    row["chain_assumes"] = ",".join(sorted(
        n for n in free_identifiers(region_conds - KEYWORDS, aliases) if n not in defined_here))
    row["_before"] = before
    row["_after"] = after
    row["_region_parent"] = (p_lo, p_hi)
    row["_region_child"] = (c_lo, c_hi)
    return row


def arm_records(src: Source, chain: int) -> list[dict]:
    out = []
    c = src.chains[chain]
    for i, d in enumerate(c.arms):
        lo, hi = src.arm_range(chain, i)
        body = src.lines[lo - 1 : hi] if hi >= lo else []
        rec = {"arm": i, "line": d.start, "directive": d.text, "body_first_line": lo,
               "body_lines": len(body)}
        if len(body) > BODY_LIMIT:
            rec["body"] = "\n".join(body[:BODY_LIMIT])
            rec["truncated"] = f"body has {len(body)} lines; the first {BODY_LIMIT} are kept"
        else:
            rec["body"] = "\n".join(body)
        out.append(rec)
    if c.endif:
        out.append({"endif_line": c.endif.start})
    return out


# --------------------------------------------------------------------------- aliases


def find_aliases(gitdir: str, ref: str) -> dict[str, str]:
    """Macros #defined at `ref` from a CUDA version macro (or from such an alias), without a
    ROCm macro: name -> definition."""
    pattern = r"(CUDA_VERSION|CUDART_VERSION|__CUDACC_VER_(MAJOR|MINOR|BUILD)__)"
    files = git(gitdir, "grep", "-l", "-E", pattern, ref, "--", *PATHSPECS, check=False).split()
    defs: dict[str, str] = {}
    blobs = Blobs(gitdir)
    for f in files:
        rev, _, path = f.partition(":")
        text = blobs.get(rev, path)
        if text is None:
            continue
        for d in parse_source(text).directives:
            if d.kind != "define":
                continue
            m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)", d.text)
            if not m or m.group(2):
                continue
            name, body = m.group(1), m.group(3)
            if name in CUDA_VERSION_MACROS or is_rocm_macro(name) or not body:
                continue
            if names_rocm(body):
                continue
            if set(identifiers(body)) & set(CUDA_VERSION_MACROS):
                defs.setdefault(name, " ".join(body.split()))
    blobs.close()
    return defs


# --------------------------------------------------------------------------- driver

# the second search: an added or removed conditional naming a ROCm macro (for the arm form)
ROCM_DIRECTIVE_REGEX = (
    r"^[[:space:]]*#[[:space:]]*(el)?if.*(USE_ROCM|__HIP|HIP_VERSION|ROCM_VERSION|__HCC__|"
    r"__AMDGCN__|__AMDGPU__|QMC_CUDA2HIP|(USE|HAVE|ENABLE|USING|WITH|BUILD|COMPILING|TARGET|PLATFORM)_"
    r"(HIP|ROCM|AMD|HCC)|[A-Z]_(HIP|ROCM)_)"
)

COLUMNS = [
    ("id", "stable id: repo short name, commit[:12], path at parent, line"),
    ("split", "dev or heldout, per commit (assign_splits: commits largest first, then in sha256 "
              "order, each to the set that keeps every decision kind nearest 60/40)"),
    ("repo", "owner/name"),
    ("commit", "full SHA of the commit that made the decision"),
    ("parent", "full SHA of its first parent"),
    ("date", "author date of the commit"),
    ("path", "file path at the parent"),
    ("line", "first line of the old guard directive at the parent (1-based)"),
    ("form", "rewrite: the guard line was replaced by one naming the CUDA version macro and a "
             "ROCm macro; replace: by one naming a ROCm macro but no CUDA version macro (one "
             "conditional out, one in, no ROCm arm before); arm: a ROCm arm was added before, "
             "around or after the kept guard"),
    ("pairing", "block: the new line is in the change block of the removed guard; hunk: in "
                "another change block of its hunk (same CUDA macros); kept: the guard line stayed"),
    ("old_cond", "condition of the old guard (comments removed; #ifdef X -> defined(X))"),
    ("new_cond", "rewrite/replace: condition of the new line; arm: the kept guard's condition"),
    ("new_line", "first line of the new (or kept) directive at the commit"),
    ("rocm_macro", "ROCm macros named by the new line (arm: by the added ROCm arm)"),
    ("decision", "maintainer's decision for ROCm: exclude, include, rocm-min=X.Y, other"),
    ("old_rocm", "the old condition under the same ROCm model (native HIP: CUDA macros undefined)"),
    ("old_rocm_torch_hipify", "the old condition after PyTorch's hipify (CUDA_VERSION -> TORCH_HIP_VERSION)"),
    ("cuda_same", "yes if old and new conditions agree on CUDA (ROCm macros undefined), no if not, n/a for arm"),
    ("guard_arm", "index of the guard's arm in its #if/#elif/#else chain at the parent"),
    ("chain_arms", "number of arms (#if, #elif..., #else) of the chain at the parent"),
    ("explicit_before", "yes if at the parent another arm of the chain, or an enclosing arm, "
                        "already named a ROCm macro"),
    ("rocm_reaches", "does ROCm reach the guard's chain at the parent, without the enclosing "
                     "chains forced (yes, no, from X.Y, other); includes are not read"),
    ("rocm_arm_before", f"arms of the parent chain that ROCm {fmt_version(CURRENT_ROCM)} (host pass) "
                        "takes at the parent, enclosing chains forced onto it, e.g. 1, none"),
    ("rocm_arm_after", "the same at the commit, mapped to the parent's arms; new = lines the commit "
                       "added survive (ROCm-specific code); none = no arm"),
    ("chain_decision", "what ROCm runs at the commit (rocm_arm_after) relative to the guard: "
                       "include (the code of the guard's arm), exclude (another arm's, or none), "
                       "rocm-code (code the commit added), other (several arms)"),
    ("chain_assumes", "identifiers of the chain's conditions that neither the ROCm model nor the "
                      "file defines, taken as undefined in the chain arms (a project's config macros)"),
    ("chain_error", "first gcc error while preprocessing a skeleton, if any"),
    ("note", "why a decision is other; CUDA-side change; the added ROCm arm"),
    ("commit_guards", "number of guards of this commit in this data set (weight 1/commit_guards "
                      "to count commits rather than guards)"),
    ("subject", "commit subject"),
]


DEV_SHARE = 0.6


def assign_splits(rows) -> None:
    """dev or heldout per commit, never both, stratified by decision: the commits, largest first
    (ties in the order of sha256(commit SHA)), go one by one to the set that keeps the guards of
    each decision kind (include, exclude, rocm-min, other) and of all kinds together closest to
    60% dev / 40% heldout (sum of squared gaps; dev on a tie)."""
    kinds = sorted({r["decision"].split("=")[0] for r in rows}) + ["*"]
    per_commit: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        per_commit[r["commit"]][r["decision"].split("=")[0]] += 1
        per_commit[r["commit"]]["*"] += 1
    order = sorted(per_commit, key=lambda c: (-per_commit[c]["*"],
                                              hashlib.sha256(c.encode()).hexdigest()))
    dev, total = Counter(), Counter()
    split_of: dict[str, str] = {}
    for sha in order:
        add = per_commit[sha]
        tot = total + add

        def cost(d):
            return sum((d[k] - DEV_SHARE * tot[k]) ** 2 for k in kinds)

        side = "dev" if cost(dev + add) <= cost(dev) else "heldout"
        if side == "dev":
            dev = dev + add
        total = tot
        split_of[sha] = side
    for r in rows:
        r["split"] = split_of[r["commit"]]
        r["commit_guards"] = per_commit[r["commit"]]["*"]


def tsv_escape(s) -> str:
    return str(s).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def mine_repo(pp: Preprocessor, spec: str, stats: Counter):
    gitdir, _, ref = spec.partition("@")
    ref = ref or "HEAD"
    name = repo_name(gitdir)
    head = git(gitdir, "rev-parse", ref).strip()
    aliases = find_aliases(gitdir, head)
    macros = list(CUDA_VERSION_MACROS) + sorted(aliases)
    cuda_regex = "(" + "|".join(re.escape(m) for m in macros) + ")"
    seen_commits: dict[str, Commit] = {}
    for regex in (cuda_regex, ROCM_DIRECTIVE_REGEX):
        for c in log_commits(gitdir, head, regex):
            if c.sha in seen_commits:
                known = {(f.old_path, f.new_path) for f in seen_commits[c.sha].files}
                seen_commits[c.sha].files += [f for f in c.files if (f.old_path, f.new_path) not in known]
            else:
                seen_commits[c.sha] = c
    blobs = Blobs(gitdir)
    rows = []
    cuda_pat = re.compile(r"\b(" + "|".join(re.escape(m) for m in macros) + r")\b")
    for c in seen_commits.values():
        parent_sha = c.parents[0]
        for fd in c.files:
            old_text = blobs.get(parent_sha, fd.old_path)
            if old_text is None or not cuda_pat.search(old_text):
                continue
            new_text = blobs.get(c.sha, fd.new_path)
            if new_text is None:
                continue
            stats["files read"] += 1
            parent, child = parse_source(old_text), parse_source(new_text)
            if not parent.balanced or not child.balanced:
                stats["skipped: unbalanced conditionals"] += 1
                stats_examples["unbalanced"].append(f"{name} {c.sha[:12]} {fd.old_path}")
                continue
            for gd in find_guards(name, c, fd, parent, child, set(aliases), stats):
                r = evaluate_guard(pp, gd, set(aliases))
                if r is None:
                    stats["skipped: no chain"] += 1
                    continue
                r.update(repo=name, commit=c.sha, parent=parent_sha, date=c.date,
                         path=fd.old_path, new_path=fd.new_path, line=gd.g.start, form=gd.form,
                         old_cond=gd.g.cond, new_cond=gd.n.cond, new_line=gd.n.start,
                         subject=c.subject)
                r["_arms"] = arm_records(parent, gd.g.chain)
                outer = (added_rocm_chains(child, fd, gd.n.chain) or [gd.n.chain])[-1]
                r["_child_arms"] = arm_records(child, outer)
                rows.append(r)
    blobs.close()
    rows.sort(key=lambda r: (r["date"], r["commit"], r["path"], r["line"]))
    return name, head, aliases, rows


def repo_name(gitdir: str) -> str:
    base = os.path.basename(os.path.normpath(gitdir))
    if base in ("repo", ".git"):
        base = os.path.basename(os.path.dirname(os.path.normpath(gitdir)))
    return base.replace("+", "/", 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repos", nargs="*", help="bare git directories, optionally DIR@REF")
    ap.add_argument("--repos-file", help="a file of owner/name@commit lines (# comments), read "
                    "from --mirror-root as <root>/<owner>+<name>/repo at that commit")
    ap.add_argument("--mirror-root", default="/work/.mirror")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--gcc", default="gcc")
    ap.add_argument("--log-cache", help="keep the output of each git log in this folder and "
                    "reuse it (the key holds the repository, the commit and the regex)")
    args = ap.parse_args(argv)
    global LOG_CACHE
    LOG_CACHE = args.log_cache
    if args.repos_file:
        with open(args.repos_file, encoding="utf-8") as f:
            for line in f:
                line = line.split("#")[0].strip()
                if line:
                    name, _, ref = line.partition("@")
                    path = os.path.join(args.mirror_root, name.replace("/", "+", 1), "repo")
                    args.repos.append(path + (f"@{ref}" if ref else ""))
    if not args.repos:
        ap.error("no repository given")
    pp = Preprocessor(args.gcc)
    stats: Counter = Counter()
    all_rows = []
    heads = []
    for spec in args.repos:
        try:
            name, head, aliases, rows = mine_repo(pp, spec, stats)
        except RuntimeError as e:  # e.g. a mirror with absent blobs: git log stops
            log(f"{spec}: skipped: {e}")
            stats[f"skipped repository {repo_name(spec.partition('@')[0])}: {e}"] += 1
            continue
        log(f"{name}: {len(rows)} guards at {head}" + (f"; aliases {sorted(aliases)}" if aliases else ""))
        heads.append((name, spec, head, aliases))
        all_rows += rows
    write_outputs(args.out, all_rows, heads, stats, pp)
    return 0


def dedupe(rows, stats):
    """One row per (commit, path, line): a commit reachable from two mirrors (a fork and its
    upstream) is kept once, under the first repository given. One row per decision copied
    between repositories (ggml synced into whisper.cpp, a fork's cherry-pick) or re-landed: the
    same file name, old and new condition and guarded code is kept at its first commit."""
    seen, content = set(), set()
    out = []
    for r in rows:
        key = (r["commit"], r["path"], r["line"])
        if key in seen:
            stats["dropped: same commit in another mirror"] += 1
            continue
        seen.add(key)
        body = next((a.get("body", "") for a in r["_arms"] if a.get("arm") == r["guard_arm"]), "")
        ckey = (os.path.basename(r["path"]), r["form"], canon(r["old_cond"]), canon(r["new_cond"]),
                hashlib.sha256(" ".join(body.split()).encode()).hexdigest())
        if ckey in content:
            stats["dropped: same decision copied or re-landed (file name, conditions, code)"] += 1
            stats_examples["copied"].append(f"{r['repo']} {r['commit'][:12]} {r['path']}:{r['line']}")
            continue
        content.add(ckey)
        out.append(r)
    return out


def write_outputs(out_dir, rows, heads, stats, pp):
    rows = dedupe(rows, stats)
    rows.sort(key=lambda r: (r["repo"].lower(), r["date"], r["commit"], r["path"], r["line"]))
    assign_splits(rows)
    for r in rows:
        r["id"] = f"{r['repo'].split('/')[-1]}:{r['commit'][:12]}:{r['path']}:{r['line']}"
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "guards.tsv"), "w") as f:
        f.write("# guards.tsv: CUDA version guards whose ROCm outcome a maintainer made explicit.\n")
        f.write("# Generated by bench/auto_policy/mine.py (see README.md); excerpts of the named public\n")
        f.write("# repositories at the named commits, under their licenses. Columns:\n")
        for name, doc in COLUMNS:
            f.write(f"#   {name}: {doc}\n")
        f.write("\t".join(n for n, _ in COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(tsv_escape(r.get(n, "")) for n, _ in COLUMNS) + "\n")
    with open(os.path.join(out_dir, "branches.jsonl"), "w") as f:
        for r in rows:
            rec = {
                "id": r["id"], "repo": r["repo"], "commit": r["commit"], "parent": r["parent"],
                "path": r["path"], "new_path": r["new_path"], "line": r["line"],
                "form": r["form"], "decision": r["decision"], "split": r["split"],
                "chain_decision": r["chain_decision"], "chain_assumes": r["chain_assumes"],
                "rocm_reaches": r["rocm_reaches"],
                "guard_arm": r["guard_arm"],
                "old_directive": r["old_directive"], "new_directive": r["new_directive"],
                "region_parent": r["_region_parent"], "region_commit": r["_region_child"],
                "rocm_arms_before": r["_before"], "rocm_arms_after": r["_after"],
                "arms": r["_arms"],
                "arms_at_commit": r["_child_arms"],
            }
            f.write(json.dumps(rec, sort_keys=False) + "\n")
    with open(os.path.join(out_dir, "mine.log"), "w") as f:
        f.write("# mine.log: repositories read, counts, skipped cases\n")
        for name, spec, head, aliases in heads:
            n = sum(1 for r in rows if r["repo"] == name)
            f.write(f"repo {name} {head} guards={n} ref={spec.partition('@')[2] or 'HEAD'}"
                    + (f" aliases={json.dumps(aliases, sort_keys=True)}" if aliases else "") + "\n")
        for k, v in sorted(stats.items()):
            f.write(f"stat {k}: {v}\n")
        f.write(f"total guards={len(rows)} commits={len({r['commit'] for r in rows})}\n")
        for col in ("repo", "decision", "form", "split", "chain_decision", "rocm_reaches",
                    "explicit_before"):
            counts = Counter(r[col] for r in rows)
            for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
                commits = len({r["commit"] for r in rows if r[col] == k})
                f.write(f"count {col} {k}: guards={v} commits={commits}\n")
        for sp in ("dev", "heldout"):
            counts = Counter(r["decision"].split("=")[0] for r in rows if r["split"] == sp)
            f.write(f"count split-decision {sp}: {dict(sorted(counts.items()))}\n")
        for k, ex in sorted(stats_examples.items()):
            for e in ex:
                f.write(f"example {k}: {e}\n")
        f.write(f"stat gcc runs: {pp.calls}\n")
        for c in sorted(set(SKIPPED_COMMITS)):
            f.write(f"unreadable commit (a blob is absent from the mirror): {c}\n")


if __name__ == "__main__":
    sys.exit(main())
