"""The public Python API: check or fix C/C++/CUDA/HIP and Python sources from Python, without the CLI.

This module is what editors, build scripts (a PyTorch extension's `setup.py`) and other tools
call. Everything else in `hipify_guard` is private and may change in any release.

Every function takes the configuration keys of `[tool.hipify-guard]` as keyword arguments, with
`_` for `-` (`select=["HG1"]`, `policy="exclude"`, `rocm_macro="WITH_HIP"`); they override the
closest configuration file of `filename`'s folder (`config=` names one file instead, `isolated=True`
reads none), exactly as the command line's options do. A bad key or value raises `ConfigError`.

Results are `FileReport` objects: `diagnostics` (each a `Diagnostic` with `code`, `name`,
`message`, 1-based `location.row`/`location.column`, `end_location` and `fix`), `errors` and
`notes` (`ToolMessage`: a file that could not be read, a fix that could not be verified, ...),
and `fixed` (how many findings a fix resolved).

An editor works on one finding at a time: `fix_diagnostic` applies one diagnostic's fix and
`suppress_diagnostic` adds the comment that suppresses it, each proven like `fix_source`'s
rewrites; `conditional_at` gives a directive's outcome on CUDA and each ROCm model (what
`hipify-guard eval` prints); `is_checked` says which files `check` takes, and `rules` describes
the rules.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .core.records import record
from .engine.catalogue import Rule
from .engine.conditional_outcome import ConditionalOutcome, PlatformOutcome
from .engine.diagnostics import Diagnostic, DiagnosticEdit, DiagnosticFix, FileReport, Location, ToolMessage
from .project.config import CONFIG_NAMES, ConfigError
from .project.job import CHECK, FIX, Job

if TYPE_CHECKING:
    from .core.findings import Finding
    from .engine.lint import Chosen
    from .model.analysis import FileAnalysis
    from .project.workspace import Project

__all__ = [
    "CONFIG_FILES", "ConditionalOutcome", "ConfigError", "Diagnostic", "DiagnosticEdit", "DiagnosticFix", "FileReport",
    "FixedSource", "Location", "PlatformOutcome", "Rule", "ToolMessage",
    "check_path", "check_source", "conditional_at", "fix_diagnostic", "fix_source", "is_checked", "rules",
    "suppress_diagnostic",
]

CONFIG_FILES = CONFIG_NAMES  # the names of configuration files, closest first in each folder


@record(slots=True)
class FixedSource:
    """What `fix_source` made of some bytes: the new bytes (verified, or the original ones when a
    fix could not be proven) and the report (`fixed` findings fixed, `diagnostics` remaining)."""

    data: bytes
    report: FileReport


def check_source(source: bytes | str, filename: str, *, config: str | None = None, isolated: bool = False,
                 **options: Any) -> FileReport:
    """Check the bytes (or text, encoded as UTF-8) of a source file named `filename`.

    `filename` decides the configuration (the closest one to its folder), the per-file ignores and
    the language; the file need not exist.

        >>> from hipify_guard import api
        >>> report = api.check_source(b"#if CUDA_VERSION >= 11000\\n#endif\\n", "src/kernel.cu", isolated=True)
        >>> [(d.code, d.location.row) for d in report.diagnostics]
        [('HG101', 1)]
    """
    report = FileReport(filename)
    _process(_job(filename, "-", CHECK, False, config, isolated, options), _bytes(source), report)
    return report


def check_path(path: str | os.PathLike[str], *, config: str | None = None, isolated: bool = False,
               **options: Any) -> FileReport:
    """Read the file at `path` and check it; an unreadable file is an error of the report.

        >>> import pathlib, tempfile
        >>> from hipify_guard import api
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (folder / "a.cuh").write_text("#if CUDA_VERSION < 11000\\n#endif\\n")
        >>> [d.code for d in api.check_path(folder / "a.cuh", isolated=True).diagnostics]
        ['HG102']
    """
    from .project.runner import run

    name = os.fspath(path)
    return run(_job(name, name, CHECK, False, config, isolated, options))


def fix_source(source: bytes | str, filename: str, *, unsafe_fixes: bool = False, config: str | None = None,
               isolated: bool = False, **options: Any) -> FixedSource:
    """Apply the fixes of the findings in `source` and return the verified new bytes.

    Every byte outside the rewritten conditions is kept (CRLF, BOM, invalid UTF-8); a rewrite
    that cannot be proven equivalent on CUDA leaves the bytes unchanged and adds an error to
    the report. `unsafe_fixes=True` also applies fixes that change ROCm's branch.

        >>> from hipify_guard import api
        >>> fixed = api.fix_source(b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\\n#endif\\n",
        ...                        "a.cu", isolated=True)
        >>> fixed.data.splitlines()[0].decode()
        '#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)'
        >>> fixed.report.fixed, fixed.report.diagnostics
        (1, [])
    """
    report = FileReport(filename)
    data = _process(_job(filename, "-", FIX, unsafe_fixes, config, isolated, options), _bytes(source), report)
    return FixedSource(data, report)


def fix_diagnostic(source: bytes | str, filename: str, diagnostic: Diagnostic, *, unsafe_fixes: bool = False,
                   config: str | None = None, isolated: bool = False, **options: Any) -> FixedSource:
    """Apply the fix of one diagnostic that `check_source` gave for these bytes, and only that fix,
    verified as `fix_source` verifies (an editor's quick fix).

    `report.fixed` is 1 and `report.diagnostics` what remains; when the diagnostic is not found
    again, has no fix (no safe one without `unsafe_fixes`) or its fix cannot be proven, the bytes
    come back unchanged with an error in the report.

        >>> from hipify_guard import api
        >>> source = b"#if CUDA_VERSION >= 11000\\n#endif\\n#if CUDA_VERSION < 11000\\n#endif\\n"
        >>> first, second = api.check_source(source, "a.cu", isolated=True).diagnostics
        >>> fixed = api.fix_diagnostic(source, "a.cu", first, isolated=True)
        >>> fixed.data.decode().splitlines()[0], fixed.report.fixed, [d.code for d in fixed.report.diagnostics]
        ('#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)', 1, ['HG102'])
    """
    job = _job(filename, "-", FIX, unsafe_fixes, config, isolated, options)
    return _one(job, source, diagnostic, suppress=False)


def suppress_diagnostic(source: bytes | str, filename: str, diagnostic: Diagnostic, *, config: str | None = None,
                        isolated: bool = False, **options: Any) -> FixedSource:
    """Add the comment `// hipify-guard: ignore[CODE]` that suppresses one diagnostic of
    `check_source` for these bytes: in the `ignore[...]` list already on its line, at the end of
    its (logical) line, or alone on a line above it, whichever a new check proves to suppress the
    diagnostic without any new finding. Unchanged bytes and an error when none does.

        >>> from hipify_guard import api
        >>> source = b"#if CUDA_VERSION >= 11000\\n#endif\\n"
        >>> [diagnostic] = api.check_source(source, "a.cu", isolated=True).diagnostics
        >>> done = api.suppress_diagnostic(source, "a.cu", diagnostic, isolated=True)
        >>> done.data.decode().splitlines()[0], done.report.diagnostics
        ('#if CUDA_VERSION >= 11000  // hipify-guard: ignore[HG101]', [])
    """
    job = _job(filename, "-", CHECK, False, config, isolated, options)
    return _one(job, source, diagnostic, suppress=True)


def conditional_at(source: bytes | str, filename: str, row: int, *, config: str | None = None, isolated: bool = False,
                   **options: Any) -> ConditionalOutcome | None:
    """The conditional directive (`#if`, `#elif`, `#ifdef`, ...) on 1-based line `row` (or
    continued onto it) with its condition's outcome on CUDA and on each ROCm model, as
    `hipify-guard eval` prints them, under `filename`'s configuration; None on any other line.

        >>> from hipify_guard import api
        >>> found = api.conditional_at(b"#if CUDA_VERSION >= 11000\\n#endif\\n", "a.cu", 1, isolated=True)
        >>> found.directive, [(o.platform, o.outcome) for o in found.outcomes]
        ('#if CUDA_VERSION >= 11000', [('cuda', 'depends'), ('hip', 'false'), ('torch-hipify', 'false')])
        >>> found.outcomes[1].label, found.outcomes[1].description
        ('ROCm, native HIP (hip)', 'false')
    """
    from .engine.conditional_outcome import conditional_at as directive_at
    from .model.analysis import FileAnalysis

    job = _job(filename, "-", CHECK, False, config, isolated, options)
    return directive_at(FileAnalysis(filename, _bytes(source), job.settings), row)


def is_checked(filename: str, *, config: str | None = None, isolated: bool = False, **options: Any) -> bool:
    """Whether `check` checks the file `filename` when it walks a folder that holds it: its
    extension is one of its configuration's `extensions` and no `exclude` or `extend-exclude`
    pattern matches it (`.gitignore` files are not read). The file need not exist.

        >>> from hipify_guard import api
        >>> api.is_checked("src/kernel.cu", isolated=True), api.is_checked("README.md", isolated=True)
        (True, False)
        >>> api.is_checked("third_party/k.cu", isolated=True, exclude=["third_party/"])
        False
    """
    return _project(config, isolated, options).takes(filename)


def rules() -> dict[str, Rule]:
    """Every rule by code: `name`, `summary`, `severity` ("error" or "warning"), `fix` and its
    Markdown `documentation` (what `hipify-guard rule CODE` prints).

        >>> from hipify_guard import api
        >>> rule = api.rules()["HG101"]
        >>> rule.name, rule.severity
        ('implicit-rocm-exclusion', 'error')
    """
    from .engine.catalogue import load_catalogue

    return dict(load_catalogue())


def _one(job: Job, source: bytes | str, diagnostic: Diagnostic, *, suppress: bool) -> FixedSource:
    from .project.runner import process_one

    report = FileReport(job.filename)
    data = process_one(job, _bytes(source), report, _chosen(diagnostic), suppress=suppress)
    return FixedSource(data, report)


def _chosen(diagnostic: Diagnostic) -> Chosen:
    """Picks the finding that `diagnostic` was made of: same code, message and position."""
    wanted = (diagnostic.location.row, diagnostic.location.column), (diagnostic.end_location.row,
                                                                     diagnostic.end_location.column)

    def chosen(file: FileAnalysis, finding: Finding) -> bool:
        return (finding.code == diagnostic.code and finding.message == diagnostic.message
                and (file.lines.position(finding.start), file.lines.position(finding.end)) == wanted)

    return chosen


def _job(filename: str, path: str, mode: str, unsafe: bool, config: str | None, isolated: bool,
         options: dict[str, Any]) -> Job:
    return _project(config, isolated, options).jobs([(filename, path)], [filename], mode, unsafe)[0]


def _project(config: str | None, isolated: bool, options: dict[str, Any]) -> Project:
    from .engine.catalogue import load_catalogue
    from .project.workspace import Project

    if config and isolated:
        raise ConfigError("config and isolated cannot be used together")
    overrides = {key.replace("_", "-"): value for key, value in options.items()}
    return Project(load_catalogue(), overrides, config, isolated)


def _process(job: Job, data: bytes, report: FileReport) -> bytes:
    from .project.runner import process

    return process(job, data, report)


def _bytes(source: bytes | str) -> bytes:
    return source.encode("utf-8") if isinstance(source, str) else bytes(source)
