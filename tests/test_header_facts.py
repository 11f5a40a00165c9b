"""What the project headers around a file say of the names its guards and findings depend on
(spec §11.3, §11.4, issue 25): macros its included headers define only off ROCm, down a chain of
them; shims that the files pulling a header in put in front of it, by `#include` or by a script
that concatenates headers. Real CLI runs on projects written to disk."""

from __future__ import annotations

from pathlib import Path

from conftest import check_counting, git_project, run_cli


def _found(root: Path, *args: str) -> list[tuple[str, int, str]]:
    result = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=root)
    assert result.code in (0, 1), result.stderr
    return sorted((item["filename"].removeprefix("./"), item["location"]["row"], item["code"])
                  for item in result.json())


def test_macros_defined_only_under_cuda_tests_of_an_included_header_chain(tmp_path: Path) -> None:
    """cutlass: `cutlass/arch/config.h` defines `CUTLASS_ARCH_MMA_SM90_SUPPORTED` only under
    `__CUDACC_VER_MAJOR__ >= 12` (and `..._ENABLED` under `__CUDA_ARCH__` too); `cute/arch/config.hpp`
    defines `CUTE_ARCH_TMA_SM90_ENABLED` only where those are; a test reaches them through 70 other
    headers. Groups under them are not ROCm's; a macro the header defines outright still is (and
    the header's own guard is its finding)."""
    arch = ("#pragma once\n#if (__CUDACC_VER_MAJOR__ >= 12)\n#define LIB_SM90_SUPPORTED 1\n"
            "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900\n#define LIB_SM90_ENABLED 1\n#endif\n#endif\n"
            "#define LIB_ALWAYS 1\n")
    derived = '#pragma once\n#include "lib/arch_config.h"\n#if defined(LIB_SM90_ENABLED)\n#define LIB_TMA_ENABLED\n#endif\n'
    many = {f"include/lib/part{n}.h": "#pragma once\n" for n in range(70)}
    umbrella = "".join(f'#include "lib/part{n}.h"\n' for n in range(70)) + '#include "lib/derived.hpp"\n'
    root = git_project(tmp_path, {
        **many, "include/lib/arch_config.h": arch, "include/lib/derived.hpp": derived,
        "include/lib/all.h": umbrella,
        "test/sm90_test.cu": '#include "lib/all.h"\n#if defined(LIB_SM90_SUPPORTED)\n#if (__CUDACC_VER_MAJOR__ >= 13)\n'
                             "#endif\n#endif\n",
        "src/tma.hpp": '#include "lib/all.h"\n#if defined(LIB_TMA_ENABLED)\n#if CUDA_VERSION >= 12050\n#endif\n#endif\n',
        "src/always.hpp": '#include "lib/all.h"\n#if defined(LIB_ALWAYS)\n#if CUDA_VERSION >= 12050\n#endif\n#endif\n',
    })
    assert _found(root) == [("include/lib/arch_config.h", 2, "HG101"), ("src/always.hpp", 3, "HG101")]
    assert ("LIB_TMA_ENABLED: undefined on ROCm (a project header it includes defines it only where ROCm never goes)"
            in run_cli("files", "src/tma.hpp", cwd=root).stdout)


# A kernel header that uses SIMD intrinsics HIP lacks where ROCm compiles it; the shim defines them for ROCm.
VECDOT = """\
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 610 || defined(USE_ROCM)
static __device__ int dot(int a, int b) { return __vsubss4(a, b); }
#endif
"""
SHIM = """\
#pragma once
#if defined(USE_ROCM)
static __device__ __forceinline__ int __vsubss4(const int a, const int b) { return a - b; }
#endif
"""
TORCH_SETUP = "from torch.utils.cpp_extension import CUDAExtension\n"


