"""An `#error` stops the compile (issue 25): what follows an `#error` that rejects every ROCm
build is compiled nowhere on ROCm, so nothing there is reported for ROCm. Kokkos' CUDA setup
header and CCCL's predefined-macro check header open with such `#error`s; each test writes the
construct, minimal and in our own words, and runs the real CLI on it. An `#error` on a test that a
translator renames (`__CUDACC__`) or that asks a CUDA version question stops nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

AFTER = "#if CUDART_VERSION >= 12000\nfast();\n#endif\n"


def _found(tmp_path: Path, source: str, *args: str) -> list[tuple[int, str]]:
    """(line, code) of every finding of `check` on `source` written as a lone .cu file."""
    (tmp_path / "setup.cuh").write_text(source)
    result = run_cli("check", "--isolated", "--no-cache", *args, "--output-format", "json", "setup.cuh", cwd=tmp_path)
    assert result.code in (0, 1), result.stderr
    return sorted((item["location"]["row"], item["code"]) for item in result.json())


def test_an_error_that_rejects_every_non_nvcc_compile_hides_what_follows(tmp_path: Path) -> None:
    source = AFTER + '#ifndef __NVCC__\n#error "compile this with nvcc"\n#endif\n' + AFTER
    assert _found(tmp_path, source) == [(1, "HG101")]


def test_an_error_a_translator_renames_away_stops_nothing(tmp_path: Path) -> None:
    """mmcv: PyTorch's hipify (and HIPIFY) turn `#ifndef __CUDACC__` into `#ifndef __HIPCC__`,
    which the hipcc compile of the translated .cu file does not take: ROCm goes on."""
    source = '#ifndef __CUDACC__\n#error "include this from .cu files only"\n#endif\n' + AFTER
    assert _found(tmp_path, source) == [(4, "HG101")]


def test_two_errors_that_together_reject_rocm(tmp_path: Path) -> None:
    """Kokkos: no CUDA backend is an error, and a CUDA backend without nvcc is an error too; the
    backend macro is free here, so only both `#error`s together leave ROCm nothing."""
    source = ('#include "config.h"\n#ifndef LIB_ENABLE_CUDA\n#error "CUDA backend off"\n#endif\n'
              '#if defined(LIB_ENABLE_CUDA) && !defined(__NVCC__)\n#error "not nvcc"\n#endif\n' + AFTER)
    assert _found(tmp_path, source) == []
    only_first = source.replace('#error "not nvcc"\n', "")
    assert _found(tmp_path, only_first) == [(7, "HG101")]


def test_an_error_inside_the_include_guard_and_after_it(tmp_path: Path) -> None:
    """The rest of the include guard's group is stopped; an unconditional `#error` stops the rest
    of its own group, whatever the platform."""
    source = ("#ifndef SETUP_CUH\n#define SETUP_CUH\n#if !defined(__NVCC__)\n#error nvcc only\n#endif\n" + AFTER
              + "#endif\n")
    assert _found(tmp_path, source) == []
    stopped_everywhere = "#ifdef ANY\n#error unfinished\n" + AFTER + "#endif\n" + AFTER
    assert _found(tmp_path, stopped_everywhere) == [(7, "HG101")]


def test_an_error_rocm_reaches_by_accident_stops_nothing(tmp_path: Path) -> None:
    """`#if CUDA_VERSION < 11000` / `#error` is true on ROCm only because CUDA_VERSION is undefined
    there: HG102 reports it, and a port that fixes it compiles what follows, which stays judged."""
    source = '#if CUDA_VERSION < 11000\n#error "CUDA 11 or newer"\n#endif\n' + AFTER
    assert _found(tmp_path, source) == [(1, "HG102"), (4, "HG101")]


def test_code_after_the_stop_is_not_rocm_code(tmp_path: Path) -> None:
    """HG202 reads the code ROCm compiles: none after the `#error`."""
    before = "int before() { return CUDART_VERSION; }\n"
    after = "int after() { return CUDART_VERSION; }\n"
    source = before + "#ifndef __NVCC__\n#error nvcc only\n#endif\n" + after
    assert _found(tmp_path, source, "--select", "HG202") == [(1, "HG202")]
