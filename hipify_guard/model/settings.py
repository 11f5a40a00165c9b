"""What one check runs with: the macro model, the ROCm models and the rewrite policy."""

from __future__ import annotations

import re
from dataclasses import field, replace
from functools import cached_property

from ..core.records import record
from .builds import Build, on_builds
from .platforms import MacroSet, Platform, UserModel, builtin_models, cuda_platform
from .project_profile import BuildDefine, ProjectProfile
from .python_platform import PythonPlatforms
from .python_project import PythonProjectFacts

POLICY_KINDS = ("preserve", "exclude", "include", "rocm-min", "auto")
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


@record(slots=True)
class Policy:
    """How HG101-HG103 fixes decide ROCm's branch (spec §5 "Policies")."""

    kind: str = "preserve"
    rocm_min: tuple[int, int, int] | None = None

    @classmethod
    def parse(cls, text: str) -> Policy:
        """`preserve`, `exclude`, `include`, `auto` or `rocm-min=X.Y[.Z]`. Raises ValueError."""
        kind, _, argument = text.strip().partition("=")
        if kind not in POLICY_KINDS:
            raise ValueError(f"unknown policy {text!r}; expected one of {', '.join(POLICY_KINDS)}")
        if kind != "rocm-min":
            if argument:
                raise ValueError(f"policy {kind!r} takes no value")
            return cls(kind)
        return cls(kind, parse_version(argument))

    def __str__(self) -> str:
        if self.rocm_min is None:
            return self.kind
        return f"{self.kind}={'.'.join(map(str, self.rocm_min))}"


def parse_version(text: str) -> tuple[int, int, int]:
    """`6.2` or `6.2.1` as (major, minor, patch). Raises ValueError."""
    match = _VERSION.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"expected a ROCm version X.Y or X.Y.Z, got {text!r}")
    major, minor, patch = (int(part or 0) for part in match.groups())
    if minor > 99 or patch > 99:
        raise ValueError(f"ROCm version {text!r}: minor and patch must be below 100")
    return major, minor, patch


@record
class Settings:
    """The effective configuration for checking one file."""

    macros: MacroSet = field(default_factory=MacroSet)
    model_names: tuple[str, ...] = ("hip", "torch-hipify")
    policy: Policy = field(default_factory=Policy)
    user_models: tuple[UserModel, ...] = ()  # from the configuration; named in model_names to apply
    min_rocm: tuple[int, int, int] | None = None  # the oldest ROCm the project supports
    # Names #defined somewhere in the checked files that are near misses of a known macro (HG107).
    project_defines: frozenset[str] = frozenset()
    # The facts of the known ROCm builds that compile the file (compile_commands.json); () = unknown.
    builds: tuple[Build, ...] = ()
    # The project's build macros and what its ROCm build defines (configured or read from build files).
    profile: ProjectProfile = field(default_factory=ProjectProfile)
    # Integer thresholds the project headers the file includes define (`#define CUDART_HMAX 11070`).
    header_defines: tuple[tuple[str, int], ...] = ()
    # Names the project headers the file includes define (their shims): never a use of the API.
    header_definitions: frozenset[str] = frozenset()
    # (name, the name a definition of it for ROCm makes it stand for, "path:line") (`Definitions.aliases`)
    header_aliases: tuple[tuple[str, str, str], ...] = ()
    # Macros the project headers the file includes define only where no ROCm model goes
    # (RAJA's `RAJA_CUDA_ACTIVE`, under `defined(__CUDACC__)`): undefined on ROCm.
    header_cuda_only: frozenset[str] = frozenset()
    # Macros they define in every ROCm build and not surely in CUDA ones: ROCm macros of the project.
    header_rocm_only: frozenset[str] = frozenset()
    header_reached: tuple[tuple[str, str], ...] = ()  # (macro of a configured header, how the file sees it)
    python: PythonPlatforms = field(default_factory=PythonPlatforms)  # the project's Python platform flags
    # What the project's other Python modules say of the file (its imported variables, its callers).
    python_project: PythonProjectFacts = field(default_factory=PythonProjectFacts)

    # What every ROCm compile of the file defines, by the build files (`project.rocm_defines`).
    rocm_defines: tuple[BuildDefine, ...] = ()
    rocm_only: bool = False  # only ROCm builds compile the file (its build files say so)

    @cached_property
    def rocm_models(self) -> tuple[Platform, ...]:
        """The ROCm models this check reasons over (each on each known build of the file). The
        rewrites' macro is defined in them where the configuration names it, or in a port
        (spec §13.4: the macro the port will define)."""
        models = builtin_models(self.macros)
        models.update((model.name, model.platform(self.macros)) for model in self.user_models)
        chosen = [models[name] for name in self.model_names]
        if self.macros.rocm_macro_configured or not self.profile.rocm_build:
            chosen = [replace(model, fixed={**model.fixed, self.macros.rocm_macro: 1}) for model in chosen]
        return on_builds(chosen, self.builds)

    @property
    def rewrites_shown_only(self) -> bool:
        """Whether the project's default rewrites are shown, not applied: it has build files and
        none builds for ROCm, and no policy was asked for (one asked for, on the command line or in
        the configuration, is a port under way). See `fix.rewriter.for_the_project`."""
        return not self.profile.rocm_build and bool(self.profile.build_file) and self.policy.kind == "preserve"

    @cached_property
    def cuda(self) -> Platform:
        """All CUDA configurations."""
        return cuda_platform(self.macros)
