"""The macros a rewrite may test, per file and guard (spec §13.2): R, "this is ROCm", and RV, the
ROCm version, each with the evidence that every ROCm build of the file defines it there.

R is, the first that applies:

1. `rocm-macro` from the configuration;
2. a macro every ROCm build of the file defines that the file itself tests (its own style);
3. the project's ROCm build macro (`GGML_USE_HIP`, `MAGMA_HAVE_HIP`), defined in every ROCm build
   of the file;
4. `USE_ROCM` where the file is built through PyTorch (its own build, and `cpp_extension` since
   PyTorch 1.11, pass `-DUSE_ROCM=1` to every ROCm compile);
5. HIP's own `__HIP_PLATFORM_AMD__`, where a HIP header the file includes before the guard makes
   it certain: HIP's headers stop a ROCm compile with `#error` unless it is defined (clang in HIP
   mode defines it in `hip_common.h`, a host compiler needs it passed), or where the build defines it.

Where nothing says anything about a ROCm build (a lone file, standard input, a project whose build
files never name HIP, ROCm or hipify: a port, spec §13.4), the default `USE_ROCM` stays, the
macro a port will define. A project with a ROCm build where no macro is certain for the file gets
no R: its findings carry no fix, and say which key to set.

RV is `rocm-version-macro` from the configuration, `ROCM_VERSION` where the build defines it (or
in a port), else HIP's `HIP_VERSION` where a HIP header that includes `hip/hip_version.h` comes
before the guard, else none: no rocm-min form is offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from .platform_names import ROCM, build_macro
from .profile import TORCH_MODEL, FileAnalysis as _Analysed


class FileAnalysis(_Analysed, Protocol):
    """What this module reads of an analysed file (`analysis.FileAnalysis`)."""

    name_counts: dict[str, int]

    def kept(self, key: object, make: Callable[[], object]) -> object: ...

ROCM_SCALE, HIP_SCALE = "rocm", "hip"  # major*10000+minor*100+patch; major*10^7+minor*10^5+patch
PLATFORM_MACRO = "__HIP_PLATFORM_AMD__"
OLD_PLATFORM_MACRO = "__HIP_PLATFORM_HCC__"  # R only where the build defines it (gloo, CuPy): ROCm 6 does not
TORCH_MACRO = "USE_ROCM"
HIP_VERSION = "HIP_VERSION"
# HIP 6.3's headers that stop a compile with "Must define exactly one of __HIP_PLATFORM_AMD__ or
# __HIP_PLATFORM_NVIDIA__" unless a platform macro is defined, and those that include them
# (third_party/hip-headers; tests/test_rewrite_macros.py checks the list against them) ...
PLATFORM_HEADERS = frozenset({
    "hip/channel_descriptor.h", "hip/device_functions.h", "hip/driver_types.h", "hip/hip_bf16.h",
    "hip/hip_bfloat16.h", "hip/hip_complex.h", "hip/hip_cooperative_groups.h", "hip/hip_ext.h", "hip/hip_fp16.h",
    "hip/hip_hcc.h", "hip/hip_math_constants.h", "hip/hip_runtime.h", "hip/hip_runtime_api.h",
    "hip/hip_texture_types.h", "hip/hip_vector_types.h", "hip/hiprtc.h", "hip/library_types.h",
    "hip/math_functions.h", "hip/surface_types.h", "hip/texture_types.h",
})
# ... and the ROCm libraries' headers, which include hip/hip_runtime_api.h first.
PLATFORM_LIBRARIES = ("hipblas", "hipblaslt", "hipfft", "hiprand", "hipsparse", "hipsparselt", "hipsolver", "hipcub",
                      "rocblas", "rocprim", "rocrand", "rocsparse", "rocsolver", "rocfft", "rccl", "miopen")
# HIP 6.3's headers that include hip/hip_version.h (HIP_VERSION), with it.
VERSION_HEADERS = frozenset({
    "hip/device_functions.h", "hip/hip_bfloat16.h", "hip/hip_cooperative_groups.h", "hip/hip_ext.h",
    "hip/hip_hcc.h", "hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip/hip_version.h", "hip/math_functions.h",
})
_CONFIGURED, _OWN, _SWITCH, _TORCH, _HIP = range(5)
_AMD_WORDS = frozenset({"ROCM", "AMD", "HCC", "AMDGPU"})  # words that name AMD's platform, not HIP in general  # the tiers of the module doc, best first


class Macro(NamedTuple):
    """A macro the rewrite tests, with why every ROCm build of the file defines it there."""

    name: str
    evidence: str
    scale: str = ""  # a version macro's encoding: ROCM_SCALE or HIP_SCALE


NO_VERSION_MACRO = "no ROCm version macro is defined for this file (set `rocm-version-macro`)"


class RewriteMacros(NamedTuple):
    """R and RV for one guard (None: no such macro is certain there), and why R is missing."""

    rocm: Macro | None
    version: Macro | None
    missing: str = ""

    def version_number(self, version: tuple[int, int, int]) -> int | None:
        """`version` (a ROCm release) on RV's scale; None without RV, or for a patch release on
        HIP_VERSION's scale, whose patch field is HIP's build number, not the release's."""
        if self.version is None:
            return None
        major, minor, patch = version
        if self.version.scale == HIP_SCALE:
            return None if patch else major * 10_000_000 + minor * 100_000
        return major * 10000 + minor * 100 + patch


