"""A build's macro facts (its `-D`/`-U` flags) on top of the ROCm models of spec §3.

A file that a known ROCm build compiles is judged under each of its builds: every ROCm model,
with the macros the build's command line defines or undefines fixed to those values (the
command line is the truth; the model still decides every other macro). A header compiled by
several builds with different facts is judged under each of them, so a guard is reported when
any build reaches it, and a guard whose outcome differs between builds is not called definite.
Only integer and empty definitions become facts: `-DNAME=text` (or a function-like macro)
leaves NAME free, which is sound (every value stays possible).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..core.records import record
from ..cpp.evaluator import EMPTY, EvalError, evaluate
from ..cpp.nodes import Call, Identifier, walk
from ..cpp.parser import ParseError, parse
from .compile_flags import Macro
from .platforms import UNDEFINED, Platform

Value = "int | str | None"  # an integer, EMPTY, or UNDEFINED
_UNKNOWN = object()
NO_FACTS = "(no -D/-U of the macros it tests)"


@record(slots=True)
class Build:
    """The macro facts of one build: (name, value) pairs sorted by name."""

    definitions: tuple[tuple[str, int | str | None], ...] = ()

    @property
    def label(self) -> str:
        """The facts as compiler flags: `-DROCM_VERSION=50700 -D__HIP_PLATFORM_AMD__= -UFOO`."""
        return " ".join(_flag(name, value) for name, value in self.definitions) or NO_FACTS

    def restricted(self, names: Iterable[str]) -> Build:
        """Only the facts about `names` (those a file's conditions can see)."""
        wanted = frozenset(names)
        return Build(tuple(item for item in self.definitions if item[0] in wanted))


def build_of(macros: Sequence[Macro]) -> Build:
    """The facts of a command line's `-D`/`-U` flags, in order (a later flag wins)."""
    values: dict[str, object] = {}
    for name, text in macros:
        if "(" in name:  # a function-like macro: defined, with no value a condition can use
            values[name.partition("(")[0]] = _UNKNOWN
        elif name.isidentifier():
            values[name] = UNDEFINED if text is None else _value(text)
    return Build(tuple(sorted((name, value) for name, value in values.items() if value is not _UNKNOWN)))


def _value(text: str) -> object:
    """EMPTY for no text, the integer a constant expression gives, else unknown."""
    if not text.strip():
        return EMPTY
    data = text.encode("utf-8", "surrogateescape")
    try:
        node = parse(data, 0, len(data))
        if any(isinstance(item, (Identifier, Call)) for item in walk(node)):
            return _UNKNOWN
        return evaluate(node, {})[0]
    except (ParseError, EvalError):
        return _UNKNOWN


def on_build(model: Platform, build: Build) -> Platform:
    """`model` with the build's facts fixed (they override what the model assumes)."""
    label = build.label
    return replace(model, name=f"{model.name}@{label}", title=f"{model.title}, build {label}",
                   fixed={**model.fixed, **dict(build.definitions)}, build=label)


def on_builds(models: Sequence[Platform], builds: Sequence[Build]) -> tuple[Platform, ...]:
    """Every model on every build (the models themselves when no build is known)."""
    if not builds:
        return tuple(models)
    return tuple(on_build(model, build) for build in builds for model in models)


def _flag(name: str, value: int | str | None) -> str:
    if value is UNDEFINED:
        return f"-U{name}"
    return f"-D{name}=" if value == EMPTY else f"-D{name}={value}"
