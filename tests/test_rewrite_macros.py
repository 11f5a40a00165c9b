"""The rewrites in the project's own words (spec §13): the macro a fix tests for ROCm (and for its
version) is one that every ROCm build of the file defines, with the evidence `files` shows; a
project with a ROCm build but no such macro gets findings without fixes that name the key to set;
a project with no ROCm build is checked as a port. Real CLI runs on projects written to disk."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT, git_project, run_cli

from hipify_guard.model.rewrite_macros import PLATFORM_HEADERS, VERSION_HEADERS

GUARD = "#if CUDART_VERSION >= 12000\nfast();\n#endif\n"
GGML_HIP = """\
if(GGML_HIP)
  file(GLOB SRCS "../ggml-cuda/*.cu")
  add_library(ggml-hip ${SRCS})
  add_compile_definitions(GGML_USE_HIP)
endif()
"""
GGML_CUDA = "if(GGML_CUDA)\n  file(GLOB SRCS \"*.cu\")\n  add_library(ggml-cuda ${SRCS})\nendif()\n"


def _diff(root: Path, *args: str, cwd: Path | None = None) -> str:
    result = run_cli("check", "--no-cache", "--diff", *args, cwd=cwd or root)
    assert result.code in (0, 1), result.stderr
    return "\n".join(line for line in result.stdout.splitlines() if line.startswith("+#"))


def _rewrites(root: Path, path: str) -> dict[str, dict]:
    result = run_cli("files", "--output-format", "json", path, cwd=root)
    assert result.code == 0, result.stderr
    return result.json()[0]["rewrites"]


def test_the_macro_a_folders_cmake_file_defines_for_what_it_builds(tmp_path: Path) -> None:
    """ggml: src/ggml-hip/CMakeLists.txt compiles ../ggml-cuda/*.cu with GGML_USE_HIP; a file
    no ROCm build compiles from there gets no fix, and says which key would give it one."""
    common = "#if CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)\n#endif\n"
    root = git_project(tmp_path, {"CMakeLists.txt": "add_subdirectory(src/ggml-hip)\nadd_subdirectory(src/ggml-cuda)\n",
                               "src/ggml-hip/CMakeLists.txt": GGML_HIP, "src/ggml-cuda/CMakeLists.txt": GGML_CUDA,
                               "src/ggml-cuda/common.cuh": common, "src/ggml-cuda/k.cu": GUARD,
                               "src/cpu/cpu.cpp": GUARD})
    assert _diff(root).splitlines() == [
        "+#if (CUDART_VERSION >= 11010 && !defined(GGML_USE_HIP)) || defined(GGML_USE_MUSA)",
        "+#if CUDART_VERSION >= 12000 && !defined(GGML_USE_HIP)"]
    rewrites = _rewrites(root, "src/ggml-cuda/k.cu")
    assert rewrites["rocm-macro"] == {"macro": "GGML_USE_HIP", "why": "every ROCm build of the file defines it: "
                                      "src/ggml-hip/CMakeLists.txt:4: add_compile_definitions(GGML_USE_HIP)"}
    (finding,) = [item for item in run_cli("check", "--no-cache", "--output-format", "json", "src/cpu/cpu.cpp",
                                           cwd=root).json()]
    assert finding["fix"] is None and "; no fix: no macro is defined in every ROCm build" in finding["message"]
    assert "set `rocm-macro`" in finding["message"]


def test_the_project_style_wins_over_hips_own_macro(tmp_path: Path) -> None:
    """bitsandbytes: two macros every ROCm build defines; the one the file tests is the rewrite's."""
    cmake = ("if(BUILD_CUDA)\n  add_compile_definitions(BUILD_CUDA)\nelseif(BUILD_HIP)\n"
             "  add_compile_definitions(__HIP_PLATFORM_AMD__)\n  add_compile_definitions(BUILD_HIP)\nendif()\n"
             "add_library(bnb csrc/ops.cu)\n")
    root = git_project(tmp_path, {"CMakeLists.txt": cmake,
                               "csrc/ops.cu": "#if BUILD_HIP\n#include <hip/hip_runtime.h>\n#endif\n" + GUARD})
    assert _diff(root) == "+#if CUDART_VERSION >= 12000 && !defined(BUILD_HIP)"


def test_a_configured_header_the_file_includes(tmp_path: Path) -> None:
    """magma: `#cmakedefine MAGMA_HAVE_HIP` in a configured header; a file that includes it uses it."""
    cmake = ("if(MAGMA_ENABLE_HIP)\n  find_package(HIP)\n  if(HIP_FOUND)\n    set(MAGMA_HAVE_HIP \"1\")\n"
             "  endif()\nendif()\nconfigure_file(include/magma_config.h.in include/magma_config.h)\n")
    root = git_project(tmp_path, {"CMakeLists.txt": cmake, "include/magma_config.h.in": "#cmakedefine MAGMA_HAVE_HIP\n",
                               "include/magma.h": '#include "magma_config.h"\n',
                               "src/zgemm.cpp": '#include "magma.h"\n' + GUARD})
    assert _diff(root) == "+#if CUDART_VERSION >= 12000 && !defined(MAGMA_HAVE_HIP)"
    why = _rewrites(root, "src/zgemm.cpp")["rocm-macro"]["why"]
    assert why == ("it includes the configured header that defines it in every ROCm build: "
                   "include/magma_config.h.in:1: #cmakedefine MAGMA_HAVE_HIP")


def test_a_pytorch_extension_uses_use_rocm_and_hips_version(tmp_path: Path) -> None:
    """cpp_extension passes -DUSE_ROCM=1 (PyTorch 1.11+), never ROCM_VERSION: rocm-min tests HIP_VERSION,
    which clang's HIP wrapper header brings to every file it compiles in HIP mode."""
    setup = ("from torch.utils.cpp_extension import CUDAExtension, BuildExtension, IS_HIP_EXTENSION\n"
             "setup(ext_modules=[CUDAExtension('ext', ['csrc/k.cu'])], cmdclass={'build_ext': BuildExtension})\n")
    root = git_project(tmp_path, {"setup.py": setup, "csrc/k.cu": "#include <torch/extension.h>\n" + GUARD})
    assert _diff(root, "--unsafe-fixes", "--policy", "rocm-min=6.2") == (
        "+#if (CUDART_VERSION >= 12000) || (defined(USE_ROCM) && HIP_VERSION >= 60200000)")


def test_a_project_without_a_rocm_build_is_a_port(tmp_path: Path) -> None:
    """cutlass: no build file builds for HIP or ROCm; the summary says so once, with the macros.
    Its maintainers would not merge `USE_ROCM` into code no ROCm build compiles (the fixes hand
    checks: 5 of 24 such rewrites accepted), so its default rewrites are shown, not applied, until
    the configuration names the port's macro or a policy is asked for."""
    root = git_project(tmp_path, {"CMakeLists.txt": "project(cutlass LANGUAGES CXX CUDA)\n",
                               "include/a.h": GUARD, "include/b.h": GUARD})
    result = run_cli("check", "--no-cache", "--show-fixes", cwd=root)
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert notes == ["note: .: no build file builds for HIP or ROCm, so it is checked as a port: its rewrites are "
                     "shown, not applied, and test `USE_ROCM` for ROCm and `ROCM_VERSION` for its version, the macros "
                     "a port will define (set `rocm-macro` and `rocm-version-macro` to change them and apply them)"]
    assert "PyTorch" not in result.stdout  # a port of a project that does not build with PyTorch: native HIP
    assert "with `defined(USE_ROCM)` (shown only: no build file of the project builds for ROCm" in result.stdout
    assert _diff(root) == ""
    # A policy asked for (a port under way) applies its rewrites, as does naming the port's macro.
    assert _diff(root, "--unsafe-fixes", "--policy", "rocm-min=6.2").splitlines() == [
        "+#if (CUDART_VERSION >= 12000) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)"] * 2
    asked = run_cli("check", "--no-cache", "--policy", "exclude", cwd=root).stdout
    assert "checked as a port: its rewrites test `USE_ROCM`" in asked and "shown, not applied" not in asked
    (root / ".hipify-guard.toml").write_text('rocm-macro = "USE_ROCM"\n')
    assert _diff(root).splitlines() == ["+#if CUDART_VERSION >= 12000 && !defined(USE_ROCM)"] * 2


def test_hips_own_macro_where_a_hip_header_makes_it_certain(tmp_path: Path) -> None:
    """A native project whose build names no macro: after <hip/hip_runtime.h>, clang's HIP mode
    defines __HIP_PLATFORM_AMD__ (a device file); a host file needs min-rocm 6.0 (ROCm 5 headers
    also took __HIP_PLATFORM_HCC__ alone)."""
    host = "#include <hip/hip_runtime_api.h>\n" + GUARD
    root = git_project(tmp_path, {"CMakeLists.txt": "enable_language(HIP)\nadd_library(k k.cu host.cpp)\n",
                               "k.cu": "#include <hip/hip_runtime.h>\n" + GUARD, "host.cpp": host,
                               "early.cu": GUARD + "#include <hip/hip_runtime.h>\n"})
    assert _diff(root, "k.cu") == "+#if CUDART_VERSION >= 12000 && !defined(__HIP_PLATFORM_AMD__)"
    assert _diff(root, "host.cpp") == ""
    assert _diff(root, "early.cu") == ""  # the guard comes before the include
    (root / ".hipify-guard.toml").write_text('min-rocm = "6.0"\n')
    assert _diff(root, "host.cpp") == "+#if CUDART_VERSION >= 12000 && !defined(__HIP_PLATFORM_AMD__)"


def test_hips_cmake_targets_define_the_platform(tmp_path: Path) -> None:
    """rccl: `target_link_libraries(rccl PRIVATE hip::device)` gives __HIP_PLATFORM_AMD__=1 on ROCm."""
    root = git_project(tmp_path, {"CMakeLists.txt": ("find_package(hip REQUIRED)\nadd_library(rccl src/init.cc)\n"
                                                  "target_link_libraries(rccl INTERFACE hip::host)\n"
                                                  "target_link_libraries(rccl PRIVATE hip::device)\n"),
                               "src/init.cc": GUARD})
    assert _diff(root) == "+#if CUDART_VERSION >= 12000 && !defined(__HIP_PLATFORM_AMD__)"
    assert _rewrites(root, "src/init.cc")["rocm-macro"]["why"].endswith(
        "CMakeLists.txt:4: target_link_libraries(rccl PRIVATE hip::device)")


def test_the_old_platform_macro_where_the_build_defines_it(tmp_path: Path) -> None:
    """gloo: its ROCm build passes `-D__HIP_PLATFORM_HCC__=1` to every HIP compile (and the file
    tests it itself); ROCm 6 no longer defines it, so it is R only where a build does."""
    cmake = ("if(USE_CUDA)\n  add_library(g gloo/cuda.cu)\nendif()\n"
             "if(USE_ROCM)\n  find_package(hip REQUIRED)\n  list(APPEND HIP_CXX_FLAGS -D__HIP_PLATFORM_HCC__=1)\n"
             "  hip_add_library(g gloo/cuda.cu HIPCC_OPTIONS ${HIP_CXX_FLAGS})\nendif()\n")
    root = git_project(tmp_path / "gloo", {"CMakeLists.txt": cmake,
                                           "gloo/cuda.cu": GUARD + "#ifndef __HIP_PLATFORM_HCC__\nnvidia();\n#endif\n"})
    assert _diff(root) == "+#if CUDART_VERSION >= 12000 && !defined(__HIP_PLATFORM_HCC__)"
    lone = git_project(tmp_path / "lone", {"CMakeLists.txt": "find_package(hip REQUIRED)\nadd_library(g a.cu)\n",
                                           "a.cu": GUARD + "#ifndef __HIP_PLATFORM_HCC__\n#endif\n"})
    assert "__HIP_PLATFORM_HCC__" not in _diff(lone)  # tested, but no build defines it


def test_the_configuration_names_the_macro(tmp_path: Path) -> None:
    config = 'rocm-macro = "LUMEN_USE_HIP"\nrocm-version-macro = "LUMEN_ROCM_VERSION"\n'
    root = git_project(tmp_path, {"CMakeLists.txt": "enable_language(HIP)\n", ".hipify-guard.toml": config, "a.cu": GUARD})
    assert _diff(root, "--unsafe-fixes", "--policy", "rocm-min=6.2") == (
        "+#if (CUDART_VERSION >= 12000) || (defined(LUMEN_USE_HIP) && LUMEN_ROCM_VERSION >= 60200)")


def test_no_fix_in_a_file_only_rocm_builds_compile(tmp_path: Path) -> None:
    """A source only the ROCm build's lists name: the CUDA test there is always false; no clause on
    R can say more (spec §14.7), and the message says so."""
    root = git_project(tmp_path, {"CMakeLists.txt": "add_subdirectory(src/ggml-hip)\n",
                               "src/ggml-hip/CMakeLists.txt": GGML_HIP, "src/ggml-cuda/k.cu": GUARD})
    (finding,) = run_cli("check", "--no-cache", "--output-format", "json", cwd=root).json()
    assert finding["fix"] is None and "only ROCm builds compile this file" in finding["message"]


def test_no_fix_contradicts_what_the_guard_or_its_group_says(tmp_path: Path) -> None:
    """An exclusion of a guard that includes ROCm explicitly (`(A || defined(R)) && !defined(R)`,
    vLLM's gguf kernels), and a clause on R where only ROCm evaluates the test."""
    source = ("#include <cuda_runtime.h>\n#if CUDA_VERSION >= 11030 || defined(USE_ROCM)\n"
              "void f() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, "
              "cudaFlushGPUDirectRDMAWritesToOwner); }\n#endif\n"
              "#ifdef USE_ROCM\n#if CUDA_VERSION >= 11000\n#endif\n#endif\n")
    root = git_project(tmp_path, {"a.cu": source})
    result = run_cli("check", "--no-cache", "--unsafe-fixes", "--policy", "exclude", "--output-format", "json",
                     cwd=root)
    found = {(item["code"], item["location"]["row"]): item["fix"] for item in result.json()}
    assert ("HG204", 3) in found and ("HG101", 6) in found and not any(found.values())


def test_a_file_is_judged_in_its_own_project_wherever_the_tool_starts(tmp_path: Path) -> None:
    """From the project, its parent, another project beside it, or `/`: the same fix."""
    git_project(tmp_path / "ggml", {"CMakeLists.txt": "add_subdirectory(src/ggml-hip)\nadd_subdirectory(src/ggml-cuda)\n",
                                 "src/ggml-hip/CMakeLists.txt": GGML_HIP, "src/ggml-cuda/CMakeLists.txt": GGML_CUDA,
                                 "src/ggml-cuda/k.cu": GUARD})
    git_project(tmp_path / "other", {"setup.py": "from torch.utils.cpp_extension import CUDAExtension\n"})
    target = str(tmp_path / "ggml" / "src" / "ggml-cuda" / "k.cu")
    for start in (tmp_path / "ggml", tmp_path, tmp_path / "other", Path("/")):
        assert _diff(tmp_path, target, cwd=start) == "+#if CUDART_VERSION >= 12000 && !defined(GGML_USE_HIP)", start


def test_a_lone_file_and_standard_input_keep_the_seeds_macro(tmp_path: Path) -> None:
    lone = tmp_path / "lone.cu"
    lone.write_text(GUARD)
    assert _diff(tmp_path, str(lone)) == "+#if CUDART_VERSION >= 12000 && !defined(USE_ROCM)"
    piped = run_cli("check", "--fix", "-", "--stdin-filename", "nowhere/x.cu", stdin=GUARD.encode(), cwd=tmp_path)
    assert piped.stdout.splitlines()[0] == "#if CUDART_VERSION >= 12000 && !defined(USE_ROCM)"


def test_init_writes_the_rewrites_macros_with_their_evidence(tmp_path: Path) -> None:
    cmake = "if(FAISS_ENABLE_GPU)\n  if(FAISS_ENABLE_ROCM)\n    add_definitions(-DUSE_AMD_ROCM)\n  endif()\nendif()\n"
    root = git_project(tmp_path, {"CMakeLists.txt": cmake, "gpu/a.cu": "#ifdef USE_AMD_ROCM\n#endif\n" + GUARD})
    text = run_cli("init", "--stdout", cwd=root).stdout
    assert 'rocm-macro = "USE_AMD_ROCM"  # CMakeLists.txt:3: add_definitions(-DUSE_AMD_ROCM)' in text
    assert "# rocm-version-macro: none is defined by the build" in text
    port = git_project(tmp_path / "port", {"CMakeLists.txt": "project(x CUDA)\n"})
    written = run_cli("init", "--stdout", cwd=port).stdout
    assert 'rocm-macro = "USE_ROCM"\nrocm-version-macro = "ROCM_VERSION"' in written


def test_the_hip_header_lists_match_the_vendored_headers() -> None:
    """PLATFORM_HEADERS: HIP 6.3's headers that refuse a compile without a platform macro, and those
    that include them; VERSION_HEADERS: those that include hip/hip_version.h."""
    folder = ROOT / "third_party" / "hip-headers"
    includes = {path.relative_to(folder).as_posix(): set(re.findall(r'#\s*include\s*[<"](hip/[^>"]+)[>"]',
                                                                      path.read_text(errors="replace")))
                for path in folder.glob("hip/**/*.h")}

    def closure(seed: set[str]) -> set[str]:
        found = set(seed)
        while True:
            more = {name for name, names in includes.items() if names & found} - found
            if not more:
                return found
            found |= more

    refusing = {name for name in includes
                if "Must define exactly one of" in (folder / name).read_text(errors="replace")}
    top = {name for name in closure(refusing) if "/amd_detail/" not in name}
    assert top == set(PLATFORM_HEADERS)
    assert {name for name in closure({"hip/hip_version.h"}) if "/amd_detail/" not in name} == set(VERSION_HEADERS)


