"""The progress line: on a terminal for long runs only; never on pipes or files."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest
from conftest import console_script

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


def test_no_progress_on_a_terminal_for_a_short_run(tmp_path: Path) -> None:
    (tmp_path / "one.cu").write_bytes(GUARDS)
    status, terminal = _run_with_terminal_stderr(tmp_path, "check", "-o", "report.txt", ".")
    assert status == 1 and terminal == b""


def test_no_progress_when_quiet(big_tree: Path) -> None:
    status, terminal = _run_with_terminal_stderr(big_tree, "check", "-q", "-o", "report.txt", ".")
    assert status == 1 and terminal == b""
