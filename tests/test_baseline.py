"""`--write-baseline` / `--baseline`: adopt the lint without fixing everything on day one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

NEW_GUARD = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 12040\nint brand_new;\n#endif\n"


@pytest.fixture
def tree(examples_repo: Path) -> Path:
    """A git work tree with a copy of examples/."""
    return examples_repo


def _findings(tree: Path, *args: str) -> list[dict]:
    result = run_cli("check", "--output-format", "json", *args, "examples", cwd=tree)
    assert result.code in (0, 1), result.stderr
    return result.json()


def _move_blocks_and_add_one_guard(tree: Path) -> None:
    """Unrelated edits above and between old findings, two old guard blocks swapped, one new bad guard."""
    kernel = tree / "examples" / "csrc" / "attention_kernel.cu"
    text = kernel.read_text(encoding="utf-8")
    first = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\n#include <cuda_bf16.h>\n#define ATTN_HAS_BF16 1\n#endif\n"
    second = "#if CUDA_VERSION < 11000  // old toolkits lack cooperative groups' tiled partitions\n"
    assert first in text and second in text
    text = text.replace(first, "")
    text = text.replace("namespace attn {\n", "namespace attn {\n\n" + first + "\n// moved here\n" + NEW_GUARD)
    kernel.write_text("// Copyright line added on top\n\n\n" + text, encoding="utf-8")
    pool = tree / "examples" / "csrc" / "stream_pool.cpp"
    pool.write_text("\n".join(["// padding"] * 7) + "\n" + pool.read_text(encoding="utf-8"), encoding="utf-8")


def test_baseline_then_edits_report_exactly_the_new_finding(tree: Path) -> None:
    before = _findings(tree)
    assert len(before) >= 5
    written = run_cli("check", "--write-baseline", "hipify-guard-baseline.json", "examples", cwd=tree)
    assert written.code == 0, written.stderr
    assert f"Wrote {len(before)} findings" in written.stderr
    assert _findings(tree, "--baseline", "hipify-guard-baseline.json") == []

    _move_blocks_and_add_one_guard(tree)
    after = _findings(tree)
    edited = ("examples/csrc/attention_kernel.cu", "examples/csrc/stream_pool.cpp")

    def places(findings: list[dict]) -> set[tuple[str, str, int]]:
        return {(f["filename"], f["code"], f["location"]["row"]) for f in findings if f["filename"] in edited}

    assert len(after) == len(before) + 1
    assert places(before) and not places(before) & places(after), "every old finding in the edited files moved"

    new = _findings(tree, "--baseline", "hipify-guard-baseline.json")
    assert [(f["code"], f["filename"]) for f in new] == [("HG101", "examples/csrc/attention_kernel.cu")]
    assert "12040" in new[0]["message"]
    result = run_cli("check", "--baseline", "hipify-guard-baseline.json", "examples", cwd=tree)
    assert result.code == 1 and "Found 1 error." in result.stdout


def test_a_second_identical_guard_is_new(tree: Path) -> None:
    """The occurrence index tells two identical directives in one file apart."""
    run_cli("check", "--write-baseline", "base.json", "examples", cwd=tree)
    pool = tree / "examples" / "csrc" / "stream_pool.cpp"
    line = next(l for l in pool.read_text(encoding="utf-8").splitlines() if l.startswith("#if defined(CUDART_VERSION)"))
    pool.write_text(pool.read_text(encoding="utf-8") + f"\n{line}\nint again;\n#endif\n", encoding="utf-8")
    new = _findings(tree, "--baseline", "base.json")
    assert len(new) == 1 and new[0]["location"]["row"] > 26


def test_baseline_paths_are_repo_relative(tree: Path) -> None:
    """A baseline written at the root works from a subfolder too."""
    run_cli("check", "--write-baseline", "base.json", "examples", cwd=tree)
    entries = json.loads((tree / "base.json").read_text(encoding="utf-8"))["findings"]
    assert all(entry["path"].startswith(("examples/csrc/", "examples/python/")) for entry in entries)
    assert {entry["path"].split("/")[1] for entry in entries} == {"csrc", "python"}
    assert all("row" not in entry and "line" not in entry for entry in entries)
    result = run_cli("check", "--baseline", "../../base.json", ".", cwd=tree / "examples" / "csrc")
    assert result.code == 0, result.stdout


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read baseline"),
    ("{", "not valid JSON"),
    ('{"findings": []}', "not a hipify-guard baseline"),
    ('{"format": "hipify-guard-baseline", "version": 1, "findings": [1]}', "must be a list of objects"),
])
def test_bad_baseline_is_a_usage_error(tmp_path: Path, content: str | None, message: str) -> None:
    if content is not None:
        (tmp_path / "base.json").write_text(content)
    (tmp_path / "a.cu").write_text("int x;\n")
    result = run_cli("check", "--baseline", "base.json", "a.cu", cwd=tmp_path)
    assert result.code == 2 and message in result.stderr and "Traceback" not in result.stderr
