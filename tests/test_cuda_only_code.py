"""Code no ROCm build compiles, in projects that do build for ROCm (issue 25): each construct a
real project uses to keep files out of its ROCm build, minimal and in our own words, checked by
running the real CLI on a project written to disk. A guard in a CUDA-only file is not reported; the
same guard in a file both builds compile is, so every test also shows the rule still runs."""

from __future__ import annotations

from pathlib import Path

from conftest import git_project, run_cli

GUARD = "#if CUDART_VERSION >= 12000\nfast();\n#endif\n"
KERNEL = "__global__ void k() {}\n" + GUARD


def _reported(root: Path) -> set[str]:
    """The files with a finding of `check`."""
    result = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=root)
    assert result.code in (0, 1), result.stderr
    return {item["filename"].removeprefix("./") for item in result.json()}


def _judged(root: Path, name: str) -> str:
    """The first line `files` prints for `name`."""
    result = run_cli("files", name, cwd=root)
    assert result.code == 0, result.stderr
    return result.stdout.splitlines()[0]


# -- setup.py -----------------------------------------------------------------------------------

TORCH_SETUP_HEAD = """\
import glob
import os
import torch
from torch.utils.cpp_extension import CUDAExtension, setup
"""


def test_files_a_comprehension_takes_out_and_a_cuda_branch_adds_are_cuda_only(tmp_path: Path) -> None:
    """torchao: every source globbed, the fp8 folder taken out with `[s for s in ... if s not in ...]`,
    then built as an extension of its own only `if use_cuda:`."""
    setup = TORCH_SETUP_HEAD + """\
use_cuda = torch.version.cuda is not None
here = os.path.dirname(os.path.curdir)
csrc = os.path.join(here, "pkg", "csrc")
sources = list(glob.glob(os.path.join(csrc, "**/*.cu"), recursive=True))
fp8_dir = os.path.join(csrc, "fp8")
fp8_all = list(glob.glob(os.path.join(fp8_dir, "**/*"), recursive=True))
sources = [s for s in sources if s not in fp8_all]
modules = [CUDAExtension("pkg._C", sources)]
if use_cuda:
    modules.append(CUDAExtension("pkg._fp8", [os.path.join(fp8_dir, "fp8.cu")]))
setup(ext_modules=modules)
"""
    root = git_project(tmp_path, {"setup.py": setup, "pkg/csrc/ops.cu": KERNEL, "pkg/csrc/fp8/fp8.cu": KERNEL})
    assert _reported(root) == {"pkg/csrc/ops.cu"}
    assert "only the CUDA build compiles it" in _judged(root, "pkg/csrc/fp8/fp8.cu")


def test_the_cuda_arm_of_a_chain_with_a_rocm_arm_is_cuda_only(tmp_path: Path) -> None:
    """xformers: `if (torch.cuda.is_available() and CUDA_HOME is not None) or FORCE_CUDA:` adds the
    CUDA kernels, `elif torch.version.hip ...:` the HIP ones; options in the CUDA arm's test do not
    make it a ROCm build's."""
    setup = TORCH_SETUP_HEAD + """\
from torch.utils.cpp_extension import CUDA_HOME
sources = glob.glob("csrc/*.cpp")
if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
    sources += glob.glob("csrc/cuda/*.cu")
elif torch.version.hip and (torch.cuda.is_available() or os.getenv("HIP_HOME")):
    sources += glob.glob("csrc/hip/*.cu")
setup(ext_modules=[CUDAExtension("ext", sources)])
"""
    root = git_project(tmp_path, {"setup.py": setup, "csrc/bind.cpp": GUARD, "csrc/cuda/attn.cu": KERNEL,
                                  "csrc/hip/attn_ck.cu": KERNEL})
    assert _reported(root) == {"csrc/bind.cpp", "csrc/hip/attn_ck.cu"}


NVCC_SETUP = TORCH_SETUP_HEAD + """\
from torch.utils.cpp_extension import CUDA_HOME
if CUDA_HOME is None:
    raise RuntimeError("this extension needs nvcc")
setup(ext_modules=[CUDAExtension("fused", ["fused.cu"], extra_compile_args={"nvcc": ["-gencode", "arch=compute_80,code=sm_80"]})])
"""
ROCM_SETUP = TORCH_SETUP_HEAD + """\
from torch.utils.cpp_extension import IS_HIP_EXTENSION
args = ["-DMAIN_ON_ROCM"] if IS_HIP_EXTENSION else []
setup(ext_modules=[CUDAExtension("main", ["csrc/main.cu"], extra_compile_args={"nvcc": args})])
"""


