"""The command line through the real console script: exit codes, JSON shape (conventions §2),
`--diff`, `--fix` with every other byte intact, the closing summary, odd files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import run_cli

SEED = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000"
EXCLUDE = b" && !defined(USE_ROCM)"
JSON_KEYS = {"code", "name", "message", "filename", "location", "end_location", "url", "fix"}


def check(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None):  # noqa: ANN201
    return run_cli("check", "--no-cache", *args, cwd=cwd, env=env)


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# -- exit codes -------------------------------------------------------------------------------


def test_clean_file_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path, "clean.cu", b"#if defined(USE_ROCM)\n#endif\nint x;\n")
    result = check(str(path))
    assert (result.code, result.stdout) == (0, "All checks passed!\n")


def test_findings_exit_1_and_exit_zero_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    assert check(str(path)).code == 1
    assert check("--exit-zero", str(path)).code == 0


@pytest.mark.parametrize(("args", "message"), [
    (("--nope",), "No such option"),
    (("--policy", "sometimes"), "unknown policy 'sometimes'"),
    (("--policy", "rocm-min=6"), "expected a ROCm version"),
    (("--policy", "rocm-min=6.100"), "below 100"),
    (("--policy", "exclude=1"), "takes no value"),
    (("--select", "HG999"), "HG999"),
    (("--ignore", "HG1,XY1"), "XY1"),
    (("--extend-select", "HG10x"), "HG10x"),
    (("--output-format", "yaml"), "yaml"),
])
def test_usage_errors_exit_2_with_a_message(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    result = check(*args, str(path))
    assert result.code == 2, result.stdout
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == SEED + b"\n#endif\n"


def test_unknown_command_exits_2() -> None:
    assert run_cli("frobnicate").code == 2


# -- JSON (conventions §2) ----------------------------------------------------------------------


def test_json_shape_exactly(tmp_path: Path) -> None:
    write(tmp_path, "src/a.cu", SEED + b"  // c\n#endif\n#ifdef CUDA_VERSION\n#endif\n")
    result = check("--output-format", "json", "src/a.cu", cwd=tmp_path)
    assert result.code == 1
    items = result.json()
    assert isinstance(items, list) and [item["code"] for item in items] == ["HG101", "HG103"]
    for item in items:
        assert set(item) == JSON_KEYS
        assert isinstance(item["name"], str) and item["name"]
        assert isinstance(item["message"], str) and item["message"]
        assert item["filename"] == "src/a.cu"  # as given: relative stays relative
        assert item["url"] is None
        for key in ("location", "end_location"):
            assert set(item[key]) == {"row", "column"}
            assert all(type(value) is int and value >= 1 for value in item[key].values())
    first, second = items
    assert first["name"] == "implicit-rocm-exclusion"
    assert (first["location"], first["end_location"]) == ({"row": 1, "column": 1}, {"row": 1, "column": 51})
    fix = first["fix"]
    assert set(fix) == {"applicability", "message", "edits"} and fix["applicability"] == "safe"
    assert isinstance(fix["message"], str) and fix["message"]
    assert fix["edits"] == [{"content": " && !defined(USE_ROCM)",
                             "location": {"row": 1, "column": 51}, "end_location": {"row": 1, "column": 51}}]
    assert second["name"] == "hipify-dependent-guard" and second["fix"] is None


def test_json_of_a_clean_run_is_an_empty_array(tmp_path: Path) -> None:
    path = write(tmp_path, "clean.cu", b"int x;\n")
    result = check("--output-format", "json", str(path))
    assert (result.code, result.json()) == (0, [])


def test_json_keeps_an_absolute_filename_absolute(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    assert check("--output-format", "json", str(path)).json()[0]["filename"] == str(path)


def _apply_json_edits(data: bytes, edits: list[dict]) -> bytes:
    """Apply edits the way a JSON consumer would: rows are lines, columns count characters."""
    text = data.decode("utf-8")
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(location: dict) -> int:
        return starts[location["row"] - 1] + location["column"] - 1

    for edit in sorted(edits, key=lambda e: offset(e["location"]), reverse=True):
        text = text[: offset(edit["location"])] + edit["content"] + text[offset(edit["end_location"]) :]
    return text.encode("utf-8")


def test_json_edits_with_rows_and_columns_reproduce_the_fix(tmp_path: Path) -> None:
    """Columns count characters: an `é` before the edit on the same line is one column."""
    data = ("// héllo\n#if /* é */ defined(CUDA_VERSION) && CUDA_VERSION >= 11000  // über\n#endif\n"
            "#ifdef CUDA_VERSION\n#else\n#endif\n").encode()
    path = write(tmp_path, "a.cu", data)
    flags = ("--unsafe-fixes", "--policy", "include")
    edits = [edit for item in check("--output-format", "json", *flags, str(path)).json() for edit in item["fix"]["edits"]]
    assert len(edits) >= 3
    expected = _apply_json_edits(data, edits)
    assert check("--fix", *flags, str(path)).code == 0
    assert path.read_bytes() == expected


# -- --diff -----------------------------------------------------------------------------------


def test_diff_prints_a_unified_diff_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    data = b"// header\n" + SEED + b"  // c\nint x;\n#endif\n"
    path = write(tmp_path, "a.cu", data)
    before = path.stat()
    result = check("--diff", "a.cu", cwd=tmp_path)
    assert result.code == 1
    assert result.stdout.splitlines()[:3] == ["--- a/a.cu", "+++ b/a.cu", "@@ -1,4 +1,4 @@"]
    assert f"-{SEED.decode()}  // c" in result.stdout.splitlines()
    assert f"+{(SEED + EXCLUDE).decode()}  // c" in result.stdout.splitlines()
    assert path.read_bytes() == data
    assert path.stat().st_mtime_ns == before.st_mtime_ns


def test_diff_of_a_clean_file_is_empty_and_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", b"#if defined(USE_ROCM)\n#endif\n")
    result = check("--diff", str(path))
    assert (result.code, result.stdout) == (0, "")


def test_diff_marks_a_missing_final_newline(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif")
    result = check("--diff", str(path))
    assert result.code == 1 and "\\ No newline at end of file" in result.stdout


# -- --fix ------------------------------------------------------------------------------------


def test_fix_exit_0_when_everything_is_fixed(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    result = check("--fix", str(path))
    assert result.code == 0, result.stdout + result.stderr
    assert path.read_bytes() == SEED + EXCLUDE + b"\n#endif\n"
    assert check("--fix", str(path)).code == 0  # nothing left: idempotent
    assert path.read_bytes() == SEED + EXCLUDE + b"\n#endif\n"


def test_fix_exit_1_when_findings_remain(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n#ifdef CUDA_VERSION\n#endif\n")
    assert check("--fix", str(path)).code == 1
    assert path.read_bytes() == SEED + EXCLUDE + b"\n#endif\n#ifdef CUDA_VERSION\n#endif\n"


def test_exit_non_zero_on_fix(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    assert check("--fix", "--exit-non-zero-on-fix", str(path)).code == 1
    assert check("--fix", "--exit-non-zero-on-fix", str(path)).code == 0  # nothing more to fix


def test_fix_keeps_the_file_mode(tmp_path: Path) -> None:
    path = write(tmp_path, "a.cu", SEED + b"\n#endif\n")
    path.chmod(0o640)
    assert check("--fix", str(path)).code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_generated_file_gets_no_fix(tmp_path: Path) -> None:
    """flashinfer's `ln_silu_headers.cuh` says it is generated ("do not edit manually"): an edit
    would be lost, so the finding says what to change instead, and nothing is written."""
    data = b"// Generated by extract_headers.py -- do not edit manually.\n" + SEED + b"\n#endif\n"
    path = write(tmp_path, "a.cu", data)
    result = check("--fix", "--output-format", "json", str(path))
    assert result.code == 1 and path.read_bytes() == data
    [finding] = result.json()
    assert finding["fix"] is None and "the file says it is generated" in finding["message"]
    edited = write(tmp_path, "b.cu", b"// Edit freely.\n" + SEED + b"\n#endif\n")
    assert check("--fix", str(edited)).code == 0  # (the same guard elsewhere is fixed)


def test_unparsable_file_is_never_rewritten(tmp_path: Path) -> None:
    data = SEED + b"\n#endif\n#if (\n#endif\n#endif\n"
    path = write(tmp_path, "a.cu", data)
    assert check("--fix", str(path)).code == 1
    assert path.read_bytes() == data


BYTE_EXACT = [
    pytest.param(
        b"#include <cuda.h>\r\n" + SEED + b" // new API\r\nint x;\r\n#endif\r\n",
        b"#include <cuda.h>\r\n" + SEED + EXCLUDE + b" // new API\r\nint x;\r\n#endif\r\n", (), id="crlf"),
    pytest.param(
        b"\xef\xbb\xbf" + SEED + b"\r\nint x;\r\n#endif\r\n",
        b"\xef\xbb\xbf" + SEED + EXCLUDE + b"\r\nint x;\r\n#endif\r\n", (), id="bom-crlf"),
    pytest.param(
        b"// caf\xe9\n" + SEED + b" /* \xe9t\xe9 */\nchar c = '\xff';\n#endif // \xe0\n",
        b"// caf\xe9\n" + SEED + EXCLUDE + b" /* \xe9t\xe9 */\nchar c = '\xff';\n#endif // \xe0\n", (), id="latin-1"),
    pytest.param(SEED + b"\nint x;\n#endif", SEED + EXCLUDE + b"\nint x;\n#endif", (), id="no-final-newline"),
    pytest.param(SEED + b"\rint x;\r#endif\r", SEED + EXCLUDE + b"\rint x;\r#endif\r", (), id="lone-cr"),
    pytest.param(
        b"#if defined(CUDA_VERSION) && \\\r\n    CUDA_VERSION >= 11080 /* Hopper */ // x\r\n#endif\r\n",
        b"#if defined(CUDA_VERSION) && \\\r\n    CUDA_VERSION >= 11080" + EXCLUDE + b" /* Hopper */ // x\r\n#endif\r\n",
        (), id="continued-crlf-trailing-comments"),
    pytest.param(
        b"#if CUDA_VERSION < 11000\r\n#define LEGACY 1\r\n#endif",
        b"#if (CUDA_VERSION < 11000) || defined(USE_ROCM)\r\n#define LEGACY 1\r\n#endif", (), id="hg102-crlf"),
    pytest.param(
        b"\xef\xbb\xbf#ifdef CUDA_VERSION // \xe9\r\n#endif\r\n",
        b"\xef\xbb\xbf#if defined(CUDA_VERSION) && !defined(USE_ROCM) // \xe9\r\n#endif\r\n",
        ("--unsafe-fixes", "--policy", "exclude"), id="ifdef-bom-latin-1-exclude"),
    pytest.param(
        b"#if CUDA_VERSION >= 11'000 // note\n#endif\n",
        b"#if CUDA_VERSION >= 11'000" + EXCLUDE + b" // note\n#endif\n", (), id="digit-separator-then-comment"),
    pytest.param(
        b"#if CUDA_VERSION >= 11000LL\n#endif\n#if CUDART_VERSION >= 0b10'1011'1000'0000uz\n#endif\n",
        b"#if CUDA_VERSION >= 11000LL" + EXCLUDE + b"\n#endif\n#if CUDART_VERSION >= 0b10'1011'1000'0000uz"
        + EXCLUDE + b"\n#endif\n", (), id="ll-z-binary-suffixes"),
    pytest.param(
        b"/* lead */ #if CUDA_VERSION >= 11000\n#endif\n",
        b"/* lead */ #if CUDA_VERSION >= 11000" + EXCLUDE + b"\n#endif\n", (), id="comment-before-hash"),
]


@pytest.mark.parametrize(("data", "expected", "flags"), BYTE_EXACT)
def test_fix_changes_only_the_condition_bytes(tmp_path: Path, data: bytes, expected: bytes,
                                              flags: tuple[str, ...]) -> None:
    path = write(tmp_path, "a.cu", data)
    result = check("--fix", *flags, str(path))
    assert result.code == 0, result.stdout + result.stderr
    assert path.read_bytes() == expected


# -- the closing summary ----------------------------------------------------------------------


@pytest.mark.parametrize(("data", "flags", "summary"), [
    (b"int x;\n", (), ["All checks passed!"]),
    (SEED + b"\n#endif\n", (), ["Found 1 error.", "[*] 1 fixable with --fix."]),
    (SEED + b"\n#endif\n" + SEED + b"\n#endif\n", (), ["Found 2 errors.", "[*] 2 fixable with --fix."]),
    (b"#ifdef CUDA_VERSION\n#endif\n", (), ["Found 1 error."]),
    (b"#ifdef CUDA_VERSION\n#endif\n", ("--policy", "exclude"), ["Found 1 error.", "1 fixable with --unsafe-fixes."]),
    (SEED + b"\n#endif\n#ifdef CUDA_VERSION\n#endif\n", ("--policy", "exclude"),
     ["Found 2 errors.", "[*] 1 fixable with --fix (1 more with --unsafe-fixes)."]),
    (SEED + b"\n#endif\n#ifdef CUDA_VERSION\n#endif\n", ("--policy", "exclude", "--unsafe-fixes"),
     ["Found 2 errors.", "[*] 2 fixable with --fix."]),
    (SEED + b"\n#endif\n#ifdef CUDA_VERSION\n#endif\n", ("--fix",), ["Found 2 errors (1 fixed, 1 remaining)."]),
    (SEED + b"\n#endif\n", ("--fix",), ["Found 1 error (1 fixed, 0 remaining)."]),
])
def test_summary_line(tmp_path: Path, data: bytes, flags: tuple[str, ...], summary: list[str]) -> None:
    path = write(tmp_path, "a.cu", data)
    lines = check(*flags, str(path)).stdout.splitlines()
    assert lines[-len(summary):] == summary
    assert not any(line.startswith(("Found", "All checks")) for line in lines[: -len(summary)])


# -- odd files --------------------------------------------------------------------------------

_VANISH_HOOK = '''
"""Test hook: delete `vanishing.cu` right after discovery listed it (a file removed mid-run)."""
import os

import hipify_guard.cli.inputs

_targets = hipify_guard.cli.inputs.Inputs.targets


def _vanish_after_discovery(self):
    found = _targets(self)
    for _shown, path in found:
        if os.path.basename(path) == "vanishing.cu":
            os.remove(path)
    return found


hipify_guard.cli.inputs.Inputs.targets = _vanish_after_discovery
'''


def test_file_that_vanished_between_discovery_and_read(tmp_path: Path) -> None:
    hook = write(tmp_path, "hook/sitecustomize.py", _VANISH_HOOK.encode())
    project = tmp_path / "project"
    vanishing = write(project, "vanishing.cu", SEED + b"\n#endif\n")
    write(project, "kept.cu", SEED + b"\n#endif\n")
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(hook.parent), os.environ.get("PYTHONPATH")]))}
    result = check("--output-format", "json", str(project), env=env)
    assert not vanishing.exists(), "the hook did not run: discovery never listed the file"
    assert result.code == 1
    assert [item["filename"] for item in result.json()] == [str(project / "kept.cu")]
    assert f"{vanishing}: warning: file disappeared before it could be read; skipped" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("flags", [(), ("--fix",)])
def test_binary_file_is_skipped_with_a_note(tmp_path: Path, flags: tuple[str, ...]) -> None:
    data = b"\x7fELF\0\0" + SEED + b"\n#endif\n"
    path = write(tmp_path, "blob.cu", data)
    result = check(*flags, str(path))
    assert result.code == 0
    assert f"{path}: warning: binary file (contains NUL bytes): skipped" in result.stderr
    assert path.read_bytes() == data


def test_utf16_file_is_skipped_with_a_note(tmp_path: Path) -> None:
    data = "\ufeff#if CUDA_VERSION >= 11000\n#endif\n".encode("utf-16-le")
    path = write(tmp_path, "wide.cu", data)
    result = check("--fix", str(path))
    assert result.code == 0 and "UTF-16" in result.stderr
    assert path.read_bytes() == data


def test_a_path_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    """A mistyped path must not look like a clean run (exit 2, the path named)."""
    result = run_cli("check", str(tmp_path / "typo.cu"))
    assert result.code == 2
    assert "no such file or folder" in result.stderr and "typo.cu" in result.stderr
    assert "Traceback" not in result.stderr
