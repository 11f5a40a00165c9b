"""`hipify-guard eval`: value under -D/-U, outcome per platform, and the rules' verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli


def _json(*args: str, cwd: Path | None = None) -> dict:
    result = run_cli("eval", "--output-format", "json", *args, cwd=cwd)
    assert result.code == 0, result.stderr
    return result.json()


def _outcomes(report: dict) -> dict[str, str]:
    return {item["platform"]: item["outcome"] for item in report["outcomes"]}


def test_an_implicit_exclusion(tmp_path: Path) -> None:
    report = _json("defined(CUDA_VERSION) && CUDA_VERSION >= 11000", cwd=tmp_path)
    assert report["value"] == 0 and report["error"] is None
    assert _outcomes(report) == {"cuda": "depends", "hip": "false", "torch-hipify": "false"}
    [finding] = report["findings"]
    assert finding["code"] == "HG101"
    assert finding["fix"]["applicability"] == "safe"
    assert finding["fix"]["result"] == "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)"


def test_the_text_report(tmp_path: Path) -> None:
    result = run_cli("eval", "CUDA_VERSION < 11000", cwd=tmp_path)
    assert result.code == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["expression: CUDA_VERSION < 11000", "value: 1 (true) (every name undefined)"]
    assert "ROCm, native HIP (hip):" in result.stdout and "HG102 implicit-rocm-inclusion" in result.stdout
    assert "  fix (safe): #if (CUDA_VERSION < 11000) || defined(USE_ROCM)" in lines


@pytest.mark.parametrize(("args", "value", "error"), [
    (("CUDA_VERSION >= 11000", "-D", "CUDA_VERSION=12000"), 1, None),
    (("CUDA_VERSION >= 11000", "-D", "CUDA_VERSION=0x2EE0"), 1, None),
    (("X + 1 == 0", "-D", "X=-1"), 1, None),
    (("defined(X)", "-D", "X"), 1, None),
    (("defined(X)", "-D", "X", "-U", "X"), 0, None),
    (("X", "-D", "X="), None, "X is defined but empty: it has no value in #if"),
    (("__HIP_PLATFORM_AMD__",), 0, None),
])
def test_value_under_definitions(tmp_path: Path, args: tuple[str, ...], value: int | None, error: str | None) -> None:
    report = _json(*args, cwd=tmp_path)
    assert (report["value"], report["error"]) == (value, error)


@pytest.mark.parametrize(("expression", "hip", "codes"), [
    ("~(CUDA_VERSION | FOO)", "depends", []),  # false only at FOO == -1: a critical value of `~`
    ("CUDA_VERSION < 11000 && (FOO >> 4) == 700", "unknown", []),  # true at FOO == 11200: no sweep value
    ("CUDA_VERSION & 1", "false", ["HG103"]),  # no free macro reaches the operator on native HIP
])
def test_bitwise_operators_on_free_macros(tmp_path: Path, expression: str, hip: str, codes: list[str]) -> None:
    report = _json(expression, cwd=tmp_path)
    assert _outcomes(report)["hip"] == hip
    assert [finding["code"] for finding in report["findings"]] == codes


def test_definitions_fix_what_a_platform_leaves_free(tmp_path: Path) -> None:
    report = _json("defined(USE_ROCM) && ROCM_VERSION >= 60200", "-D", "ROCM_VERSION=60100", cwd=tmp_path)
    assert _outcomes(report) == {"cuda": "false", "hip": "false", "torch-hipify": "false"}
    assert report["findings"] == []
    report = _json("defined(USE_ROCM) && ROCM_VERSION >= 60200", cwd=tmp_path)
    assert _outcomes(report)["hip"] == "depends"


def test_user_models_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.hipify-guard]\nmodels = ["cupy"]\n[tool.hipify-guard.user-models.cupy]\n'
        'title = "cupy HIP shim"\ndefine = { CUDA_VERSION = 0 }\n')
    report = _json("defined(CUDA_VERSION)", cwd=tmp_path)
    assert _outcomes(report) == {"cuda": "depends", "cupy": "true"}
    assert [f["code"] for f in report["findings"]] == ["HG102"]
    isolated = _json("defined(CUDA_VERSION)", "--isolated", cwd=tmp_path)
    assert [f["code"] for f in isolated["findings"]] == ["HG103"]


@pytest.mark.parametrize(("args", "message"), [
    (("CUDA_VERSION >= ",), "expected an expression, found end of condition\n  CUDA_VERSION >= \n                  ^"),
    (("X", "-D", "X=abc"), "-D X=abc: invalid integer constant abc"),
    (("X", "-U", "1X"), "-U '1X': not a macro name"),
])
def test_bad_input_exits_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run_cli("eval", *args, cwd=tmp_path)
    assert result.code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
