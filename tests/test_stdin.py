"""Standard input (`check - --stdin-filename NAME`) and `@argfile` path lists."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import console_script, run_cli

GUARD = b"#if CUDA_VERSION >= 11000\r\nint x; /* \xff\xfe not UTF-8 */\r\n#endif"  # CRLF, no final newline
FIXED = b"#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)\r\nint x; /* \xff\xfe not UTF-8 */\r\n#endif"


def _raw(args: list[str], data: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with bytes on stdin and keep stdout as bytes."""
    return subprocess.run([*console_script(), *args], input=data, capture_output=True, cwd=cwd, timeout=120,
                          check=False)


def test_check_stdin_reports_under_the_given_name(tmp_path: Path) -> None:
    result = run_cli("check", "-", "--stdin-filename", "src/x.cu", cwd=tmp_path, stdin=GUARD)
    assert result.code == 1
    assert result.stdout.startswith("src/x.cu:1:1: HG101 [*] ")
    assert not (tmp_path / "src").exists()


def test_stdin_filename_alone_reads_stdin(tmp_path: Path) -> None:
    result = run_cli("check", "--stdin-filename", "x.cu", "--output-format", "json", cwd=tmp_path, stdin=GUARD)
    assert [item["filename"] for item in result.json()] == ["x.cu"]


def test_fix_writes_the_fixed_bytes_to_stdout_and_the_report_to_stderr(tmp_path: Path) -> None:
    completed = _raw(["check", "--fix", "-", "--stdin-filename", "src/x.cu"], GUARD, tmp_path)
    assert completed.stdout == FIXED
    assert completed.returncode == 0
    assert b"1 fixed" in completed.stderr


def test_fix_of_clean_or_binary_input_echoes_it_byte_for_byte(tmp_path: Path) -> None:
    for data in (b"", b"int x;\n", b"\x00\x01#if CUDA_VERSION > 1\n\xff", b"\xff\xfe#\x00i\x00f\x00", b"a\rb\r\n"):
        completed = _raw(["check", "--fix", "-", "--stdin-filename", "y.cu"], data, tmp_path)
        assert completed.stdout == data and completed.returncode == 0, data


def test_diff_of_stdin(tmp_path: Path) -> None:
    result = run_cli("check", "--diff", "-", "--stdin-filename", "src/x.cu", cwd=tmp_path, stdin=GUARD)
    assert result.code == 1
    assert "--- a/src/x.cu" in result.stdout and "+#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)" in result.stdout


def test_force_exclude_applies_to_the_stdin_filename(tmp_path: Path) -> None:
    args = ["check", "--fix", "--force-exclude", "--exclude", "third_party/", "-", "--stdin-filename",
            "third_party/x.cu"]
    completed = _raw(args, GUARD, tmp_path)
    assert completed.stdout == GUARD and completed.returncode == 0


def test_argfile_lists_the_paths(tmp_path: Path) -> None:
    for name in ("a.cu", "b.cu", "c.cu"):
        (tmp_path / name).write_bytes(GUARD)
    (tmp_path / "files.txt").write_text("a.cu\n\n  b.cu  \n")
    result = run_cli("check", "--output-format", "json", "@files.txt", "c.cu", cwd=tmp_path)
    assert sorted(item["filename"] for item in result.json()) == ["a.cu", "b.cu", "c.cu"]


def test_missing_argfile_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("check", "@nowhere.txt", cwd=tmp_path)
    assert result.code == 2 and "cannot read argument file @nowhere.txt" in result.stderr
