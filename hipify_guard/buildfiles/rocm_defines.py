"""What the build files define in every ROCm compile of a file (spec §13.1): the evidence for the
macro a rewrite may test.

A definition made in every ROCm build (`always`: no condition but the platform's selection)
reaches the files its command reaches, unless a build that is not surely ROCm's defines the same
macro for them too (then it does not say "ROCm" there):

- a CMake directory command (`add_compile_definitions`, `add_definitions`, `CMAKE_<LANG>_FLAGS`) or
  a target's (`target_compile_definitions`) in folder D reaches the targets made in D and below:
  the sources build files in D's subtree compile (ggml's `src/ggml-hip/CMakeLists.txt` compiles
  `src/ggml-cuda/*.cu`), the headers beside them, and every other file below D; never a source that
  a ROCm build also compiles from a build file outside D (that compile does not define it);
- a `setup.py`'s `define_macros` and `-D` flags reach what that setup.py's folder builds, likewise;
- at the project's top folder, every file of the project.

A `#cmakedefine` of a configured header reaches only the files that include that header: those
are kept apart (`configured`) for the included-headers pass (`header_facts`).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable

from ..core.records import record
from ..cpp.evaluator import EMPTY
from ..cpp.numbers import LiteralError, integer_value
from ..model.project_profile import BuildDefine
from .build_conditions import ROCM
from .build_facts import BuildFileFacts, Definition


@record(slots=True)
class ScopedDefinition:
    """A definition every ROCm compile of the files in its scope sees (or, `elsewhere`, one a
    build that is not surely ROCm's may make there: then the macro does not say "ROCm" there)."""

    define: BuildDefine
    folder: str  # root-relative ("" for the whole project)
    sources: frozenset[str]  # root-relative files ROCm compiles only from build files in `folder`
    beside: frozenset[str]  # the folders of those sources: their headers are reached too
    elsewhere: bool = False

    def reaches(self, name: str, compiled_in: tuple[str, ...] | None) -> bool:
        """Whether the compiles of the root-relative file `name` it is about see it (for
        `elsewhere`: whether they may)."""
        if not self.folder:
            return True
        if self.elsewhere:
            return _below(name, self.folder) or any(_below(where, self.folder) for where in compiled_in or ())
        if compiled_in is not None:
            return name in self.sources
        return _below(name, self.folder) or posixpath.dirname(name) in self.beside


def scoped_definitions(facts: BuildFileFacts, evidence_of: Callable[[Definition], str],
                       ) -> tuple[tuple[ScopedDefinition, ...], tuple[BuildDefine, ...]]:
    """The definitions that hold in every ROCm build, with their scopes, those of the same names
    made by other builds (`elsewhere`), and the ROCm ones made by configured headers
    (`#cmakedefine`), which reach only the files that include the header."""
    compiled = dict(facts.rocm_compiled_in)
    scoped: list[ScopedDefinition] = []
    configured: list[BuildDefine] = []
    for name, definitions in sorted(facts.by_name().items()):
        if not any(item.platform == ROCM and item.always for item in definitions):
            continue
        for definition in definitions:
            define = BuildDefine(name, _value(definition), evidence_of(definition))
            if definition.platform != ROCM:
                scoped.append(ScopedDefinition(define, definition.folder, frozenset(), frozenset(), elsewhere=True))
            elif definition.header and definition.always:
                if all(item.platform == ROCM for item in definitions):  # (not `#cmakedefine01`: 0 elsewhere)
                    configured.append(define)
            elif definition.always:
                folder = definition.folder
                sources = frozenset(path for path, folders in compiled.items()
                                    if all(_below(where, folder) for where in folders))
                scoped.append(ScopedDefinition(define, folder, sources, frozenset(map(posixpath.dirname, sources))))
    return tuple(scoped), tuple(dict.fromkeys(configured))


def defines_for(path: str, root: str, scoped: tuple[ScopedDefinition, ...],
                compiled: dict[str, tuple[str, ...]]) -> tuple[BuildDefine, ...]:
    """What every ROCm compile of the file `path` (absolute) defines, by the build files, and no
    other build of it (first definition of each name)."""
    inside = os.path.join(root, "")
    name = (path[len(inside):] if path.startswith(inside) else os.path.relpath(path, root)).replace(os.sep, "/")
    if name.startswith("../"):
        return ()
    found: dict[str, BuildDefine] = {}
    compiled_in = compiled.get(name)
    for definition in scoped:
        if definition.define.name not in found and not definition.elsewhere and definition.reaches(name, compiled_in):
            found[definition.define.name] = definition.define
    for definition in scoped:
        if definition.elsewhere and definition.define.name in found and definition.reaches(name, compiled_in):
            del found[definition.define.name]
    return tuple(found.values())


def _below(name: str, folder: str) -> bool:
    return not folder or name == folder or name.startswith(folder + "/")


def _value(definition: Definition) -> int | str | None:
    """The definition's value as the models hold it (an integer or EMPTY), None when not known
    (the macro is defined all the same)."""
    if definition.value is None:
        return None
    if definition.value == "":
        return EMPTY
    try:
        return integer_value(definition.value)[0]
    except LiteralError:
        return None
