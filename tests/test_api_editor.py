"""The API an editor needs (`hipify_guard.api`): one diagnostic's fix or suppression comment,
proven; a directive's outcome on each platform; which files `check` takes; the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_guard import api

TWO = b"#if CUDA_VERSION >= 11000\n#endif\n#if CUDA_VERSION < 11000\n#endif\n"


def _only(source: bytes, **options: object) -> api.Diagnostic:
    [diagnostic] = api.check_source(source, "a.cu", isolated=True, **options).diagnostics
    return diagnostic


def test_fix_diagnostic_fixes_that_one_and_reports_the_rest() -> None:
    first, second = api.check_source(TWO, "a.cu", isolated=True).diagnostics
    fixed = api.fix_diagnostic(TWO, "a.cu", second, isolated=True)
    assert fixed.data == TWO.replace(b"#if CUDA_VERSION < 11000", b"#if (CUDA_VERSION < 11000) || defined(USE_ROCM)")
    assert fixed.report.fixed == 1 and [d.code for d in fixed.report.diagnostics] == ["HG101"]
    assert fixed.report.errors == []


def test_fix_diagnostic_refuses_what_it_cannot_prove_or_find() -> None:
    diagnostic = _only(b"#if CUDA_VERSION < 11000\n#endif\n", policy="exclude")
    assert diagnostic.fix.applicability == "unsafe"
    refused = api.fix_diagnostic(b"#if CUDA_VERSION < 11000\n#endif\n", "a.cu", diagnostic, isolated=True,
                                 policy="exclude")
    assert refused.data == b"#if CUDA_VERSION < 11000\n#endif\n" and refused.report.fixed == 0
    assert "has no safe fix" in refused.report.errors[0].message
    allowed = api.fix_diagnostic(b"#if CUDA_VERSION < 11000\n#endif\n", "a.cu", diagnostic, isolated=True,
                                 policy="exclude", unsafe_fixes=True)
    assert allowed.data.startswith(b"#if CUDA_VERSION < 11000 && !defined(USE_ROCM)\n")
    stale = api.fix_diagnostic(b"\n" + TWO, "a.cu", api.check_source(TWO, "a.cu", isolated=True).diagnostics[0],
                               isolated=True)
    assert stale.data == b"\n" + TWO and "not in the file" in stale.report.errors[0].message
    unterminated = b"#if CUDA_VERSION >= 11000\n"
    first = api.check_source(unterminated, "a.cu", isolated=True).diagnostics[0]
    never = api.fix_diagnostic(unterminated, "a.cu", first, isolated=True)
    assert never.data == unterminated and "HG901" in never.report.errors[0].message


@pytest.mark.parametrize(("source", "expected"), [
    (b"#if CUDA_VERSION >= 11000\n#endif\n", b"#if CUDA_VERSION >= 11000  // hipify-guard: ignore[HG101]\n"),
    (b"#if CUDA_VERSION >= 11000 \t\n#endif\n", b"#if CUDA_VERSION >= 11000 \t// hipify-guard: ignore[HG101]\n"),
    (b"#if CUDA_VERSION >= 11000 && \\\r\n  X\r\n#endif\r\n",
     b"#if CUDA_VERSION >= 11000 && \\\r\n  X  // hipify-guard: ignore[HG101]\r\n"),
    (b"  #if CUDA_VERSION >= 11000 /* a comment\n   that goes on */\n  #endif\n",
     b"  // hipify-guard: ignore[HG101]\n  #if CUDA_VERSION >= 11000 /* a comment\n"),
    (b"#if CUDA_VERSION >= 11000 // hipify-guard: ignore[HG102] -- why\n#endif\n",
     b"#if CUDA_VERSION >= 11000 // hipify-guard: ignore[HG102, HG101] -- why\n"),
    (b"#if CUDA_VERSION >= 11000 /* x */ // note\n#endif\n",
     b"#if CUDA_VERSION >= 11000 /* x */ // note  // hipify-guard: ignore[HG101]\n"),
])
def test_suppress_diagnostic_places_the_comment_where_it_works(source: bytes, expected: bytes) -> None:
    done = api.suppress_diagnostic(source, "a.cu", _only_code(source, "HG101"), isolated=True)
    assert done.data.startswith(expected), done.data
    assert done.report.errors == [] and done.report.fixed == 1
    assert "HG101" not in [d.code for d in api.check_source(done.data, "a.cu", isolated=True).diagnostics]


def _only_code(source: bytes, code: str) -> api.Diagnostic:
    return next(d for d in api.check_source(source, "a.cu", isolated=True).diagnostics if d.code == code)


def test_suppress_diagnostic_changes_nothing_when_no_comment_can_be_proven() -> None:
    source = b"#if CUDA_VERSION >= 11000 // hipify-guard: ignore[HG102]\n#endif\n"
    unused = _only_code(source, "HG902")  # a comment that suppresses the unused comment would be unused itself
    done = api.suppress_diagnostic(source, "a.cu", unused, isolated=True)
    assert done.data == source and done.report.fixed == 0
    assert "no comment could be proven to suppress HG902 at line 1" in done.report.errors[0].message


def test_conditional_at_each_kind_of_directive() -> None:
    source = (b"#ifndef USE_ROCM\n"
              b"#if CUDA_VERSION >= 11000 && \\\n    defined(X)\n"
              b"#elif CUDA_VERSION >= 10000\n"
              b"#else\n"
              b"#endif\n"
              b"#endif\n"
              b"#if (\n#endif\n")
    outcomes = {row: api.conditional_at(source, "a.cu", row, isolated=True) for row in range(0, 11)}
    assert [row for row, found in outcomes.items() if found] == [1, 2, 3, 4, 8]
    assert outcomes[1].directive == "#ifndef USE_ROCM"
    assert [(o.platform, o.outcome, o.reached) for o in outcomes[1].outcomes] == [
        ("cuda", "true", True), ("hip", "false", True), ("torch-hipify", "false", True)]
    assert outcomes[2] == outcomes[3] and (outcomes[2].row, outcomes[2].end_row) == (2, 3)
    assert outcomes[2].directive == "#if CUDA_VERSION >= 11000 && defined(X)"
    assert [o.reached for o in outcomes[2].outcomes] == [True, False, False]  # inside #ifndef USE_ROCM
    assert outcomes[4].directive == "#elif CUDA_VERSION >= 10000"
    assert outcomes[8].error and {o.outcome for o in outcomes[8].outcomes} == {"unknown"}


def test_conditional_at_sees_the_files_own_defines_as_the_rules_do() -> None:
    source = b"#define CUDA_VERSION 11000\n#if CUDA_VERSION >= 11000\n#endif\n"
    found = api.conditional_at(source, "a.cu", 2, isolated=True)
    assert [(o.platform, o.outcome) for o in found.outcomes] == [  # native HIP: no longer "undefined", so free
        ("cuda", "depends"), ("hip", "depends"), ("torch-hipify", "false")]
    [finding] = api.check_source(source, "a.cu", isolated=True).diagnostics
    assert "(native HIP: depends on the build; PyTorch's hipify: false)" in finding.message
    alone = api.conditional_at(source.split(b"\n", 1)[1], "a.cu", 1, isolated=True)
    assert [o.outcome for o in alone.outcomes] == ["depends", "false", "false"]


def test_conditional_at_uses_the_files_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\nmodels = ["hip"]\n')
    found = api.conditional_at(b"#if CUDA_VERSION\n#endif\n", str(tmp_path / "a.cu"), 1)
    assert [o.label for o in found.outcomes] == ["CUDA", "ROCm, native HIP (hip)"]


def test_is_checked_follows_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\nextensions = ["cu", "kern"]\nexclude = ["gen"]\n')
    assert api.is_checked(str(tmp_path / "a.kern")) and api.is_checked(str(tmp_path / "b.cu"))
    assert not api.is_checked(str(tmp_path / "c.cpp"))  # not among this configuration's extensions
    assert not api.is_checked(str(tmp_path / "gen" / "d" / "e.cu"))
    assert api.is_checked(str(tmp_path / "c.cpp"), isolated=True)
    with pytest.raises(api.ConfigError):
        api.is_checked("a.cu", isolated=True, extensionz=["cu"])


def test_rules_are_the_catalogue_and_a_copy() -> None:
    rules = api.rules()
    assert {rule.severity for rule in rules.values()} <= {"error", "warning"}
    assert rules["HG101"].code == "HG101" and "## What it does" in rules["HG101"].documentation
    rules.clear()
    assert api.rules()