class _Candidate(NamedTuple):
    name: str
    evidence: str
    tier: int = 0
    after: int = -1  # certain only past this offset (an #include); -1: everywhere
    scale: str = ROCM_SCALE  # a version macro's


def rewrite_macros(file: FileAnalysis, offset: int) -> RewriteMacros:
    """R and RV for the guard at `offset` (module doc)."""
    rocm, versions, missing = _candidates(file)
    counts = file.name_counts
    chosen = min((c for c in rocm if c.after < offset), key=lambda c: (c.tier, -counts.get(c.name, 0), c.name),
                 default=None)
    version = next((c for c in versions if c.after < offset), None)
    return RewriteMacros(Macro(chosen.name, chosen.evidence) if chosen else None,
                         Macro(version.name, version.evidence, version.scale) if version else None,
                         "" if chosen else missing)


def _candidates(file: FileAnalysis) -> tuple[list[_Candidate], list[_Candidate], str]:
    """The file's R and RV candidates (RV in order of preference), and why R may be missing."""
    return file.kept(_candidates, lambda: _collect(file))  # type: ignore[return-value]


def _collect(file: FileAnalysis) -> tuple[list[_Candidate], list[_Candidate], str]:
    settings = file.settings
    macros, profile = settings.macros, settings.profile
    rocm: list[_Candidate] = []
    versions: list[_Candidate] = []
    if macros.rocm_macro_configured:
        rocm.append(_Candidate(macros.rocm_macro, f"the configuration's `rocm-macro` ({macros.rocm_macro})", _CONFIGURED))
    if macros.rocm_version_macro_configured:
        versions.append(_Candidate(macros.rocm_version_macro, "the configuration's `rocm-version-macro`"))
    torch = bool(file.rocm_models) and all(model.name.split("@")[0] == TORCH_MODEL for model in file.rocm_models)
    extension = torch and file.platforms.torch_extension  # cpp_extension: no ROCM_VERSION (PyTorch's CMake has it)
    if not profile.rocm_build and not extension:
        port = "nothing in the project's build files builds for HIP or ROCm: checked as a port, which defines it"
        rocm.append(_Candidate(macros.rocm_macro, port, _CONFIGURED))
        versions.append(_Candidate(macros.rocm_version_macro, port))
    elif torch and not extension and macros.rocm_version_macro == "ROCM_VERSION":
        versions.append(_Candidate("ROCM_VERSION", "PyTorch's own build defines it (cmake/public/LoadHIP.cmake)"))
    tested = file.name_counts
    for define in settings.rocm_defines:
        tier = _tier(define.name, tested, bool(profile.hip_on_nvidia))
        if tier is not None:
            rocm.append(_Candidate(define.name, f"every ROCm build of the file defines it: {define.evidence}", tier))
        if define.name == macros.rocm_version_macro and define.name == "ROCM_VERSION":
            versions.append(_Candidate(define.name, f"the ROCm build defines it: {define.evidence}"))
    configured = {define.name: define.evidence for define in profile.configured_rocm}
    reached = dict(settings.header_reached)
    for name in sorted(settings.header_rocm_only):
        tier = _tier(name, tested, bool(profile.hip_on_nvidia))
        if tier is not None:
            why = (f"{reached[name]} in every ROCm build: {configured[name]}" if name in configured and name in reached
                   else "a project header it includes defines it in every ROCm build")
            rocm.append(_Candidate(name, why, tier))
    if torch:
        rocm.append(_Candidate(TORCH_MACRO, f"{file.platforms.models_reason or 'PyTorch builds it'}: every ROCm build "
                                            "through PyTorch defines it (cpp_extension: -DUSE_ROCM=1)", _TORCH))
    hip_compiled = file.platforms.hip_compiled
    if hip_compiled and not any(candidate.name == HIP_VERSION for candidate in versions):
        versions.append(_Candidate(HIP_VERSION, f"clang compiles the file in HIP mode ({hip_compiled}), whose HIP "
                                                "wrapper header includes hip/hip_version.h", scale=HIP_SCALE))
    rocm += _from_includes(file, versions, hip_compiled)
    missing = ("no macro is defined in every ROCm build of this file by its build files; set `rocm-macro` "
               "(or `rocm-build-macros`) in the configuration to the macro its ROCm build defines")
    return rocm, versions, missing