def test_a_shim_every_includer_puts_in_front_of_a_header(tmp_path: Path) -> None:
    """vLLM's gguf: `gguf_kernel.cu` includes `ggml-common.h` (the ROCm shims of `__vsubss4` and
    friends) right before `vecdotq.cuh`, which includes nothing. A header included before the shim,
    or by one file without it, still has the finding."""
    root = git_project(tmp_path, {
        "setup.py": TORCH_SETUP,
        "csrc/gguf/common.h": SHIM, "csrc/gguf/vecdot.cuh": VECDOT,
        "csrc/gguf/kernel.cu": '#include "common.h"\n#include "vecdot.cuh"\n',
        "csrc/late/common.h": SHIM, "csrc/late/vecdot.cuh": VECDOT,
        "csrc/late/kernel.cu": '#include "vecdot.cuh"\n#include "common.h"\n',
        "csrc/mixed/common.h": SHIM, "csrc/mixed/vecdot.cuh": VECDOT,
        "csrc/mixed/kernel.cu": '#include "common.h"\n#include "vecdot.cuh"\n',
        "csrc/mixed/other.cu": '#include "vecdot.cuh"\n',
    })
    assert _found(root, "--select", "HG204") == [("csrc/late/vecdot.cuh", 2, "HG204"),
                                                 ("csrc/mixed/vecdot.cuh", 2, "HG204")]


HEADERS_SCRIPT = """\
#!/bin/bash
OUT=_lib_utilities.hpp
cat > $OUT <<@
#ifndef LIB_UTILITIES_HPP
#define LIB_UTILITIES_HPP
@
cat device_utils.h         >> $OUT
cat device_reducer.h       >> $OUT
cat >> $OUT <<@
#endif
@
"""


def test_a_piece_a_script_concatenates_after_its_shim(tmp_path: Path) -> None:
    """hypre: `src/utilities/headers` concatenates `device_utils.h` (which defines the `*_sync`
    warp functions for HIP before 6.5) and then `device_reducer.h` into `_hypre_utilities.hpp`;
    the piece is compiled only there, after the shim. Its twin outside the script is reported."""
    shim = ("#if defined(LIB_USING_HIP) && HIP_VERSION < 60500000\n"
            "template <typename T> static __device__ T __shfl_down_sync(unsigned mask, T v, int d)"
            " { return __shfl_down(v, d); }\n#endif\n")
    reducer = ("__device__ double warp_sum(double v) {\n#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)\n"
               "  v += __shfl_down_sync(0xffffffff, v, 1);\n#endif\n  return v;\n}\n")
    root = git_project(tmp_path, {
        "CMakeLists.txt": "project(lib CXX)\nif(LIB_ENABLE_HIP)\n  add_compile_definitions(LIB_USING_HIP)\nendif()\n",
        "src/utilities/headers": HEADERS_SCRIPT,
        "src/utilities/device_utils.h": shim, "src/utilities/device_reducer.h": reducer,
        "src/loose/device_utils.h": shim, "src/loose/device_reducer.h": reducer,
    })
    assert _found(root, "--select", "HG204") == [("src/loose/device_reducer.h", 3, "HG204")]


def test_a_file_checked_again_with_its_headers_facts_is_not_scanned_again(tmp_path: Path, monkeypatch) -> None:
    """A check run checks a file again once the project headers it includes are read (its guard's
    threshold is a header's macro); the second check takes the first one's directives, groups and
    parsed conditions (`FileAnalysis.keep_source`): the file is scanned once."""
    from hipify_guard.model import analysis

    root = git_project(tmp_path, {
        "include/lib/version.h": "#pragma once\n#define LIB_MIN_CUDA 11000\n",
        "src/kernel.cu": '#include "lib/version.h"\n#if CUDA_VERSION >= LIB_MIN_CUDA\nint f();\n#endif\n',
    })
    output, scanned = check_counting(monkeypatch, root, analysis, "scan", "src/kernel.cu")
    assert "src/kernel.cu:2:" in output and "HG101" in output, output
    assert scanned.count((root / "src/kernel.cu").read_bytes()) == 1
