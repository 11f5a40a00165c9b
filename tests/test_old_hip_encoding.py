"""HG108 (issue 25): a HIP_VERSION constant on the encoding before ROCm 4.3 that is right on every
release (cupy's `HIP_VERSION >= 402`, 136 of HG104's findings in the real trees) is harmless, so it
is a rule of its own, off by default; HG104 keeps the harmful form (DeepSpeed's `HIP_VERSION >=
502`, wrong on ROCm 4.3-5.1). Checked with the real CLI on a file on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

SOURCE = "#if HIP_VERSION >= 402\nnew_api();\n#endif\n#if HIP_VERSION >= 502\nnewer_api();\n#endif\n"


def _run(tmp_path: Path, *args: str) -> tuple[int, list[tuple[int, str]]]:
    (tmp_path / "hip.cu").write_text(SOURCE)
    result = run_cli("check", "--isolated", "--no-cache", *args, "--output-format", "json", "hip.cu", cwd=tmp_path)
    assert result.code in (0, 1), result.stderr
    return result.code, sorted((item["location"]["row"], item["code"]) for item in result.json())


def test_by_default_only_the_harmful_form_is_an_error(tmp_path: Path) -> None:
    assert _run(tmp_path) == (1, [(4, "HG104")])
    assert _run(tmp_path, "--select", "ALL") == (1, [(4, "HG104")])


@pytest.mark.parametrize("selection", [("--select", "HG108"), ("--extend-select", "HG108"), ("--extend-select", "HG1")])
def test_selected_by_code_or_prefix(tmp_path: Path, selection: tuple[str, str]) -> None:
    _, found = _run(tmp_path, *selection)
    assert (1, "HG108") in found and ((4, "HG104") in found) == (selection[0] == "--extend-select")


def test_the_message_says_why_it_is_harmless(tmp_path: Path) -> None:
    (tmp_path / "hip.cu").write_text(SOURCE)
    result = run_cli("check", "--isolated", "--no-cache", "--select", "HG108", "hip.cu", cwd=tmp_path)
    assert result.code == 1, result.stderr
    assert ("hip.cu:1:5: HG108 `HIP_VERSION >= 402`: 402 is on HIP_VERSION's encoding before ROCm 4.3" in result.stdout
            and "harmless, unless it is meant to exclude a release after 4.3" in result.stdout)
