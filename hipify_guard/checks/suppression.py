"""HG902 and HG903: suppression comments that suppress nothing, or that cannot be read."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.findings import Finding
from ..core.languages import ANY
from ..core.package_data import rule_codes
from ..core.suppressions import MARK, find
from .registry import Analysis, check

TRIGGERS = (MARK.decode(),)


@check("HG902", lambda settings: TRIGGERS, language=ANY)
def unused_suppression(file: Analysis) -> Iterator[Finding]:
    """Reported by the engine's suppression stage (`engine.suppression_filter.apply`), which needs the
    findings of every other rule; registered here for selection, triggers and the catalogue."""
    return iter(())


@check("HG903", lambda settings: TRIGGERS, language=ANY)
def invalid_suppression(file: Analysis) -> Iterator[Finding]:
    """A `hipify-guard:` comment that is not a valid suppression."""
    if MARK not in file.data:
        return
    for problem in find(file.data, file.comments, rule_codes(), file.language).malformed:
        yield Finding("HG903", problem.message, problem.start, problem.end)
