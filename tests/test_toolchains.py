"""The real toolchains judge the examples before and after `--fix`, for every fix variant.

- CUDA: `nvcc -E -x cu -include cuda.h` (the real CUDA_VERSION, CUDART_VERSION, __CUDACC_VER_*):
  the lines of the example itself in the preprocessed output (selected by the line markers, since
  system headers are large) are identical before and after the fix.
- ROCm: `HIP_PLATFORM=amd hipcc -E --offload-arch=gfx90a -x hip` on the example as a hipified
  translation unit sees it (`-include hip/hip_runtime.h`, `-DUSE_ROCM` as PyTorch's cpp_extension
  passes; the CUDA headers stubbed by the HIP headers hipify maps them to), natively and after
  PyTorch's hipify (CUDA_VERSION renamed TORCH_HIP_VERSION, 602), with ROCM_VERSION undefined,
  6.1 and 6.2: the output after the fix equals the output of the file in which every rewritten
  condition is replaced by what the policy promises (test_oracle_gcc.expected_file), errors too.

Includes that do not exist here (torch/extension.h) are stubbed empty. hipcc prints noise on
stderr without a GPU (rocm_agent_enumerator); only its exit status and output count.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import require_tool
from test_oracle_gcc import EXAMPLE_VARIANTS, expected_file, rewritten

CUDA_STUBS = {"torch/extension.h": ""}
HIP_STUBS = {"torch/extension.h": "", "cuda.h": "#include <hip/hip_runtime.h>\n",
             "cuda_runtime.h": "#include <hip/hip_runtime.h>\n", "cuda_fp16.h": "#include <hip/hip_fp16.h>\n",
             "cuda_bf16.h": ""}
ROCM_BUILDS = {"rocm-undefined": (), "rocm-6.1": ("-DROCM_VERSION=60100",), "rocm-6.2": ("-DROCM_VERSION=60200",)}
_MARKER = re.compile(r'^#(?:line)? (\d+) "([^"]*)"')


def own_lines(output: str, name: str) -> list[tuple[int, str]]:
    """The non-blank lines the preprocessor produced from `name` itself, with their line numbers."""
    lines, current, number = [], None, 0
    for line in output.splitlines():
        marker = _MARKER.match(line)
        if marker:
            number, current = int(marker.group(1)), os.path.basename(marker.group(2))
            continue
        if current == name and line.strip() and not line.startswith("// __CLANG_OFFLOAD_BUNDLE__"):
            lines.append((number, " ".join(line.split())))
        number += 1
    return lines


class Toolchain:
    """One preprocessor run per distinct (bytes, flags), cached: variants share many files."""

    def __init__(self, command: list[str], env: dict[str, str], stubs: dict[str, str], folder: Path) -> None:
        self.command, self.env, self.folder = command, env, folder
        include = folder / "stubs"
        for name, text in stubs.items():
            (include / name).parent.mkdir(parents=True, exist_ok=True)
            (include / name).write_text(text)
        self.command = [*command, "-I", str(include)]

    @lru_cache(maxsize=None)  # noqa: B019 - one instance per module
    def run(self, name: str, data: bytes, flags: tuple[str, ...] = ()) -> tuple[int, tuple[tuple[int, str], ...]]:
        """(exit status, the file's own lines); the file is written under its own name."""
        work = self.folder / hashlib.sha256(data + repr(flags).encode()).hexdigest()[:16]
        work.mkdir(exist_ok=True)
        (work / name).write_bytes(data)
        done = subprocess.run([*self.command, *flags, name], cwd=work, capture_output=True, timeout=300,
                              env={**os.environ, **self.env, "TMPDIR": str(self.folder)})  # (hipcc's temporary folders)
        return done.returncode, tuple(own_lines(done.stdout.decode("latin-1"), name))


@pytest.fixture(scope="module")
def nvcc(tmp_path_factory: pytest.TempPathFactory) -> Toolchain:
    return Toolchain([require_tool("nvcc"), "-E", "-x", "cu", "-include", "cuda.h"], {}, CUDA_STUBS,
                     tmp_path_factory.mktemp("nvcc"))


@pytest.fixture(scope="module")
def hipcc(tmp_path_factory: pytest.TempPathFactory) -> Toolchain:
    command = [require_tool("hipcc"), "-E", "--offload-arch=gfx90a", "-x", "hip", "-include", "hip/hip_runtime.h",
               "-DUSE_ROCM"]
    return Toolchain(command, {"HIP_PLATFORM": "amd"}, HIP_STUBS, tmp_path_factory.mktemp("hipcc"))


@pytest.mark.parametrize("variant", [v.name for v in EXAMPLE_VARIANTS])
def test_nvcc_output_of_each_example_is_unchanged_by_the_fix(variant: str, fixed_examples: dict, nvcc: Toolchain) -> None:
    seen = 0
    for case in fixed_examples[variant]:
        before, after = nvcc.run(case.label, case.before), nvcc.run(case.label, case.after)
        assert before[0] == 0, f"{case.label}: nvcc failed on the original"
        assert after == before, f"{case.label} [{variant}]: nvcc's output changed"
        seen += len(before[1])
    assert seen > 20, "hardly any lines of the examples in nvcc's output: the line-marker filter is broken"


def torch_hipified(data: bytes) -> bytes:
    """What PyTorch's hipify does to the version macro: CUDA_VERSION becomes TORCH_HIP_VERSION."""
    return re.sub(rb"\bCUDA_VERSION\b", b"TORCH_HIP_VERSION", data)


@pytest.mark.parametrize("model", ["hip", pytest.param("torch-hipify", marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", [v.name for v in EXAMPLE_VARIANTS])
def test_hipcc_output_after_the_fix_is_what_the_policy_says(variant: str, model: str, fixed_examples: dict,
                                                             hipcc: Toolchain) -> None:
    builds = ROCM_BUILDS if variant.startswith("rocm-min") else {"rocm-undefined": ()}
    judged = 0
    for case in fixed_examples[variant]:
        if case.before == case.after:
            continue
        expected = expected_file(case, rewritten(case))
        if expected is None:
            continue  # a promise this oracle does not know (HG203, auto)
        after, promised = case.after, expected
        flags: tuple[str, ...] = ()
        if model == "torch-hipify":
            after, promised, flags = torch_hipified(after), torch_hipified(promised), ("-DTORCH_HIP_VERSION=602",)
        for build, defines in builds.items():
            got = _text(hipcc.run(case.label, after, (*flags, *defines)))
            wanted = _text(hipcc.run(case.label, promised, (*flags, *defines)))
            assert got == wanted, f"{case.label} [{variant}, {model}, {build}]: hipcc's output is not the policy's"
        judged += 1
    assert judged, f"no example was judged for {variant}"


def _text(result: tuple[int, tuple[tuple[int, str], ...]]) -> tuple[int, list[str]]:
    """Exit status and lines without their numbers: the promised file writes a continued condition
    on one line, so the lines after it move up."""
    return result[0], [text for _, text in result[1]]


def test_the_real_toolchains_disagree_where_the_tool_says(nvcc: Toolchain, hipcc: Toolchain) -> None:
    """The premise, as the README shows it: `CUDA_VERSION < 11000` picks the new branch under nvcc
    and the legacy one under hipcc; the fix makes hipcc's choice explicit, nvcc's unchanged."""
    demo = b"#if CUDA_VERSION < 11000\nlegacy_cuda_branch();\n#else\nmodern_branch();\n#endif\n"
    fixed = demo.replace(b"CUDA_VERSION < 11000", b"(CUDA_VERSION < 11000) || defined(USE_ROCM)")
    assert [text for _, text in nvcc.run("demo.cu", demo)[1]] == ["modern_branch();"]
    assert {text for _, text in hipcc.run("demo.cu", demo)[1]} == {"legacy_cuda_branch();"}
    assert nvcc.run("demo.cu", fixed) == nvcc.run("demo.cu", demo)
    assert hipcc.run("demo.cu", fixed) == hipcc.run("demo.cu", demo)
    wrong = demo.replace(b"CUDA_VERSION < 11000", b"CUDA_VERSION < 99000 || defined(USE_ROCM)")  # not a fix
    assert nvcc.run("demo.cu", wrong) != nvcc.run("demo.cu", demo), "the nvcc comparison cannot fail"