def test_a_standalone_setup_py_that_needs_nvcc_is_cuda_only_where_the_project_builds_for_rocm(tmp_path: Path) -> None:
    """flash-attention: the main setup.py builds for ROCm; `csrc/fused/setup.py` stops without
    CUDA_HOME and passes `-gencode`, and never names ROCm; no ROCm build runs that script either
    (its `parse(torch.version.cuda)` is not reported; the same line in the main one is)."""
    parsed = "\nfrom packaging.version import parse\nCUDA = parse(torch.version.cuda)\n"
    root = git_project(tmp_path, {"setup.py": ROCM_SETUP + parsed, "csrc/main.cu": KERNEL,
                                  "csrc/fused/setup.py": NVCC_SETUP + parsed,
                                  "csrc/fused/fused.cu": KERNEL, "csrc/fused/fused.cuh": GUARD})
    assert _reported(root) == {"csrc/main.cu", "setup.py"}
    assert "only the CUDA build compiles it" in _judged(root, "csrc/fused/fused.cuh")  # every source beside it is
    assert "the project does not run it on ROCm" in _judged(root, "csrc/fused/setup.py")
    # The extension only that script builds (`fused`) is CUDA's: a module importing it never runs on
    # ROCm (flash-attention's `flash_attn/ops/fused_dense.py` imports `fused_dense_lib`); one that
    # imports the main extension, or `fused` only inside `try`, does.
    capability = "\nSM90 = torch.cuda.get_device_capability()[0] == 9\n"
    (root / "ops").mkdir()
    (root / "ops/dense.py").write_text("import torch\nimport fused" + capability)
    (root / "ops/main.py").write_text("import torch\nimport main" + capability)
    (root / "ops/maybe.py").write_text("import torch\ntry:\n    import fused\nexcept ImportError:\n    fused = None" + capability)
    assert _reported(root) == {"csrc/main.cu", "setup.py", "ops/main.py", "ops/maybe.py"}
    init = run_cli("init", "--stdout", ".", cwd=root)
    assert '"fused",  # csrc/fused/setup.py:8: setup(ext_modules=[CUDAExtension(' in init.stdout, init.stdout + init.stderr


VLLM_LIKE_SETUP = """\
import torch
from setuptools import setup, Extension
TARGET = "cuda"


def _is_cuda() -> bool:
    has_cuda = torch.version.cuda is not None
    return TARGET == "cuda" and has_cuda


def _is_hip() -> bool:
    return (TARGET == "cuda" or TARGET == "rocm") and torch.version.hip is not None


ext_modules = []
if _is_cuda() or _is_hip():
    ext_modules.append(Extension(name="pkg._moe_C", sources=[]))
if _is_cuda():
    ext_modules.append(Extension(name="pkg.flash_attn._fa2_C", sources=[]))
setup(ext_modules=ext_modules)
"""


def test_an_import_of_a_module_only_the_cuda_build_makes_ends_its_block_on_rocm(tmp_path: Path) -> None:
    """vLLM: setup.py builds `vllm.vllm_flash_attn._vllm_fa2_C` only under `_is_cuda()` (a
    function of the script returning a CUDA test), into a package folder that holds only a
    `.gitkeep` in the sources. So `vllm.vllm_flash_attn` is CUDA-only, and in `fa_utils.py`
    the capability tests after `from vllm.vllm_flash_attn.flash_attn_interface import ...` in a
    `try` never run on ROCm (the import raises, the `except` returns None). The module both
    builds make, and a test before the import, stay."""
    fa_utils = ("import torch\n\n\ndef version():\n    major = torch.cuda.get_device_capability()[0]\n"
                "    print(major == 9)\n    try:\n        from pkg.flash_attn.interface import supported\n"
                "        return 3 if major == 9 and supported(3) else 2\n    except ImportError:\n        return None\n")
    moe = "import torch\nfrom pkg import _moe_C\nSM90 = torch.cuda.get_device_capability()[0] == 9\n"
    root = git_project(tmp_path, {"setup.py": VLLM_LIKE_SETUP, "pkg/__init__.py": "", "pkg/flash_attn/.gitkeep": "",
                                  "pkg/fa_utils.py": fa_utils, "pkg/moe.py": moe})
    result = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=root)
    assert sorted((item["filename"].removeprefix("./"), item["location"]["row"]) for item in result.json()) == [
        ("pkg/fa_utils.py", 6), ("pkg/moe.py", 3)], result.stdout + result.stderr
    init = run_cli("init", "--stdout", ".", cwd=root)
    assert '"pkg.flash_attn",  # setup.py:' in init.stdout, init.stdout + init.stderr