def test_auto_says_why_it_writes_no_fix_where_no_version_macro_can_test_the_apis_release(tmp_path: Path) -> None:
    """magma (MAGMA_HAVE_HIP, no ROCm version macro): a branch for CUDA 11 that calls an API HIP
    added in 1.9.2 cannot be written `ROCM_VERSION >= 10902`. Including ROCm instead was wrong in
    23 of 25 such fixes on the real trees (hand check s30: CUDA-side stand-ins for APIs CUDA
    removed, which ROCm still has); the finding keeps no fix and says what auto would have done
    and which key would allow it (it said nothing)."""
    cmake = ("if(MAGMA_ENABLE_HIP)\n  add_compile_definitions(MAGMA_HAVE_HIP)\n  add_library(m src/ilu.cpp)\n"
             "else()\n  add_compile_definitions(MAGMA_HAVE_CUDA)\n  add_library(m src/ilu.cpp)\nendif()\n")
    source = ("#ifdef MAGMA_HAVE_HIP\n#include <hip/hip_runtime.h>\n#endif\n"
              "#if CUDA_VERSION >= 11000\ncsrilu02Info_t info = NULL;\n#endif\n")
    root = git_project(tmp_path, {"CMakeLists.txt": cmake, "src/ilu.cpp": source})
    assert _diff(root, "--unsafe-fixes", "--policy", "auto") == ""
    (finding,) = run_cli("check", "--no-cache", "--unsafe-fixes", "--policy", "auto", "--output-format", "json",
                         "src/ilu.cpp", cwd=root).json()
    assert finding["fix"] is None
    assert "no fix: auto would take this branch on ROCm 1.9.2 and newer" in finding["message"]
    assert "`csrilu02Info_t`, added in HIP 1.9.2" in finding["message"]
    assert "set `rocm-version-macro`" in finding["message"]


