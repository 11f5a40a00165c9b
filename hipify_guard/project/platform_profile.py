"""The project's platform profile (spec §11.1): what its build files say about its ROCm and CUDA
builds, as configuration values, each with its evidence. `check` applies it where the
configuration says nothing (`infer-platforms`, on by default); `hipify-guard init` writes it
down for a person to review.

From the build files (`buildfiles.reader`): macros only the ROCm build defines, in every ROCm build
(`rocm-build-macros` when the name reads as the build's switch, else `rocm-build-defines` with
their values: CuPy's and gloo's `-D__HIP_PLATFORM_HCC__=1`); macros only CUDA builds define
(`cuda-build-macros`); files only the CUDA build compiles (`cuda-only-files`: files, and folders
whose kernel-builder `build.toml` names no ROCm backend, as `folder/**`). How the sources
reach ROCm: through PyTorch's hipify (a `setup.py` or CMake file that uses
`torch.utils.cpp_extension` or `hipify_torch`; PyTorch itself), or natively.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import field, replace
from functools import lru_cache
from typing import NamedTuple

from ..core.records import record
from ..cpp.evaluator import EMPTY
from ..cpp.numbers import integer_value
from ..model.platform_names import CUDA, ROCM, build_macro
from ..model.platforms import PLATFORM_MACROS
from ..model.project_profile import BuildDefine, ProjectProfile
from ..buildfiles.build_facts import BuildFileFacts
from ..buildfiles.reader import FactsMemo, read_build_files
from .cuda_only_headers import cuda_only_headers
from ..buildfiles.rocm_defines import ScopedDefinition, defines_for, scoped_definitions
from ..buildfiles.torch_ops import cuda_only_ops
from ..core.reading import read_file
from ..walk import run_reads

TORCH, TORCH_EXTENSION, NATIVE = "torch", "torch-extension", "native"


class Entry(NamedTuple):
    """One inferred configuration value and where it was read."""

    key: str  # "rocm-build-macros", "rocm-build-defines", "cuda-build-macros", "cuda-only-files", "hipify"
    value: str  # a macro name, `NAME=VALUE`, a root-relative file, or how the project is hipified
    evidence: str  # "CMakeLists.txt:12: add_compile_definitions(GGML_USE_HIP)"


@record
class Inference:
    """What the build files below one root say, as a profile and as entries with evidence."""

    root: str
    profile: ProjectProfile
    cuda_only_files: frozenset[str]  # absolute paths
    entries: tuple[Entry, ...]
    cuda_only_folders: tuple[str, ...] = ()  # absolute folders: nothing below them is built for ROCm
    scoped: tuple[ScopedDefinition, ...] = ()  # what every ROCm build defines, and for which files
    rocm_only_files: frozenset[str] = frozenset()  # absolute paths only ROCm builds compile
    compiled_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # `BuildFileFacts.rocm_compiled_in`
    cuda_only_modules: tuple[str, ...] = ()  # Python extension modules only CUDA builds make
    cuda_only_ops: frozenset[str] = frozenset()  # PyTorch operators only CUDA builds register

    def is_cuda_only(self, path: str) -> bool:
        """Whether only the CUDA build compiles the file `path` (absolute)."""
        return path in self.cuda_only_files or any(path.startswith(folder + os.sep) for folder in self.cuda_only_folders)

    def cuda_only_evidence(self, path: str) -> str:
        """The build files' evidence that only the CUDA build compiles the file `path` (absolute), or ""."""
        relative = os.path.relpath(path, self.root).replace(os.sep, "/")
        return next((entry.evidence for entry in self.entries if entry.key == "cuda-only-files" and (
            entry.value == relative or (entry.value.endswith("/**") and relative.startswith(entry.value[:-2])))), "")

    def rocm_defines(self, path: str) -> tuple[BuildDefine, ...]:
        """What every ROCm compile of the file `path` (absolute) defines, by the build files."""
        return defines_for(path, self.root, self.scoped, self.compiled_in) if self.scoped else ()


