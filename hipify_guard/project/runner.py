"""Run the engine on one file: read it, check or fix it, write it back atomically, report."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.languages import CPP, PYTHON, language_of
from ..core.reading import NotAFile, read_file
from ..engine.diagnostics import FileReport, ToolMessage, resolve
from ..engine.lint import Chosen, FixResult, analyse, fix, fix_finding, language_codes, rule_filter, run_rules, settle
from ..model.defines import assumed_undefined, near_miss_defines
from ..model.settings import Settings

if TYPE_CHECKING:
    from ..engine.front_ends import Analysis
    from ..model.analysis import FileAnalysis
from .job import CHECK, DIFF, FIX, Job
from .build_scope import cuda_only_codes
from .cuda_only_headers import HEADERS
from ..walk.paths import project_root_of
from .workspace import cuda_only_by_includes, with_header_facts

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_API_RULES = ("HG203", "HG204")
_GUARD_RULES = frozenset({"HG101", "HG102", "HG103"})
_HEADER_RULES = _GUARD_RULES | frozenset(_API_RULES)  # whose results headers can change


def run(job: Job) -> FileReport:
    """Process one file on disk."""
    report = FileReport(job.filename)
    loaded = read(job, report)
    if loaded is None:
        return report
    data, status = loaded
    new = process(job, data, report)
    if job.mode == FIX:
        from .leftovers import remove_leftovers  # (the writer is loaded only by fix runs)

        remove_leftovers(Path(os.path.realpath(job.path)).parent)  # of killed runs (see `writer`)
    if new == data or job.mode == CHECK:
        return report
    from .writer import not_rewritable

    refused = not_rewritable(status, job.fix_read_only)
    if refused:
        _unfixed(job, data, report, ToolMessage(job.filename, refused), report.notes)
    elif job.mode == FIX:
        write(job, new, data, report)
    return report


def write(job: Job, new: bytes, data: bytes, report: FileReport) -> None:
    """Write the fixed bytes; when that fails, the file is as it was and its findings remain."""
    from .writer import ChangedOnDisk, atomic_write

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
    language = language_of(job.filename)
    if job.near_misses_of and language == CPP:
        report.near_miss_defines = near_miss_defines(data, job.near_misses_of)
    skipped = _why_skipped(data, language)
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
        report.notes += _not_judged(job.filename, file)
        report.assumed_undefined = assumed_undefined(data, found)
        if language == PYTHON:
            if not job.settings.python_project:  # (what the other modules say: `python_facts`)
                from ..model.python_requests import requests  # (the Python front end: loaded by its files)

                report.outside_names = requests(file, found)
        elif not _knows_headers(job.settings) and not _HEADER_RULES.isdisjoint(worth):
            report.outside_names = _names_asked(file, found, job.settings)
        if report.outside_names:  # (checked again once the project is asked: nothing parsed twice)
            file.keep_source()
        findings = settle(file, found, codes)
        if findings:  # (most files that pass the prefilter find nothing: no line index for them)
            report.diagnostics = resolve(job.filename, findings, file.lines)
        return data
    settings = job.settings
    if language == CPP and not _HEADER_RULES.isdisjoint(worth):
        settings, codes = _knowing_headers(job, data, codes)
    elif language == PYTHON:
        settings = _knowing_modules(job, data, worth)
    result = fix(job.filename, data, settings, codes, unsafe=job.unsafe_fixes)
    _report_fix(job, result, report)
    if job.mode == DIFF and result.data != data:
        report.diff = unified_diff(job.filename, data, result.data)
    return result.data


def process_one(job: Job, data: bytes, report: FileReport, chosen: Chosen, *, suppress: bool = False) -> bytes:
    """Fix only the finding `chosen` picks (with `suppress`: add the comment that suppresses it),
    verified as `process` verifies, filling `report`; returns the new bytes."""
    skipped = _why_skipped(data, language_of(job.filename))
    if skipped:
        report.notes.append(ToolMessage(job.filename, skipped))
        return data
    codes = language_codes(language_of(job.filename), job.codes)
    if suppress:
        from ..engine.suppression_comment import suppress_finding  # (an editor's action only)

        result = suppress_finding(job.filename, data, job.settings, codes, chosen)
    else:
        result = fix_finding(job.filename, data, job.settings, codes, chosen, unsafe=job.unsafe_fixes)
    _report_fix(job, result, report)
    return result.data


def _report_fix(job: Job, result: FixResult, report: FileReport) -> None:
    report.notes += _not_judged(job.filename, result.analysis)
    if result.remaining:
        report.diagnostics = resolve(job.filename, result.remaining, result.analysis.lines)
    report.fixed = len(result.applied)
    if result.error:
        report.errors.append(ToolMessage(job.filename, result.error))
    report.notes += [ToolMessage(job.filename, message) for message in result.unproven]


def _knowing_headers(job: Job, data: bytes, codes: tuple[str, ...]) -> tuple[Settings, tuple[str, ...]]:
    """The job's settings with what its included project headers define, and the rules to run
    (without the ROCm ones on a header with their findings that every includer includes where no
    ROCm build goes): a fix run writes as it goes, so it reads them first; a check run settles
    them after the run."""
    if job.path == "-" or _knows_headers(job.settings):
        return job.settings, codes
    if b"include" not in data and not job.path.endswith(HEADERS) and project_root_of(job.path) is None:
        return job.settings, codes  # no header to read, no includers to ask, no project's switches
    from ..model.analysis import FileAnalysis

    file = FileAnalysis(job.filename, data, job.settings)
    found = run_rules(file, [code for code in job.codes if code in _HEADER_RULES])
    names = _names_asked(file, found, job.settings)
    settings = with_header_facts(job.settings, job.path, names) if names else job.settings
    if found and cuda_only_by_includes(job.path, settings):
        codes = cuda_only_codes(codes)
    return settings, codes


def _knowing_modules(job: Job, data: bytes, codes: list[str]) -> Settings:
    """The job's settings with what the project's other Python modules say of the file (a fix
    run writes as it goes, so it asks them first; a check run settles them after the run)."""
    if job.path == "-" or job.settings.python_project:
        return job.settings
    from ..model.python_requests import requests
    from .python_facts import with_python_facts

    file = analyse(job.filename, data, job.settings)
    asked = requests(file, run_rules(file, codes))
    return with_python_facts(job.settings, job.path, asked) if asked else job.settings


def _knows_headers(settings: Settings) -> bool:
    """Whether the headers' facts are in `settings` already (a job settled again)."""
    return bool(settings.header_defines or settings.header_definitions or settings.header_cuda_only
                or settings.header_rocm_only)


