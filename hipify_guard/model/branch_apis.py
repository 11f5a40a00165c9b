"""What each branch of a file calls (mapped CUDA/HIP APIs) and from which ROCm version it is taken.

A *branch* is an arm's own group: the code between its directive and the next directive of
the same conditional, without nested conditionals (each nested arm is a branch of its own,
judged by its own path condition). Only *guarded* branches count: those whose path condition
names a CUDA version macro or a ROCm macro. A *use* is an identifier that HIPIFY's or PyTorch's
table knows (`api_knowledge`); what each ROCm model's build has for it is `ApiKnowledge.view`.
A name the project defines itself for ROCm (`definitions`: a shim's `#define`, `typedef`,
`using`, function, struct...) is not a use of the API (`project_defines`). File-level code, and
code under conditions that say nothing about CUDA or ROCm (`#ifdef __cplusplus`), is the same on
every platform and is not what a guard decided.

The facts are computed once per FileAnalysis and shared by HG203, HG204 and `--policy auto`.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from ..cpp.groups import Arm, group_end
from .analysis import FileAnalysis, Literal
from .api_knowledge import ApiView, is_api, knowledge, route
from .code_tokens import api_names, define_bodies, identifiers, is_member, segments
from .definitions import definitions_of
from .rocm_code import MacroExpansions
from .platforms import UNDEFINED, Platform, satisfiable
from .rocm_versions import EVERY, Version, earliest

# Prefixes of CUDA-ecosystem APIs, mapped or not (NVML, NCCL, cuDSS... are not in HIPIFY's tables).
_CUDA_LIKE = re.compile(rb"cuda[A-Z_]|cu[A-Z]|CU[A-Z_]|nvml[A-Z]|NVML_|nccl[A-Z]|NCCL_|cudss[A-Z]|nvrtc[A-Z]")
# How CUDA's runtime, driver and math libraries spell their APIs (`cudaGraphAddNode`, `cuGreenCtxCreate`,
# `cublasLtGroupedMatrixLayoutCreate`, `CU_DEVICE_ATTRIBUTE_...`, `CUBLASLT_MATMUL_DESC_...`): the names
# HIPIFY's tables catalogue, ported or not. `CUDA_CHECK`-like and snake-case names are projects' own.
_CUDA_API = re.compile(
    rb"(?:cuda|cu|cublas|cublasLt|cusparse|cusparseLt|cusolver(?:Dn|Sp|Mg|Rf)?|cufft|curand|cudnn|nvrtc)"
    rb"[A-Z][A-Za-z0-9]*[a-z0-9]\Z|CU[a-z][A-Za-z0-9]*\Z"
    rb"|(?:CU|CUBLAS|CUBLASLT|CUSPARSE|CUSOLVER|CUFFT|CURAND|CUDNN|NVRTC)_[A-Z0-9_]*[A-Z0-9]\Z")


class ApiUse(NamedTuple):
    """One occurrence of a known name in code."""

    start: int
    end: int
    name: str
    own_macro: bool = False  # in the replacement list of the macro it names (not expanded again)

    def view(self, model: Platform) -> ApiView | None:
        """What the model's build has for the name (None: no source of that model knows it)."""
        return knowledge().view(self.name, route(model))


def branch_apis(file: FileAnalysis) -> BranchApis:
    """The branch facts of `file`, computed once and kept in (and dropped with) the file."""
    return file.kept(BranchApis, lambda: BranchApis(file))


