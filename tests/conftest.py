"""Shared test helpers: run the real console script in a subprocess."""

from __future__ import annotations

import ctypes
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's deadline and its too-slow health check time examples by the wall clock: on a
# machine shared with other jobs, their load alone fails a test. The tests bound their work by
# example counts instead.
settings.register_profile("shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shared-machine")

ROOT = Path(__file__).resolve().parent.parent

# Most tests run the CLI in a subprocess. Where PYTHONDONTWRITEBYTECODE is set (some machines set
# it for everyone) and the package has no bytecode (an editable install), each of those compiled
# the whole package from source again: half of its start-up (0.65 -> 0.32 s). They share one
# bytecode cache outside the work tree instead; a prefix the user chose is kept.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / f"hipify-guard-tests-bytecode-{os.getuid()}"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heavy tests (marked `slow`) first, in collection order: with `-n`, every worker starts
    on one while the others take the many short tests, instead of one long test trailing alone at
    the end of the run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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


def children_cpu_seconds() -> float:
    """CPU time (user + system) of this process's finished children so far, pool workers included:
    what time bounds measure, since wall time on a shared machine counts other jobs' load too."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


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


def git_project(root: Path, files: dict[str, str]) -> Path:
    """A git work tree (the project root) at `root` holding `files` (name -> text)."""
    require_tool("git")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def check_counting(monkeypatch: pytest.MonkeyPatch, root: Path, module: object, name: str,
                   *paths: str) -> tuple[str, list[bytes]]:
    """`hipify-guard check --no-cache PATHS` run in this process from `root` (the concise
    output), with the bytes given to each call of `module.name` (the real function still runs)."""
    from click.testing import CliRunner

    from hipify_guard.cli.main import cli as command

    given: list[bytes] = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda data: given.append(data) or real(data))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(command, ["check", "--no-cache", "--output-format", "concise", *paths])
    return result.output, given


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


HANG = 600  # seconds: only a guard against a run that hangs, never a condition of a test

# `hipify-guard` with every fsync of a temporary file waiting for a token on one pipe; it says
# "w" on the other when it waits and "p" when it passes. Pool workers inherit both pipes.
GATED = r"""
import os, sys
tokens, news = (int(fd) for fd in os.environ["HIPIFY_GUARD_TEST_GATE"].split(","))
real_fsync = os.fsync

def gated_fsync(descriptor):
    if os.readlink(f"/proc/self/fd/{descriptor}").endswith(".hipify-guard"):
        os.write(news, b"w")
        os.read(tokens, 1)
        os.write(news, b"p")
    real_fsync(descriptor)

os.fsync = gated_fsync
from hipify_guard.cli.main import main
sys.argv[0] = "hipify-guard"
main()
"""
GATE_SUPPORTED = os.path.isdir("/proc/self/fd")  # (the gate reads /proc/self/fd: Linux)


class GatedFix:
    """`hipify-guard check --isolated --no-cache --fix ARGS` in its own process group, each file's
    write stopped before its temporary file is synced until the test lets it through: a test
    knows how far the run is, whatever the machine's load, and can act at an exact point."""

    def __init__(self, cwd: Path, *args: str) -> None:
        tokens_out, self.tokens = os.pipe()
        self.news, news_in = os.pipe()
        command = [sys.executable, "-c", GATED, "check", "--isolated", "--no-cache", "--fix", *args]
        self.process = subprocess.Popen(command, cwd=cwd, start_new_session=True, pass_fds=(tokens_out, news_in),
                                        env={**os.environ, "NO_COLOR": "1",
                                             "HIPIFY_GUARD_TEST_GATE": f"{tokens_out},{news_in}"},
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(tokens_out)
        os.close(news_in)
        self.heard = {b"w": 0, b"p": 0}

    def __enter__(self) -> GatedFix:
        return self

    def __exit__(self, *_: object) -> None:
        if self.process.returncode is None:
            self.kill()
            self.process.communicate()
        self._open_for_good()
        os.close(self.news)

    def let_through(self, count: int) -> None:
        """Let `count` more temporary files be synced (and then swapped into place)."""
        os.write(self.tokens, b"." * count)

    def wait_for(self, news: bytes, count: int) -> None:
        """Until `count` temporary files in all have reached the gate (`b"w"`) or passed it (`b"p"`)."""
        deadline = time.monotonic() + HANG
        while self.heard[news] < count:
            assert time.monotonic() < deadline, f"the run hung (heard {self.heard})"
            if select.select([self.news], [], [], 1)[0]:
                said = os.read(self.news, 4096)
                assert said, f"the run ended early (heard {self.heard}, exit status {self.process.poll()})"
                for letter in self.heard:
                    self.heard[letter] += said.count(letter)

    def finish(self) -> Result:
        """Let the run go to its end, the gate open for good; its status and output."""
        self._open_for_good()
        stdout, stderr = self.process.communicate(timeout=HANG)
        return Result(self.process.returncode, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"))

    def _open_for_good(self) -> None:
        if self.tokens is not None:
            os.close(self.tokens)  # a read at the gate now returns at once (end of file)
            self.tokens = None

    def kill(self) -> None:
        """SIGKILL the whole process group, and wait until each of its processes has died (it may
        stay a zombie: the main one is reaped when the `with` block ends, orphaned pool workers by
        whoever adopts them). A dying process drops its locks before it becomes a zombie."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + HANG
        while any(state not in "ZX" for state in _states_in_group(self.process.pid)):
            assert time.monotonic() < deadline, "killed processes did not die"
            time.sleep(0.001)


def _states_in_group(group: int) -> list[str]:
    """The state letters (/proc/PID/stat) of the processes in a process group."""
    states = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                fields = Path(entry.path, "stat").read_text().rpartition(")")[2].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[2]) == group:
                states.append(fields[0])
    return states


@pytest.fixture(scope="session")
def fixed_examples(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every example fixed with every variant by the real console script (`test_oracle_gcc.fix_examples`),
    once per session (per worker with xdist): the gcc, nvcc and hipcc tests all judge these fixes."""
    from test_oracle_gcc import fix_examples

    cases = fix_examples(tmp_path_factory)
    for variant, fixed in cases.items():
        assert any(case.before != case.after for case in fixed), f"--fix [{variant}] changed nothing"
    return cases
