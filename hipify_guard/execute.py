"""Run jobs and collect their reports in a deterministic order."""

from __future__ import annotations

from collections.abc import Iterable

from .diagnostics import FileReport
from .runner import Job, run


def execute(jobs: Iterable[Job]) -> list[FileReport]:
    """Process every job; reports come back in job order."""
    return [run(job) for job in jobs]