@lru_cache(maxsize=64)
def infer(root: str, memo: FactsMemo | None = None) -> Inference:
    """The inference for the project at `root` (an absolute folder), read once per run (and
    kept between runs in `memo`, the results cache)."""
    facts = read_build_files(root, memo)
    entries: list[Entry] = []
    rocm_macros, defines = [], []
    for name, definitions in sorted(facts.rocm_definitions.items()):
        # HIP's platform macros with a value anywhere in the ROCm build (mscclpp's tests pass
        # -D__HIP_PLATFORM_AMD__): what the project's value tests of them rely on
        every = [item for item in definitions if (item.always or name in PLATFORM_MACROS) and item.value is not None]
        if not every or name in facts.cuda_macros:
            continue
        value = _value(every[0].value)
        switch = build_macro(name)
        if switch is not None and switch.side == ROCM and value in (1, EMPTY):
            rocm_macros.append((name, value))
            entries.append(Entry("rocm-build-macros", name, _shown(every[0].evidence)))
        else:
            defines.append((name, value))
            entries.append(Entry("rocm-build-defines", f"{name}={every[0].value}", _shown(every[0].evidence)))
    cuda_macros = sorted(name for name in facts.cuda_macros if not _reserved(name))
    entries += [Entry("cuda-build-macros", name, _shown(facts.cuda_macros[name][0].evidence)) for name in cuda_macros]
    evidence = {name: _shown(fact.evidence) for fact in facts.sources if fact.platform == CUDA for name in fact.files}
    evidence.update(cuda_only_headers(root, facts.cuda_only_files, facts.rocm_only_files))
    folders = facts.cuda_only_folders
    entries += [Entry("cuda-only-files", posixpath.join(folder, "**"), _shown(why)) for folder, why in folders]
    cuda_only = sorted(name for name in evidence if not any(_below(name, folder) for folder, _ in folders))
    entries += [Entry("cuda-only-files", name, evidence[name]) for name in cuda_only]
    modules = dict(reversed(facts.cuda_only_modules))  # (the first evidence of each)
    entries += [Entry("extend-python-cuda-modules", name, _shown(evidence)) for name, evidence in sorted(modules.items())]
    operators = cuda_only_ops(facts.bindings, _text_reader(root))
    entries += [Entry("python-cuda-ops", name, _shown(evidence)) for name, evidence in operators]
    hipify, why, scopes = _hipify(root, facts)
    if hipify:
        entries.append(Entry("hipify", hipify, why))
    entries += [Entry("torch-scopes", os.path.relpath(folder, root), evidence) for folder, evidence in scopes]
    names = frozenset(name for name in facts.by_name() if build_macro(name) is not None)
    evidence = tuple((entry.value.partition("=")[0], entry.evidence) for entry in entries
                     if entry.key in ("rocm-build-macros", "rocm-build-defines", "cuda-build-macros")) + tuple(
        (name, _shown(why)) for name, why in facts.retired_macros)
    scoped, configured = scoped_definitions(facts, lambda definition: _shown(definition.evidence))
    profile = ProjectProfile(rocm_build_macros=tuple(rocm_macros), build_definitions=tuple(defines),
                             platform_names=names, hipify=hipify, torch_scopes=tuple(folder for folder, _ in scopes),
                             inferred_cuda_build=frozenset(cuda_macros),
                             retired_macros=frozenset(name for name, _ in facts.retired_macros),
                             rocm_may_define=frozenset(facts.rocm_definitions), evidence=evidence,
                             rocm_build=_rocm_build(facts), configured_rocm=configured, project=root,
                             hip_on_nvidia=_shown(facts.hip_on_nvidia[0]) if facts.hip_on_nvidia else "",
                             build_file=facts.files_read[0] if facts.files_read else "")
    return Inference(root, profile, frozenset(os.path.join(root, name) for name in cuda_only), tuple(entries),
                     tuple(os.path.join(root, folder) if folder else root for folder, _ in folders), scoped,
                     _rocm_only(root, facts), dict(facts.rocm_compiled_in), tuple(sorted(modules)),
                     frozenset(name for name, _ in operators))


def _rocm_only(root: str, facts: BuildFileFacts) -> frozenset[str]:
    """The files only ROCm builds compile (absolute); none where the HIP build also targets NVIDIA
    GPUs (ginkgo's `GINKGO_HIP_PLATFORM_NVCC`): there CUDA's macros are defined in it too."""
    if facts.hip_on_nvidia:
        return frozenset()
    return frozenset(os.path.join(root, name) for name in facts.rocm_only_files)


def _rocm_build(facts: BuildFileFacts) -> str:
    """Where the build files show a ROCm build ("" when nothing in them builds for HIP or ROCm: a
    project that builds PyTorch extensions and no more is a port too, whose rewrites use
    `USE_ROCM` as PyTorch's ROCm builds do)."""
    return _shown(facts.rocm_build[0]) if facts.rocm_build else ""


def _below(name: str, folder: str) -> bool:
    """Whether the root-relative file `name` lies below the root-relative `folder` ("" for the root)."""
    return not folder or name.startswith(folder + "/")


