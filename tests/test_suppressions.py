"""Suppression comments through the real CLI: every form, unused ones (HG902), malformed ones (HG903)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from hipify_guard.fix.comment_removal import same_code

HG101_GUARD = "#if CUDA_VERSION >= 11000"


def _codes_by_row(path: Path, *args: str) -> list[tuple[int, str]]:
    result = run_cli("check", "--output-format", "json", *args, str(path))
    assert result.code in (0, 1), result.stderr
    return sorted((item["location"]["row"], item["code"]) for item in result.json())


def _write(tmp_path: Path, text: str, name: str = "a.cu") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


@pytest.mark.parametrize("comment", [
    "// hipify-guard: ignore[HG101]",
    "/* hipify-guard: ignore[HG101] */",
    "// hipify-guard: ignore[HG1] -- ROCm is excluded on purpose",
    "// hipify-guard:ignore[ HG101 , HG102 ]",
    "// hipify-guard: ignore[ALL]",
])
def test_end_of_line_forms(tmp_path: Path, comment: str) -> None:
    path = _write(tmp_path, f"{HG101_GUARD}  {comment}\n#endif\n{HG101_GUARD}\n#endif\n")
    assert _codes_by_row(path, "--ignore", "HG902") == [(3, "HG101")]


def test_own_line_covers_the_next_logical_line(tmp_path: Path) -> None:
    text = (
        "// hipify-guard: ignore[HG101]\n"
        "#if defined(CUDA_VERSION) && \\\n"
        "    CUDA_VERSION >= 11000\n"
        "#endif\n"
        "// hipify-guard: ignore[HG104]\n"
        "/* explanation, skipped like other comment-only lines */\n"
        "#if HIP_VERSION >= 502\n"
        "#endif\n"
        "// hipify-guard: ignore[HG101]\n"
        "\n"
        f"{HG101_GUARD}\n"
        "#endif\n"
    )
    found = _codes_by_row(_write(tmp_path, text))
    assert found == [(9, "HG902"), (11, "HG101")], "a blank line ends an own-line suppression's reach"


def test_disable_enable_block_and_file_ignore(tmp_path: Path) -> None:
    text = (
        "/* hipify-guard: disable[HG1] */\n"
        f"{HG101_GUARD}\n#endif\n"
        "#if CUDA_VERSION < 11000\n#endif\n"
        "// hipify-guard: enable[HG1]\n"
        f"{HG101_GUARD}\n#endif\n"
        "// hipify-guard: file-ignore[HG104]\n"
        "#if HIP_VERSION >= 502\n#endif\n"
        "// hipify-guard: disable[HG102]\n"
        "#if CUDA_VERSION < 10000\n#endif\n"
    )
    assert _codes_by_row(_write(tmp_path, text)) == [(7, "HG101")], "an unclosed block lasts to the end"


def test_a_string_is_not_a_suppression(tmp_path: Path) -> None:
    text = f'{HG101_GUARD}\n#define NOTE "// hipify-guard: ignore[HG101]"\n#endif\n'
    text += f'{HG101_GUARD}\nauto raw = R"(\n// hipify-guard: ignore[HG101]\n)";\n#endif\n'
    assert _codes_by_row(_write(tmp_path, text)) == [(1, "HG101"), (4, "HG101")]


def test_only_codes_that_ran_are_judged_unused(tmp_path: Path) -> None:
    path = _write(tmp_path, "int a;  // hipify-guard: ignore[HG101, HG104]\n")
    assert _codes_by_row(path) == [(1, "HG902")]
    assert _codes_by_row(path, "--ignore", "HG101") == [(1, "HG902")]
    assert _codes_by_row(path, "--ignore", "HG101,HG104") == []
    assert _codes_by_row(path, "--select", "HG902") == []


def test_unused_suppressions_are_removed_byte_exactly(tmp_path: Path) -> None:
    original = (
        "#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)  // hipify-guard: ignore[HG101]\r\n"
        "#endif\r\n"
        "  // hipify-guard: ignore[HG104]\r\n"
        "int kept;\r\n"
        "int a; /* hipify-guard: ignore[HG102] */ int b;\r\n"
        "#if HIP_VERSION >= 502 /* \xe9 */ // hipify-guard: ignore[HG104, HG101] keep HG104\r\n"
        "#endif\r\n"
        "// hipify-guard: disable[HG103]\r\n"
        "// hipify-guard: enable[HG103]\r\n"
        "// see the docs; hipify-guard: ignore[HG105]\r\n"
    ).encode("latin-1")
    expected = (
        "#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)\r\n"
        "#endif\r\n"
        "int kept;\r\n"
        "int a; int b;\r\n"
        "#if HIP_VERSION >= 502 /* \xe9 */ // hipify-guard: ignore[HG104] keep HG104\r\n"
        "#endif\r\n"
        "// see the docs;\r\n"
    ).encode("latin-1")
    path = tmp_path / "a.cu"
    path.write_bytes(original)
    diff = run_cli("check", "--diff", str(path))
    assert diff.code == 1 and "-// hipify-guard: disable[HG103]" in diff.stdout
    fixed = run_cli("check", "--fix", str(path))
    assert fixed.code == 0, fixed.stdout + fixed.stderr
    assert path.read_bytes() == expected
    assert run_cli("check", str(path)).code == 0


def test_malformed_suppressions_are_reported_and_change_nothing(tmp_path: Path) -> None:
    text = (
        f"{HG101_GUARD}  // hipify-guard: ignore HG101\n#endif\n"
        f"{HG101_GUARD}  // hipify-guard: ignroe[HG101]\n#endif\n"
        "// hipify-guard: enable[HG101]\n"
    )
    found = _codes_by_row(_write(tmp_path, text))
    assert found == [(1, "HG101"), (1, "HG903"), (3, "HG101"), (3, "HG903"), (5, "HG903")]


def test_same_code_sees_token_changes_but_not_comments() -> None:
    assert same_code(b"int a; // x\nint b;\n", b"int a;\nint b;\n")
    assert same_code(b"a/* x */b\n", b"a b\n")
    assert not same_code(b"a/* x */b\n", b"ab\n")
    assert not same_code(b"#define A 1 \\\n// x\nint b;\n", b"#define A 1 \\\nint b;\n")
