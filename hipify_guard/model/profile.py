"""The platforms one file is judged under (spec §11.1): the configured models, refined by what the
project and the file itself say about its builds.

- The project's build macros: configured (`rocm-build-macros`, `cuda-build-macros`), read from
  its build files, or inferred from their names (`platform_names`) and from how the file uses them:
  a CUDA-side name is the CUDA build's when the project shows the ROCm side of the same prefix or
  an `#if defined(X_CUDA) ... #elif defined(X_HIP)` chain says so, and never when a condition
  tests it together with a ROCm macro (`defined(USE_CUDA) && !defined(USE_ROCM)`: PyTorch's
  ROCm builds define USE_CUDA too). ROCm-side names are defined in every ROCm model and undefined
  on CUDA; CUDA-side build macros are undefined in every ROCm model.
- NVIDIA's compiler macros (`__NVCC__`, `__CUDACC_RTC__`, `__CUDA_ARCH__`, ...) are undefined on
  every ROCm route, unless a model defines them (ggml's HIP build defines `__CUDA_ARCH__`).
- A file with device code (`__global__`, `<<<`, `__device__` in code, or a `.cu`/`.hip` file) is
  compiled by hipcc on ROCm: `__HIPCC__` and `__HIP__` are defined for it.
- Definitions the ROCm build makes (`-D__HIP_PLATFORM_HCC__=1` in CuPy's and gloo's builds).
- The built-in models (spec §11.4): a file that includes PyTorch's headers (`torch/`, `ATen/`,
  `c10/`), or any file of a project built through PyTorch's hipify, is judged under
  `torch-hipify` only, with TORCH_HIP_VERSION undefined unless the project is PyTorch itself (an
  extension's build does not define it); a file of a project that never uses it, under `hip`
  only (unless the configuration names the models).

What the configuration or a model fixes is never overridden by inference.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..core.records import record
from ..cpp.nodes import Binary, Defined, Identifier, Node, Number, Paren, Unary, children
from .platform_names import CUDA, ROCM, build_macro, is_nvidia_compiler_macro
from .platforms import UNDEFINED, Platform
from .project_profile import ProjectProfile

if TYPE_CHECKING:
    from ..core.source import LineIndex
    from ..cpp.groups import Arm, GroupTree
    from ..cpp.scanner import Scan
    from .platforms import Term
    from .settings import Settings


class FileAnalysis(Protocol):
    """What the profile reads of an analysed file (`analysis.FileAnalysis`)."""

    filename: str
    data: bytes
    settings: Settings
    scan: Scan
    tree: GroupTree
    lines: LineIndex

    def condition(self, arm: Arm):  # noqa: ANN201 - returns analysis.Condition
        """The parsed condition of an arm."""

Value = "int | str | None"
_DEVICE_MARKERS = (b"__global__", b"<<<", b"__device__")
_TORCH_HEADERS = (b"torch/", b"ATen/", b"c10/")
_HIP_HEADERS = (b"hip/", b"hipblas", b"hipfft", b"rocblas", b"hiprand")
# HIP's own macros (`__HIP_ARCH_HAS_WARP_SHUFFLE__`, `__HIP_DEVICE_COMPILE__`, `__HIPCC_RTC__`):
# HIP's headers and compilers define them, so a test of one is a test of ROCm.
_HIP_OWN = ("__HIP",)
HIP_MODEL, TORCH_MODEL = "hip", "torch-hipify"
BUILTIN_MODELS = (HIP_MODEL, TORCH_MODEL)
_DEVICE_EXTENSIONS = (".cu", ".hip")
COMPILER_DEFINED = ("__HIPCC__", "__HIP__")


class Judgement(NamedTuple):
    """How one macro was judged for a file, and why."""

    name: str
    rocm: int | str | None  # its value in every ROCm model (UNDEFINED: undefined there)
    reason: str
    switch: bool = False  # a ROCm build's switch: a test of it says explicitly what ROCm gets


@record
class FilePlatforms:
    """The CUDA platform and the ROCm models of one file, with the judgements that refined them."""

    cuda: Platform
    rocm_models: tuple[Platform, ...]
    judgements: tuple[Judgement, ...] = ()
    explicit_rocm: frozenset[str] = field(default_factory=frozenset)  # names whose test is an explicit ROCm test
    models_reason: str = ""  # why only some of the built-in models judge this file ("": all do)
    hip_compiled: str = ""  # why clang compiles it in HIP mode on ROCm (device code), "" when it may not
    torch_extension: bool = False  # built by PyTorch's cpp_extension: no TORCH_HIP_VERSION nor ROCM_VERSION


def file_platforms(file: FileAnalysis) -> FilePlatforms:
    """The platforms `file` is judged under (module doc)."""
    settings = file.settings
    profile = settings.profile
    judgements = [Judgement(define.name, define.value, f"every ROCm build of the file defines it: {define.evidence}",
                            switch=_is_rocm_switch(define.name))
                  for define in settings.rocm_defines if define.value is not None]
    known = {judgement.name for judgement in judgements}
    device = _device_code(file)
    judgements += [judgement for judgement in _judgements(file, profile, settings.header_cuda_only,
                                                          settings.header_rocm_only, device)
                   if judgement.name not in known]
    on_rocm = {j.name: j.rocm for j in judgements}
    rocm_side = frozenset(judgement.name for judgement in judgements if judgement.switch)
    macros = settings.macros
    hip_own = frozenset(name for name in _condition_names(file) if name.startswith(_HIP_OWN))
    explicit = macros.rocm_macros | {macros.rocm_macro, macros.rocm_version_macro} | rocm_side | hip_own
    cuda_fixed = {name: UNDEFINED for name in rocm_side}
    models, why, extension = _models(file, profile)
    chosen = [model for model in settings.rocm_models if models is None or model.name.split("@")[0] in models
              or model.name.split("@")[0] not in BUILTIN_MODELS]
    if extension:  # cpp_extension builds do not define TORCH_HIP_VERSION (spec §3)
        judgements.append(Judgement("TORCH_HIP_VERSION", UNDEFINED, "a PyTorch extension's build does not define it"))
    built = frozenset(name for name, _ in profile.build_definitions)
    refined = tuple(_refined(model, {**on_rocm, **({"TORCH_HIP_VERSION": UNDEFINED} if extension else {})}, built)
                    for model in chosen)
    return FilePlatforms(_refined(settings.cuda, cuda_fixed), refined, tuple(judgements), frozenset(explicit), why,
                         device, extension)


def _is_rocm_switch(name: str) -> bool:
    switch = build_macro(name)
    return switch is not None and switch.side == ROCM


def _models(file: FileAnalysis, profile: ProjectProfile) -> tuple[frozenset[str] | None, str, bool]:
    """The built-in models the file is judged under (None: every configured one), why, and
    whether it is built as a PyTorch extension, whose build leaves TORCH_HIP_VERSION undefined
    (every project that includes PyTorch's headers but PyTorch itself)."""
    if not profile.choose_models:
        return None, "", False
    extension = profile.hipify != "torch"
    for directive in file.scan.directives:
        if directive.kind == "include" and file.data[slice(*directive.argument)].lstrip(b'<"').startswith(_TORCH_HEADERS):
            line = file.lines.line_of(directive.hash)
            return frozenset({TORCH_MODEL}), f"PyTorch's hipify only: the file includes PyTorch's headers (line {line})", extension
    if profile.hipify in ("torch", "torch-extension"):
        return frozenset({TORCH_MODEL}), "PyTorch's hipify only: the project builds through it", extension
    scope = _torch_scope(file.filename, profile.torch_scopes)
    if scope:
        where = os.path.relpath(scope)
        return frozenset({TORCH_MODEL}), f"PyTorch's hipify only: the build file in {where} builds it through it", True
    if profile.hipify == "native":
        return frozenset({HIP_MODEL}), "native HIP only: the project does not build through PyTorch's hipify", False
    if profile.project and not profile.rocm_build and not profile.torch_scopes:
        return frozenset({HIP_MODEL}), "native HIP only: a port of a project that does not build with PyTorch", False
    return None, "", False


def _condition_names(file: FileAnalysis) -> set[str]:
    names: set[str] = set()
    for arm in file.tree.arm_of.values():
        condition = file.condition(arm).term if arm.directive.kind != "else" else None
        if condition is not None:
            names |= condition.names
    return names


def _torch_scope(filename: str, scopes: tuple[str, ...]) -> str:
    """The folder among `scopes` that holds the file ("" when none does)."""
    path = os.path.abspath(filename)
    return next((scope for scope in scopes if path.startswith(os.path.join(scope, ""))), "")


def _refined(platform: Platform, facts: Mapping[str, int | str | None], built: frozenset[str] = frozenset()) -> Platform:
    """`platform` with the facts it does not fix already (a model's own definitions win), but
    for what the project's ROCm build defines (`built`), which wins over a model's defaults
    (`add_compile_definitions(__HIP_PLATFORM_AMD__)` gives it the value 1), not over the facts of
    a compilation database."""
    new = {name: value for name, value in facts.items() if name not in platform.renames and (
        name not in platform.fixed or name in built and not platform.build)}
    if not new:
        return platform
    return dataclasses.replace(platform, fixed={**platform.fixed, **new})


def _judgements(file: FileAnalysis, profile: ProjectProfile, header_cuda_only: frozenset[str],
                header_rocm_only: frozenset[str], device: str) -> Iterator[Judgement]:
    configured_rocm = dict(profile.rocm_build_macros)
    where = dict(profile.evidence)
    for name in sorted(header_cuda_only):
        yield Judgement(name, UNDEFINED, "a project header it includes defines it only where ROCm never goes")
    for name in sorted(header_rocm_only):
        yield Judgement(name, 1, "a project header it includes defines it for every ROCm build", switch=True)
    for name, value in profile.build_definitions:
        yield Judgement(name, value, f"the ROCm build defines it: {where.get(name, 'configured')}",
                        switch=_is_rocm_switch(name))
    for name, value in configured_rocm.items():
        yield Judgement(name, value, f"the ROCm build's macro: {where.get(name, 'configured')}", switch=True)
    for name in sorted(profile.cuda_build_macros - configured_rocm.keys()):
        yield Judgement(name, UNDEFINED, "the CUDA build's macro: configured")
    if not profile.infer:
        return
    known = ({name for name, _ in profile.build_definitions} | configured_rocm.keys() | profile.cuda_build_macros
             | header_cuda_only | header_rocm_only)
    uses = _Uses(file)
    for name in sorted(profile.inferred_cuda_build - known):
        if name in uses.names and name not in uses.with_rocm:
            yield Judgement(name, UNDEFINED, f"only the CUDA build defines it: {where.get(name, 'build files')}")
    known |= profile.inferred_cuda_build
    for name in sorted(profile.retired_macros & uses.names - known):
        yield Judgement(name, UNDEFINED, f"no build defines it, only a comment does: {where.get(name, 'build files')}")
    known |= profile.retired_macros
    for name in sorted(uses.names - known):
        judged = _by_name(name, uses, profile)
        if judged is not None:
            yield judged
    yield from _selectors(file, known | uses.names & set(_fixed_names(file)))
    if device:
        for name in COMPILER_DEFINED:
            if name not in known:
                yield Judgement(name, 1, f"hipcc compiles this file: {device}")


def _fixed_names(file: FileAnalysis) -> Iterator[str]:
    """Names the file's own directives define (a selector the file sets is not chosen here)."""
    for directive in file.scan.directives:
        if directive.kind in ("define", "undef"):
            name = file.data[directive.argument[0] : directive.argument[1]].split(b"(")[0].split()
            if name:
                yield name[0].decode("latin-1")


def _selectors(file: FileAnalysis, known: set[str]) -> Iterator[Judgement]:
    """A backend selector: `#if (X == 0) ... #elif (X == 1) ... #elif (X == 2)`, whose one arm that
    includes HIP's headers holds in every ROCm build (vkFFT's VKFFT_BACKEND, which OpenMM's HIP
    platform sets to 2 before including it)."""
    chosen: dict[str, set[tuple[int, int]]] = {}
    for directive in file.scan.directives:
        header = file.data[directive.argument[0] : directive.argument[1]].lstrip(b'<"')
        arm = file.tree.enclosing(directive.hash) if directive.kind == "include" and header.startswith(_HIP_HEADERS) else None
        if arm is None or arm.directive.kind == "else":
            continue
        tests = [_selection(file.condition(member).term) for member in arm.conditional.arms if member.directive.kind != "else"]
        names = {test[0] for test in tests if test is not None}
        if None not in tests and len(tests) > 1 and len(names) == 1:
            name, value = _selection(file.condition(arm).term)
            chosen.setdefault(name, set()).add((value, file.lines.line_of(arm.directive.hash)))
    for name, choices in sorted(chosen.items()):
        values = {value for value, _ in choices}
        if len(values) == 1 and name not in known:
            line = min(line for _, line in choices)
            yield Judgement(name, values.pop(), f"the arm of line {line} selects HIP: it includes HIP's headers")


def _selection(condition: Term | None) -> tuple[str, int] | None:
    """(X, c) for a condition `X == c` or `c == X` (in parentheses or not), else None."""
    node = condition.node if condition is not None else None
    while isinstance(node, Paren):
        node = node.inner
    if not isinstance(node, Binary) or node.op != "==":
        return None
    for name, value in ((node.left, node.right), (node.right, node.left)):
        while isinstance(name, Paren):
            name = name.inner
        if isinstance(name, Identifier) and isinstance(value, Number):
            return name.name, value.value
    return None


def _by_name(name: str, uses: _Uses, profile: ProjectProfile) -> Judgement | None:
    if is_nvidia_compiler_macro(name):
        return Judgement(name, UNDEFINED, "only NVIDIA's compilers define it")
    switch = build_macro(name)
    if switch is None:
        return None
    if switch.side == ROCM:
        return Judgement(name, 1, "its name says it is the ROCm build's switch", switch=True)
    if name in uses.with_rocm or name in profile.rocm_may_define:
        return None  # tested together with a ROCm macro, or defined by a ROCm build: not the CUDA build's
    if name in uses.before_rocm:
        return Judgement(name, UNDEFINED, f"line {uses.before_rocm[name]} tests it before a ROCm arm of the same #if")
    if switch.prefix:
        pair = next((other for other in sorted(uses.rocm_switches | profile.platform_names)
                     if (build := build_macro(other)) and build.side == ROCM and build.prefix == switch.prefix), None)
        if pair is not None:
            return Judgement(name, UNDEFINED, f"the CUDA side of {pair} (one GPU backend per build)")
    return None


class _Uses:
    """How the file's conditions use each name: together with a ROCm macro, or in an arm before a
    ROCm arm of the same conditional."""

    def __init__(self, file: FileAnalysis) -> None:
        self.names: set[str] = set()
        self.with_rocm: set[str] = set()
        self.before_rocm: dict[str, int] = {}
        self._file = file
        self._collect()

    @cached_property
    def rocm_switches(self) -> frozenset[str]:
        """The ROCm-side build switches among the names."""
        return frozenset(name for name in self.names if (switch := build_macro(name)) and switch.side == ROCM)

    def _is_rocm(self, name: str) -> bool:
        macros = self._file.settings.macros
        if name in macros.rocm_macros or name == macros.rocm_macro:
            return True
        switch = build_macro(name)
        return switch is not None and switch.side == ROCM

    def _collect(self) -> None:
        """One pass over the conditionals, parents before children (the tree lists them so): each
        arm's path state is its parent's and its own (a file nests 10,000 deep)."""
        file = self._file
        # arm hash -> (CUDA-side switches the path plainly tests positively, whether it plainly tests a ROCm macro)
        paths: dict[int, tuple[frozenset[str], bool]] = {}
        for conditional in file.tree.conditionals:
            parent = paths.get(conditional.parent.directive.hash, (frozenset(), False)) if conditional.parent else (
                frozenset(), False)
            pending: list[tuple[str, int]] = []  # positive names of earlier arms, not yet before a ROCm arm
            for arm in conditional.arms:
                condition = file.condition(arm).term if arm.directive.kind != "else" else None
                if condition is None:
                    paths[arm.directive.hash] = parent
                    continue
                self.names |= condition.names
                tests = [test for part in _conjuncts(condition.node) if (test := _tested(part)) is not None]
                switches = parent[0] | _cuda_side(name for name, positive in tests if positive)
                rocm = parent[1] or any(self._is_rocm(name) for name, _ in tests)
                paths[arm.directive.hash] = (switches, rocm)
                if rocm and switches:  # `defined(USE_CUDA) && !defined(USE_ROCM)`, `#ifdef WITH_HIP` in `#ifdef WITH_CUDA`
                    self.with_rocm |= switches
                own_positive = set(_positive(condition.node))
                if any(self._is_rocm(name) for name in own_positive):
                    for name, at in pending:
                        self.before_rocm.setdefault(name, at)
                    pending = []
                line = file.lines.line_of(arm.directive.hash)
                pending += [(name, line) for name in own_positive]


def _cuda_side(names: Iterable[str]) -> frozenset[str]:
    return frozenset(name for name in names if (switch := build_macro(name)) and switch.side == CUDA)


def _conjuncts(node: Node) -> Iterator[Node]:
    """The operands of the top-level `&&` chain (through parentheses)."""
    stack = [node]
    while stack:
        item = stack.pop()
        while isinstance(item, Paren):
            item = item.inner
        if isinstance(item, Binary) and item.op == "&&":
            stack += [item.right, item.left]
        else:
            yield item


def _tested(node: Node) -> tuple[str, bool] | None:
    """(name, positively) when `node` is a plain test of one macro (`defined(X)`, `!X`), else None."""
    positive = True
    while isinstance(node, Paren) or isinstance(node, Unary) and node.op == "!":
        if isinstance(node, Unary):
            positive = not positive
            node = node.operand
        else:
            node = node.inner
    return (node.name, positive) if isinstance(node, (Identifier, Defined)) else None


def _positive(node: Node) -> Iterator[str]:
    """Names tested positively (under an even number of `!`)."""
    stack = [(node, False)]
    while stack:
        item, negated = stack.pop()
        if isinstance(item, (Identifier, Defined)):
            if not negated:
                yield item.name
        elif isinstance(item, Unary) and item.op == "!":
            stack.append((item.operand, not negated))
        else:
            stack.extend((child, negated) for child in children(item))


def _device_code(file: FileAnalysis) -> str:
    """Why `file` is device code ("" when it is not): its extension, or a marker in its code."""
    name = file.filename.lower()
    if name.endswith(_DEVICE_EXTENSIONS):
        return f"a {name.rsplit('.', 1)[1]} file"
    directives = file.scan.directives
    starts = [d.hash for d in directives]
    comments = file.scan.comments
    comment_starts = [start for start, _ in comments]
    for marker in _DEVICE_MARKERS:
        position = file.data.find(marker)
        while position != -1:
            if not (_inside(position, starts, directives) or _in_comment(position, comment_starts, comments)
                    or _in_string(file.data, position)):
                return f"`{marker.decode()}` at line {file.lines.line_of(position)}"
            position = file.data.find(marker, position + len(marker))
    return ""


def _inside(offset: int, starts: list[int], directives) -> bool:  # noqa: ANN001 - a Directive tuple
    index = bisect.bisect_right(starts, offset) - 1
    return index >= 0 and directives[index].end >= offset


def _in_string(data: bytes, offset: int) -> bool:
    """Whether `offset` is inside a string literal on its line (an odd number of unescaped quotes
    before it: vkFFT writes `"extern \"C\" __global__ ..."` kernels as text)."""
    start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    return data[start:offset].replace(b"\\\\", b"").replace(b'\\"', b"").count(b'"') % 2 == 1


def _in_comment(offset: int, starts: list[int], comments: tuple[tuple[int, int], ...]) -> bool:
    index = bisect.bisect_right(starts, offset) - 1
    return index >= 0 and comments[index][1] > offset
