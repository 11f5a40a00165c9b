"""`defined(__CUDACC_VER_MAJOR__)` asks "is this nvcc" (issue 25): only nvcc and NVRTC define the
`__CUDACC_VER_*__` macros, exactly when they define `__CUDACC__`, so whether one is defined is an
explicit CUDA test, as `defined(__CUDACC__)` is (spec §11.1); only their values are versions.
CCCL's predefined-macro check and FlashInfer's IDE hint header test them so; each case is written
in our own words and checked by the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

NOT_VERSION_GUARDS = [
    '#if !defined(__CUDACC_VER_MAJOR__)\n#error "missing the nvcc version"\n#endif\n',  # CCCL's check
    "#ifndef __CUDACC_VER_MINOR__\n#define __CUDACC_VER_MINOR__ 8\n#endif\n",  # an IDE's stand-in
    "#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12\nnew_api();\n#endif\n",
    "#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 13\nshim();\n#endif\n",
]
VERSION_GUARDS = [
    ("#if __CUDACC_VER_MAJOR__ >= 12\nnew_api();\n#endif\n", "HG101"),
    ("#if __CUDACC_VER_MAJOR__ < 12\nold_api();\n#endif\n", "HG102"),
    ("#ifndef CUDART_VERSION\n#define CUDART_VERSION 0\n#endif\n", "HG102"),  # a header's macro: a version question
]


def _codes(tmp_path: Path, source: str) -> list[str]:
    (tmp_path / "guard.cu").write_text(source)
    result = run_cli("check", "--isolated", "--no-cache", "--output-format", "json", "guard.cu", cwd=tmp_path)
    assert result.code in (0, 1), result.stderr
    return [item["code"] for item in result.json()]


@pytest.mark.parametrize("source", NOT_VERSION_GUARDS)
def test_a_compiler_identity_test_is_explicit(tmp_path: Path, source: str) -> None:
    assert _codes(tmp_path, source) == []


@pytest.mark.parametrize(("source", "code"), VERSION_GUARDS)
def test_the_values_stay_version_tests(tmp_path: Path, source: str, code: str) -> None:
    assert _codes(tmp_path, source) == [code]


def test_eval_says_the_identity_test_is_explicit() -> None:
    result = run_cli("eval", "!defined(__CUDACC_VER_MAJOR__)")
    assert result.code == 0, result.stderr
    assert "no finding: the outcome on ROCm is explicit" in result.stdout
