"""Which builds a build file's condition holds in: only ROCm ones, only the others, or not known.

A condition's *platform* is ROCM when it holds only in ROCm builds (`if(USE_ROCM)`, `if
IS_HIP_EXTENSION:`) and CUDA when it never holds in a ROCm build (`if(USE_CUDA)`, the `else` of a
ROCm test); None when it may hold in either (`if(USE_CUDA OR USE_ROCM)`, `if(BUILD_TESTS)`).
`always` says it holds in *every* build of that platform: it selects the platform and nothing else
(`if(USE_ROCM)`, not `if(USE_ROCM AND USE_RCCL)` nor `if(GGML_HIP_GRAPHS)`). Unknown is never
guessed: a contradiction (ROCm and CUDA at once) or anything not understood is None.

Names are read by their words (`GGML_HIP_NO_VMM` -> ggml, hip, no, vmm; `CUDAToolkit_FOUND` ->
cuda, toolkit, found): a name with a ROCm word (hip, rocm, hcc, amd, amdgpu, hipcc) or a CUDA word
(cuda, nvcc, nvidia) tests that platform, unless it names both or the word right before the
platform word negates it (`SKIP_CUDA_BUILD`, `FORCE_NO_CUDA`). It *selects* the platform (so
`always`) when it is the platform word after at most a project prefix and a verb (`USE_ROCM`,
`GGML_HIP`, `MFEM_USE_HIP`, `KOKKOS_ENABLE_HIP`, `is_rocm_pytorch`, `IS_HIP_EXTENSION`). Two kinds of
name hold in every ROCm build without selecting it: a ROCm package found (`HIP_FOUND`,
`hip_FOUND`: no ROCm build goes without it) and a GPU build's switch (`FAISS_ENABLE_GPU`,
`USE_GPU`: every CUDA and every ROCm build is a GPU build), which holds like no condition at all.
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache

from ..core.records import record

ROCM, CUDA = "rocm", "cuda"

ROCM_WORDS = frozenset({"hip", "rocm", "hcc", "amd", "amdgpu", "hipcc"})
CUDA_WORDS = frozenset({"cuda", "nvcc", "nvidia"})
_SELECTING = {ROCM: frozenset({"hip", "rocm", "amd"}), CUDA: frozenset({"cuda", "nvidia"}), "gpu": frozenset({"gpu"})}
_COMPILERS = frozenset({"clang"})  # a compiler named between the verb and the platform
_VERBS = frozenset({"use", "enable", "enabled", "have", "has", "with", "build", "is", "using", "for", "on"})
_TRAILERS = frozenset({"pytorch", "torch", "extension", "build", "backend", "enabled", "mode", "target", "variant",
                       "lang", "language", "on"})
_TOOLKIT = frozenset({"found", "toolkit", "compiler", "version", "ver", "home", "path", "root", "dir", "arch", "archs",
                      "architectures", "nvcc", "cudart", "major", "minor", "sdk", "bin"})
_GPU = "gpu"
_CUDA_LIBRARIES = {"cublas": "cuBLAS", "cublaslt": "cuBLASLt", "cusparse": "cuSPARSE", "cusolver": "cuSOLVER",
                   "curand": "cuRAND", "cufft": "cuFFT", "cudnn": "cuDNN", "cupti": "CUPTI"}
_LIBRARY_FILLERS = frozenset({"tpl", "lib", "library"})
_NEGATIONS = frozenset({"no", "not", "skip", "disable", "disabled", "without", "exclude", "non", "nothing"})
_WORD = re.compile(r"[A-Z][A-Z0-9]*(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z0-9]+")  # amd64 and x86 stay whole


@record(slots=True)
class Holds:
    """Where a condition holds: `platform` ROCM, CUDA or None; `always`: in every build of it."""

    platform: str | None
    always: bool

    @property
    def known(self) -> bool:
        """Whether the condition holds only in builds of one platform."""
        return self.platform is not None


TOP = Holds(None, True)  # no condition at all: every build
UNKNOWN = Holds(None, False)
ROCM_ALL, ROCM_SOME = Holds(ROCM, True), Holds(ROCM, False)
CUDA_ALL, CUDA_SOME = Holds(CUDA, True), Holds(CUDA, False)


def both(left: Holds, right: Holds) -> Holds:
    """`left AND right`."""
    if left == TOP:
        return right
    if right == TOP:
        return left
    if left.platform and right.platform and left.platform != right.platform:
        return UNKNOWN  # a contradiction: not guessed
    platform = left.platform or right.platform
    return Holds(platform, platform is not None and left.always and right.always)


def either(left: Holds, right: Holds) -> Holds:
    """`left OR right`."""
    if TOP in (left, right):
        return TOP
    if left.platform is None or left.platform != right.platform:
        return UNKNOWN
    return Holds(left.platform, left.always or right.always)


def negated(holds: Holds) -> Holds:
    """`NOT holds`: only "not every ROCm build" is a platform (CUDA: it never holds on ROCm)."""
    return CUDA_ALL if holds == ROCM_ALL else UNKNOWN


@record(slots=True)
class Context:
    """The conditions around a command: where they hold, and their texts (outermost first) for the reader."""

    holds: Holds
    parts: tuple[str, ...] = ()

    @property
    def condition(self) -> str:
        """The conditions as one text: `if(USE_ROCM) and if(HAVE_HIP)` ("" for none)."""
        return " and ".join(self.parts)

    def within(self, holds: Holds, text: str) -> Context:
        """This context inside one more condition."""
        if holds == TOP:
            return self
        return Context(both(self.holds, holds), self.parts if text in self.parts else self.parts + (text,))

    def joined(self, other: Context) -> Context:
        """Both contexts at once (a condition both are under is shown once)."""
        if other is self or (other.holds == TOP and not other.parts):
            return self
        if other.parts == self.parts:
            return Context(both(self.holds, other.holds), self.parts)
        parts = self.parts + tuple(part for part in other.parts if part not in self.parts)
        return Context(both(self.holds, other.holds), parts)


EVERYWHERE = Context(TOP)


# ("atom", Holds) | ("test", (Holds, its negation's Holds)) | ("not", Condition) | ("and", (Condition, ...))
# | ("or", (Condition, ...))
Condition = tuple


def atom(holds: Holds) -> Condition:
    """A test whose builds are known directly (its negation's by `negated`)."""
    return ("atom", holds)


def two_sided(holds: Holds, negation: Holds) -> Condition:
    """A test whose builds and whose negation's builds are both known directly (`negated` cannot
    tell them: `CMAKE_HIP_COMPILER_ID STREQUAL "NVIDIA"` holds in no ROCm build, its negation in all)."""
    return ("test", (holds, negation))


def holds_of(condition: Condition, negate: bool = False) -> Holds:
    """Where `condition` (or its negation) holds; negations are pushed down to the tests (De Morgan)."""
    kind, operand = condition
    if kind == "atom":
        return negated(operand) if negate else operand
    if kind == "test":
        return operand[1] if negate else operand[0]
    if kind == "not":
        return holds_of(operand, not negate)
    combine = both if (kind == "and") != negate else either
    result = None
    for part in operand:
        value = holds_of(part, negate)
        result = value if result is None else combine(result, value)
    return UNKNOWN if result is None else result


@lru_cache(maxsize=8192)
def words(name: str) -> tuple[str, ...]:
    """The lower-case words of an identifier, split at `_`, `-`, `.`, other punctuation and camel case."""
    return tuple(word.lower() for word in _WORD.findall(name.replace("ROCm", "Rocm")))


@lru_cache(maxsize=8192)
def name_holds(name: str, cuda_selectors: bool = True) -> Holds:
    """Where a test of the name's truth holds (`if(NAME)`, `if name:`), from its words.

    A CUDA name that does not select the platform tests CUDA only when it names the toolkit
    (`CUDAToolkit_FOUND`, `CUDA_HOME`, `CMAKE_CUDA_COMPILER`, `CUTLASS_NVCC_ARCHS`): ROCm builds
    also read CUDA-named options (ggml's HIP build reads `GGML_CUDA_FORCE_MMQ`). Without
    `cuda_selectors` (setup.py, where "CUDA" often means any GPU PyTorch drives: `WITH_CUDA =
    CUDA_HOME is not None or torch.version.hip`), not even `USE_CUDA` selects CUDA.
    """
    parts = words(name)
    if not parts:
        return UNKNOWN
    if _GPU in parts and _selects(parts, parts.index(_GPU), _GPU):
        return TOP  # every GPU build, CUDA or ROCm (`FAISS_ENABLE_GPU`)
    rocm = [index for index, word in enumerate(parts) if word in ROCM_WORDS]
    cuda = [index for index, word in enumerate(parts) if word in CUDA_WORDS]
    if bool(rocm) == bool(cuda):
        return UNKNOWN
    platform, places = (ROCM, rocm) if rocm else (CUDA, cuda)
    if any(index > 0 and parts[index - 1] in _NEGATIONS for index in places):
        return UNKNOWN
    selects = _selects(parts, places[-1], platform)
    if platform == CUDA and not (selects and cuda_selectors):
        return CUDA_SOME if _TOOLKIT.intersection(parts) else UNKNOWN
    return Holds(platform, selects or parts[places[-1] + 1 :] == ("found",))


def cuda_library_switch(name: str) -> str | None:
    """The CUDA library a name switches on (`KOKKOSKERNELS_ENABLE_TPL_CUSPARSE`, `PROJ_USE_CUBLAS`:
    a verb, maybe `tpl` or `lib`, then the library), or None. No ROCm installation has these
    libraries (ROCm's are rocSPARSE, hipBLAS ...), so no native ROCm build turns such a switch on."""
    parts = words(name)
    verbs = [index for index, word in enumerate(parts) if word in _VERBS]
    if not verbs:
        return None
    rest = [word for word in parts[verbs[-1] + 1 :] if word not in _LIBRARY_FILLERS]
    return _CUDA_LIBRARIES.get(rest[0]) if len(rest) == 1 else None


@lru_cache(maxsize=4096)
def compiler_holds(name: str) -> Holds:
    """Where flags named for one compiler go (`CMAKE_HIP_FLAGS`, `CUDA_NVCC_FLAGS`, `HIPCC_FLAGS`): all its builds."""
    parts = set(words(name))
    rocm, cuda = bool(parts & ROCM_WORDS), bool(parts & CUDA_WORDS)
    if rocm != cuda:
        return ROCM_ALL if rocm else CUDA_ALL
    return TOP


def _selects(parts: tuple[str, ...], place: int, platform: str) -> bool:
    """[prefix] [verb] PLATFORM [trailer]: the name says which platform the build is for."""
    if parts[place] not in _SELECTING[platform] or len(parts) - place > 2:
        return False
    if len(parts) - place == 2 and parts[place + 1] not in _TRAILERS:
        return False
    before = parts[:place]
    if len(before) >= 2 and before[-1] in _COMPILERS and before[-2] in _VERBS:
        before = before[:-1]  # BLT's `ENABLE_CLANG_CUDA`: CUDA compiled by clang
    return len(before) <= 1 or (len(before) == 2 and before[1] in _VERBS)


def hip_on_nvidia_test(name: str, value: str) -> Condition | None:
    """`CMAKE_HIP_COMPILER_ID STREQUAL "NVIDIA"`, `HIP_PLATFORM STREQUAL "nvidia"` (ginkgo's
    cmake/hip.cmake): whether a HIP build is for NVIDIA GPUs, which is no ROCm build (HIP on NVIDIA
    compiles with nvcc); its negation holds in every ROCm build, whose HIP compiler is AMD's clang
    (and in every build without HIP). None for any other comparison."""
    named, valued = set(words(name)), words(value)
    if "hip" in named and ("platform" in named or {"compiler", "id"} <= named) and valued in (("nvidia",), ("nvcc",)):
        return two_sided(CUDA_SOME, TOP)
    return None


@lru_cache(maxsize=4096)
def value_holds(text: str) -> Holds:
    """Where a value names a platform: `"HIP"`, `rocm`, `BUILD_VARIANT_ROCM`, `"cuda"` select one,
    `hipcc` or `nvcc` only test it; UNKNOWN for any other value."""
    parts = words(text)
    if not parts or len(parts) > 4:
        return UNKNOWN
    last = parts[-1]
    for platform, own, other in ((ROCM, ROCM_WORDS, CUDA_WORDS), (CUDA, CUDA_WORDS, ROCM_WORDS)):
        if last in own and not other.intersection(parts):
            return Holds(platform, last in _SELECTING[platform])
    return UNKNOWN


def compared_holds(name: str, value: str, equal: bool, contrasted: Container[str] | None = None,
                   cuda_selectors: bool = True) -> Holds:
    """Where `name == value` (or `!=` when not `equal`) holds: a selection when the value names a platform.

    `"cuda"` selects CUDA only for a name the build also compares with a ROCm value (`contrasted`:
    `BUILD_TARGET == "rocm"` beside `BUILD_TARGET == "cuda"`); alone it may mean any GPU
    (pytorch_scatter's `suffix == 'cuda'` also builds for ROCm).
    """
    valued, named = value_holds(value), name_holds(name, cuda_selectors)
    if not valued.known:  # `FORCE_CUDA == "1"`: a test of the name, never the platform's selection
        return Holds(named.platform, False) if equal and named.known else UNKNOWN
    if named.known and named.platform != valued.platform:
        return UNKNOWN
    if valued.platform == CUDA and not named.known and contrasted is not None and name not in contrasted:
        return UNKNOWN
    holds = Holds(valued.platform, valued.always and (not named.known or named.always))
    return holds if equal else negated(holds)
