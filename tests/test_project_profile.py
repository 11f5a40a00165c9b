"""The project's platforms (spec §11.1-11.4): build macros from the configuration and from names,
definitions the ROCm build makes, thresholds in included headers, the models a file is judged
under, and what `init` and `files` say about them. Real CLI runs on projects written to disk."""

from __future__ import annotations

from pathlib import Path

from conftest import git_project, run_cli


def _found(root: Path, *args: str) -> list[tuple[str, int, str]]:
    result = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=root)
    assert result.code in (0, 1), result.stderr
    return sorted((item["filename"].removeprefix("./"), item["location"]["row"], item["code"])
                  for item in result.json())


GUARDS = """\
#if defined(LUMEN_USE_CUDA) && CUDA_VERSION >= 12000
cuda_build_only();
#endif
#ifdef __HIP_PLATFORM_HCC__
hip_hcc();
#endif
#if CUDART_VERSION >= 11080
#endif
"""


def test_configured_build_macros_and_definitions_decide_what_rocm_sees(tmp_path: Path) -> None:
    root = git_project(tmp_path, {"src/kernel.cu": GUARDS})
    assert _found(root, "--isolated") == [("src/kernel.cu", 1, "HG101"), ("src/kernel.cu", 4, "HG106"),
                                          ("src/kernel.cu", 7, "HG101")]
    (root / "hipify-guard.toml").write_text(
        'cuda-build-macros = ["LUMEN_USE_CUDA"]\n[rocm-build-defines]\n__HIP_PLATFORM_HCC__ = 1\n', encoding="utf-8")
    assert _found(root) == [("src/kernel.cu", 7, "HG101")]


def test_a_name_pair_makes_the_cuda_side_a_build_macro_and_infer_platforms_false_turns_it_off(tmp_path: Path) -> None:
    root = git_project(tmp_path, {"src/kernel.cu": "#ifdef LUMEN_USE_HIP\n#include <hip/hip_runtime.h>\n#endif\n" + GUARDS})
    assert [row for _, row, code in _found(root) if code == "HG101"] == [10]
    (root / "hipify-guard.toml").write_text("infer-platforms = false\n", encoding="utf-8")
    assert [row for _, row, code in _found(root) if code == "HG101"] == [4, 10]