class BranchApis:
    """Mapped API uses per branch, and the ROCm versions that take each branch."""

    def __init__(self, file: FileAnalysis) -> None:
        self.file = weakref.proxy(file)  # the file holds these facts: no reference cycle
        macros = file.settings.macros
        self.guard_macros = (macros.cuda_version_macros | macros.rocm_macros
                             | {macros.rocm_macro, macros.rocm_version_macro})
        self._defines: dict[int, bytes] | None = None  # `define_bodies`
        self._expansions: MacroExpansions | None = None
        self._uses: dict[int, tuple[ApiUse, ...]] = {}
        self._unknown: dict[int, tuple[bytes, ...]] = {}  # arm (hash of its directive) -> `_unknown_in`
        self._guarded: dict[int, bool] = {}  # arm (hash of its directive) -> `is_guarded`
        self._starts: dict[tuple[int, str, Version], Version | None] = {}
        self._groups: dict[int, list[Arm]] = {}  # arm (hash of its directive) -> `group_arms`
        self._code_arms: list[int] | None = None  # the arms holding code (`segments`' keys), sorted

    def guarded(self) -> list[Arm]:
        """Arms that hold code, whose path names a CUDA version or ROCm macro, in file order."""
        arm_of = self.file.tree.arm_of
        return [arm_of[key] for key in self._arms_with_code() if self.is_guarded(arm_of[key])]

    def is_guarded(self, arm: Arm) -> bool:
        """Whether the arm's path condition names a CUDA version macro or a ROCm macro.

        An arm's path is the previous arm's (or, for the first arm, the enclosing arm's) plus its
        own condition, so the answer is built along that chain and kept: linear however deep.
        """
        pending: list[Arm] = []
        while arm is not None and arm.directive.hash not in self._guarded:
            pending.append(arm)
            arm = arm.conditional.arms[arm.index - 1] if arm.index else arm.conditional.parent
        known = arm is not None and self._guarded[arm.directive.hash]
        for member in reversed(pending):
            own = self.file.condition(member).term
            known = known or bool(own is not None and own.names & self.guard_macros)
            self._guarded[member.directive.hash] = known
        return known

    def uses(self, arm: Arm) -> tuple[ApiUse, ...]:
        """Known names in the arm's own code (nested conditionals excluded), in file order; the
        replacement list of a macro the file expands only where ROCm compiles nothing is left
        out. Whether the project defines a name itself is `project_defines`, asked last: it reads
        the whole file."""
        key = arm.directive.hash
        if key not in self._uses:
            names = knowledge().names
            data = self.file.data
            found = []
            for start, end in self.code(arm):
                macro = self._macro_of(start)
                named = [ApiUse(offset, stop, name.decode("ascii"), name == macro)
                         for offset, stop, name in api_names(data, start, end, names)]
                if named and not self._unexpanded_on_rocm(start):
                    found += named
            self._uses[key] = tuple(found)
        return self._uses[key]

    def _macro_of(self, start: int) -> bytes | None:
        """The macro whose replacement list is the segment at `start`, or None."""
        if self._defines is None:
            self._defines = define_bodies(self.file)
        return self._defines.get(start)

    def _unexpanded_on_rocm(self, start: int) -> bool:
        """Whether the segment at `start` is the replacement list of a macro that the file expands
        only in code no ROCm model compiles."""
        name = self._macro_of(start)
        if name is None:
            return False
        if self._expansions is None:
            self._expansions = MacroExpansions(self.file)
        return self._expansions.only_off_rocm(name)

    def project_defines(self, use: ApiUse) -> bool:
        """Whether the project defines the used name itself for ROCm (`definitions`): a shim. A
        macro's own name in its replacement list (`#define cuX(a) CHECK(cuX(a))`) is not expanded
        again: there it is the API itself."""
        if use.own_macro:
            return False
        return definitions_of(self.file).defines(use.name.encode("ascii"))

    def may_lack(self, use: ApiUse) -> bool:
        """Whether some ROCm model's build may lack the use (a cheap test before `lacking`)."""
        views = (use.view(model) for model in self.file.rocm_models)
        return any(view is not None and (view.missing or view.opt_in) for view in views)

    def names_may_lack(self) -> frozenset[str]:
        """The names guarded code uses that some ROCm model's build may lack: what the project
        headers are asked whether they define (a shim, an alias) before a fix judges a branch by them."""
        return frozenset(use.name for arm in self.guarded() for use in self.uses(arm) if self.may_lack(use))

    def aliases(self, use: ApiUse) -> tuple[tuple[str, str], ...]:
        """(API, where) of each of the project's definitions of the used name for ROCm that makes
        it another name for a CUDA or HIP API (`Definitions.aliases`)."""
        if use.own_macro:
            return ()
        return tuple(alias for alias in definitions_of(self.file).aliases(use.name.encode("ascii")) if is_api(alias[0]))

    def available(self, name: str, model: Platform) -> ApiView | None:
        """What the model's build has for the API `name`; None when it lacks it (`lacking`) or no
        source knows it."""
        view = knowledge().view(name, route(model))
        return view if view is not None and not self._lacks(view, model) else None

    def added_after(self, use: ApiUse, floor: Version) -> bool:
        """Whether some ROCm model's build has the use only from a release after `floor`."""
        views = (use.view(model) for model in self.file.rocm_models)
        return any(view is not None and view.added is not None and view.added > floor for view in views)

    def lacking(self, use: ApiUse, model: Platform) -> ApiView | None:
        """The use's view when the model's build lacks it: no equivalent, or a HIP declaration
        whose opt-in macro neither the build nor the project defines; None when it has it."""
        view = use.view(model)
        return view if view is not None and self._lacks(view, model) else None

    def _lacks(self, view: ApiView, model: Platform) -> bool:
        """Whether the model's build lacks what `view` names: no equivalent, or an opt-in macro
        neither the build nor the project defines."""
        return view.missing or not all(self._defined(macro, model) for macro in view.opt_in)

    def _defined(self, macro: str, model: Platform) -> bool:
        """Whether the model's build (`-D`), the file or its project headers define `macro`."""
        fixed = model.fixed.get(macro, UNDEFINED) is not UNDEFINED
        return fixed or definitions_of(self.file).defines_macro(macro.encode("ascii"))

    def group_uses(self, arm: Arm) -> tuple[ApiUse, ...]:
        """Uses in the arm's whole group (`group_arms`), in file order."""
        found = [use for member in self.group_arms(arm) for use in self.uses(member)]
        return tuple(sorted(found, key=lambda use: use.start))

    def group_unmapped(self, arm: Arm) -> list[str]:
        """CUDA-looking names in the arm's whole group that the table does not know (NVML, NCCL...)."""
        unknown = _Unmapped(knowledge().names)
        found = {name.decode() for member in self.group_arms(arm)
                 for start, end in self.code(member)
                 for _, name in identifiers(self.file.data, start, end, unknown)}
        return sorted(found)

    def unknown_apis(self, arm: Arm) -> list[str]:
        """Names in the arm's whole group spelled as CUDA's libraries spell their APIs (`_CUDA_API`)
        that no source knows and the project does not define, each once, in file order."""
        found = dict.fromkeys(name for member in self.group_arms(arm) for name in self._unknown_in(member))
        defined = definitions_of(self.file)
        return [name.decode("ascii") for name in found if not defined.defines(name)]

    def names_unknown(self) -> frozenset[str]:
        """The names of `unknown_apis` in the guarded code: what the project headers are asked
        whether they define, before a fix judges a branch by them."""
        return frozenset(name.decode("ascii") for arm in self.guarded() for name in self._unknown_in(arm))

    def _unknown_in(self, arm: Arm) -> tuple[bytes, ...]:
        """The names of the arm's own code spelled as CUDA APIs that no source knows, in order; a
        member (`comm->cudaDev`, `attr.cudaFlags`) is none. Kept per arm."""
        key = arm.directive.hash
        if key not in self._unknown:
            unknown = _Unmapped(knowledge().names, _CUDA_API)
            data = self.file.data
            self._unknown[key] = tuple(name for start, end in self.code(arm)
                                       for offset, name in identifiers(data, start, end, unknown)
                                       if not is_member(data, offset, start))
        return self._unknown[key]

    def group_arms(self, arm: Arm) -> list[Arm]:
        """The arm, and every nested arm holding code that some ROCm model would compile were the
        arm itself taken on ROCm (its own condition dropped from their path); kept per arm."""
        key = arm.directive.hash
        if key not in self._groups:
            own = self.file.condition(arm).term
            found = [arm]
            for nested in self.nested_with_code(arm):
                path = [(item, wanted) for item, wanted in self.file.path(nested) if item is not own]
                if self._reachable_on_rocm(path):
                    found.append(nested)
            self._groups[key] = found
        return self._groups[key]

    def rocm_from(self, arm: Arm, floor: Version = EVERY, models: list[Platform] | None = None) -> Version | None:
        """The lowest ROCm release >= floor whose build (under some of `models`, by default
        every ROCm model that reaches it) takes the arm's group."""
        if models is None:
            models = self.file.reachable_on_rocm(arm, inside=True)
        starts = [self.rocm_start(arm, model, floor) for model in models]
        known = [start for start in starts if start is not None]
        return min(known) if known else None

    def rocm_start(self, arm: Arm, model: Platform, floor: Version = EVERY) -> Version | None:
        """The lowest ROCm release >= floor whose build under `model` takes the arm's group."""
        key = (arm.directive.hash, model.name, floor)
        if key not in self._starts:
            self._starts[key] = earliest(self.file.path(arm), model, self.file.settings.macros, floor)
        return self._starts[key]

    def code(self, arm: Arm) -> list[tuple[int, int]]:
        """The code segments of the arm's own group (`code_tokens.segments`)."""
        return segments(self.file).get(arm.directive.hash, [])

    def nested_with_code(self, arm: Arm) -> list[Arm]:
        """The arms nested in `arm` (at any depth) whose own group holds code, in file order: those
        whose directive lies between the arm's and the next directive of its conditional."""
        code_arms = self._arms_with_code()
        end = group_end(arm, len(self.file.data))
        keys = code_arms[bisect_right(code_arms, arm.directive.hash):bisect_left(code_arms, end)]
        arm_of = self.file.tree.arm_of
        return [arm_of[key] for key in keys]

    def _arms_with_code(self) -> list[int]:
        """The hash offsets of the arms whose own group holds code, in file order."""
        if self._code_arms is None:
            self._code_arms = sorted(segments(self.file))
        return self._code_arms

    def _reachable_on_rocm(self, path: list[Literal]) -> bool:
        return any(satisfiable(path, model) for model in self.file.rocm_models)


class _Unmapped:
    """Contains the names of a CUDA-looking shape that no table knows."""

    def __init__(self, known: frozenset[bytes], shape: re.Pattern[bytes] = _CUDA_LIKE) -> None:
        self.known = known
        self.shape = shape

    def __contains__(self, name: object) -> bool:
        return isinstance(name, bytes) and name not in self.known and self.shape.match(name) is not None


def first_uses(uses: tuple[ApiUse, ...]) -> list[ApiUse]:
    """The first use of each distinct name, in file order."""
    seen: set[str] = set()
    kept = []
    for use in uses:
        if use.name not in seen:
            seen.add(use.name)
            kept.append(use)
    return kept
