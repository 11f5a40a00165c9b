"""HG901: conditionals the tool cannot read, so the file is never rewritten."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.findings import Finding
from ..model.analysis import FileAnalysis
from ..model.settings import Settings
from .registry import check


def _version_and_platform_macros(settings: Settings) -> frozenset[str]:
    """HG901 looks at files that mention a CUDA version macro or a ROCm macro."""
    return settings.macros.cuda_version_macros | settings.macros.rocm_macros


@check("HG901", _version_and_platform_macros)
def unparsable_conditional(file: FileAnalysis) -> Iterator[Finding]:
    """Unbalanced #if/#endif, conditions that do not parse, and unterminated comments."""
    for problem in file.tree.problems:
        directive = problem.directive
        yield Finding("HG901", problem.message, directive.hash, directive.keyword[1])
    for problem in file.scan.problems:
        yield Finding("HG901", f"{problem.message}: the rest of the file is not scanned",
                      problem.offset, problem.offset + 2)
    for arm in file.arms:
        error = file.condition(arm).error  # (one that may be valid all the same is `unjudged`: a note)
        if error is not None and error.unjudged is None and file.reachable_anywhere(arm):
            directive = arm.directive
            message = f"cannot parse the condition of #{directive.kind}: {error.message}"
            yield Finding("HG901", message, max(error.offset, directive.hash), directive.argument[1])
