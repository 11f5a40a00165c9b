"""The rule registry: each rule function is registered with `@check(CODE)`.

A rule function reads a file's analysis and yields Findings: a C/C++ rule a `FileAnalysis`, a
Python rule (`language=PYTHON`) a `PythonFile`, a rule about the tool itself (`language=ANY`,
suppression comments) either. Its code, name, summary and documentation live in the rule
catalogue (the top-level `rules/` folder).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Union

from ..core.records import record
from ..core.findings import Finding
from ..core.languages import CPP

if TYPE_CHECKING:  # (a run imports only the front ends of the languages it checks)
    from ..model.analysis import FileAnalysis
    from ..model.python_analysis import PythonFile
    from ..model.settings import Settings

Analysis = Union["FileAnalysis", "PythonFile"]
CheckFunction = Callable[[Analysis], Iterable[Finding]]
Triggers = Callable[["Settings"], Iterable[str]]
# A sharper byte test than the trigger names, for the files they admit: it may admit a file the
# rule finds nothing in, never reject one it would find something in.
Screen = Callable[["Settings"], Callable[[bytes], bool]]


@record(slots=True)
class RegisteredCheck:
    """A rule function and the names whose presence in a file's bytes makes it worth running."""

    function: CheckFunction
    triggers: Triggers
    screen: Screen | None = None
    language: str = CPP  # the front end whose files it reads (core.languages)


CHECKS: dict[str, RegisteredCheck] = {}


def check(code: str, triggers: Triggers = lambda settings: (), screen: Screen | None = None,
          language: str = CPP) -> Callable[[CheckFunction], CheckFunction]:
    """Register a rule function under its code, with the byte triggers of the prefilter (and
    optionally a screen: see `Screen`) and the language of the files it reads."""

    def register(function: CheckFunction) -> CheckFunction:
        if code in CHECKS:
            raise ValueError(f"rule {code} registered twice")
        CHECKS[code] = RegisteredCheck(function, triggers, screen, language)
        return function

    return register


def cuda_version_macros(settings: Settings) -> Iterable[str]:
    """Trigger names for rules about CUDA version guards."""
    return settings.macros.cuda_version_macros