def _names_asked(file: FileAnalysis, findings: list, settings: Settings) -> frozenset[str]:  # noqa: ANN001
    """What the project headers are asked of a C/C++ file with these findings: the free names of
    its conditions, the APIs of its API findings, the macros its rewrites may use, and, where a
    guard's fix judges its branch, whether the names there that a ROCm build may lack are the
    project's aliases of other APIs (`header_facts.ALIAS_ONLY`) and whether it defines the names
    spelled as CUDA APIs that no table knows."""
    names = file.free_names | _api_names(file, findings) | _rewrite_names(settings, findings)
    if any(finding.code in _GUARD_RULES for finding in findings):
        from ..model.branch_apis import branch_apis
        from .header_facts import ALIAS_ONLY

        facts = branch_apis(file)
        names |= {ALIAS_ONLY + name for name in facts.names_may_lack()} | facts.names_unknown()
    return names


def _api_names(file: FileAnalysis, findings: list) -> frozenset[str]:  # noqa: ANN001 - Finding
    """The API names HG203/HG204 findings span (each spans its name)."""
    return frozenset(file.text(f.start, f.end) for f in findings if f.code in _API_RULES and f.end > f.start)


def _rewrite_names(settings: Settings, findings: list) -> frozenset[str]:  # noqa: ANN001 - Finding
    """The macros of the project's configured headers that every ROCm build defines, where a
    finding could be fixed with one of them (spec §13.2: the rewrite's macro in the project's words)."""
    configured = settings.profile.configured_rocm
    if not configured or not any(finding.code in _HEADER_RULES for finding in findings):
        return frozenset()
    return frozenset(define.name for define in configured)


def _why_skipped(data: bytes, language: str) -> str:
    if data.startswith(_UTF16_BOMS):
        return "UTF-16 encoded file (byte-order mark): not checked; hipify-guard reads UTF-8 and 8-bit sources"
    if b"\0" in data:
        return "binary file (contains NUL bytes): skipped"
    if language != CPP or b"{%" not in data:
        return ""
    from ..cpp.templates import unrendered  # (a template's tag: C/C++ files only)

    return unrendered(data)


def _not_judged(filename: str, file: Analysis | None) -> list[ToolMessage]:
    """A note for each condition of a C/C++ file that the tool does not judge (`unjudged`)."""
    if file is None or file.language != CPP:
        return []
    return [ToolMessage(filename, why, *file.lines.position(offset)) for offset, why in file.unjudged()]


def unified_diff(filename: str, old: bytes, new: bytes) -> str:
    """A unified diff of two versions of a file (undecodable bytes escaped)."""
    import difflib

    before = old.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    after = new.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    shown = filename.lstrip("/")
    lines = difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}")
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
