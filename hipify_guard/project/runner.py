"""Run the engine on one file: read it, check or fix it, write it back atomically, report."""

from __future__ import annotations

import difflib
import os
from dataclasses import replace
from pathlib import Path

from ..core.reading import NotAFile, read_file
from ..engine.diagnostics import FileReport, ToolMessage, resolve
from ..engine.lint import fix, rule_filter, run_rules, settle
from ..model.analysis import FileAnalysis
from ..model.defines import assumed_undefined, near_miss_defines
from .job import CHECK, DIFF, FIX, Job
from .leftovers import remove_leftovers
from .writer import ChangedOnDisk, atomic_write, not_rewritable

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def run(job: Job) -> FileReport:
    """Process one file on disk."""
    report = FileReport(job.filename)
    loaded = read(job, report)
    if loaded is None:
        return report
    data, status = loaded
    new = process(job, data, report)
    if job.mode == FIX:
        remove_leftovers(Path(os.path.realpath(job.path)).parent)  # of killed runs (see `writer`)
    if new == data or job.mode == CHECK:
        return report
    refused = not_rewritable(status, job.fix_read_only)
    if refused:
        _unfixed(job, data, report, ToolMessage(job.filename, refused), report.notes)
    elif job.mode == FIX:
        write(job, new, data, report)
    return report


def write(job: Job, new: bytes, data: bytes, report: FileReport) -> None:
    """Write the fixed bytes; when that fails, the file is as it was and its findings remain."""
    try:
        lost = atomic_write(Path(job.path), new, data)
    except ChangedOnDisk as error:
        _unfixed(job, data, report, ToolMessage(job.filename, str(error)), report.errors)
    except FileNotFoundError:  # deleted by someone else during the run: nothing to keep
        report.notes.append(ToolMessage(job.filename, "file disappeared before the fix could be written; skipped"))
        report.fixed = 0
    except OSError as error:
        message = f"cannot write the fix: {error.strerror or error}; the file is unchanged"
        _unfixed(job, data, report, ToolMessage(job.filename, message), report.errors)
    else:
        if lost:
            report.notes.append(ToolMessage(job.filename, f"fixed, but {lost}"))


def _unfixed(job: Job, data: bytes, report: FileReport, why: ToolMessage, into: list[ToolMessage]) -> None:
    """The file keeps `data`: its findings are those of `data` (not one of them fixed), and `why`
    goes into `into` (the report's notes or errors)."""
    original = FileReport(job.filename)
    process(replace(job, mode=CHECK, near_misses_of=frozenset()), data, original)
    report.diagnostics, report.fixed, report.diff = original.diagnostics, 0, ""
    into.append(why)


def read(job: Job, report: FileReport) -> tuple[bytes, os.stat_result] | None:
    """The file's bytes and its status taken before reading; None (reported) when unreadable."""
    try:
        return read_file(job.path)
    except FileNotFoundError:
        gone = "broken symbolic link" if os.path.islink(job.path) else "file disappeared before it could be read"
        report.notes.append(ToolMessage(job.filename, f"{gone}; skipped"))
    except NotAFile as error:
        report.notes.append(ToolMessage(job.filename, f"{error}; skipped"))
    except OSError as error:
        report.errors.append(ToolMessage(job.filename, f"cannot read file: {error.strerror or error}"))
    return None


def process(job: Job, data: bytes, report: FileReport) -> bytes:
    """Check (and maybe fix) `data`, filling `report`; returns the new bytes."""
    if job.near_misses_of:
        report.near_miss_defines = near_miss_defines(data, job.near_misses_of)
    skipped = _why_skipped(data)
    if skipped:
        report.notes.append(ToolMessage(job.filename, skipped))
        return data
    worth = rule_filter(job.settings, job.codes)(data)
    if not worth:
        return data
    if job.mode == CHECK:
        file = FileAnalysis(job.filename, data, job.settings)
        found = run_rules(file, worth)
        report.assumed_undefined = assumed_undefined(data, found)
        findings = settle(file, found, job.codes)
        if findings:  # (most files that pass the prefilter find nothing: no line index for them)
            report.diagnostics = resolve(job.filename, findings, file.lines)
        return data
    result = fix(job.filename, data, job.settings, job.codes, unsafe=job.unsafe_fixes)
    if result.remaining:
        report.diagnostics = resolve(job.filename, result.remaining, result.analysis.lines)
    report.fixed = len(result.applied)
    if result.error:
        report.errors.append(ToolMessage(job.filename, result.error))
    if job.mode == DIFF and result.data != data:
        report.diff = unified_diff(job.filename, data, result.data)
    return result.data


def _why_skipped(data: bytes) -> str:
    if data.startswith(_UTF16_BOMS):
        return "UTF-16 encoded file (byte-order mark): not checked; hipify-guard reads UTF-8 and 8-bit sources"
    if b"\0" in data:
        return "binary file (contains NUL bytes): skipped"
    return ""


def unified_diff(filename: str, old: bytes, new: bytes) -> str:
    """A unified diff of two versions of a file (undecodable bytes escaped)."""
    before = old.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    after = new.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    shown = filename.lstrip("/")
    lines = difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}")
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
