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
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .engine.diagnostics import Diagnostic, DiagnosticFix, FileReport, Location, ToolMessage
from .project.config import ConfigError
from .project.job import CHECK, FIX, Job

__all__ = [
    "ConfigError", "Diagnostic", "DiagnosticFix", "FileReport", "FixedSource", "Location", "ToolMessage",
    "check_path", "check_source", "fix_source",
]


@dataclass(frozen=True, slots=True)
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


def _job(filename: str, path: str, mode: str, unsafe: bool, config: str | None, isolated: bool,
         options: dict[str, Any]) -> Job:
    from .engine.catalogue import load_catalogue
    from .project.workspace import Project

    if config and isolated:
        raise ConfigError("config and isolated cannot be used together")
    overrides = {key.replace("_", "-"): value for key, value in options.items()}
    project = Project(load_catalogue(), overrides, config, isolated)
    return project.jobs([(filename, path)], [filename], mode, unsafe)[0]


def _process(job: Job, data: bytes, report: FileReport) -> bytes:
    from .project.runner import process

    return process(job, data, report)


def _bytes(source: bytes | str) -> bytes:
    return source.encode("utf-8") if isinstance(source, str) else bytes(source)
