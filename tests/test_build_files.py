"""Reading a project's build files for its platforms: hipify_guard.buildfiles.reader (issue 13).

Fixture projects under tests/data/build_files/ (a CMake project with its own platform macros, a
PyTorch extension's setup.py, gloo's hipify layout), each fact checked with its evidence, the
negative cases beside the positive ones, and hostile inputs that must never raise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hipify_guard.buildfiles.build_conditions import CUDA, ROCM
from hipify_guard.buildfiles.reader import read_build_files

DATA = Path(__file__).resolve().parent / "data" / "build_files"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cmake_project():
    return read_build_files(str(DATA / "cmake_project"))


@pytest.fixture(scope="module")
def torch_extension():
    return read_build_files(str(DATA / "torch_extension"))


def only(facts, platform: str) -> dict[str, set[str | None]]:
    """Macro -> the values it is defined with, for the macros defined only for `platform`."""
    return {name: {item.value for item in items} for name, items in facts.only_for(platform).items()}


# -- CMake ------------------------------------------------------------------------------------


def test_cmake_rocm_build_macros_with_values_and_evidence(cmake_project):
    rocm = only(cmake_project, ROCM)
    assert rocm["PROJ_USE_HIP"] == {"1"}  # add_compile_definitions(X) under elseif(... STREQUAL "HIP")
    assert rocm["__HIP_PLATFORM_HCC__"] == {"1"}
    assert rocm["PROJ_WAVE"] == {""}  # X= : defined empty
    assert rocm["PROJ_HIP_BUILD_ID"] == {"7"}  # after `if(NOT PROJ_ENABLE_HIP) return()`
    assert rocm["PROJ_HIP_ARCH"] == {None}  # X=${GPU_TARGETS}: a value not known
    assert rocm["PROJ_HIP_FLAG"] == {"1"}  # -DX in CMAKE_HIP_FLAGS
    assert rocm["PROJ_BACKEND_HIP"] == {"1"}  # a file nothing reaches, in a folder named for HIP
    (definition,) = cmake_project.only_for(ROCM)["PROJ_USE_HIP"]
    assert (definition.evidence.path, definition.evidence.line) == ("CMakeLists.txt", 25)
    assert definition.evidence.text.startswith("add_compile_definitions(PROJ_USE_HIP")
    assert definition.always and 'STREQUAL "HIP"' in definition.condition


def test_cmake_cuda_build_macros(cmake_project):
    cuda = only(cmake_project, CUDA)
    assert cuda["PROJ_USE_CUDA"] == {"1"}  # if(NOT ... STREQUAL "HIP")
    assert cuda["PROJ_NVCC_ONLY"] == {"2"}  # -D in CMAKE_CUDA_FLAGS
    assert cuda["PROJ_FAST_MATH"] == {"1"}  # after a function's NVCC_FLAGS keyword
    assert cuda["PROJ_ENABLE_CUDA"] == {""}  # #cmakedefine of a CUDA option


def test_cmake_macros_that_are_not_one_platforms(cmake_project):
    rocm, cuda = cmake_project.rocm_macros, cmake_project.cuda_macros
    for name in ("PROJ_HAS_GPU",  # if(PROJ_ENABLE_CUDA OR PROJ_ENABLE_HIP)
                 "PROJ_BACKEND_GPU",  # defined by the HIP and the CUDA backend
                 "PROJ_ENABLE_HIP",  # #cmakedefine01: 0 or 1 in every build
                 "PROJ_VERSION"):
        assert name not in rocm and name not in cuda
    assert "PROJ_ENABLE_HIP" in cmake_project.rocm_definitions  # (1 in ROCm builds)
    # A CUDA-named option read by the HIP backend defines its macro for ROCm (ggml's GGML_CUDA_FORCE_MMQ).
    assert cmake_project.only_for(ROCM)["PROJ_CUDA_FORCE_MMQ"][0].always is False


def test_cmake_cuda_only_sources(cmake_project):
    assert cmake_project.cuda_only_files == {
        "src/cuda/marlin.cu",  # list(APPEND PROJ_SRC ...) under if(PROJ_GPU_LANG STREQUAL "CUDA")
        "kernels/cutlass_ext/gemm.cu",  # CUDA_SPECIFIC_SRCS of a function that uses it only when not HIP
        "src/cuda/layout_only.cu",  # src/cuda/ beside src/hip/ with its counterpart
    }
    assert cmake_project.rocm_only_files == {"src/hip/rocm_attention.hip", "kernels/ck_ext/gemm.hip",
                                             "src/hip/layout_only.hip"}
    (fact,) = [fact for fact in cmake_project.sources if fact.pattern == "src/cuda/marlin.cu"]
    assert (str(fact.evidence), fact.gitignore) == ("CMakeLists.txt:20", "/src/cuda/marlin.cu")


def test_cmake_sources_not_claimed(cmake_project):
    claimed = cmake_project.cuda_only_files | cmake_project.rocm_only_files
    assert "src/common/listed_twice.cu" not in claimed  # also listed for every build
    assert "src/common/gpu_only.cu" not in claimed  # if(... CUDA OR ... HIP)
    assert "src/cuda/shared_header.cuh" not in claimed  # a header in a CUDA list may be included by ROCm code
    assert "src/cuda/wrapped.cu" not in claimed  # its HIP counterpart includes it
    assert "backends/proj-cuda/mmq.cu" not in claimed  # the HIP backend globs ../proj-cuda/*.cu too
    assert "src/not_a_source_list.cu" not in {fact.pattern for fact in cmake_project.sources}  # a comment


def test_cmake_files_read(cmake_project):
    assert set(cmake_project.files_read) == {"CMakeLists.txt", "cmake/ProjUtils.cmake", "src/CMakeLists.txt",
                                             "backends/proj-hip/CMakeLists.txt",
                                             "backends/proj-cuda/CMakeLists.txt", "include/proj_config.h.in"}
    assert cmake_project.notes == ()


# -- setup.py ---------------------------------------------------------------------------------


def test_setup_py_rocm_and_cuda_macros(torch_extension):
    rocm, cuda = only(torch_extension, ROCM), only(torch_extension, CUDA)
    assert rocm["EXT_WITH_HIP"] == {"1"}  # define_macros.append((X, None)) in the else of `if not IS_HIP_EXTENSION`
    assert rocm["__HIP_PLATFORM_HCC__"] == {"1"}  # extra_compile_args["nvcc"].extend(["-D...=1"])
    assert rocm["EXT_WAVE"] == {""}
    assert rocm["EXT_TARGET_ROCM"] == {"1"}  # BUILD_TARGET == "rocm"
    assert rocm["EXT_ROCM_HOME_FOUND"] == {"1"}  # in a build module setup.py imports
    assert cuda["EXT_WITH_CUDA"] == {"1"} and cuda["EXT_NVCC_FAST"] == {"1"}
    assert cuda["EXT_TARGET_CUDA"] == {"1"}  # "cuda" selects CUDA: the name is also compared with "rocm"
    assert "EXT_GPU" not in cuda  # `suffix == "cuda"`: any GPU
    assert torch_extension.by_name()["EXT_VERSION"][0].platform is None
    (definition,) = torch_extension.only_for(ROCM)["EXT_WITH_HIP"]
    assert str(definition.evidence) == "setup.py:29" and definition.always


def test_setup_py_sources(torch_extension):
    assert torch_extension.cuda_only_files == {"csrc/cuda/attention.cu"}
    assert torch_extension.rocm_only_files == {"csrc/hip/attention.hip"}
    patterns = {fact.pattern: fact for fact in torch_extension.sources}
    assert str(patterns["csrc/cuda/*.cu"].evidence) == "setup.py:18"  # the glob, through `sources += source_cuda`
    assert set(torch_extension.files_read) == {"setup.py", "build_helpers/flags.py"}


# -- gloo: hipify outputs ---------------------------------------------------------------------


def test_gloo_hip_platform_hcc_and_hipify():
    facts = read_build_files(str(DATA / "gloo_like"))
    rocm = only(facts, ROCM)
    assert rocm["__HIP_PLATFORM_HCC__"] == {"1"} and rocm["CUDA_HAS_FP16"] == {"1"}
    assert rocm["HIP_VERSION"] == {None}
    assert facts.only_for(ROCM)["__HIP_PLATFORM_HCC__"][0].always  # if(USE_ROCM), if(HAVE_HIP), HIP flags
    # The ROCm build compiles hipify outputs it does not name: gloo/cuda*.cu may be among them.
    assert facts.cuda_only_files == frozenset()
    assert any("runs hipify" in note for note in facts.notes)


# -- the script ---------------------------------------------------------------------------------


def test_show_build_facts_script():
    shown = subprocess.run([sys.executable, str(ROOT / "scripts" / "show_build_facts.py"), str(DATA / "cmake_project")],
                           capture_output=True, text=True, check=True, timeout=60).stdout
    assert "PROJ_USE_HIP='1' (rocm, always)  [CMakeLists.txt:25: add_compile_definitions(PROJ_USE_HIP" in shown
    assert "- src/cuda/marlin.cu  [CMakeLists.txt:20:" in shown


# -- hostile inputs -----------------------------------------------------------------------------


def test_hostile_build_files_never_raise(tmp_path):
    (tmp_path / "CMakeLists.txt").write_bytes(
        b"if(USE_ROCM)\n  add_definitions(-DOK_HIP \xff\xfe)\n  list(APPEND S \"unterminated\n"  # bad UTF-8, open quote
        b"#[[ an unclosed bracket comment\n")
    (tmp_path / "broken.cmake").write_text("endif()\nelse()\nendforeach()\nfunction(\n" + "if(A)\n" * 3000)
    (tmp_path / "setup.py").write_text("print 'python 2'\nextra = ['-DPY2']\n")
    deep = tmp_path / "deep"
    deep.mkdir()
    (deep / "setup.py").write_text("x = " + "(" * 200_000 + "1" + ")" * 200_000 + "\n")
    (tmp_path / "loop.cmake").write_text("include(loop.cmake)\nadd_subdirectory(.)\n"
                                         "include(${CMAKE_CURRENT_LIST_FILE})\n")
    (tmp_path / "a").mkdir()
    os.symlink("..", tmp_path / "a" / "up")  # a symlink loop
    os.symlink("missing", tmp_path / "dangling.cmake")
    (tmp_path / "binary").mkdir()
    (tmp_path / "binary" / "CMakeLists.txt").write_bytes(bytes(range(256)) * 64)
    facts = read_build_files(str(tmp_path))
    assert "OK_HIP" in facts.rocm_macros
    assert any(note.startswith("setup.py:1: not read as Python") for note in facts.notes)
    assert any(note.startswith("deep/setup.py") for note in facts.notes)


def test_unreadable_and_oversized_files(tmp_path):
    big = tmp_path / "big"
    big.mkdir()
    (big / "CMakeLists.txt").write_bytes(b"set(X " + b"a" * (5 << 20) + b")\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "CMakeLists.txt").write_text("add_definitions(-DLOCKED)\n")
    locked.chmod(0)
    try:
        facts = read_build_files(str(tmp_path))
    finally:
        locked.chmod(0o755)
    assert any("larger than 4 MB" in note for note in facts.notes)
    if os.geteuid() != 0:  # (root reads it anyway)
        assert any(note.startswith("locked") for note in facts.notes)


def test_growth_is_bounded(tmp_path):
    """Conditional appends of a list to itself used to double it each time (magma: 60 s)."""
    lines = ["set(FLAGS -DSTART)"] + [f"if(OPT{i})\n  set(FLAGS \"${{FLAGS}} -DF{i}\")\nendif()" for i in range(60)]
    lines += [f"if(USE_ROCM)\n  list(APPEND SRCS ${{SRCS}} ${{SRCS}} s{i}.cu)\nendif()" for i in range(60)]
    (tmp_path / "CMakeLists.txt").write_text("\n".join(lines) + "\n")
    facts = read_build_files(str(tmp_path))
    assert {"START", "F0", "F59"} <= set(facts.by_name())


def test_skipped_folders(tmp_path):
    for folder in ("third_party/lib", "build", "cmake-build-debug", "sub/module", "generated"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "CMakeLists.txt").write_text("if(USE_ROCM)\n  add_definitions(-DFROM_SKIPPED)\nendif()\n")
    (tmp_path / "generated" / "CMakeCache.txt").write_text("")  # a CMake build tree
    (tmp_path / ".gitmodules").write_text('[submodule "m"]\n\tpath = sub/module\n')
    (tmp_path / "ignored").mkdir()
    (tmp_path / "ignored" / "CMakeLists.txt").write_text("if(USE_ROCM)\n  add_definitions(-DFROM_IGNORED)\nendif()\n")
    (tmp_path / ".gitignore").write_text("ignored/\n")
    (tmp_path / ".git").mkdir()
    facts = read_build_files(str(tmp_path))
    assert facts.files_read == ()


def test_files_of_one_folder_whose_names_differ_by_the_platform_word(tmp_path):
    """ggml's `vendors/cuda.h` beside `vendors/hip.h`: one is included where the other is."""
    files = {
        "vendors/cuda.h": "#include <cuda.h>\n", "vendors/hip.h": "#include <hip/hip_runtime.h>\n",
        "vendors/musa.h": "\n",
        "policy/cuda.hpp": "\n", "policy/hip.hpp": '#include "cuda.hpp"\n',  # a wrapper of the CUDA file
        "hooks/cuda_hooks.cpp": "\n", "hooks/hip_hooks.cpp": "\n",  # stubs of disabled backends: no platform names
        "kinds/cuda.cu": "\n", "kinds/hip.h": "\n",  # a source and a header: no counterparts
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    facts = read_build_files(str(tmp_path))
    assert facts.cuda_only_files == {"vendors/cuda.h"}
    assert facts.rocm_only_files == {"vendors/hip.h"}
    (fact,) = [fact for fact in facts.sources if fact.platform == CUDA]
    assert (fact.condition, str(fact.evidence)) == ("cuda.h beside hip.h, its counterpart", "vendors/hip.h")


def test_a_generated_path_through_a_variable_claims_no_file_of_the_tree(tmp_path):
    """Kokkos' unit tests: `set(dir ${CMAKE_CURRENT_BINARY_DIR}/${dir})` per backend, then
    `${dir}/Test${Tag}_${Name}.cpp` names generated files; it must not claim the tree's
    `cuda/TestCuda_Graph.cpp` (added under `if(ENABLE_CUDA)` only) for every build."""
    (tmp_path / "cuda").mkdir()
    (tmp_path / "hip").mkdir()
    (tmp_path / "cuda" / "TestCuda_Graph.cpp").write_text("#include <cuda_runtime.h>\n")
    (tmp_path / "hip" / "TestHIP_Graph.cpp").write_text("#include <hip/hip_runtime.h>\n")
    (tmp_path / "CMakeLists.txt").write_text(
        "project(p LANGUAGES CXX)\n"
        "foreach(Tag Cuda;HIP)\n"
        "  string(TOLOWER ${Tag} dir)\n"
        "  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${dir})\n"
        "  foreach(Name IN LISTS NAMES)\n"
        "    set(file ${dir}/Test${Tag}_${Name}.cpp)\n"
        "    configure_file(${dir}/dummy.cpp ${file})\n"
        "    list(APPEND ${Tag}_SOURCES ${file})\n"
        "  endforeach()\n"
        "  add_executable(Test${Tag} ${${Tag}_SOURCES})\n"
        "endforeach()\n"
        "if(ENABLE_CUDA)\n  add_executable(Graph cuda/TestCuda_Graph.cpp)\nendif()\n"
        "if(ENABLE_HIP)\n  add_executable(GraphHIP hip/TestHIP_Graph.cpp)\nendif()\n")
    facts = read_build_files(str(tmp_path))
    assert "cuda/TestCuda_Graph.cpp" in facts.cuda_only_files
    assert "hip/TestHIP_Graph.cpp" in facts.rocm_only_files


def test_a_source_commented_out_of_the_rocm_builds_list_is_the_cuda_sides(tmp_path):
    """rccl's CMakeLists.txt (the ROCm build) keeps NCCL's CUDA-only sources as comments in its list."""
    (tmp_path / "src" / "misc").mkdir(parents=True)
    for name in ("rocmwrap.cc", "cudawrap.cc", "gdrwrap.cc"):
        (tmp_path / "src" / "misc" / name).write_text("int x;\n")
    (tmp_path / "CMakeLists.txt").write_text(
        "project(rccl LANGUAGES CXX)\nfind_package(hip REQUIRED)\nset(SRC_FILES\n"
        "  src/misc/rocmwrap.cc\n# src/misc/cudawrap.cc\n  #   src/misc/gdrwrap.cc  \n)\n"
        "add_library(rccl ${SRC_FILES})\ntarget_link_libraries(rccl PRIVATE hip::device)\n")
    facts = read_build_files(str(tmp_path))
    assert facts.cuda_only_files == {"src/misc/cudawrap.cc", "src/misc/gdrwrap.cc"}
    (fact, _) = sorted((fact for fact in facts.sources if fact.platform == CUDA), key=lambda fact: fact.pattern)
    assert str(fact.evidence) == "CMakeLists.txt:5" and fact.condition == "commented out of the ROCm build's source list"
    (tmp_path / "CMakeLists.txt").write_text(  # a build that is not ROCm's says nothing by its comments
        "project(p LANGUAGES CXX)\nset(SRC_FILES\n  src/misc/rocmwrap.cc\n# src/misc/cudawrap.cc\n)\n"
        "add_library(p ${SRC_FILES})\n")
    assert read_build_files(str(tmp_path)).cuda_only_files == frozenset()


@pytest.mark.parametrize(("cmake", "rocm_build", "hip_on_nvidia"), [
    ("project(p LANGUAGES CXX)\n# find_package(hip)\nfind_package(HIP REQUIRED)\n", "CMakeLists.txt:3", None),
    ("project(p LANGUAGES CXX)  # HIP comes later\nadd_library(p a.cc)\n", None, None),
    ("# ROCm: see docs\nproject(p LANGUAGES CXX)\n", None, None),
    # `(?i)` takes a dotless or dotted I for an `i`: a text not all ASCII is searched whole
    ("project(p LANGUAGES CXX)\nfind_package(h\u0131p)\nset(H\u0130P_PLATFORM nvidia)\n", "CMakeLists.txt:2",
     "CMakeLists.txt:3"),
    ("set(HIP_PLATFORM nvidia)\nenable_language(HIP)\n", "CMakeLists.txt:2", "CMakeLists.txt:1"),
])
def test_the_build_lines_that_name_hip_are_found_in_code_only(tmp_path, cmake, rocm_build, hip_on_nvidia):
    """Where the build files build for ROCm, or HIP for NVIDIA: the first line of code that says so
    (only files that name HIP or ROCm, in any letter case, are searched, comments left out)."""
    (tmp_path / "CMakeLists.txt").write_text(cmake, encoding="utf-8")
    facts = read_build_files(str(tmp_path))
    assert [str(item) for item in facts.rocm_build] == ([rocm_build] if rocm_build else [])
    assert [str(item) for item in facts.hip_on_nvidia] == ([hip_on_nvidia] if hip_on_nvidia else [])
