"""Output formats and output switches, through the real command line (and the formatters' own API)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import ROOT, console_script, run_cli

from hipify_guard.cli.formatters import FORMATTERS, RenderOptions
from hipify_guard.engine.diagnostics import Diagnostic, FileReport, Location

BAD = b"#if CUDA_VERSION >= 11000\nint fast;\n#endif\n#ifdef __HIP_PLATFORM_HCC__\nint old;\n#endif\n"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    (tmp_path / "bad.cu").write_bytes(BAD)
    return tmp_path


def _unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _parse_command(line: str) -> tuple[str, dict[str, str], str]:
    """Split a workflow command the way the runner does: `::level k=v,k=v::message`."""
    match = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line)
    assert match, line
    properties = {}
    for pair in match.group(2).split(","):
        key, _, value = pair.partition("=")
        properties[key] = _unescape_data(value.replace("%3A", ":").replace("%2C", ","))
    return match.group(1), properties, _unescape_data(match.group(3))


def test_github_escapes_percent_comma_colon_and_newline() -> None:
    message = "50% of A, B: C\nsecond line\r"
    item = Diagnostic("HG101", "implicit-rocm-exclusion", message, "dir,with:odd%name.cu", Location(3, 1),
                      Location(3, 9), None, "#if A", "#if A", ("#if A",))
    text = FORMATTERS["github"]([FileReport("dir,with:odd%name.cu", [item])], RenderOptions())
    line = text.rstrip("\n")
    assert "\n" not in line and "\r" not in line
    assert line.endswith("::50%25 of A, B: C%0Asecond line%0D")
    assert "file=dir%2Cwith%3Aodd%25name.cu," in line
    level, properties, decoded = _parse_command(line)
    assert (level, decoded) == ("error", message)
    assert properties == {"file": "dir,with:odd%name.cu", "line": "3", "col": "1", "endLine": "3",
                          "endColumn": "9", "title": "HG101 (implicit-rocm-exclusion)"}


def test_github_format_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "a,b:c%d.cu").write_bytes(BAD)
    result = run_cli("check", "--output-format", "github", "a,b:c%d.cu", cwd=tmp_path)
    assert result.code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    level, properties, message = _parse_command(lines[0])
    assert level == "error" and properties["file"] == "a,b:c%d.cu"
    assert (properties["line"], properties["col"], properties["endLine"], properties["endColumn"]) == ("1", "1", "1", "26")
    assert properties["title"] == "HG101 (implicit-rocm-exclusion)" and "CUDA_VERSION" in message
    assert "file=a%2Cb%3Ac%25d.cu" in lines[0]


def test_full_shows_the_line_a_caret_and_the_change(bad: Path) -> None:
    result = run_cli("check", "--output-format", "full", "bad.cu", cwd=bad)
    assert result.code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bad.cu:1:1: HG101 [*] ")
    source = lines.index("1 | #if CUDA_VERSION >= 11000")
    assert lines[source + 1] == "  | " + "^" * 25 + " HG101"
    assert "1 - #if CUDA_VERSION >= 11000" in lines
    assert "1 + #if CUDA_VERSION >= 11000 && !defined(USE_ROCM)" in lines
    assert "4 + #ifdef __HIP_PLATFORM_AMD__" in lines
    assert "  = fix (unsafe): " in result.stdout
    assert lines[-2:] == ["Found 2 errors.", "[*] 1 fixable with --fix (1 more with --unsafe-fixes)."]


def test_full_marks_every_line_of_a_continued_directive(tmp_path: Path) -> None:
    (tmp_path / "c.cu").write_bytes(b"#if defined(CUDA_VERSION) && \\\n    CUDA_VERSION >= 11080\n#endif\n")
    lines = run_cli("check", "--output-format", "full", "c.cu", cwd=tmp_path).stdout.splitlines()
    first = lines.index("1 | #if defined(CUDA_VERSION) && \\")
    assert lines[first + 1] == "  | " + "^" * 30
    assert lines[first + 2] == "2 |     CUDA_VERSION >= 11080"
    assert lines[first + 3] == "  |     " + "^" * 21 + " HG101"
    assert "2 +     CUDA_VERSION >= 11080 && !defined(USE_ROCM)" in lines


def test_json_lines_is_one_json_object_per_finding(bad: Path) -> None:
    result = run_cli("check", "--output-format", "json-lines", "bad.cu", cwd=bad)
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert objects == run_cli("check", "--output-format", "json", "bad.cu", cwd=bad).json()
    assert [o["code"] for o in objects] == ["HG101", "HG106"]


def test_gitlab_code_quality(bad: Path) -> None:
    result = run_cli("check", "--output-format", "gitlab", "bad.cu", cwd=bad)
    issues = result.json()
    assert [i["check_name"] for i in issues] == ["HG101", "HG106"]
    for issue in issues:
        assert issue["description"] and issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert re.fullmatch(r"[0-9a-f]{32}", issue["fingerprint"])
        assert issue["location"]["path"] == "bad.cu" and issue["location"]["lines"]["begin"] >= 1
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_junit_has_one_failing_testcase_per_finding(bad: Path) -> None:
    result = run_cli("check", "--output-format", "junit", "bad.cu", cwd=bad)
    root = ElementTree.fromstring(result.stdout)
    cases = root.findall("./testsuite/testcase")
    assert [case.find("failure").get("type") for case in cases] == ["HG101", "HG106"]
    assert root.get("tests") == "2" and root.get("failures") == "2"
    assert all(case.get("classname") == "bad.cu" for case in cases)


def test_junit_of_a_clean_run_has_a_passing_case(tmp_path: Path) -> None:
    (tmp_path / "ok.cu").write_text("int x;\n")
    root = ElementTree.fromstring(run_cli("check", "--output-format", "junit", "ok.cu", cwd=tmp_path).stdout)
    assert root.get("failures") == "0" and root.findall("./testsuite/testcase")


def test_junit_replaces_characters_xml_cannot_carry() -> None:
    item = Diagnostic("HG101", "n", "bad \x01 byte", "x.cu", Location(1, 1), Location(1, 2), None, "", "")
    text = FORMATTERS["junit"]([FileReport("x.cu", [item])], RenderOptions())
    assert ElementTree.fromstring(text).find("./testsuite/testcase/failure").get("message") == "bad \ufffd byte"


def test_statistics_counts_per_rule(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(BAD + BAD)
    result = run_cli("check", "--statistics", "a.cu", cwd=tmp_path)
    assert result.code == 1
    assert result.stdout.splitlines()[:2] == ["2\tHG101\t[*] implicit-rocm-exclusion",
                                              "2\tHG106\t    hip-platform-macro-misuse"]
    rows = run_cli("check", "--statistics", "--output-format", "json", "a.cu", cwd=tmp_path).json()
    assert rows == [{"code": "HG101", "name": "implicit-rocm-exclusion", "count": 2, "fixable": True},
                    {"code": "HG106", "name": "hip-platform-macro-misuse", "count": 2, "fixable": False}]


def test_show_fixes_shows_the_change_and_what_was_fixed(bad: Path) -> None:
    shown = run_cli("check", "--show-fixes", "bad.cu", cwd=bad).stdout.splitlines()
    assert "    = fix (safe): Exclude ROCm explicitly with `defined(USE_ROCM)`" in shown
    assert "    1 + #if CUDA_VERSION >= 11000 && !defined(USE_ROCM)" in shown
    fixed = run_cli("check", "--fix", "--show-fixes", "bad.cu", cwd=bad)
    assert "Fixed 1 error:" in fixed.stdout.splitlines() and "- bad.cu: 1 fixed" in fixed.stdout.splitlines()


def test_quiet_drops_the_summary_and_silent_prints_nothing(bad: Path) -> None:
    quiet = run_cli("check", "-q", "bad.cu", cwd=bad)
    assert quiet.code == 1 and len(quiet.stdout.splitlines()) == 2 and "Found" not in quiet.stdout
    silent = run_cli("check", "-s", "bad.cu", cwd=bad)
    assert (silent.code, silent.stdout, silent.stderr) == (1, "", "")
    (bad / "ok.cu").write_text("int x;\n")
    assert run_cli("check", "-q", "ok.cu", cwd=bad).stdout == ""


def test_output_file_gets_the_report_and_stdout_stays_empty(bad: Path) -> None:
    result = run_cli("check", "--output-format", "sarif", "-o", "reports/out.sarif", "bad.cu", cwd=bad)
    assert result.code == 1 and result.stdout == ""
    log = json.loads((bad / "reports" / "out.sarif").read_text(encoding="utf-8"))
    assert len(log["runs"][0]["results"]) == 2


def _run_with_env(args: tuple[str, ...], env: dict[str, str], cwd: Path) -> str:
    """stdout of the CLI with exactly these colour variables (run_cli always sets NO_COLOR)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")} | env
    completed = subprocess.run([*console_script(), "check", *args], cwd=cwd, env=environment,
                               capture_output=True, timeout=120, check=False)
    return completed.stdout.decode("utf-8")


@pytest.mark.parametrize(("args", "env", "coloured"), [
    ((), {}, False),  # stdout is a pipe, not a terminal
    ((), {"FORCE_COLOR": "1"}, True),
    ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True),
    ((), {"FORCE_COLOR": "0"}, False),
    (("--color", "always"), {"NO_COLOR": "1"}, True),
    (("--color", "never"), {"FORCE_COLOR": "1"}, False),
    (("--color", "auto"), {"NO_COLOR": "1"}, False),
])
def test_colour_choice(bad: Path, args: tuple[str, ...], env: dict[str, str], coloured: bool) -> None:
    output = _run_with_env((*args, "--output-format", "full", "bad.cu"), env, bad)
    assert bool(ANSI.search(output)) is coloured
    assert ANSI.sub("", output) == run_cli("check", "--output-format", "full", "bad.cu", cwd=bad).stdout


def test_colour_never_reaches_an_output_file(bad: Path) -> None:
    _run_with_env(("-o", "out.txt", "bad.cu"), {"FORCE_COLOR": "1"}, bad)
    assert not ANSI.search((bad / "out.txt").read_text(encoding="utf-8"))


def test_every_format_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in FORMATTERS:
        assert f"`{name}`" in readme, name
