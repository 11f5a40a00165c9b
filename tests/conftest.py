"""Shared test helpers: run the real console script in a subprocess."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def console_script() -> list[str]:
    """The installed `hipify-guard` entry point (next to this Python), else `python -m`."""
    script = Path(sys.executable).with_name("hipify-guard")
    if script.exists():
        return [str(script)]
    found = shutil.which("hipify-guard")
    return [found] if found else [sys.executable, "-m", "hipify_guard"]


@dataclass
class Result:
    """What a CLI run produced."""

    code: int
    stdout: str
    stderr: str

    def json(self):  # noqa: ANN201 - test helper
        return json.loads(self.stdout)


def run_cli(*args: str, cwd: Path | str | None = None, stdin: bytes | None = None,
            env: dict[str, str] | None = None, timeout: float = 120) -> Result:
    """Run `hipify-guard ARGS...` and capture its exit status and output."""
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    environment.pop("FORCE_COLOR", None)
    completed = subprocess.run(
        [*console_script(), *args], cwd=cwd, input=stdin, capture_output=True, env=environment, timeout=timeout,
    )
    return Result(completed.returncode,
                  completed.stdout.decode("utf-8", "replace"), completed.stderr.decode("utf-8", "replace"))


@pytest.fixture
def cli():
    """The `run_cli` helper as a fixture."""
    return run_cli


def require_tool(name: str) -> str:
    """The path of an external tool, or skip the test with a visible reason."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (CI installs it; see .ci/run)")
    return found


@pytest.fixture
def examples_repo(tmp_path: Path) -> Path:
    """A git work tree holding a copy of examples/ (so the root of repo-relative paths is known)."""
    require_tool("git")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


CANNOT_DROP_PRIVILEGES = 77  # exit status of a child in which `without_file_permission_override` failed


def without_file_permission_override() -> None:
    """In the child (`preexec_fn`): drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so even root obeys
    file modes (CI runs as root). Exits CANNOT_DROP_PRIVILEGES when the system refuses."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os._exit(CANNOT_DROP_PRIVILEGES)