def test_a_project_whose_only_setup_py_needs_nvcc_is_checked_as_a_port(tmp_path: Path) -> None:
    """Without a ROCm build anywhere, needing nvcc says nothing: every CUDA project does before it is
    ported (spec §13.4)."""
    root = git_project(tmp_path, {"setup.py": NVCC_SETUP, "fused.cu": KERNEL})
    assert _reported(root) == {"fused.cu"}



TARGET_DEVICE_SETUP = """\
import os
from setuptools import setup
from cmake_build_extension import BuildExtension, CMakeExtension


def target_device():
    return os.getenv("DEMO_TARGET_DEVICE", "cuda")


if target_device() == "cuda" and not os.getenv("DISABLE_ENGINE"):
    ext_modules = [CMakeExtension(name="_engine", source_dir=os.path.dirname(__file__))]
else:
    ext_modules = []
setup(name="demo", install_requires=open(f"requirements/runtime_{target_device()}.txt").read().split(),
      ext_modules=ext_modules, cmdclass=dict(build_ext=BuildExtension))
"""


def test_a_cmake_project_a_setup_py_builds_only_for_its_cuda_target_is_cuda_only(tmp_path: Path) -> None:
    """lmdeploy: setup.py builds its CMake project (TurboMind) only when the target device,
    which also picks `requirements/runtime_<device>.txt`, is "cuda"; `runtime_rocm.txt` is there,
    so the project builds for ROCm, in Python only. The C++ sources the CMake project compiles are
    CUDA-only; the Python package is not. Without the ROCm requirements file, "cuda" is no choice
    among platforms, and the project is checked as a port."""
    cmake = "cmake_minimum_required(VERSION 3.25)\nproject(engine LANGUAGES CXX CUDA)\nadd_subdirectory(src)\n"
    files = {"setup.py": TARGET_DEVICE_SETUP, "CMakeLists.txt": cmake,
             "src/CMakeLists.txt": "add_library(engine kernels/gemm.cu)\n", "src/kernels/gemm.cu": KERNEL,
             "requirements/runtime_cuda.txt": "torch\n", "requirements/runtime_rocm.txt": "torch\n",
             "demo/__init__.py": "import torch\nSM90 = torch.cuda.get_device_capability()[0] == 9\n"}
    root = git_project(tmp_path / "rocm", files)
    assert _reported(root) == {"demo/__init__.py"}
    assert "only the CUDA build compiles it (setup.py:11" in _judged(root, "src/kernels/gemm.cu")
    del files["requirements/runtime_rocm.txt"]
    port = git_project(tmp_path / "port", files)
    assert _reported(port) == {"demo/__init__.py", "src/kernels/gemm.cu"}

# -- CMake --------------------------------------------------------------------------------------

VARIANT_ROOT = """\
cmake_minimum_required(VERSION 3.21)
project(demo LANGUAGES CXX)
set(DEMO_VARIANT "cuda" CACHE STRING "cuda or rocm")
if(DEMO_VARIANT STREQUAL "rocm")
  enable_language(HIP)
  add_compile_definitions(DEMO_USE_HIP)
endif()
add_library(core core.cu)
add_subdirectory(attention)
"""


def test_a_fatal_error_for_every_non_cuda_variant_makes_the_rest_cuda_only(tmp_path: Path) -> None:
    """FBGEMM's HSTU: `if(NOT VARIANT STREQUAL "cuda") message(FATAL_ERROR ...) endif()` before the
    kernels; a stop under a condition of no known platform (an old HIP) changes nothing."""
    attention = ('if(NOT DEMO_VARIANT STREQUAL "cuda")\n  message(FATAL_ERROR "attention needs CUDA")\nendif()\n'
                 "add_library(attention attention.cu)\n")
    root = git_project(tmp_path, {"CMakeLists.txt": VARIANT_ROOT, "core.cu": KERNEL,
                                  "attention/CMakeLists.txt": attention, "attention/attention.cu": KERNEL})
    assert _reported(root) == {"core.cu"}


