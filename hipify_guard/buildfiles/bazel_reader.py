"""Bazel `BUILD` files in a platform's folder: the macros their targets define for that platform.

jax builds its GPU plugins from `jaxlib/cuda/BUILD` and `jaxlib/rocm/BUILD`; the shared header
`jaxlib/gpu/vendor.h` tests `#if defined(JAX_GPU_CUDA)` / `#elif defined(JAX_GPU_HIP)`, and each
folder's `cc_library` passes one of them with `defines = ["JAX_GPU_HIP=1"]`. A target's `defines`
reach everything that depends on it, so they count for the whole project, on the platform the
folder is named for (a folder part that is only a ROCm word, `rocm`, `hip`, `amd`, or only a CUDA
word, `cuda`, `nvidia`). The folder's own files its targets list in `srcs`/`hdrs` (`"versions.cc"`,
not a label of another package) are compiled for that platform (jax's `jaxlib/cuda/versions.cc`,
which no ROCm target names). `local_defines` (the target's own sources) and folders named for no
platform are not read. Nothing is evaluated: only literal strings in the lists count.

A `.bazelrc` at the root names its configurations: `build:rocm --copt=-DUSING_ROCM=1`
(alibaba's rtp-llm) is what every build with `--config=rocm` defines, so a definition of a
configuration named for one platform is that platform's (`--copt`, `--cxxopt`, `--conlyopt`,
`--host_copt`, and `--per_file_copt=<files>@-D...`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .build_conditions import CUDA, CUDA_WORDS, ROCM, ROCM_WORDS
from .build_facts import Definition, Evidence, Mention, ReaderResult
from .build_flags import macro

BAZEL_FILES = ("BUILD", "BUILD.bazel")
BAZELRC = ".bazelrc"
# `build:rocm --copt=-DUSING_ROCM=1`: a configuration's option lines and the -D words in them.
_CONFIG_LINE = re.compile(r"^[ \t]*(?:build|common|test|run):([\w.-]+)[ \t]+(.*)$", re.M)
_OPTION_DEFINE = re.compile(r"--(?:copt|cxxopt|conlyopt|host_copt|per_file_copt)[= ](?:\S*@)?[\"']?-D[ ]?([^\s\"']+)")
_DEFINES = re.compile(r"(?<![\w.])defines\s*=\s*\[([^\]]*)\]")
_FILES = re.compile(r"(?<![\w.])(?:srcs|hdrs)\s*=\s*\[([^\]]*)\]")
_STRING = re.compile(r"""["']([^"'\n]*)["']""")


def read_bazel(paths: Sequence[str], read: Callable[[str], str | None]) -> ReaderResult:
    """The definitions of the `BUILD` files `paths` (root-relative) that sit in a platform's folder."""
    definitions: list[Definition] = []
    mentions: list[Mention] = []
    files = []
    for path in paths:
        if path == BAZELRC:
            text = read(path)
            if text:
                files.append(path)
                definitions += _configured(path, text)
            continue
        platform = folder_platform(path)
        text = read(path) if platform is not None else None
        if not text:
            continue
        files.append(path)
        for match in _DEFINES.finditer(text):
            for item in _STRING.finditer(match.group(1)):
                defined = macro(item.group(1))
                if defined is None:
                    continue
                line = text.count("\n", 0, match.start(1) + item.start()) + 1
                evidence = Evidence(path, line, text.splitlines()[line - 1].strip()[:200])
                condition = f"the targets of {path.rpartition('/')[0]}/"
                definitions.append(Definition(*defined, platform, True, condition, evidence))
        mentions += _own_files(path, text, platform)
    return ReaderResult(definitions=tuple(definitions), mentions=tuple(mentions), files=tuple(files))


def _own_files(path: str, text: str, platform: str) -> list[Mention]:
    """The files of the BUILD file's folder that its targets list (`srcs = ["versions.cc"]`)."""
    folder = path.rpartition("/")[0]
    found = []
    for match in _FILES.finditer(text):
        for item in _STRING.finditer(match.group(1)):
            name = item.group(1)
            if not name or name.startswith((":", "/", "@")) or ":" in name or "*" in name or ".." in name:
                continue  # a label, a glob or another package: not followed
            line = text.count("\n", 0, match.start(1) + item.start()) + 1
            evidence = Evidence(path, line, text.splitlines()[line - 1].strip()[:200])
            found.append(Mention(f"{folder}/{name}", platform, f"the targets of {folder}/", evidence))
    return found


def _configured(path: str, text: str) -> list[Definition]:
    """The definitions of the `.bazelrc` configurations named for one platform."""
    found = []
    for line_match in _CONFIG_LINE.finditer(text):
        name = line_match.group(1).lower()
        platform = ROCM if name in ROCM_WORDS else CUDA if name in CUDA_WORDS else None
        if platform is None:
            continue
        line = text.count("\n", 0, line_match.start()) + 1
        evidence = Evidence(path, line, line_match.group(0).strip()[:200])
        for option in _OPTION_DEFINE.finditer(line_match.group(2)):
            defined = macro(option.group(1))
            if defined is not None:
                found.append(Definition(*defined, platform, True, f"--config={line_match.group(1)}", evidence))
    return found


def folder_platform(path: str) -> str | None:
    """ROCM or CUDA when a folder of the root-relative `path` is named for one platform only."""
    found = {ROCM if part.lower() in ROCM_WORDS else CUDA for part in path.split("/")[:-1]
             if part.lower() in ROCM_WORDS or part.lower() in CUDA_WORDS}
    return found.pop() if len(found) == 1 else None
