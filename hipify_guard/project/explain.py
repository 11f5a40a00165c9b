"""What one file is judged under, and why (`hipify-guard files PATH...` without a compilation
database): its ROCm models, the macros the project and the file decide for them, and whether the
ROCm rules run on it at all."""

from __future__ import annotations

import os

from ..core.records import record
from ..core.languages import CPP, language_of
from ..cpp.evaluator import EMPTY
from ..model.analysis import FileAnalysis
from ..model.platforms import UNDEFINED
from ..walk.paths import project_root_of
from .build_scope import cuda_only_codes
from .job import Job
from .runner import read
from .workspace import cuda_only_by_includes, with_header_facts


@record(slots=True)
class Judged:
    """One file's platforms, as data for the `files` command."""

    path: str
    rocm_rules: bool  # False: only the CUDA build compiles it (only rules not about ROCm run)
    models: tuple[str, ...]  # the titles of the ROCm models it is judged under
    models_reason: str  # why those ("" when every configured model applies)
    macros: tuple[tuple[str, str, str], ...]  # (name, its value on ROCm in words, why)
    error: str = ""  # why the file could not be read
    # What rewrites test for ROCm and its version at the end of the file: (role, macro or "", why).
    rewrites: tuple[tuple[str, str, str], ...] = ()
    cuda_only_why: str = ""  # why only the CUDA build compiles it ("": not known, or it is not CUDA-only)


def explain(job: Job) -> Judged:
    """What `job`'s file is judged under."""
    from ..engine.diagnostics import FileReport

    report = FileReport(job.filename)
    rocm_rules = cuda_only_codes(job.codes) != job.codes
    why = "" if rocm_rules else _cuda_only_why(job)
    if language_of(job.filename) != CPP:
        return Judged(job.filename, rocm_rules, ("its own platform tests",),
                      "a Python file: torch.version.hip/cuda and the project's flags (python-rocm-flags) tell", (),
                      cuda_only_why=why)
    loaded = read(job, report)
    if loaded is None:
        messages = [message.message for message in (*report.errors, *report.notes)]
        return Judged(job.filename, rocm_rules, (), "", (), "; ".join(messages))
    file = FileAnalysis(job.filename, loaded[0], job.settings)
    names = file.free_names | {define.name for define in job.settings.profile.configured_rocm}
    if job.path != "-" and names:  # as a check run settles them: what its included headers say
        file = FileAnalysis(job.filename, loaded[0], with_header_facts(job.settings, job.path, names))
    if rocm_rules and job.path != "-":
        why = cuda_only_by_includes(job.path, file.settings)  # (a header every includer includes where no ROCm build goes)
        rocm_rules = not why
    platforms = file.platforms
    macros = tuple((judgement.name, _value(judgement.rocm), judgement.reason) for judgement in platforms.judgements)
    chosen = file.rewrite_macros(len(file.data) + 1)
    rewrites = (("rocm-macro", *((chosen.rocm.name, chosen.rocm.evidence) if chosen.rocm else ("", chosen.missing))),
                ("rocm-version-macro", *((chosen.version.name, chosen.version.evidence) if chosen.version
                                         else ("", "none is defined for it: no rocm-min fix"))))
    return Judged(job.filename, rocm_rules, tuple(model.title for model in platforms.rocm_models),
                  platforms.models_reason, macros, rewrites=rewrites, cuda_only_why=why)


def _cuda_only_why(job: Job) -> str:
    """The build files' evidence that only the CUDA build compiles (or runs) the job's file."""
    root = project_root_of(job.path) if job.path != "-" else None
    if root is None or job.settings.profile.project != root:
        return ""
    from ..walk.project_walk import run_memo
    from .platform_profile import infer

    return infer(root, run_memo()).cuda_only_evidence(os.path.abspath(job.path))


def _value(value: object) -> str:
    if value is UNDEFINED:
        return "undefined on ROCm"
    if value == EMPTY:
        return "defined (empty) on ROCm"
    return f"{value} on ROCm"
