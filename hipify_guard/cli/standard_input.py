"""`hipify-guard check - --stdin-filename NAME`: check (or fix) the bytes of standard input.

The bytes are processed exactly like a file's; with `--fix`, the (possibly) fixed bytes are
written to standard output unchanged in every other byte, and the report goes to stderr.
"""

from __future__ import annotations

import sys

from ..engine.diagnostics import FileReport
from ..project.job import Job

STDIN = "-"


def reads_stdin(paths: tuple[str, ...] | list[str], stdin_filename: str | None) -> bool:
    """`-` as the only path, or no path and a `--stdin-filename`."""
    return list(paths) == [STDIN] or (not paths and stdin_filename is not None)


def read_stdin() -> bytes:
    """All of standard input, as bytes."""
    return sys.stdin.buffer.read()


def run_stdin(jobs: list[Job], data: bytes) -> tuple[list[FileReport], bytes]:
    """Process `data` as the one job (none when the stdin filename is excluded): reports and new bytes."""
    from ..project.runner import process

    if not jobs:
        return [], data
    report = FileReport(jobs[0].filename)
    return [report], process(jobs[0], data, report)


def write_stdout(data: bytes) -> None:
    """Write bytes to standard output as they are."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
