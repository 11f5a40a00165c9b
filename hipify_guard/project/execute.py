"""Run jobs, in a process pool when the work is large enough, with the results cache.

Reports always come back in job order, whatever the number of workers. Files the cache knows
(unchanged status) are answered first, in this process: a `stat` each, far less than a pool
costs to start. The rest go to the pool in strided chunks (chunk k of n takes every n-th file
from the k-th): costly files cluster in a tree (the first 700 files of CUDA+torch held 40% of
the work), and contiguous chunks left one worker with them. On Linux the workers are forked, so
they inherit the jobs, the imported modules and the loaded cache instead of unpickling or
re-importing them.
"""

from __future__ import annotations

import gc
import operator
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib import import_module
from types import ModuleType

from ..engine.diagnostics import FileReport
from .cache import Cache, cacheable, configuration_key, content_digest, pack, status_key, unpack
from .job import CHECK, Job

PARALLEL_MIN_JOBS = 400  # below this a pool costs more than it saves (bench/break_even.py)
CHUNKS_PER_WORKER = 8  # enough chunks to even out slow files, few enough to keep overhead low
_KEY_FIELDS = tuple(name for name in Job.__dataclass_fields__ if name not in ("filename", "path"))
_key_fields = operator.attrgetter(*_KEY_FIELDS)  # every field of a job but its paths
_MISSING = object()
_BY_VALUE = frozenset({str, bytes, int, bool, float, type(None), tuple})  # a tuple: the codes

Part = tuple[list["FileReport | None"], dict[int, bytes], dict[bytes, "bytes | None"]]


def execute(jobs: Sequence[Job], on_done: Callable[[FileReport], None] | None = None,
            workers: int = 0, cache: Cache | None = None) -> list[FileReport]:
    """Process every job; reports come back in job order. `on_done` sees each report as it finishes.

    `workers`: processes to use (0: one per available core); `cache`: where check results are
    looked up and recorded (None: recompute everything).
    """
    session = _Session(list(jobs), cache)
    slots: list[FileReport | None] = [None] * len(session.jobs)
    for number, job in enumerate(session.jobs):
        known = session.known(job)
        if known is _MISSING:
            session.pending.append(number)
        else:
            slots[number] = _tell(on_done, known, job)
    if session.pending:
        import_module(f"{__package__}.runner")  # the engine, before forking: the workers inherit it
    count = worker_count(workers, len(session.pending))
    chunks = 1 if count <= 1 else min(len(session.pending), count * CHUNKS_PER_WORKER)
    parts = [] if not session.pending else [session.run_chunk((0, 1))] if count <= 1 else _in_pool(session, count, chunks)
    for chunk, (compact, index, results) in enumerate(parts):
        for number, report in zip(session.pending[chunk::chunks], compact):
            slots[number] = _tell(on_done, report, session.jobs[number])
        if cache is not None:
            cache.new_index.update(index)
            cache.new_results.update(results)
    if cache is not None:
        cache.save()
    return slots


def _tell(on_done: Callable[[FileReport], None] | None, report: FileReport | None, job: Job) -> FileReport:
    """The job's report (None: an empty one), shown to `on_done`."""
    report = report or FileReport(job.filename)
    if on_done is not None:
        on_done(report)
    return report


def worker_count(requested: int, jobs: int) -> int:
    """The number of processes: `requested` (0: all available cores), 1 for small runs."""
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    wanted = requested if requested > 0 else available
    return 1 if jobs < PARALLEL_MIN_JOBS else max(1, min(wanted, jobs))


def _in_pool(session: _Session, count: int, chunks: int) -> Iterable[Part]:
    """The parts of the pending jobs, chunk by chunk, in order."""
    import multiprocessing

    method = "fork" if sys.platform == "linux" else "spawn"
    context = multiprocessing.get_context(method)
    gc.freeze()  # forked workers neither scan nor copy (refcounts aside) what they inherit
    try:
        with context.Pool(count, initializer=_install, initargs=(session,)) as pool:
            yield from pool.imap(_run_chunk, [(chunk, chunks) for chunk in range(chunks)])
    finally:
        gc.unfreeze()


_SESSION: _Session | None = None