def test_a_fatal_error_under_a_condition_of_no_platform_keeps_the_rocm_definitions_certain(tmp_path: Path) -> None:
    """ggml's HIP CMakeLists stops on an old HIP before `add_compile_definitions(GGML_USE_HIP)`: the
    ROCm builds that go on all define it, so it is still the rewrites' macro."""
    hip = ('if(${hip_VERSION} VERSION_LESS 6.1)\n  message(FATAL_ERROR "HIP 6.1 or newer")\nendif()\n'
           'file(GLOB SRCS "../cuda/*.cu")\nadd_library(demo-hip ${SRCS})\nadd_compile_definitions(DEMO_USE_HIP)\n')
    cmake = "if(DEMO_HIP)\n  add_subdirectory(hip)\nendif()\nif(DEMO_CUDA)\n  add_subdirectory(cuda)\nendif()\n"
    root = git_project(tmp_path, {"CMakeLists.txt": cmake, "hip/CMakeLists.txt": hip, "cuda/kernel.cu": KERNEL,
                                  "cuda/CMakeLists.txt": 'file(GLOB SRCS "*.cu")\nadd_library(demo-cuda ${SRCS})\n'})
    result = run_cli("check", "--no-cache", "--diff", ".", cwd=root)
    assert "+#if CUDART_VERSION >= 12000 && !defined(DEMO_USE_HIP)" in result.stdout, result.stdout + result.stderr


def test_a_function_body_compiles_where_it_is_called(tmp_path: Path) -> None:
    """ginkgo: `function(add_cusparse_linops)` names `utils/cuda_linops.cpp` and is called only under
    `if(DEMO_BUILD_CUDA)`; a helper's relative glob (`"*.cuh"`) is taken in the caller's folder."""
    cmake = """\
function(add_cusparse_linops)
  add_library(cusparse_linops utils/cuda_linops.cpp)
endfunction()
function(check_headers target)
  file(GLOB_RECURSE HEADERS RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" "*.cuh" "*.hip.hpp")
  add_library(${target}_headers ${HEADERS})
endfunction()
if(DEMO_BUILD_CUDA)
  add_cusparse_linops()
  add_subdirectory(cuda)
endif()
if(DEMO_BUILD_HIP)
  add_library(hip_linops utils/rocsparse_ops.hip.cpp)
  add_subdirectory(hip)
endif()
add_library(core utils/core.cpp)
"""
    files = {"CMakeLists.txt": cmake, "utils/cuda_linops.cpp": GUARD, "utils/rocsparse_ops.hip.cpp": "\n",
             "utils/core.cpp": GUARD, "cuda/CMakeLists.txt": "check_headers(demo_cuda)\n",
             "cuda/groups.cuh": GUARD, "hip/CMakeLists.txt": "check_headers(demo_hip)\n",
             "hip/groups.hip.hpp": "\n"}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"utils/core.cpp"}


def test_a_variable_set_true_only_under_a_cuda_condition_tests_cuda(tmp_path: Path) -> None:
    """openmm: `OPENMM_BUILD_CUDA_LIB` (its name says nothing certain) is set ON only under
    `if(CUDAToolkit_FOUND)`; `platforms/cuda/` is added under it."""
    cmake = """\
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  set(DEMO_BUILD_CUDA_LIB ON CACHE BOOL "CUDA platform")
else()
  set(DEMO_BUILD_CUDA_LIB OFF CACHE BOOL "CUDA platform")
endif()
if(DEMO_BUILD_CUDA_LIB)
  add_subdirectory(platforms/cuda)
endif()
find_package(hip QUIET)
if(hip_FOUND)
  add_subdirectory(platforms/hip)
endif()
add_library(common common.cpp)
"""
    files = {"CMakeLists.txt": cmake, "common.cpp": GUARD,
             "platforms/cuda/CMakeLists.txt": 'file(GLOB SRCS "src/*.cpp")\nadd_library(demo_cuda ${SRCS})\n',
             "platforms/cuda/src/CudaContext.cpp": GUARD,
             "platforms/hip/CMakeLists.txt": 'file(GLOB SRCS "src/*.cpp")\nadd_library(demo_hip ${SRCS})\n',
             "platforms/hip/src/HipContext.cpp": "\n"}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"common.cpp"}


