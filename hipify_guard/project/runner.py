"""Run the engine on one file: read it, check or fix it, write it back atomically, report."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from ..core.languages import CPP, language_of
from ..core.reading import NotAFile, read_file
from ..engine.diagnostics import FileReport, ToolMessage, resolve
from ..engine.lint import analyse, fix, language_codes, rule_filter, run_rules, settle
from ..model.defines import assumed_undefined, near_miss_defines
from .job import CHECK, DIFF, FIX, Job
from .writer import ChangedOnDisk, atomic_write, remove_leftovers

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def run(job: Job) -> FileReport:
    """Process one file on disk."""
    report = FileReport(job.filename)
    loaded = read(job, report)
    if loaded is None:
        return report
    data = loaded[0]
    new = process(job, data, report)
    if job.mode == FIX:
        remove_leftovers(Path(os.path.realpath(job.path)).parent)  # of killed runs (see `writer`)
    if job.mode == FIX and new != data:
        try:
            atomic_write(Path(job.path), new, data)
        except ChangedOnDisk as error:
            report.errors.append(ToolMessage(job.filename, str(error)))
            report.fixed = 0
        except FileNotFoundError:  # deleted by someone else during the run: nothing to keep
            report.notes.append(ToolMessage(job.filename, "file disappeared before the fix could be written; skipped"))
            report.fixed = 0
        except OSError as error:
            report.errors.append(ToolMessage(job.filename, f"cannot write file: {error.strerror or error}"))
            report.fixed = 0
    return report


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
    language = language_of(job.filename)
    if job.near_misses_of and language == CPP:
        report.near_miss_defines = near_miss_defines(data, job.near_misses_of)
    skipped = _why_skipped(data)
    if skipped:
        report.notes.append(ToolMessage(job.filename, skipped))
        return data
    codes = language_codes(language, job.codes)  # (C++ rules never run on Python files, nor the reverse)
    worth = rule_filter(job.settings, codes)(data)
    if not worth:
        return data
    if job.mode == CHECK:
        file = analyse(job.filename, data, job.settings)
        found = run_rules(file, worth)
        report.assumed_undefined = assumed_undefined(data, found)
        findings = settle(file, found, codes)
        if findings:  # (most files that pass the prefilter find nothing: no line index for them)
            report.diagnostics = resolve(job.filename, findings, file.lines)
        return data
    result = fix(job.filename, data, job.settings, codes, unsafe=job.unsafe_fixes)
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