def is_rewrite_macro(name: str) -> bool:
    """Whether a macro every ROCm build defines says "this is ROCm": a ROCm build switch by its name
    (`GGML_USE_HIP`, `USE_ROCM`) or HIP's platform macro; not a feature switch (`HIPBLAS_V2`)."""
    switch = build_macro(name)
    return name in (PLATFORM_MACRO, OLD_PLATFORM_MACRO) or switch is not None and switch.side == ROCM


def _tier(name: str, tested: dict[str, int], hip_on_nvidia: bool = False) -> int | None:
    """How a macro every ROCm build defines ranks as R (None: it does not say "ROCm"; nor does a
    macro named for HIP alone where the project also builds HIP for NVIDIA GPUs)."""
    if not is_rewrite_macro(name) or hip_on_nvidia and name != PLATFORM_MACRO and not _AMD_WORDS & set(
            name.upper().split("_")):
        return None
    if tested.get(name):
        return _OWN
    return _HIP if name in (PLATFORM_MACRO, OLD_PLATFORM_MACRO) else _SWITCH


def _from_includes(file: FileAnalysis, versions: list[_Candidate], hip_compiled: str) -> list[_Candidate]:
    """`__HIP_PLATFORM_AMD__` past the first HIP header the file includes where every ROCm model
    goes, and HIP_VERSION past the first that brings hip/hip_version.h. The platform macro is
    certain there in clang's HIP mode (hip_common.h defines it) and from ROCm 6.0 on (the headers
    refuse to compile without it); a host compile on ROCm 4.2-5.7 may have only
    `__HIP_PLATFORM_HCC__`, which those headers accepted instead."""
    found: list[_Candidate] = []
    min_rocm = file.settings.min_rocm
    platform = not hip_compiled and (min_rocm is None or min_rocm < (6, 0, 0))  # (not certain: not looked for)
    version = any(candidate.name == HIP_VERSION for candidate in versions)
    for directive in file.scan.directives:
        if directive.kind != "include" or platform and version:
            continue
        header = file.data[directive.argument[0] : directive.argument[1]].strip().strip(b'<>"').decode("latin-1")
        brings_platform = header in PLATFORM_HEADERS or header.split("/")[0].split(".")[0] in PLATFORM_LIBRARIES
        if not (brings_platform and not platform or header in VERSION_HEADERS and not version):
            continue
        arm = file.tree.enclosing(directive.hash)
        if not all(file.local_macros.taken(arm, model, file.path_below_guard) for model in file.rocm_models):
            continue
        line = file.lines.line_of(directive.hash)
        if brings_platform and not platform:
            platform = True
            tier = _OWN if file.name_counts.get(PLATFORM_MACRO) else _HIP
            why = "clang's HIP mode" if hip_compiled else "min-rocm is 6.0 or newer"
            found.append(_Candidate(PLATFORM_MACRO, f"line {line} includes <{header}>, which ROCm compiles only with "
                                                    f"it defined ({why})", tier, directive.hash))
        if header in VERSION_HEADERS and not version:
            version = True
            versions.append(_Candidate(HIP_VERSION, f"line {line} includes <{header}>, which defines it",
                                       after=directive.hash, scale=HIP_SCALE))
    return found