def test_a_bzl_source_list_read_by_cmake_under_a_cuda_backend(tmp_path: Path) -> None:
    """kineto: `get_filelist("get_cupti_srcs()" SRCS)` runs Python over a `.bzl` file's lists, under
    `elseif(BACKEND STREQUAL "cuda")`."""
    bzl = """\
CPU_SRCS = ["src/Logger.cpp"]
CUPTI_SRCS = ["src/CuptiApi.cpp"]
ROC_SRCS = ["src/RocApi.cpp"]

def get_cupti_srcs(with_api = True):
    return CUPTI_SRCS + CPU_SRCS

def get_roc_srcs(with_api = True):
    return ROC_SRCS + CPU_SRCS
"""
    cmake = """\
function(get_filelist name outputvar)
  execute_process(COMMAND python3 -c "exec(open('defs.bzl').read());print(';'.join(${name}))"
                  WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE _found)
  set(${outputvar} ${_found} PARENT_SCOPE)
endfunction()
if(DEMO_BACKEND STREQUAL "cuda")
  get_filelist("get_cupti_srcs(with_api=False)" SRCS)
elseif(DEMO_BACKEND STREQUAL "rocm")
  get_filelist("get_roc_srcs(with_api=False)" SRCS)
endif()
add_library(profiler ${SRCS})
"""
    files = {"CMakeLists.txt": cmake, "defs.bzl": bzl, "src/Logger.cpp": GUARD, "src/CuptiApi.cpp": GUARD,
             "src/RocApi.cpp": "\n", "src/CuptiApi.h": GUARD}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"src/Logger.cpp", "src/CuptiApi.h"}  # a header nothing includes: not known
    (root / "src/CuptiApi.cpp").write_text('#include "CuptiApi.h"\n' + GUARD, encoding="utf-8")
    assert _reported(root) == {"src/Logger.cpp"}


def test_a_header_a_cuda_only_source_includes_and_a_shared_one_includes_under_a_cuda_macro(tmp_path: Path) -> None:
    """kineto: `CuptiActivity.h` is included by the CUPTI profiler's header, which a CUDA-only source
    includes and a source both builds compile includes only under `HAS_CUPTI`, a definition of the
    CUDA backend alone; the ROCm backend defines `HAS_ROCTRACER`. Included unconditionally by the
    shared source, it is reported again."""
    cmake = """\
if(DEMO_BACKEND STREQUAL "cuda")
  set(SRCS src/Controller.cpp src/CuptiProfiler.cpp)
  list(APPEND DEFS "HAS_CUPTI")
elseif(DEMO_BACKEND STREQUAL "rocm")
  set(SRCS src/Controller.cpp src/RocProfiler.cpp)
  list(APPEND DEFS "HAS_ROCTRACER" "__HIP_PLATFORM_AMD__")
endif()
add_library(profiler ${SRCS})
target_compile_definitions(profiler PRIVATE ${DEFS})
"""
    controller = '#if defined(HAS_CUPTI)\n#include "CuptiProfiler.h"\n#elif defined(HAS_ROCTRACER)\n#include "RocProfiler.h"\n#endif\n'
    files = {"CMakeLists.txt": cmake, "src/Controller.cpp": controller, "src/CuptiProfiler.cpp": '#include "CuptiProfiler.h"\n',
             "src/RocProfiler.cpp": '#include "RocProfiler.h"\n', "src/RocProfiler.h": GUARD,
             "src/CuptiProfiler.h": '#include "CuptiActivity.h"\n', "src/CuptiActivity.h": GUARD}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"src/RocProfiler.h"}
    (root / "src/Controller.cpp").write_text('#include "CuptiProfiler.h"\n' + controller, encoding="utf-8")
    assert _reported(root) == {"src/RocProfiler.h", "src/CuptiActivity.h"}


# -- Bazel ---------------------------------------------------------------------------------------


def test_bazel_defines_of_a_platform_folder_decide_what_rocm_sees(tmp_path: Path) -> None:
    """jax: `jaxlib/gpu/vendor.h` tests `JAX_GPU_CUDA` / `JAX_GPU_HIP`, which the `cc_library`s of
    `jaxlib/cuda/BUILD` and `jaxlib/rocm/BUILD` pass in `defines`: the CUDA arm's version guard is
    not ROCm's; without those BUILD files nothing says so."""
    vendor = ("#if defined(LIB_GPU_CUDA)\n#if CUDA_VERSION < 11080\n#error needs CUDA 11.8\n#endif\n"
              "#elif defined(LIB_GPU_HIP)\n#include <hip/hip_runtime.h>\n#endif\n")
    build = 'cc_library(\n    name = "{0}_vendor",\n    hdrs = ["//lib/gpu:vendor.h"],\n    defines = ["LIB_GPU_{1}=1"],\n)\n'
    root = git_project(tmp_path, {"lib/gpu/vendor.h": vendor, "setup.py": "import os\n",
                                  "lib/rocm/setup.py": "print('the ROCm plugin')\n"})
    assert _reported(root) == {"lib/gpu/vendor.h"}
    (root / "lib/cuda").mkdir()
    (root / "lib/cuda/BUILD").write_text(build.format("cuda", "CUDA"))
    (root / "lib/rocm/BUILD.bazel").write_text(build.format("rocm", "HIP"))
    assert _reported(root) == set()
    assert "LIB_GPU_CUDA: undefined on ROCm (only the CUDA build defines it: lib/cuda/BUILD:4" in run_cli(
        "files", "lib/gpu/vendor.h", cwd=root).stdout



