"""Run jobs, in a process pool when the work is large enough, with the results cache.

Reports always come back in job order, whatever the number of workers. The pool hands out
contiguous chunks of job indices; on Linux the workers are forked, so they inherit the jobs,
the imported modules and the loaded cache instead of unpickling or re-importing them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from .cache import Cache, cacheable, configuration_key, content_digest, pack, status_key, unpack
from .diagnostics import FileReport
from .runner import CHECK, Job, process, read, run

PARALLEL_MIN_JOBS = 400  # below this a pool costs more than it saves (see bench/README.md)
CHUNKS_PER_WORKER = 8  # enough chunks to even out slow files, few enough to keep overhead low
_PATH_FIELDS = ("filename", "path")
_MISSING = object()


def execute(jobs: Sequence[Job], on_done: Callable[[FileReport], None] | None = None,
            workers: int = 0, cache: Cache | None = None) -> list[FileReport]:
    """Process every job; reports come back in job order. `on_done` sees each report as it finishes.

    `workers`: processes to use (0: one per available core); `cache`: where check results are
    looked up and recorded (None: recompute everything).
    """
    jobs = list(jobs)
    count = worker_count(workers, len(jobs))
    session = _Session(jobs, cache)
    parts = [session.run_range(0, len(jobs))] if count <= 1 else _in_pool(session, count)
    reports: list[FileReport] = []
    for compact, index, results in parts:
        for report in compact:
            reports.append(report if report is not None else FileReport(jobs[len(reports)].filename))
            if on_done is not None:
                on_done(reports[-1])
        if cache is not None:
            cache.new_index.update(index)
            cache.new_results.update(results)
    if cache is not None:
        cache.save()
    return reports


def worker_count(requested: int, jobs: int) -> int:
    """The number of processes: `requested` (0: all available cores), 1 for small runs."""
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    wanted = requested if requested > 0 else available
    return 1 if jobs < PARALLEL_MIN_JOBS else max(1, min(wanted, jobs))


def _in_pool(session: _Session, count: int):
    """Chunks of (compact reports, index entries, result entries), in job order."""
    import multiprocessing

    method = "fork" if sys.platform == "linux" else "spawn"
    total = len(session.jobs)
    size = max(1, -(-total // (count * CHUNKS_PER_WORKER)))
    ranges = [(start, min(start + size, total)) for start in range(0, total, size)]
    context = multiprocessing.get_context(method)
    with context.Pool(count, initializer=_install, initargs=(session,)) as pool:
        yield from pool.imap(_run_range, ranges)


_SESSION: _Session | None = None


def _install(session: _Session) -> None:
    global _SESSION
    _SESSION = session


def _run_range(bounds: tuple[int, int]):
    return _SESSION.run_range(*bounds)


class _Session:
    """The jobs of one run and the cache they read; what a worker needs, picklable for `spawn`."""

    def __init__(self, jobs: list[Job], cache: Cache | None) -> None:
        self.jobs = jobs
        self.cache = cache
        self.keys: dict[tuple[int, ...], tuple[tuple[object, ...], bytes | None]] = {}

    def run_range(self, start: int, stop: int):
        """Reports of jobs[start:stop] (None for an empty report) and the new cache entries."""
        index: dict[int, bytes] = {}
        results: dict[bytes, bytes | None] = {}
        compact = []
        for job in self.jobs[start:stop]:
            report = self.run_one(job, index, results)
            empty = not (report.diagnostics or report.notes or report.errors or report.fixed or report.diff)
            compact.append(None if empty else report)
        return compact, index, results

    def run_one(self, job: Job, index: dict[int, bytes], results: dict[bytes, bytes | None]) -> FileReport:
        """One job, answered from the cache when its file and configuration are known."""
        config = self._configuration(job) if self.cache is not None and job.mode == CHECK else None
        if config is None:
            return run(job)
        try:
            digest = self.cache.known_digest(os.stat(job.path))
        except OSError:
            digest = None
        if digest is not None:
            cached = self._lookup(config + digest, job.filename)
            if cached is not None:
                return cached
        report = FileReport(job.filename)
        loaded = read(job, report)
        if loaded is None:
            return report
        data, status = loaded
        digest = content_digest(data)
        identity = status_key(status)
        if identity is not None:
            index[identity[0]] = identity[1] + digest
        cached = self._lookup(config + digest, job.filename)
        if cached is not None:
            return cached
        process(job, data, report)
        if cacheable(report):
            results[config + digest] = pack(report)
        return report

    def _lookup(self, key: bytes, filename: str) -> FileReport | None:
        payload = self.cache.results.get(key, _MISSING)
        return None if payload is _MISSING else unpack(payload, filename)

    def _configuration(self, job: Job) -> bytes | None:
        """The configuration key of a job: every field but its paths (memoised by identity)."""
        values = tuple(getattr(job, name) for name in job.__dataclass_fields__ if name not in _PATH_FIELDS)
        identity = tuple(map(id, values))
        known = self.keys.get(identity)
        if known is None:
            known = self.keys[identity] = (values, configuration_key(values))  # values kept alive
        return known[1]

    def __getstate__(self) -> dict[str, object]:
        return {"jobs": self.jobs, "cache": self.cache, "keys": {}}