def test_auto_reads_the_projects_alias_of_a_cuda_name_as_the_hip_api_it_stands_for(tmp_path: Path) -> None:
    """FBGEMM's utils/float.cuh: `using __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;` under USE_ROCM (HIP
    6.2; `__hip_fp8_e4m3` of 6.3 where HIP_FP8_TYPE_OCP). A branch for CUDA 12 using `__nv_fp8_e4m3`
    is taken on ROCm from the earliest release where one of the aliases compiles, as the maintainer
    wrote it (`ROCM_VERSION >= 60200`); before, auto excluded ROCm, HIP having no `__nv_fp8_e4m3`.
    A stand-in that gives the name a value (`#define CU_X ((CUenum)8)`) is no alias: it stays lacking."""
    setup = ("from torch.utils.cpp_extension import CUDAExtension, BuildExtension\n"
             "setup(ext_modules=[CUDAExtension('ext', ['csrc/k.cu'])], cmdclass={'build_ext': BuildExtension})\n")
    header = ("#pragma once\n#ifdef USE_ROCM\n#include <hip/hip_fp8.h>\n#if HIP_FP8_TYPE_OCP\n"
              "using __nv_fp8_e4m3 = __hip_fp8_e4m3;\n#else\nusing __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;\n#endif\n"
              "#else\n#include <cuda_fp8.h>\n#endif\n")
    kernel = ("#include <torch/extension.h>\n#include \"float.cuh\"\n"
              "#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000\n__nv_fp8_e4m3 scale;\n#endif\n")
    root = git_project(tmp_path, {"setup.py": setup, "csrc/float.cuh": header, "csrc/k.cu": kernel})
    assert _diff(root, "--unsafe-fixes", "--policy", "auto") == (
        "+#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || (defined(USE_ROCM) && HIP_VERSION >= 60200000)")
    (finding,) = run_cli("check", "--no-cache", "--unsafe-fixes", "--policy", "auto", "--output-format", "json",
                         "csrc/k.cu", cwd=root).json()
    assert ("`__nv_fp8_e4m3`, which the project defines for ROCm as `__hip_fp8_e4m3_fnuz` (csrc/float.cuh:7), "
            "added in HIP 6.2.0" in finding["fix"]["message"])
    (root / "csrc/float.cuh").write_text(header.replace("using __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;",
                                                        "#define __nv_fp8_e4m3 ((__hip_fp8_e4m3_fnuz)0)"))
    (root / "csrc/float.cuh").write_text(re.sub(r"#if HIP_FP8_TYPE_OCP\n.*?#else\n(.*?)#endif\n", r"\1",
                                                (root / "csrc/float.cuh").read_text(), flags=re.S))
    assert "!defined(USE_ROCM)" in _diff(root, "--unsafe-fixes", "--policy", "auto")