def test_the_own_sources_of_a_bazel_build_file_in_a_cuda_folder_are_cuda_only(tmp_path: Path) -> None:
    """jax: `jaxlib/cuda/BUILD` lists `srcs = ["versions.cc"]`, a file of its own folder no ROCm
    target names; the shared sources both plugins name by label (`//lib/gpu:blas.cc`) stay."""
    guard = "#if CUDA_VERSION >= 12000\nint v;\n#endif\n"
    cuda = 'cc_library(\n    name = "versions",\n    srcs = ["versions.cc", "//lib/gpu:blas.cc"],\n)\n'
    rocm = 'cc_library(\n    name = "blas",\n    srcs = ["//lib/gpu:blas.cc"],\n    defines = ["LIB_GPU_HIP=1"],\n)\n'
    root = git_project(tmp_path, {"lib/cuda/BUILD": cuda, "lib/cuda/versions.cc": guard, "lib/rocm/BUILD": rocm,
                                  "lib/gpu/blas.cc": guard})
    assert _reported(root) == {"lib/gpu/blas.cc"}
    assert 'only the CUDA build compiles it (lib/cuda/BUILD:3: srcs = ["versions.cc"' in _judged(
        root, "lib/cuda/versions.cc")

def test_a_bazelrc_configuration_named_for_rocm_defines_the_rocm_builds_macro(tmp_path: Path) -> None:
    """alibaba's rtp-llm: `.bazelrc` has `build:rocm --copt="-DUSING_ROCM=1"`, and the sources
    test `USING_ROCM`. That is the macro every ROCm build defines: the fix writes it (not a
    `USE_ROCM` the build never defines), and the CUDA configuration's macro is undefined on ROCm."""
    guard = "__global__ void k() {}\n#if CUDA_VERSION >= 11000\nint v;\n#endif\n#ifdef USING_CUDA\nint c;\n#endif\n"
    bazelrc = 'build --copt=-O2\nbuild:rocm --copt="-DUSING_ROCM=1"\nbuild:cuda --cxxopt=-DUSING_CUDA=1\n'
    root = git_project(tmp_path, {".bazelrc": bazelrc, "k.cu": guard})
    shown = run_cli("files", "k.cu", cwd=root).stdout
    assert "USING_ROCM: 1 on ROCm (every ROCm build of the file defines it: .bazelrc:2:" in shown, shown
    assert "USING_CUDA: undefined on ROCm" in shown, shown
    fixed = run_cli("check", "--no-cache", "--diff", "k.cu", cwd=root).stdout
    assert "+#if CUDA_VERSION >= 11000 && !defined(USING_ROCM)" in fixed, fixed


def test_a_folder_the_rocm_build_hipifies_into_a_copy_is_not_cuda_only(tmp_path: Path) -> None:
    """fastllm: the CUDA build names `src/devices/cuda/*.cu`; the ROCm build runs hipify_torch's
    `hipify(CUDA_SOURCE_DIR .../src/devices/cuda HIP_SOURCE_DIR .../src/devices/hip)` at configure
    time and compiles the copies, so the CUDA folder's guards are ROCm's too. Hipified in place
    (no HIP_SOURCE_DIR: FBGEMM), the build names what it compiles itself."""
    cmake = ("cmake_minimum_required(VERSION 3.21)\nproject(fl LANGUAGES CXX)\n"
             "if(USE_CUDA)\n  enable_language(CUDA)\n  add_library(fl src/devices/cuda/kernels.cu)\nendif()\n"
             "if(USE_ROCM)\n  enable_language(HIP)\n"
             "  hipify(CUDA_SOURCE_DIR ${PROJECT_SOURCE_DIR}/src/devices/cuda{copy})\n"
             "  add_library(fl src/devices/hip/kernels.hip)\nendif()\n")
    copy = ' HIP_SOURCE_DIR "${PROJECT_SOURCE_DIR}/src/devices/hip"'
    root = git_project(tmp_path / "copy", {"CMakeLists.txt": cmake.replace("{copy}", copy),
                                          "src/devices/cuda/kernels.cu": KERNEL})
    assert _reported(root) == {"src/devices/cuda/kernels.cu"}
    in_place = git_project(tmp_path / "in_place", {"CMakeLists.txt": cmake.replace("{copy}", ""),
                                                   "src/devices/cuda/kernels.cu": KERNEL})
    assert "only the CUDA build compiles it" in _judged(in_place, "src/devices/cuda/kernels.cu")


