"""Run jobs and collect their reports in a deterministic order."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .diagnostics import FileReport
from .runner import Job, run


def execute(jobs: Iterable[Job], on_done: Callable[[FileReport], None] | None = None) -> list[FileReport]:
    """Process every job; reports come back in job order. `on_done` sees each report as it finishes."""
    reports = []
    for job in jobs:
        reports.append(run(job))
        if on_done is not None:
            on_done(reports[-1])
    return reports