def merged(configured: ProjectProfile, inferred: ProjectProfile) -> ProjectProfile:
    """The configured profile with what inference adds where the configuration is silent."""
    named = {name for name, _ in configured.rocm_build_macros} | configured.cuda_build_macros | {
        name for name, _ in configured.build_definitions}
    return replace(
        configured,
        rocm_build_macros=configured.rocm_build_macros + tuple(
            item for item in inferred.rocm_build_macros if item[0] not in named),
        build_definitions=configured.build_definitions + tuple(
            item for item in inferred.build_definitions if item[0] not in named),
        inferred_cuda_build=inferred.inferred_cuda_build - named,
        retired_macros=inferred.retired_macros - named,
        rocm_may_define=configured.rocm_may_define | inferred.rocm_may_define,
        evidence=configured.evidence + inferred.evidence,
        platform_names=configured.platform_names | inferred.platform_names,
        hipify=configured.hipify or (inferred.hipify if configured.choose_models else ""),
        torch_scopes=() if configured.hipify else inferred.torch_scopes,
        rocm_build=configured.rocm_build or inferred.rocm_build,
        configured_rocm=inferred.configured_rocm,
        project=inferred.project,
        hip_on_nvidia=inferred.hip_on_nvidia,
        build_file=inferred.build_file,
    )


def _hipify(root: str, facts: BuildFileFacts) -> tuple[str, str, list[tuple[str, str]]]:
    """How the sources reach ROCm project-wide ("" when no build file says so for all of them),
    the evidence, and the folders whose sources a build file builds through PyTorch's hipify
    (a `setup.py` or `CMakeLists.txt`: its folder; a project module a setup.py imports: that
    setup.py's folder; a CMake module: the whole project), each with the line that says so."""
    if os.path.isdir(os.path.join(root, "aten", "src", "ATen")) and os.path.isdir(os.path.join(root, "c10")):
        return TORCH, "aten/src/ATen and c10/: this is PyTorch itself", []
    scripts = [posixpath.dirname(path) for path in facts.files_read if posixpath.basename(path) == "setup.py"]
    scopes = [(os.path.normpath(root if evidence.path.endswith(".cmake") else
                                os.path.join(root, _build_folder(evidence.path, scripts))), _shown(evidence))
              for evidence in facts.torch_builds]

    def outside(path: str) -> bool:
        return not any(os.path.join(root, path).startswith(os.path.join(folder, "")) for folder, _ in scopes)

    native = any(outside(item.evidence.path) for items in facts.rocm_definitions.values() for item in items) or any(
        outside(name) for name in facts.rocm_only_files)  # a ROCm build of its own
    if any(folder == root for folder, _ in scopes):
        return TORCH_EXTENSION, next(why for folder, why in scopes if folder == root), []
    if native:
        return NATIVE, "the build files build for ROCm natively, not through PyTorch's hipify", scopes
    return "", "", scopes


def _build_folder(path: str, scripts: list[str]) -> str:
    """The folder a build file builds: its own (a setup.py, a CMakeLists.txt), or for a project
    module a setup.py imports (DeepSpeed's `op_builder/builder.py`) the folder of the nearest
    setup.py above it."""
    folder = posixpath.dirname(path)
    if posixpath.basename(path) in ("setup.py", "CMakeLists.txt"):
        return folder
    above = [script for script in scripts if not script or folder == script or folder.startswith(script + "/")]
    return max(above, key=len) if above else folder


def _reserved(name: str) -> bool:
    """Names of the implementation (`__STRICT_ANSI__`, `_MWAITXINTRIN_H_INCLUDED`): compilers and
    system headers define them as they please, so no build file makes them one platform's."""
    return name.startswith("__") or len(name) > 1 and name[0] == "_" and name[1].isupper()


def _value(text: str) -> int | str:
    """A definition's value as the models hold it: an integer, or EMPTY."""
    return EMPTY if text == "" else integer_value(text)[0]


def _text_reader(root: str) -> Callable[[str], str | None]:
    """Reads a root-relative file as text (None when it cannot be read)."""
    def text(path: str) -> str | None:
        run_reads.read((os.path.join(root, path),))
        try:
            return read_file(os.path.join(root, path))[0].decode("utf-8", "replace")
        except OSError:
            return None
    return text


def _shown(evidence: object) -> str:
    """`path:line: text` of a build-file fact (a folder layout: the HIP counterpart it found)."""
    text = getattr(evidence, "text", "")
    if not getattr(evidence, "line", 0):
        return f"{evidence}: {text}" if text else f"its HIP counterpart {evidence} exists"
    return f"{evidence}: {text.strip()}" if text else str(evidence)