def test_a_folder_added_only_for_cuda_compiled_by_clang_is_cuda_only(tmp_path: Path) -> None:
    """RAJA (BLT): `if(RAJA_ENABLE_CLANG_CUDA) add_subdirectory(clangcuda)`: CUDA compiled by
    clang, a CUDA build's option like `RAJA_ENABLE_CUDA`; the HIP build's sources stay ROCm's."""
    cmake = ("cmake_minimum_required(VERSION 3.21)\nproject(r LANGUAGES CXX)\n"
             "if(RAJA_ENABLE_HIP)\n  enable_language(HIP)\n  add_library(r hip/shuffle.cpp)\nendif()\n"
             "if(RAJA_ENABLE_CLANG_CUDA)\n  add_subdirectory(clangcuda)\nendif()\n")
    root = git_project(tmp_path, {"CMakeLists.txt": cmake, "hip/shuffle.cpp": KERNEL,
                                  "clangcuda/CMakeLists.txt": "add_executable(repro repro.cpp)\n",
                                  "clangcuda/repro.cpp": KERNEL})
    assert _reported(root) == {"hip/shuffle.cpp"}

# -- tests the ROCm CI leaves out --------------------------------------------------------------


def test_tests_the_rocm_ci_ignores_are_not_run_on_rocm(tmp_path: Path) -> None:
    """vLLM's `.buildkite/scripts/hardware_ci/run-amd-test.sh` runs pytest from `tests/` with
    `--ignore=kernels/quantization/test_machete_mm.py` (and folders): those tests are not the ROCm
    build's; a test the CUDA CI ignores, or one the ROCm script does not name, stays reported."""
    test = "import torch\n\nSM90 = torch.cuda.get_device_capability()[0] == 9\nBLOCK = 128 if SM90 else 64\n"
    amd = ('#!/bin/bash\ncd tests\ncommands="pytest -v kernels \\\n  --ignore=kernels/quantization/test_machete_mm.py \\\n'
           '  --ignore=kernels/mamba/"\n')
    root = git_project(tmp_path, {
        "CMakeLists.txt": "project(p)\nfind_package(hip)\n", ".buildkite/scripts/run-amd-test.sh": amd,
        ".buildkite/scripts/run-cuda-test.sh": "pytest --ignore=kernels/test_rocm_only.py\n",
        "tests/kernels/quantization/test_machete_mm.py": test, "tests/kernels/quantization/test_fp8.py": test,
        "tests/kernels/mamba/test_ssd.py": test, "tests/kernels/test_rocm_only.py": test,
    })
    assert _reported(root) == {"tests/kernels/quantization/test_fp8.py", "tests/kernels/test_rocm_only.py"}
    assert "the project does not run it on ROCm" in _judged(root, "tests/kernels/quantization/test_machete_mm.py")


# -- sources and headers ------------------------------------------------------------------------


def test_headers_only_cuda_only_sources_include_are_cuda_only(tmp_path: Path) -> None:
    """SageAttention: `csrc/mma.cuh`, included as `"../mma.cuh"` by the kernels of `csrc/qattn/`
    (which only the CUDA build compiles), and `csrc/smem.cuh`, included only by mma.cuh; a header a
    shared source includes too stays reported."""
    setup = TORCH_SETUP_HEAD + """\
from torch.utils.cpp_extension import IS_HIP_EXTENSION
sources = ["csrc/bind.cpp"]
if not IS_HIP_EXTENSION:
    sources += ["csrc/qattn/attn_sm80.cu"]
setup(ext_modules=[CUDAExtension("sage", sources)])
"""
    files = {"setup.py": setup, "csrc/bind.cpp": '#include "shared.cuh"\n', "csrc/shared.cuh": GUARD,
             "csrc/qattn/attn_sm80.cu": '#include "../mma.cuh"\n#include "../shared.cuh"\n' + KERNEL,
             "csrc/mma.cuh": '#include "smem.cuh"\n' + GUARD, "csrc/smem.cuh": GUARD}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"csrc/shared.cuh"}


def test_a_file_beside_its_hip_suffixed_counterpart_is_cuda_only(tmp_path: Path) -> None:
    """ginkgo's `identify_stream_usage.cpp` beside `identify_stream_usage.hip.cpp` (and `X.cu` beside
    a checked-in `X.hip`); a HIP file that includes its CUDA original compiles both."""
    files = {"CMakeLists.txt": "if(DEMO_BUILD_HIP)\n  add_library(a a.hip.cpp b.hip c.hip)\nendif()\n",
             "a.cpp": GUARD, "a.hip.cpp": "\n", "b.cu": GUARD, "b.hip": "\n", "c.cu": GUARD, "c.hip": '#include "c.cu"\n'}
    root = git_project(tmp_path, files)
    assert _reported(root) == {"c.cu"}


