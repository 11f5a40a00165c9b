"""Tests the project's own ROCm CI leaves out (issue 25): vLLM's AMD job runs pytest with
`--ignore=kernels/quantization/test_machete_mm.py` and a few dozen more, for kernels its ROCm
build does not have. A test file or folder a ROCm CI script ignores is not run on ROCm by the
project; its Python findings are nobody's there.

A ROCm CI script is a shell or YAML file below a CI folder (`.buildkite/`, `.github/`, `ci/` ...)
whose path names AMD or ROCm (`run-amd-test.sh`, `rocm.yml`). An ignored path resolves against
the folders of the tree that hold its first part (pytest runs from `tests/` there); a path that
names no file or folder of the tree is left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from .build_conditions import CUDA
from .build_facts import Evidence, SourceFact

CI_FOLDERS = frozenset({".buildkite", ".github", ".gitlab", ".circleci", ".ci", "ci", ".jenkins", "jenkins"})
CI_EXTENSIONS = (".sh", ".bash", ".yml", ".yaml")
ROCM_CI_NAME = re.compile(r"(?i)(?:^|[^a-z])(?:amd|rocm)(?:[^a-z]|$)")
_IGNORE = re.compile(r"--ignore[= ]+([^\s\"'\\;|&$]+)")
_CONDITION = "the project's ROCm CI runs without it"


def is_rocm_ci_script(path: str) -> bool:
    """Whether the root-relative `path` is a ROCm CI script (see the module doc)."""
    parts = path.split("/")
    return (path.endswith(CI_EXTENSIONS) and any(part in CI_FOLDERS for part in parts[:-1])
            and bool(ROCM_CI_NAME.search(path)))


def rocm_ci_exclusions(root: str, scripts: tuple[str, ...], folders: dict[str, tuple[str, ...]],
                       read: Callable[[str], str | None]) -> tuple[list[SourceFact], list[tuple[str, Evidence]]]:
    """(test files, test folders) the ROCm CI scripts `scripts` ignore, with the line of each."""
    files: list[SourceFact] = []
    ignored_folders: list[tuple[str, Evidence]] = []
    for script in scripts:
        text = read(script)
        for match in _IGNORE.finditer(text or ""):
            line = text.count("\n", 0, match.start()) + 1
            evidence = Evidence(script, line, text.splitlines()[line - 1].strip()[:200])
            for found in _resolved(root, match.group(1).strip("/"), folders):
                if os.path.isdir(os.path.join(root, found)):
                    ignored_folders.append((found, evidence))
                else:
                    files.append(SourceFact(found, CUDA, _CONDITION, evidence, (found,)))
    return files, ignored_folders


def _resolved(root: str, ignored: str, folders: dict[str, tuple[str, ...]]) -> list[str]:
    """The tree's files or folders an ignored path names, from each folder holding its first part."""
    first = ignored.split("/")[0]
    if not first or first in (".", "..") or "*" in ignored:
        return []
    found = []
    for folder, children in folders.items():
        if first in children or (first.endswith(".py") and folder in ("", "tests", "test")):
            candidate = f"{folder}/{ignored}" if folder else ignored
            if os.path.exists(os.path.join(root, candidate)):
                found.append(candidate)
    return found