def test_a_threshold_header_and_its_user(tmp_path: Path) -> None:
    """`common.cuh` defines CUDART_HMAX; `ops/hmax.cu` includes it and compares with it: a version
    test like any other, in check runs (cached or not) and in fix runs."""
    root = git_project(tmp_path, {
        "src/common.cuh": "#pragma once\n#define CUDART_HMAX 11070  // CUDA 11.7\n#define FROM_BUILD BUILD_LEVEL\n",
        "src/ops/hmax.cu": ('#include "../common.cuh"\n#if CUDART_VERSION >= CUDART_HMAX\nhmax2();\n#endif\n'
                            "#if CUDART_VERSION >= FROM_BUILD\n#endif\n"),
    })
    assert _found(root) == [("src/ops/hmax.cu", 2, "HG101")]
    warm = [run_cli("check", "--output-format", "json", cwd=root).json() for _ in range(2)]
    assert [item["location"]["row"] for item in warm[1]] == [2]
    result = run_cli("check", "--fix", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    assert b"#if CUDART_VERSION >= CUDART_HMAX && !defined(USE_ROCM)\n" in (root / "src/ops/hmax.cu").read_bytes()


def test_a_pytorch_extension_is_judged_under_pytorchs_hipify_only(tmp_path: Path) -> None:
    """No "(native HIP, ...)" and no HG103 where only PyTorch's hipify builds the file: an
    extension's build leaves TORCH_HIP_VERSION undefined, so `#ifdef CUDA_VERSION` is false."""
    root = git_project(tmp_path, {"csrc/ext.cu": "#include <torch/extension.h>\n#ifdef CUDA_VERSION\n#endif\n"
                                              "#if CUDA_VERSION >= 11000\n#endif\n"})
    result = run_cli("check", "--no-cache", "--output-format", "json", cwd=root)
    found = result.json()
    assert [(item["code"], item["location"]["row"]) for item in found] == [("HG101", 2), ("HG101", 4)]
    assert all("PyTorch's hipify renames CUDA_VERSION to TORCH_HIP_VERSION" in item["message"] for item in found)
    assert not any("native HIP" in item["message"] for item in found)
    native = git_project(tmp_path / "native", {"src/k.cu": "#ifdef CUDA_VERSION\n#endif\n"})
    assert [code for _, _, code in _found(native, "--config", str(_config(native, 'models = ["hip"]')))] == ["HG101"]


def _config(root: Path, text: str) -> Path:
    path = root / "hipify-guard.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path


CMAKE_PROJECT = {
    "CMakeLists.txt": """\
cmake_minimum_required(VERSION 3.21)
project(lumen CXX)
option(LUMEN_HIP "Build the HIP backend" OFF)
add_library(lumen src/core.cpp src/kernels.cu)
if(LUMEN_HIP)
  add_compile_definitions(LUMEN_USE_HIP)
  list(APPEND HIP_FLAGS -D__HIP_PLATFORM_HCC__=1)
  target_sources(lumen PRIVATE src/hip/gemm.hip)
else()
  add_compile_definitions(LUMEN_USE_CUDA)
  set(CUDA_ONLY_SRCS src/cuda_only/fp8.cu)
  target_sources(lumen PRIVATE ${CUDA_ONLY_SRCS})
endif()
""",
    "src/core.cpp": "#include \"common.cuh\"\n",
    "src/common.cuh": "#pragma once\n#define LUMEN_HMAX 11070\n",
    "src/kernels.cu": """\
#include "common.cuh"
#if defined(LUMEN_USE_CUDA) && CUDA_VERSION >= 12000
cuda_build_only();
#endif
#ifdef __HIP_PLATFORM_HCC__
hip_build();
#endif
#ifdef __HIPCC__
#include <hip/hip_runtime.h>
#elif CUDA_VERSION >= 9000
#include <cuda_fp16.h>
#endif
#if CUDART_VERSION >= LUMEN_HMAX
__global__ void hmax2();
#endif
#if CUDART_VERSION >= 11010 || defined(LUMEN_USE_MUSA)
#endif
""",
    "src/cuda_only/fp8.cu": "#if CUDA_VERSION >= 12080\n__global__ void fp8();\n#endif\n",
    "src/cuda_only/fp8.cuh": "#if CUDA_VERSION >= 12080\n#define HAS_FP8 1\n#endif\n",
    "src/hip/gemm.hip": "__global__ void gemm();\n",
}


def test_a_cmake_project_is_judged_under_its_own_platforms(tmp_path: Path) -> None:
    """Its build macros and -D flags (build files), its device code, its CUDA-only sources and the
    headers beside them, its threshold header: only the two implicit guards remain."""
    root = git_project(tmp_path, CMAKE_PROJECT)
    assert _found(root) == [("src/kernels.cu", 13, "HG101"), ("src/kernels.cu", 16, "HG101")]
    assert _found(root, "--config", str(_config(tmp_path / "elsewhere", "infer-platforms = false"))) == [
        ("src/cuda_only/fp8.cu", 1, "HG101"), ("src/cuda_only/fp8.cuh", 1, "HG101"), ("src/kernels.cu", 2, "HG101"),
        ("src/kernels.cu", 5, "HG106"), ("src/kernels.cu", 10, "HG101"), ("src/kernels.cu", 13, "HG101"),
        ("src/kernels.cu", 16, "HG101")]


def test_init_writes_what_check_infers_with_its_evidence(tmp_path: Path) -> None:
    root = git_project(tmp_path, CMAKE_PROJECT)
    inferred = _found(root)
    result = run_cli("init", cwd=root)
    assert result.code == 0, result.stderr
    text = (root / ".hipify-guard.toml").read_text(encoding="utf-8")
    for line in ('"LUMEN_USE_HIP",  # CMakeLists.txt:6: add_compile_definitions(LUMEN_USE_HIP)',
                 '"LUMEN_USE_CUDA",  # CMakeLists.txt:10: add_compile_definitions(LUMEN_USE_CUDA)',
                 '"/src/cuda_only/fp8.cu",', '"/src/cuda_only/fp8.cuh",  # every source beside it is CUDA-only',
                 '__HIP_PLATFORM_HCC__ = 1  # CMakeLists.txt:7:', 'hipify = "native"'):
        assert line in text, text
    assert _found(root) == inferred  # what init wrote says what inference said
    again = run_cli("init", cwd=root)
    assert again.code == 2 and "already configures hipify-guard here" in again.stderr
    assert run_cli("init", "--force", cwd=root).code == 0


def test_files_says_what_a_file_is_judged_under_and_why(tmp_path: Path) -> None:
    root = git_project(tmp_path, CMAKE_PROJECT)
    result = run_cli("files", "src/kernels.cu", "src/cuda_only/fp8.cu", cwd=root)
    assert result.code == 0, result.stderr
    assert "src/kernels.cu: judged under native HIP (native HIP only" in result.stdout
    assert "LUMEN_USE_CUDA: undefined on ROCm (only the CUDA build defines it: CMakeLists.txt:10:" in result.stdout
    assert "__HIPCC__: 1 on ROCm (hipcc compiles this file: a cu file)" in result.stdout
    assert "src/cuda_only/fp8.cu: judged under" in result.stdout and "the ROCm rules do not run" in result.stdout
    data = run_cli("files", "--output-format", "json", "src/kernels.cu", cwd=root).json()
    assert data[0]["rocm_rules"] and {"name": "__HIP_PLATFORM_HCC__", "rocm": "1 on ROCm",
                                      "why": "every ROCm build of the file defines it: CMakeLists.txt:7: "
                                             "list(APPEND HIP_FLAGS -D__HIP_PLATFORM_HCC__=1)"} in data[0]["macros"]


def test_a_presence_test_is_named_for_what_it_is(tmp_path: Path) -> None:
    """`#ifndef CUDA_VERSION` asks whether the macro exists (ginkgo's "not CUDA", Kokkos' sanity
    `#error`): ROCm is in the branch because the macro is undefined there, not as "old CUDA"."""
    root = git_project(tmp_path, {
        "hipify-guard.toml": 'hipify = "native"\n',
        "src/k.cu": ("#ifndef CUDA_VERSION\n#error \"#include <cuda.h> did not define CUDA_VERSION.\"\n#endif\n"
                     "#if !defined(CUDA_VERSION)\nno_16_bit_atomics();\n#endif\n#if CUDA_VERSION < 9000\nold();\n#endif\n"),
    })
    messages = [item["message"] for item in run_cli("check", "--no-cache", "--output-format", "json", cwd=root).json()]
    assert all("; no fix: " in message and "set `rocm-macro`" in message for message in messages)  # native, no macro
    assert [message.split("; no fix")[0].split(": ")[-1] for message in messages] == [
        "ROCm hits this `#error` only because the macro is undefined there",
        "ROCm takes this branch only because the macro is undefined there, which no test of ROCm says",
        "ROCm silently takes the branch meant for old CUDA (before 9.0)"]


def test_pytorchs_hipify_covers_the_folder_of_the_setup_py_that_uses_it(tmp_path: Path) -> None:
    """An extension's `setup.py` in `bindings/` makes the sources there PyTorch-hipified; the
    project's other sources keep every model (no build file says how they reach ROCm)."""
    guard = "#ifdef CUDA_VERSION\n#endif\n"
    root = git_project(tmp_path, {
        "bindings/setup.py": "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n",
        "bindings/csrc/ext.cu": guard, "lib/core.cu": guard})
    found = {item["filename"].removeprefix("./"): item for item in
             run_cli("check", "--no-cache", "--output-format", "json", cwd=root).json()}
    assert found["bindings/csrc/ext.cu"]["code"] == "HG101"  # an extension's build leaves TORCH_HIP_VERSION undefined
    assert found["lib/core.cu"]["code"] == "HG103"  # native HIP: false; PyTorch's hipify: depends on the build
    assert "#   bindings/  (bindings/setup.py:1:" in run_cli("init", "--stdout", cwd=root).stdout


def test_a_backend_selector_whose_arm_includes_hip_headers(tmp_path: Path) -> None:
    """vkFFT: `#elif(VKFFT_BACKEND==2)` includes HIP's headers, so ROCm builds select 2 and the
    CUDA backend's arm (1) is never reached there; `__global__` in a string is no device code."""
    selector = ("#if(BACKEND==1)\n#include <cuda.h>\n#elif(BACKEND==2)\n#include <hip/hip_runtime.h>\n#endif\n"
                "#if(BACKEND==1)\n#if (CUDA_VERSION >= 11030)\ncuda_graphs();\n#endif\n#endif\n"
                'const char* k = "extern \\"C\\" __global__ void f()";\n')
    root = git_project(tmp_path, {"vkfft/vkFFT.h": selector,
                               "other/plain.h": selector.replace("#include <hip/hip_runtime.h>\n", "")})
    assert _found(root) == [("other/plain.h", 6, "HG101")]  # (one line shorter)
    explained = run_cli("files", "vkfft/vkFFT.h", cwd=root).stdout
    assert "BACKEND: 2 on ROCm (the arm of line 3 selects HIP: it includes HIP's headers)" in explained
    assert "__HIPCC__" not in explained


def test_macros_an_included_header_derives_from_the_platform(tmp_path: Path) -> None:
    """RAJA's `RAJA_CUDA_ACTIVE` (config.hpp.in, under `defined(__CUDACC__)`), mscclpp's
    `MSCCLPP_DEVICE_HIP` (under `defined(__HIP_PLATFORM_AMD__)`, included with <...>), Kokkos'
    header found by its name alone: ROCm's outcome is explicit through them."""
    root = git_project(tmp_path, {
        "include/lib/config.hpp.in": "#cmakedefine LIB_ENABLE_CUDA\n"
                                     "#if defined(LIB_ENABLE_CUDA) && defined(__CUDACC__)\n#define LIB_CUDA_ACTIVE\n#endif\n",
        "include/lib/device.hpp": "#if defined(__HIP_PLATFORM_AMD__)\n#define LIB_DEVICE_HIP\n#endif\n",
        "core/src/Lib_Macros.hpp": "#if defined(__NVCC__)\n#define LIB_COMPILER_NVCC\n#endif\n",
        "src/intrinsics.hpp": '#include "lib/config.hpp"\n#if defined(LIB_CUDA_ACTIVE)\n#if CUDA_VERSION >= 11000\n#endif\n#endif\n',
        "src/gpu.hpp": "#include <lib/device.hpp>\n#if !defined(LIB_DEVICE_HIP)\n#if CUDART_VERSION < 12030\n#endif\n#endif\n",
        "src/strings.cpp": "#include <Lib_Macros.hpp>\n#if !defined(LIB_COMPILER_NVCC) || __CUDACC_VER_MAJOR__ >= 11\n#endif\n",
        "src/unknown.hpp": "#if defined(LIB_CUDA_ACTIVE)\n#if CUDA_VERSION >= 11000\n#endif\n#endif\n",
    })
    assert _found(root) == [("src/unknown.hpp", 2, "HG101")]


KERNEL_CU = """\
#if CUDA_VERSION >= 12000
fast();
#endif
"""
CAPABILITY_PY = """\
import torch

HOPPER = torch.cuda.get_device_capability()[0] >= 9
"""
KERNEL_BUILDER_PROJECT = {
    # a kernel no ROCm backend builds: nothing below its folder is built for ROCm
    "hopper-gemm/build.toml": '[general]\nname = "hopper-gemm"\nbackends = ["cuda"]\n\n'
                              '[kernel.gemm]\nbackend = "cuda"\nsrc = ["gemm/gemm.cu", "gemm/gemm.cuh"]\n',
    "hopper-gemm/gemm/gemm.cu": KERNEL_CU,
    "hopper-gemm/gemm/gemm.cuh": KERNEL_CU,
    "hopper-gemm/torch-ext/hopper_gemm/__init__.py": CAPABILITY_PY,
    # a kernel with both backends: a source only its cuda kernel lists is CUDA-only
    "activation/build.toml": '[general]\nname = "activation"\nbackends = ["cuda", "rocm"]\n\n'
                             '[kernel.activation]\nbackend = "cuda"\nsrc = ["csrc/act.cu", "csrc/cuda_only.cu"]\n\n'
                             '[kernel.activation_rocm]\nbackend = "rocm"\nsrc = ["csrc/act.cu"]\n',
    "activation/csrc/act.cu": KERNEL_CU,
    "activation/csrc/cuda_only.cu": KERNEL_CU,
    "activation/torch-ext/activation/__init__.py": CAPABILITY_PY,
    "other/build.toml": "[tool.something]\nbackends = []\n",  # not kernel-builder's: left alone
    "other/x.cu": KERNEL_CU,
}


def test_a_kernel_builder_folder_without_a_rocm_backend_is_cuda_only(tmp_path: Path) -> None:
    root = git_project(tmp_path, KERNEL_BUILDER_PROJECT)
    assert _found(root) == [("activation/csrc/act.cu", 1, "HG101"),
                            ("activation/torch-ext/activation/__init__.py", 3, "HG303"),
                            ("other/x.cu", 1, "HG101")]
    assert run_cli("init", cwd=root).code == 0
    text = (root / ".hipify-guard.toml").read_text(encoding="utf-8")
    assert '"/hopper-gemm/**",  # hopper-gemm/build.toml:3: backends: cuda (no rocm)' in text, text
    assert '"/activation/csrc/cuda_only.cu",  # activation/build.toml:5: [kernel.activation] src' in text, text
    assert _found(root) == [("activation/csrc/act.cu", 1, "HG101"),
                            ("activation/torch-ext/activation/__init__.py", 3, "HG303"),
                            ("other/x.cu", 1, "HG101")]  # the written configuration says the same
    (root / ".hipify-guard.toml").unlink()
    (root / "activation/build.toml").write_text("[general\n", encoding="utf-8")  # broken: noted, the rest read
    assert ("activation/csrc/cuda_only.cu", 1, "HG101") in _found(root)


def test_an_op_builder_module_the_setup_py_imports_builds_through_pytorchs_hipify(tmp_path: Path) -> None:
    """DeepSpeed's layout: `setup.py` imports `op_builder/builder.py`, which builds the ops with
    `CUDAExtension` (so PyTorch's hipify renames `CUBLAS_GEMM_DEFAULT_TENSOR_OP`) and passes
    `-D__HIP_PLATFORM_AMD__=1` on ROCm; that definition does not make the build native."""
    root = git_project(tmp_path, {
        "setup.py": "from op_builder import ALL_OPS\nsetup(name='ds', ext_modules=[op.builder() for op in ALL_OPS])\n",
        "op_builder/__init__.py": "from .builder import ALL_OPS\n",
        "op_builder/builder.py": (
            "import torch\nfrom torch.utils.cpp_extension import CUDAExtension\n\n\n"
            "def is_rocm_pytorch():\n    return torch.version.hip is not None\n\n\n"
            "class OpBuilder:\n    def builder(self):\n        cxx_args = []\n"
            "        if is_rocm_pytorch():\n            cxx_args.append('-D__HIP_PLATFORM_AMD__=1')\n"
            "        return CUDAExtension('op', ['csrc/blas.cu'], extra_compile_args={'cxx': cxx_args})\n\n\n"
            "ALL_OPS = [OpBuilder()]\n"),
        "csrc/blas.cu": ("#include <cublas_v2.h>\n"
                         "#if defined(__HIP_PLATFORM_AMD__) && TORCH_VERSION_MAJOR < 2\n"
                         "static int algo = HIPBLAS_GEMM_DEFAULT;\n#else\n"
                         "static int algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;\n#endif\n")})
    result = run_cli("files", "csrc/blas.cu", cwd=root)
    assert "judged under PyTorch's hipify (PyTorch's hipify only: the project builds through it)" in result.stdout
    assert [code for _, _, code in _found(root, "--select", "HG204")] == []


def test_a_cmakedefine01_set_in_the_else_of_a_hip_on_nvidia_test_is_1_on_rocm(tmp_path: Path) -> None:
    """ginkgo: `cmake/hip.cmake` (included only for the HIP backend) sets a variable 1 unless
    `CMAKE_HIP_COMPILER_ID STREQUAL "NVIDIA"`, and the configured header `#cmakedefine01`s it: 1 in
    every ROCm build (AMD's clang), 0 in HIP-on-NVIDIA and CUDA builds. The NVIDIA arm of a file's
    `#if defined(__HIPCC__) && X` is then not ROCm's."""
    guarded = ('#include "orbit/config.hpp"\n#if defined(__HIPCC__) && ORBIT_HIP_ON_AMD\n__device__ void amd();\n'
               "#else\n#if CUDA_VERSION >= 11000\n__device__ void bf16();\n#endif\n#endif\n")
    root = git_project(tmp_path, {
        "CMakeLists.txt": ("project(orbit CXX)\noption(ORBIT_BUILD_HIP \"HIP backend\" OFF)\n"
                           "if(ORBIT_BUILD_HIP)\n  include(cmake/hip.cmake)\nendif()\n"
                           "configure_file(include/orbit/config.hpp.in include/orbit/config.hpp)\n"),
        "cmake/hip.cmake": ("enable_language(HIP)\nset(ORBIT_HIP_ON_AMD 0)\n"
                            "if(CMAKE_HIP_COMPILER_ID STREQUAL \"NVIDIA\")\n  set(ORBIT_HIP_ON_NVIDIA 1)\n"
                            "else()\n  set(ORBIT_HIP_ON_AMD 1)\nendif()\n"),
        "include/orbit/config.hpp.in": "#cmakedefine01 ORBIT_HIP_ON_AMD\n",
        "src/atomics.hpp": guarded,
        "src/unconfigured.hpp": guarded.replace("ORBIT_HIP_ON_AMD", "ORBIT_SOMETHING"),
    })
    assert _found(root) == [("src/unconfigured.hpp", 5, "HG101")]
    explained = run_cli("files", "src/atomics.hpp", cwd=root).stdout
    assert "ORBIT_HIP_ON_AMD: 1 on ROCm (the ROCm build defines it: include/orbit/config.hpp.in:1:" in explained


def test_a_cuda_side_switch_is_the_cuda_builds_where_another_file_tests_its_rocm_side(tmp_path: Path) -> None:
    """kokkos-kernels: `sptrsv_handle.hpp` tests `KOKKOS_ENABLE_CUDA` and never names the HIP
    backend; other files test `KOKKOS_ENABLE_HIP`. `init` and `check` read that the same way: the
    CUDA side of a prefix the sources show the ROCm side of is undefined in every ROCm build."""
    guard = "#if defined({}) && 10000 < CUDA_VERSION\n#define GRAPHS\n#endif\n"
    root = git_project(tmp_path, {
        "CMakeLists.txt": "project(quill CXX)\nfind_package(hip)\n",
        "src/backend.hpp": "#if defined(QUILL_ENABLE_HIP)\n#include <hip/hip_runtime.h>\n#endif\n",
        "src/handle.hpp": guard.format("QUILL_ENABLE_CUDA"),
        "src/other.hpp": guard.format("OTHER_ENABLE_CUDA"),  # no ROCm side anywhere: not read as one
    })
    assert _found(root) == [("src/other.hpp", 1, "HG101")]
    assert "QUILL_ENABLE_CUDA: undefined on ROCm (the CUDA side of QUILL_ENABLE_HIP" in run_cli(
        "files", "src/handle.hpp", cwd=root).stdout
    text = run_cli("init", "--stdout", cwd=root).stdout
    assert '"QUILL_ENABLE_CUDA",  # src/handle.hpp:1: #if defined(QUILL_ENABLE_CUDA) && 10000 < CUDA_VERSION' in text
    assert "OTHER_ENABLE_CUDA" not in text


def test_a_configured_switch_of_a_cuda_library_is_off_in_every_rocm_build(tmp_path: Path) -> None:
    """kokkos-kernels: `#cmakedefine KOKKOSKERNELS_ENABLE_TPL_CUSPARSE`, on by default with Kokkos'
    CUDA backend. No ROCm installation has cuSPARSE, so the code under it is not ROCm's; a
    switch of a library ROCm may have (MAGMA) says nothing."""
    tpl = "#include \"quill_config.h\"\n#ifdef QUILL_ENABLE_TPL_{0}\n#if (CUDA_VERSION >= 11030)\n{1}();\n#endif\n#endif\n"
    root = git_project(tmp_path, {
        "CMakeLists.txt": ("project(quill CXX)\nfind_package(hip)\n"
                           "configure_file(cmake/quill_config.h.in quill_config.h)\n"),
        "cmake/quill_config.h.in": "#cmakedefine QUILL_ENABLE_TPL_CUSPARSE\n#cmakedefine QUILL_ENABLE_TPL_MAGMA\n",
        "src/spmv_tpl.hpp": tpl.format("CUSPARSE", "cusparse_spmv"),
        "src/gesv_tpl.hpp": tpl.format("MAGMA", "magma_gesv"),
    })
    assert _found(root) == [("src/gesv_tpl.hpp", 3, "HG101")]
    assert ('"QUILL_ENABLE_TPL_CUSPARSE",  # cmake/quill_config.h.in:1: #cmakedefine QUILL_ENABLE_TPL_CUSPARSE'
            in run_cli("init", "--stdout", cwd=root).stdout)


def test_a_file_of_a_hip_build_that_also_targets_nvidia_is_not_rocm_only(tmp_path: Path) -> None:
    """ginkgo: the HIP backend's files are compiled only by the HIP build, but that build also
    targets NVIDIA GPUs (`CMAKE_HIP_PLATFORM` nvidia), where `CUDA_VERSION` is defined: a guard on
    it is skipped on AMD (HG101), not "always false" as in a file only ROCm builds compile."""
    guard = ("__device__ int ballot(int p) {\n#if defined(CUDA_VERSION) && CUDA_VERSION >= 12020\n"
             "  return p & 1;\n#else\n  return p;\n#endif\n}\n")
    cmake = ("cmake_minimum_required(VERSION 3.21)\nproject(demo LANGUAGES CXX)\n"
             "if(DEMO_BUILD_CUDA)\n  enable_language(CUDA)\n  add_library(demo_cuda cuda/ballot.cu)\nendif()\n"
             "if(DEMO_BUILD_HIP)\n  enable_language(HIP)\n  add_library(demo_hip hip/ballot.hip)\n{nvidia}endif()\n")
    nvidia = '  if(CMAKE_HIP_PLATFORM STREQUAL "nvidia")\n    message(STATUS "HIP on NVIDIA")\n  endif()\n'
    messages = {}
    for name, extra in (("amd", ""), ("nvidia", nvidia)):
        root = git_project(tmp_path / name, {"CMakeLists.txt": cmake.replace("{nvidia}", extra),
                                             "cuda/ballot.cu": guard, "hip/ballot.hip": guard})
        result = run_cli("check", "--no-cache", "--output-format", "json", "hip/ballot.hip", cwd=root)
        assert result.code == 1, result.stdout + result.stderr
        messages[name] = result.json()[0]["message"]
    assert "only ROCm builds compile this file" in messages["amd"]
    assert "only ROCm builds compile this file" not in messages["nvidia"]
    assert "silently skipped on ROCm" in messages["nvidia"]
