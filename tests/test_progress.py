"""The progress line: on a terminal for long runs only; never on pipes or files."""

from __future__ import annotations

import io
import os
import pty
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import console_script

from hipify_guard.cli import progress as progress_module

GUARDS = b"#if CUDA_VERSION >= 11000\nint x;\n#endif\n#if CUDA_VERSION < 9000\nint y;\n#endif\n"
MANY = 3000  # enough files for a run well past the progress delay


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    """A fresh tree per test, so that no cache from an earlier run makes the run short."""
    root = tmp_path / "many"
    root.mkdir()
    for index in range(MANY):
        (root / f"f{index:04}.cu").write_bytes(GUARDS)
    return root


def _run_with_terminal_stderr(cwd: Path, *args: str) -> tuple[int, bytes]:
    """Run the CLI with stderr on a pseudo-terminal; returns the exit status and what the terminal got."""
    main, secondary = pty.openpty()
    try:
        process = subprocess.Popen([*console_script(), *args], cwd=cwd, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=secondary, env={**os.environ, "NO_COLOR": "1"})
    finally:
        os.close(secondary)
    received = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        received += chunk
    os.close(main)
    return process.wait(timeout=300), received


def test_no_progress_on_a_pipe(big_tree: Path) -> None:
    completed = subprocess.run([*console_script(), "check", "-o", "report.txt", "."], cwd=big_tree,
                               capture_output=True, timeout=300, check=False)
    assert completed.returncode == 1
    assert completed.stderr == b""


def test_progress_on_a_terminal_for_a_long_run(big_tree: Path) -> None:
    status, terminal = _run_with_terminal_stderr(big_tree, "check", "-o", "report.txt", ".")
    assert status == 1
    assert f"/{MANY} files".encode() in terminal, terminal[:300]
    assert f"] {MANY}/{MANY} files".encode() in terminal
    assert terminal.endswith(b"\r\x1b[K"), "the progress line is erased at the end"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_waits_for_the_delay_then_draws_and_erases(monkeypatch: pytest.MonkeyPatch) -> None:
    """How long a run lasts is the clock's business, and a loaded machine stretches any real run:
    a clock of the test's own makes it exact. A run shorter than DELAY draws nothing."""
    now = [1000.0]
    monkeypatch.setattr(progress_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    short = _Terminal()
    with progress_module.progress(3, stream=short) as bar:
        for _ in range(3):
            now[0] += progress_module.DELAY / 4
            bar.advance()
    assert short.getvalue() == ""
    long = _Terminal()
    with progress_module.progress(4, stream=long) as bar:
        for _ in range(4):
            now[0] += progress_module.DELAY / 2
            bar.advance()
    assert long.getvalue() == "\r[" + "#" * 15 + "." * 15 + "] 2/4 files\r[" + "#" * 22 + "." * 8 + "] 3/4 files" \
        "\r[" + "#" * 30 + "] 4/4 files\r\x1b[K"


def test_no_progress_when_quiet(big_tree: Path) -> None:
    status, terminal = _run_with_terminal_stderr(big_tree, "check", "-q", "-o", "report.txt", ".")
    assert status == 1 and terminal == b""
