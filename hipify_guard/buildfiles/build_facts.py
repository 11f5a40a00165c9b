"""What a project's build files say about its platforms: the facts and where each was read.

Every fact carries its `Evidence` (the build file, relative to the root with `/`, the 1-based line
and that line's text) and `condition`, the enclosing conditions as written (`if(USE_ROCM) and
if(HAVE_HIP)`; "" when there are none). `platform` is "rocm" for what the build does only when it
builds for ROCm/HIP, "cuda" for what it does only when it does not (`if(USE_CUDA)`, the `else()`
of a HIP test), None for what every build or an unknown condition does; `always` says no other
condition than the platform's selection is around it (see `build_conditions`).
"""

from __future__ import annotations


from ..core.records import record
from .build_conditions import CUDA, ROCM


@record(slots=True)
class Evidence:
    """Where a fact was read. `line` 0: the file's existence is the evidence (a folder layout)."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


@record(slots=True)
class Definition:
    """A macro the build defines (`-DNAME`, `add_compile_definitions(NAME=1)`, `define_macros`, `#cmakedefine`).

    `value` is the replacement text when it is an integer or empty (`-DX` "1", `-DX=` "", `-DX=5`
    "5"), None when it is anything else (`-DX=${HIP_VERSION}`, `-DX=foo`).
    """

    name: str
    value: str | None
    platform: str | None
    always: bool
    condition: str
    evidence: Evidence
    folder: str = ""  # the root-relative folder whose builds it reaches ("": the whole project)
    header: bool = False  # a `#cmakedefine` of a configured header: only files that include it see it


@record(slots=True)
class SourceFact:
    """Source files that only one platform's build compiles.

    `pattern` is relative to the root with `/` separators, in `.gitignore` glob syntax anchored at
    the root (`*` within a name, `**` across folders; `gitignore` adds the leading `/`). `files`
    are the tree's files it matches that no other build file contradicts (none mentions them for
    the other platform or for every build).
    """

    pattern: str
    platform: str
    condition: str
    evidence: Evidence
    files: tuple[str, ...]

    @property
    def gitignore(self) -> str:
        """The pattern as a `.gitignore` line (the `rocm-files` style)."""
        return "/" + self.pattern


@record(slots=True)
class Mention:
    """A reader's raw source mention, before it is matched with the tree and the other mentions.

    `supports` is False for mentions that only show a file is used (installed, given properties,
    built from names not followed): they keep it from being called one platform's, never make it so.
    """

    pattern: str
    platform: str | None
    condition: str
    evidence: Evidence
    supports: bool = True
    folder: str = ""  # the root-relative folder of the build file whose command compiles it
    stored: bool = False  # only stored in a variable where it is written (its uses are mentions of their own)
    exclude: tuple[str, ...] = ()  # patterns of files taken out of it (`[s for s in srcs if s not in skipped]`)


class Flows:
    """What readers record per literal, stored in a variable or used: a literal's uses supersede where it was
    stored (a list assigned everywhere but added to the sources only for CUDA is CUDA's). Uses that only
    show a file is used (`supports` False) never supersede, and are always kept."""

    def __init__(self) -> None:
        self.used: dict[tuple, list] = {}
        self.stored: dict[tuple, list] = {}
        self.other: list = []

    def record(self, key: tuple, fact: object, stored: bool, supports: bool = True) -> None:
        """One fact about the literal `key` (its evidence and text)."""
        if stored:
            self.stored.setdefault(key, []).append(fact)
        elif supports:
            self.used.setdefault(key, []).append(fact)
        else:
            self.other.append(fact)

    def facts(self) -> list:
        """Every use, the stored facts of literals never used, and the other uses."""
        found = [fact for facts in self.used.values() for fact in facts]
        found += [fact for key, facts in self.stored.items() if key not in self.used for fact in facts]
        return list(dict.fromkeys(found + self.other))


@record(slots=True)
class ReaderResult:
    """What one reader found in the files it read."""

    definitions: tuple[Definition, ...] = ()
    mentions: tuple[Mention, ...] = ()
    notes: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # the files it read as build files
    hipify: tuple[Evidence, ...] = ()  # where a build runs a hipify step (its outputs are not in the tree)
    # Folders a build file adds (CMake `add_subdirectory`), each with the platform its context holds in.
    subdirectories: tuple[tuple[str, str | None, Evidence], ...] = ()
    cuda_only_scripts: tuple[tuple[str, Evidence], ...] = ()  # build scripts that need CUDA's toolkit to run
    cuda_only_modules: tuple[tuple[str, Evidence], ...] = ()  # the Python extension modules only they build
    cuda_only_cmake: tuple[tuple[str, Evidence], ...] = ()  # folders of CMake projects only CUDA builds make
    rocm_selections: tuple[Evidence, ...] = ()  # where a build script picks its files for ROCm


@record(slots=True)
class BuildFileFacts:
    """Everything the build files below a root say about the platforms (see the module docstring)."""

    root: str
    files_read: tuple[str, ...] = ()
    definitions: tuple[Definition, ...] = ()
    sources: tuple[SourceFact, ...] = ()
    notes: tuple[str, ...] = ()  # files that could not be read or parsed, and why
    cuda_only_folders: tuple[tuple[str, Evidence], ...] = ()  # folders no ROCm build compiles anything of
    torch_builds: tuple[Evidence, ...] = ()  # build files that use PyTorch's extension tools or hipify
    # Per tree file: the folders of the build files whose commands compile it in a ROCm build (a
    # command for ROCm only, or one with no condition at all), to scope a folder's definitions.
    rocm_compiled_in: tuple[tuple[str, tuple[str, ...]], ...] = ()
    rocm_build: tuple[Evidence, ...] = ()  # where the build files build for ROCm (the first place found)
    hip_on_nvidia: tuple[Evidence, ...] = ()  # where they build HIP for NVIDIA GPUs (the first place found)
    cuda_only_modules: tuple[tuple[str, Evidence], ...] = ()  # extension modules only CUDA builds make (by name)
    retired_macros: tuple[tuple[str, Evidence], ...] = ()  # defined only in comments: by no build
    # The C++ files whose names say they register PyTorch operators (`torch_ops`): read on each
    # run, not kept with the facts (an edit of one would make every run read the build files again).
    bindings: tuple[str, ...] = ()

    def by_name(self) -> dict[str, tuple[Definition, ...]]:
        """Every definition, grouped by macro name."""
        grouped: dict[str, list[Definition]] = {}
        for definition in self.definitions:
            grouped.setdefault(definition.name, []).append(definition)
        return {name: tuple(items) for name, items in grouped.items()}

    def defined_for(self, platform: str | None) -> dict[str, tuple[Definition, ...]]:
        """Macros the build defines for `platform` (ROCM, CUDA; None: every build), with those definitions."""
        return {name: tuple(item for item in items if item.platform == platform)
                for name, items in self.by_name().items() if any(item.platform == platform for item in items)}

    def only_for(self, platform: str) -> dict[str, tuple[Definition, ...]]:
        """Macros the build defines only for `platform`: never for the other one nor for every build."""
        return {name: items for name, items in self.by_name().items()
                if all(item.platform == platform for item in items)}

    @property
    def rocm_macros(self) -> dict[str, tuple[Definition, ...]]:
        """Macros defined only in ROCm builds: ROCm-build macros (`USE_AMD_ROCM`, `MAGMA_HAVE_HIP`)."""
        return self.only_for(ROCM)

    @property
    def cuda_macros(self) -> dict[str, tuple[Definition, ...]]:
        """Macros defined only in builds that are not ROCm builds: CUDA-build macros."""
        return self.only_for(CUDA)

    @property
    def rocm_definitions(self) -> dict[str, tuple[Definition, ...]]:
        """Every macro the ROCm build defines (`__HIP_PLATFORM_HCC__=1` for gloo and CuPy), also those others define."""
        return self.defined_for(ROCM)

    def only_files(self, platform: str) -> frozenset[str]:
        """The tree's files (relative to the root) that only `platform`'s build compiles."""
        return frozenset(name for fact in self.sources if fact.platform == platform for name in fact.files)

    @property
    def cuda_only_files(self) -> frozenset[str]:
        """Files the ROCm build never compiles, by the build files (and `cuda/` beside `hip/` layouts)."""
        return self.only_files(CUDA)

    @property
    def rocm_only_files(self) -> frozenset[str]:
        """Files only the ROCm build compiles."""
        return self.only_files(ROCM)
