"""HG201, HG202, HG905: CUDA version checks in C++ code, read with libclang (spec §10).

libclang is asked only about files that mention a version API or a CUDA version macro outside
directives, in code some ROCm model compiles (`rocm_code.code_mentions`). It parses the file's
ROCm view (`rocm_code.rocm_view`), once per file for both rules; its front end (`clang_front`,
with ctypes) and what reads the parses (`version_flow`) are imported for the first such file. When
libclang cannot be loaded, HG905 says so once (on the first file that needed it) and the other
rules run as usual.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..core.records import record
from ..core.findings import Finding
from ..cpp.version_getters import VERSION_GETTERS
from ..model.analysis import FileAnalysis
from ..model.platforms import Platform
from ..model.rocm_code import code_mentions, rocm_view
from ..model.settings import Settings
from .registry import check, cuda_version_macros

if TYPE_CHECKING:
    from ..cpp.clang_front import Parsed
    from ..model.version_flow import VersionUse

# What each CUDA getter returns, and the HIP call hipify turns it into.
SCALES = {
    "cudaRuntimeGetVersion": ("CUDA's scale, major*1000 + minor*10", "hipRuntimeGetVersion"),
    "cudaDriverGetVersion": ("CUDA's scale, major*1000 + minor*10", "hipDriverGetVersion"),
    "cuDriverGetVersion": ("CUDA's scale, major*1000 + minor*10", "hipDriverGetVersion"),
    "cusparseGetVersion": ("cuSPARSE's numbering", "hipsparseGetVersion"),
    "cufftGetVersion": ("cuFFT's numbering", "hipfftGetVersion"),
    "curandGetVersion": ("cuRAND's numbering", "hiprandGetVersion"),
    "nvrtcVersion": ("CUDA's major and minor", "hiprtcVersion"),
}
HIP_SCALE = "HIP's major*10^7 + minor*10^5 + patch"
GETTER_TRIGGERS = ("GetVersion", "nvrtcVersion")


@record(frozen=False, slots=True)
class _Front:
    """One file's libclang parse (or why there is none) and the offset that asked for it."""

    parsed: Parsed | None
    bodies: bool
    error: str = ""
    first_use: int = 0
    per_file: bool = False  # the error is about this file, not about loading libclang


_fronts: WeakKeyDictionary[FileAnalysis, _Front] = WeakKeyDictionary()
_reported: dict[str, str] = {}  # "filename": the one file that carries HG905 in this process


def front(file: FileAnalysis, names: Iterable[str], *, bodies: bool) -> Parsed | None:
    """The parse of the file's ROCm view, if `names` occur in its ROCm code and libclang works."""
    known = _fronts.get(file)
    if known is not None and (known.bodies or not bodies):
        return known.parsed
    mentions = code_mentions(file, names)
    if not mentions:
        return None
    from ..cpp.clang_front import Parsed, ParseFailure, Unavailable

    try:
        _fronts[file] = _Front(Parsed(rocm_view(file), bodies=bodies), bodies)
    except Unavailable as error:
        _fronts[file] = _Front(None, True, str(error), mentions[0], isinstance(error, ParseFailure))
    return _fronts[file].parsed


def _getters(settings: Settings) -> Iterable[str]:
    """Substrings of every getter name: two prefilter passes instead of nine (measured 74 vs
    245 ms on the CUDA and torch headers); a file they admit without a getter stops at the gate."""
    return GETTER_TRIGGERS


@check("HG201", _getters)
def runtime_version_comparison(file: FileAnalysis) -> Iterator[Finding]:
    """A value from a CUDA (or HIP) version API compared with a constant on CUDA's scale."""
    parsed = front(file, VERSION_GETTERS, bodies=True)
    if parsed is None:
        return
    from ..cpp.clang_front import ParseFailure
    from ..model.version_flow import version_uses

    try:
        uses = list(version_uses(parsed))
    except ParseFailure as error:
        _fronts[file] = _Front(None, True, str(error), code_mentions(file, VERSION_GETTERS)[0], per_file=True)
        return
    for use in uses:
        text = " ".join(file.text(use.start, use.end).split())
        yield Finding("HG201", _use_message(text, use), use.start, use.end, anchor=text)


def _use_message(text: str, use: VersionUse) -> str:
    from ..model.version_flow import RUNTIME_GETTERS

    shown = text if len(text) <= 60 else text[:57] + "..."
    if use.getter.startswith("hip"):
        source = f"`{use.getter}` (on ROCm: {HIP_SCALE})"
        rocm = "the constant is on CUDA's scale"
    else:
        meaning, hip = SCALES[use.getter]
        source = f"`{use.getter}` ({meaning})"
        scale = HIP_SCALE if use.getter in RUNTIME_GETTERS else "the HIP library's own numbering"
        rocm = f"on ROCm the hipified `{hip}` returns {scale}"
    if use.operator in ("/", "%"):
        return f"`{shown}` takes apart a version from {source} by CUDA's scale; {rocm}"
    return f"`{shown}` compares a version from {source} with {use.constant}; {rocm}"


@check("HG202", cuda_version_macros)
def cuda_version_macro_in_code(file: FileAnalysis) -> Iterator[Finding]:
    """A CUDA version macro used outside directives, in code that ROCm compiles."""
    names = sorted(file.settings.macros.cuda_version_macros)
    parsed = front(file, names, bodies=False)
    if parsed is None:
        return
    from ..cpp.clang_front import IDENTIFIER

    tokens = parsed.tokens
    for start in code_mentions(file, names):  # the token that starts there, unless a comment or string
        index = tokens.index_at(start)
        if index == len(tokens.starts) or tokens.starts[index] != start or tokens.kinds[index] != IDENTIFIER:
            continue
        end = start + tokens.lengths[index]
        name = file.text(start, end)
        models = file.rocm_models_at(start)
        line = " ".join(file.lines.line_text(file.lines.line_of(start)).split())
        yield Finding("HG202", _macro_message(name, models, port=not file.settings.profile.rocm_build), start, end,
                      anchor=line)


def _macro_message(name: str, models: list[Platform], port: bool) -> str:
    fates: dict[str, list[str]] = {}
    for model in models:
        fates.setdefault(_fate(name, model), []).append(model.title)
    said = "; ".join(f"{fate} ({', '.join(titles)})" for fate, titles in fates.items())
    where = "a ROCm port would compile" if port else "ROCm compiles"  # (spec §13.4: a port has no ROCm build yet)
    return f"`{name}` is used in code that {where}: {said}"


def _fate(name: str, model: Platform) -> str:
    if name in model.renames:
        return f"it becomes `{model.renames[name]}`, a HIP version on another scale, or is undefined"
    if name in model.fixed and model.fixed[name] is None:
        return "it is undefined there, so this does not compile"
    if name in model.fixed:
        return f"it is {model.fixed[name]!r} there, not a CUDA version"
    return "it may be undefined there"


@check("HG905")  # no trigger names: it runs on any file another rule looks at
def libclang_unavailable(file: FileAnalysis) -> Iterator[Finding]:
    """libclang was needed for this file (HG201/HG202) but could not be loaded or parse it.

    Runs after HG201 and HG202 (codes run in order), which record the failure.
    """
    known = _fronts.get(file)
    if known is None or not known.error:
        return
    if known.per_file:
        message = f"HG201 and HG202 are not checked in this file: {known.error}"
    elif _reported.setdefault("filename", file.filename) == file.filename:
        message = f"libclang is unavailable, so HG201 and HG202 are not checked in this run: {known.error}"
    else:
        return
    yield Finding("HG905", message, known.first_use, known.first_use)
