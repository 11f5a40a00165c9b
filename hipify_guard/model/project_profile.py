"""What a project's configuration and build files say about its platforms (see `profile`)."""

from __future__ import annotations

from ..core.records import record



@record(slots=True)
class BuildDefine:
    """A macro every ROCm compile of a file defines, by the build files: its value (an integer,
    EMPTY, or None when the build computes it: `-DROCM_VERSION=${ROCM_VERSION_DEV_INT}`) and where
    the build says so."""

    name: str
    value: int | str | None
    evidence: str  # "src/ggml-hip/CMakeLists.txt:95: add_compile_definitions(GGML_USE_HIP)"


@record(slots=True)
class ProjectProfile:
    """What the configuration and the project's build files say about its platforms."""

    rocm_build_macros: tuple[tuple[str, int | str], ...] = ()  # defined in every ROCm build (name, value)
    cuda_build_macros: frozenset[str] = frozenset()  # undefined in every ROCm build
    # Read as CUDA-only from the build files: undefined in the ROCm models unless a file tests one
    # together with a ROCm macro (then the ROCm build defines it too, whatever the build files say).
    inferred_cuda_build: frozenset[str] = frozenset()
    retired_macros: frozenset[str] = frozenset()  # defined by no build: only in build files' comments
    # What some ROCm build defines (ggml's HIP build defines GGML_USE_CUDA too): never "the CUDA
    # build's" by its name.
    rocm_may_define: frozenset[str] = frozenset()
    evidence: tuple[tuple[str, str], ...] = ()  # (macro, where the build files say so), for explanations
    build_definitions: tuple[tuple[str, int | str | None], ...] = ()  # what the ROCm build's commands define
    platform_names: frozenset[str] = frozenset()  # build-switch names the project mentions (prefix pairs)
    infer: bool = True  # infer the file's build macros from names, chains and device code
    # How the project's CUDA sources reach ROCm: "torch" (PyTorch itself, whose build defines
    # TORCH_HIP_VERSION), "torch-extension" (through PyTorch's hipify in an extension's build,
    # which does not), "native" (hipcc, or hipify-perl/clang), "" (unknown). Decides the built-in models a file is judged under,
    # unless the configuration names them (`choose_models` False).
    hipify: str = ""
    torch_scopes: tuple[str, ...] = ()  # folders (absolute) whose sources go through PyTorch's hipify
    choose_models: bool = True
    # Where the build files show a ROCm build ("": nowhere: the project is checked as a port, spec §13.4).
    rocm_build: str = ""
    project: str = ""  # the root whose build files were read ("": none, a lone file)
    # Where the build files build HIP for NVIDIA GPUs too ("": nowhere): a macro named for HIP is
    # then no proof of ROCm (ginkgo's GKO_COMPILING_HIP is defined by its HIP build on NVIDIA).
    hip_on_nvidia: str = ""
    # `#cmakedefine`s of configured headers that every ROCm build defines: seen by the files that include them.
    configured_rocm: tuple[BuildDefine, ...] = ()
    # A build file of the project ("": none was read): with no ROCm build, a project that builds
    # for CUDA only, whose maintainers get rewrites shown, not applied (spec §13.4).
    build_file: str = ""