def _install(session: _Session) -> None:
    global _SESSION
    _SESSION = session


def _run_chunk(chunk: tuple[int, int]) -> Part:
    return _SESSION.run_chunk(chunk)


class _Session:
    """The jobs of one run and the cache they read; what a worker needs, picklable for `spawn`."""

    def __init__(self, jobs: list[Job], cache: Cache | None) -> None:
        self.jobs = jobs
        self.cache = cache
        self.pending: list[int] = []  # numbers of the jobs the cache could not answer
        self.keys: dict[tuple[object, ...], tuple[tuple[object, ...], bytes | None]] = {}
        self.identities: dict[tuple[int, ...], tuple[tuple[object, ...], bytes | None]] = {}

    def known(self, job: Job):
        """The cached report of a job whose file status is unchanged (None: nothing to report),
        or _MISSING."""
        config = self._configuration(job)
        if config is None:
            return _MISSING
        try:
            digest = self.cache.known_digest(self.cache.taken.pop(job.path, None) or os.stat(job.path))
        except OSError:
            return _MISSING
        return _MISSING if digest is None else self._lookup(config + digest, job.filename)

    def run_chunk(self, chunk: tuple[int, int]) -> Part:
        """Reports of the pending jobs of chunk k of n, `pending[k::n]` (None: an empty report),
        and the new cache entries."""
        index: dict[int, bytes] = {}
        results: dict[bytes, bytes | None] = {}
        compact: list[FileReport | None] = []
        first, step = chunk
        engine = import_module(f"{__package__}.runner")
        for number in self.pending[first::step]:
            report = self.run_one(self.jobs[number], index, results, engine)
            if report is not None and not (report.diagnostics or report.notes or report.errors or report.fixed
                                           or report.diff or report.near_miss_defines or report.assumed_undefined
                                           or report.outside_names):
                report = None
            compact.append(report)
        return compact, index, results

    def run_one(self, job: Job, index: dict[int, bytes], results: dict[bytes, bytes | None],
                runner: ModuleType) -> FileReport | None:
        """One job: read it, and answer from the cache when its content and configuration are
        known; else `runner` (the engine's module, imported only when a file must be computed)."""
        config = self._configuration(job)
        if config is None:
            return runner.run(job)
        report = FileReport(job.filename)
        loaded = runner.read(job, report)
        if loaded is None:
            return report
        data, status = loaded
        digest = content_digest(data)
        identity = status_key(status, self.cache.racy)
        if identity is not None:
            index[identity[0]] = identity[1] + digest
        cached = self._lookup(config + digest, job.filename)
        if cached is not _MISSING:
            return cached
        runner.process(job, data, report)
        if cacheable(report):
            results[config + digest] = pack(report)
        return report

    def _lookup(self, key: bytes, filename: str):
        """The cached report (None: nothing to report), or _MISSING when unknown or damaged."""
        payload = self.cache.results.get(key, _MISSING)
        if payload is None or payload is _MISSING:
            return payload
        report = unpack(payload, filename)
        return _MISSING if report is None else report

    def _configuration(self, job: Job) -> bytes | None:
        """The configuration key of a job (None: no caching for it): every field but its paths.
        Memoised by the identity of the fields (jobs share theirs), then by value for plain values
        and by identity for others such as Settings (all kept alive in the memos, so an id is
        never reused for another object)."""
        if self.cache is None or job.mode != CHECK:
            return None
        values = _key_fields(job)
        same = self.identities.get(identity := tuple(map(id, values)))
        if same is None:
            same = self.identities[identity] = (values, self._by_value(values))
        return same[1]

    def _by_value(self, values: tuple[object, ...]) -> bytes | None:
        memo = tuple([value if type(value) in _BY_VALUE else id(value) for value in values])
        try:
            known = self.keys.get(memo)
        except TypeError:  # a tuple holding something unhashable: key it by identity
            memo = tuple(map(id, values))
            known = self.keys.get(memo)
        if known is None:
            known = self.keys[memo] = (values, configuration_key(values))
        return known[1]

    def __getstate__(self) -> dict[str, object]:
        return {"jobs": self.jobs, "cache": self.cache, "pending": self.pending, "keys": {}, "identities": {}}
