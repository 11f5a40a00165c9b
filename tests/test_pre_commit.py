"""The pre-commit hook, run by the real `pre-commit` (installs the hook's environment from the index).

The project is copied into a temporary git repository and committed there: `pre-commit try-repo`
of a working copy only sees committed files plus changes to tracked ones, so a fresh commit makes
the test independent of the state of the checkout it runs in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, require_tool

pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install '.[test]')")

BAD_CU = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nint fast;\n#endif\n"
FIXED_CU = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)\nint fast;\n#endif\n"
BAD_HIP = b"#if CUDA_VERSION < 11000\nint legacy;\n#endif\n"
FIXED_HIP = b"#if (CUDA_VERSION < 11000) || defined(USE_ROCM)\nint legacy;\n#endif\n"
GIT_IDENTITY = ("-c", "user.name=hipify-guard tests", "-c", "user.email=tests@invalid", "-c", "commit.gpgsign=false")
# The `.hip` override that the README documents (identify has no tag for `.hip`).
CONFIG = """\
repos:
-   repo: {repo}
    rev: {rev}
    hooks:
    -   id: hipify-guard
        args: [--fix]
        types_or: [text]
        files: \\.(c|cc|cpp|cxx|h|hh|hpp|hxx|cu|cuh|hip)$
"""


def _git(cwd: Path, *args: str) -> str:
    completed = subprocess.run(["git", *GIT_IDENTITY, *args], cwd=cwd, capture_output=True, check=True)
    return completed.stdout.decode().strip()


def _project_files() -> list[str]:
    """The checkout's files (tracked and untracked, minus ignored ones), or every file outside git."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                cwd=ROOT, capture_output=True, check=True).stdout.decode()
        return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts]


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A committed copy of this project: (path, commit)."""
    require_tool("git")
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in _project_files():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, repo / name)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "snapshot for the pre-commit test")
    return repo, _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A user's repository with one bad `.cu` file, staged."""
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    (work / "bad.cu").write_bytes(BAD_CU)
    _git(work, "add", "bad.cu")
    return work


def _pre_commit(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never",
                   "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@invalid",
                   "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@invalid"}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=900, check=False)


@pytest.mark.slow
def test_try_repo_fails_and_names_the_finding(hook_repo: tuple[Path, str], project: Path, tmp_path: Path) -> None:
    result = _pre_commit(project, tmp_path / "home", "try-repo", str(hook_repo[0]), "hipify-guard", "--all-files")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "hipify-guard" in output and "Failed" in output
    assert "bad.cu:1:1: HG101" in output
    assert (project / "bad.cu").read_bytes() == BAD_CU


@pytest.mark.slow
def test_fix_rewrites_and_fails_then_passes(hook_repo: tuple[Path, str], project: Path, tmp_path: Path) -> None:
    repo, rev = hook_repo
    (project / "kernel.hip").write_bytes(BAD_HIP)
    (project / ".pre-commit-config.yaml").write_text(CONFIG.format(repo=repo, rev=rev))
    _git(project, "add", "kernel.hip", ".pre-commit-config.yaml")
    home = tmp_path / "home"

    first = _pre_commit(project, home, "run", "--all-files")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    assert (project / "bad.cu").read_bytes() == FIXED_CU
    assert (project / "kernel.hip").read_bytes() == FIXED_HIP

    second = _pre_commit(project, home, "run", "--all-files")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout


def test_hook_manifest_matches_the_conventions() -> None:
    from pre_commit.clientlib import load_manifest

    hooks = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))  # pre-commit's own validation
    assert len(hooks) == 1
    hook = hooks[0]
    assert (hook["id"], hook["entry"], hook["language"]) == ("hipify-guard", "hipify-guard check --force-exclude",
                                                            "python")
    assert hook["types_or"] == ["c", "c++", "cuda", "python"] and hook["require_serial"] is True
    assert hook["minimum_pre_commit_version"] == "2.9.2"