def test_auto_does_not_read_a_name_a_project_header_defines_as_a_cuda_api_newer_than_the_tables(
        tmp_path: Path) -> None:
    """A branch for CUDA 13 calling `cudaMemcpyBatchAsync`, which no table knows: an API of that
    CUDA, so auto excludes ROCm; but where the project's own header defines the name for ROCm (a
    shim), the name is the project's and decides nothing."""
    setup = ("from torch.utils.cpp_extension import CUDAExtension, BuildExtension\n"
             "setup(ext_modules=[CUDAExtension('ext', ['csrc/k.cu'])], cmdclass={'build_ext': BuildExtension})\n")
    kernel = ("#include <torch/extension.h>\n#include \"compat.h\"\n"
              "#if defined(CUDA_VERSION) && CUDA_VERSION >= 13000\n"
              "void copy() { cudaMemcpyBatchAsync(dst, src, sizes, 4, nullptr, nullptr, 0, nullptr, 0); }\n#endif\n")
    root = git_project(tmp_path, {"setup.py": setup, "csrc/compat.h": "#pragma once\n", "csrc/k.cu": kernel})
    args = ("check", "--no-cache", "--unsafe-fixes", "--policy", "auto", "--output-format", "json", "csrc/k.cu")
    (finding,) = run_cli(*args, cwd=root).json()
    assert "uses `cudaMemcpyBatchAsync`, a name spelled as a CUDA API that no source knows" in finding["fix"]["message"]
    assert _diff(root, "--unsafe-fixes", "--policy", "auto") == (
        "+#if defined(CUDA_VERSION) && CUDA_VERSION >= 13000 && !defined(USE_ROCM)")
    (root / "csrc/compat.h").write_text("#pragma once\n#ifdef USE_ROCM\n"
                                        "#define cudaMemcpyBatchAsync(...) hipSuccess\n#endif\n")
    (finding,) = run_cli(*args, cwd=root).json()
    assert "no source knows" not in finding["fix"]["message"]