# -- headers by the conditions their includers include them under --------------------------------


def test_a_header_included_only_under_a_macro_whose_definition_is_commented_out(tmp_path: Path) -> None:
    """mmcv: the kernels include the Parrots helper only under `#ifdef MMCV_USE_PARROTS`, whose one
    definition in setup.py is commented out (`# define_macros = [('MMCV_USE_PARROTS', None)]`): no
    build defines it, so no ROCm build compiles the helper; the PyTorch helper stays ROCm's.
    Defined in code, it is the build's macro again."""
    setup = (TORCH_SETUP_HEAD + "define_macros = []\n# define_macros = [('LIB_USE_PARROTS', None)]\n"
             "setup(name='lib', ext_modules=[CUDAExtension('lib._ext', glob.glob('csrc/*.cu'), "
             "define_macros=define_macros)])\n")
    kernel = ('#ifdef LIB_USE_PARROTS\n#include "parrots_helper.hpp"\n#else\n#include "pytorch_helper.hpp"\n'
              '#endif\n__global__ void k() {}\n')
    files = {"setup.py": setup, "csrc/nms.cu": kernel, "csrc/parrots_helper.hpp": GUARD,
             "csrc/pytorch_helper.hpp": GUARD}
    root = git_project(tmp_path / "commented", files)
    assert _reported(root) == {"csrc/pytorch_helper.hpp"}
    assert "LIB_USE_PARROTS: undefined on ROCm (no build defines it, only a comment does: setup.py:6:" in run_cli(
        "files", "csrc/nms.cu", cwd=root).stdout
    files["setup.py"] = setup.replace("define_macros = []\n", "define_macros = [('LIB_USE_PARROTS', None)]\n")
    defined = git_project(tmp_path / "defined", files)
    assert _reported(defined) == {"csrc/pytorch_helper.hpp", "csrc/parrots_helper.hpp"}


def test_a_header_included_only_where_no_rocm_build_goes_is_cuda_only(tmp_path: Path) -> None:
    """Kokkos' desul: `Fetch_Op.hpp` includes `Fetch_Op_CUDA.hpp` only under
    `DESUL_HAVE_CUDA_ATOMICS`, which `Macros.hpp` defines only with `__CUDACC__`; that header
    includes `cuda/CUDA_asm.hpp`. A header included only under `#ifdef __CUDACC__` is CUDA-only
    too; the HIP twin of each stays ROCm's."""
    guard = "#if (__CUDACC_VER_MAJOR__ > 11)\n#define USE_ISGLOBAL\n#endif\n"
    root = git_project(tmp_path, {
        "CMakeLists.txt": "project(lib CXX)\nfind_package(hip)\n",
        "include/lib/Macros.hpp": ("#pragma once\n#if defined(LIB_ENABLE_CUDA) && defined(__CUDACC__)\n"
                                   "#define LIB_HAVE_CUDA_ATOMICS\n#endif\n"
                                   "#if defined(LIB_ENABLE_HIP) && defined(__HIPCC__)\n#define LIB_HAVE_HIP_ATOMICS\n#endif\n"),
        "include/lib/Fetch_Op.hpp": ("#pragma once\n#include <lib/Macros.hpp>\n"
                                     "#ifdef LIB_HAVE_CUDA_ATOMICS\n#include <lib/Fetch_Op_CUDA.hpp>\n#endif\n"
                                     "#ifdef LIB_HAVE_HIP_ATOMICS\n#include <lib/Fetch_Op_HIP.hpp>\n#endif\n"),
        "include/lib/Fetch_Op_CUDA.hpp": "#pragma once\n#include <lib/cuda/CUDA_asm.hpp>\n",
        "include/lib/cuda/CUDA_asm.hpp": guard,
        "include/lib/Fetch_Op_HIP.hpp": "#pragma once\n#include <lib/hip/HIP_asm.hpp>\n",
        "include/lib/hip/HIP_asm.hpp": guard,
        "include/lib/Direct.hpp": '#pragma once\n#ifdef __CUDACC__\n#include "nvcc/only.hpp"\n#endif\n',
        "include/lib/nvcc/only.hpp": guard,
    })
    assert _reported(root) == {"include/lib/hip/HIP_asm.hpp"}
    assert "only the CUDA build compiles it" in _judged(root, "include/lib/cuda/CUDA_asm.hpp")
