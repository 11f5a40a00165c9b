"""What `check` reads: paths (with `@argfile`s) walked by discovery, or standard input."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import field

from ..core.records import record
from ..engine.diagnostics import FileReport, ToolMessage
from ..project.cache import Cache
from ..project.discovery import DEFAULT_EXTENSIONS, Excluder, Exclusion, FolderExcluder, discover
from ..project.execute import execute
from ..project.job import Job
from ..project.workspace import settle_defines, settle_header_facts, settle_module_facts
from .argfiles import expand_argfiles
from .progress import progress
from .standard_input import STDIN, read_stdin, reads_stdin, run_stdin


class MissingPath(Exception):
    """A path named on the command line does not exist."""


def split_patterns(values: Iterable[str]) -> tuple[str, ...]:
    """Exclusion patterns from repeated, comma-separated option values."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


@record(frozen=False)
class Inputs:
    """The command line's paths or standard input, and how to filter them."""

    paths: list[str]
    stdin_filename: str | None = None
    exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    notes: list[ToolMessage] = field(default_factory=list)
    excluder: Excluder | None = None  # replaces `exclude` when set (the configuration's patterns)
    excluder_in: FolderExcluder | None = None  # with `excluder`: its test per walked folder (see `discover`)
    extensions: frozenset[str] = DEFAULT_EXTENSIONS  # of the files taken from walked folders

    @classmethod
    def from_command_line(cls, paths: Sequence[str], stdin_filename: str | None, exclude: Iterable[str],
                          force_exclude: bool) -> Inputs:
        """Expand `@argfile`s and collect the exclusion patterns.

        Raises ArgfileError, or MissingPath when a named path does not exist (a typo must not
        look like a clean run)."""
        expanded = expand_argfiles(paths)
        missing = [path for path in expanded if path != STDIN and not os.path.lexists(path)]
        if missing:
            raise MissingPath(f"no such file or folder: {', '.join(missing)}")
        return cls(expanded, stdin_filename, split_patterns(exclude), force_exclude)

    @property
    def stdin(self) -> bool:
        """Whether the code comes from standard input."""
        return reads_stdin(self.paths, self.stdin_filename)

    def targets(self) -> list[tuple[str, str]]:
        """(shown name, path to read) of every file to check; `("NAME", "-")` for standard input."""
        excluder = self.excluder or (Exclusion(self.exclude, os.curdir) if self.exclude else None)
        if self.stdin:
            name = self.stdin_filename or STDIN
            skip = self.force_exclude and excluder is not None and excluder(name, False)
            return [] if skip else [(name, STDIN)]
        return list(discover(self.paths or (".",), self.extensions, exclude=excluder,
                             exclude_in=self.excluder_in if self.excluder else None,
                             force_exclude=self.force_exclude, notes=self.notes))

    def found(self) -> list[FileReport]:
        """A report for each note of discovery (a folder it could not read)."""
        return [FileReport(note.filename, notes=[note]) for note in self.notes]

    def run(self, jobs: list[Job], show_progress: bool, workers: int = 0,
            cache: Cache | None = None) -> tuple[list[FileReport], bytes | None]:
        """The reports (discovery notes first), and the new bytes of standard input (None for files).

        `workers` and `cache` are passed to `execute`."""
        found = self.found()
        if self.stdin:
            reports, data = run_stdin(jobs, read_stdin())
            return found + reports, data
        with progress(len(jobs), enabled=show_progress) as bar:
            reports = execute(jobs, bar.advance, workers, cache)
        reports = settle_defines(jobs, reports, lambda again: execute(again, None, workers, cache))
        reports = settle_header_facts(jobs, reports, lambda again: execute(again, None, workers, cache))
        reports = settle_module_facts(jobs, reports, lambda again: execute(again, None, workers, cache))
        if cache is not None:
            cache.save()  # (what the last questions kept, when no file had to be checked again after them)
        return found + reports, None
