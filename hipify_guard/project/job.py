"""One file to process and everything that decides how (what `runner` runs, `execute` schedules).

A module of its own so that a run whose files the cache answers never imports the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..core.records import record
from ..model.settings import Settings

CHECK, FIX, DIFF = "check", "fix", "diff"


@record(slots=True)  # slots: a 180,000-file tree makes as many jobs
class Job:
    """One file to process, with everything that decides how."""

    filename: str  # as shown in the output
    path: str  # where to read it
    settings: Settings
    codes: tuple[str, ...]
    mode: str = CHECK
    unsafe_fixes: bool = False
    fix_read_only: bool = False  # rewrite files whose owner has no write permission (fix and diff runs)
    # Known macros whose near misses the file's #defines are reported for (HG107 across the run).
    near_misses_of: frozenset[str] = frozenset()

    def using(self, settings: Settings, codes: tuple[str, ...]) -> Job:
        """The job with other settings and codes (`dataclasses.replace` costs five times as much,
        over a tree's 60,000 jobs)."""
        return Job(self.filename, self.path, settings, codes, self.mode, self.unsafe_fixes, self.fix_read_only,
                   self.near_misses_of)


Report = TypeVar("Report")


def rerun_changed(reports: list[Report], changed: list[tuple[int, Job]],
                  rerun: Callable[[list[Job]], list[Report]]) -> list[Report]:
    """`reports` (one per job of a run) with those of the `changed` jobs (their index, the new job)
    replaced by what `rerun` gives for them."""
    if not changed:
        return reports
    settled = list(reports)
    for (number, _), report in zip(changed, rerun([job for _, job in changed])):
        settled[number] = report
    return settled
