"""Properties of `--fix` on generated sources (hypothesis), for every policy:

(a) only condition bytes change: every byte outside the keyword and condition of a rewritten
    #if/#elif/#ifdef/#ifndef is the same, and no other directive changes;
(b) a fix is idempotent: fixing the result again changes nothing and applies nothing;
(c) every rewritten condition means the same on CUDA, and on ROCm what the policy says, judged by
    gcc's preprocessor (not the tool's evaluator, not pcpp) over the §7 sweep (test_oracle_gcc);
(d) the scanner, the group tree and the whole check/fix pipeline never raise, on any bytes.

The engine runs in-process (the same `fix` the CLI calls); gcc runs as a subprocess. Example
counts are in EXAMPLES; HYPOTHESIS_EXAMPLES_FACTOR multiplies them for a longer run.
"""

from __future__ import annotations

import bisect
import os
from dataclasses import replace
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st
from source_strategies import any_source, well_formed
from test_oracle_gcc import PORT, Build, Case, Variant, check_with_gcc

from hipify_guard.checks import CHECKS
from hipify_guard.core.findings import Finding
from hipify_guard.cpp.groups import GroupTree
from hipify_guard.cpp.scanner import Directive, scan
from hipify_guard.engine import lint as engine
from hipify_guard.engine.lint import FixResult, check, fix
from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.project_profile import BuildDefine, ProjectProfile
from hipify_guard.model.settings import Policy, Settings

CODES = tuple(code for code in sorted(CHECKS) if code not in ("HG201", "HG202", "HG905"))  # no libclang here
VARIANTS = {
    "preserve": Variant("preserve"),
    "exclude": Variant("exclude", ("--unsafe-fixes", "--policy", "exclude")),
    "include": Variant("include", ("--unsafe-fixes", "--policy", "include")),
    "rocm-min=6.2": Variant("rocm-min=6.2", ("--unsafe-fixes", "--policy", "rocm-min=6.2")),
}
FACTOR = int(os.environ.get("HYPOTHESIS_EXAMPLES_FACTOR", "1"))
EXAMPLES = {"bytes-and-idempotence": 120 * FACTOR, "gcc-equivalence": 60 * FACTOR, "never-raises": 300 * FACTOR}
REWRITTEN_KINDS = frozenset({"if", "elif", "ifdef", "ifndef", "elifdef", "elifndef"})


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


# The builds a file is fixed for (spec §13): a port (USE_ROCM, ROCM_VERSION), and a native HIP
# project whose ROCm build defines PROJ_USE_HIP on every compile (a .cu file: HIP_VERSION comes
# from clang's HIP wrapper header).
BUILDS = {
    "port": (Settings(), PORT),
    "native": (Settings(profile=ProjectProfile(rocm_build="CMakeLists.txt:1: enable_language(HIP)", hipify="native",
                                               project="/project"),
                        rocm_defines=(BuildDefine("PROJ_USE_HIP", 1, "CMakeLists.txt:2: add_compile_definitions"),)),
               Build((("PROJ_USE_HIP", 1),), ("hip",))),
}


def run_fix(data: bytes, policy: str, build: str = "port") -> FixResult:
    settings = replace(BUILDS[build][0], policy=Policy.parse(policy))
    return fix("p.cu", data, settings, CODES, unsafe=policy != "preserve")


def assert_only_conditions_changed(before: bytes, after: bytes) -> None:
    """(a): the files are equal once every directive's keyword-to-condition span is cut out, and
    only conditional directives with a condition differ inside that span."""
    old, new = scan(before).directives, scan(after).directives
    assert len(old) == len(new), "the number of directives changed"
    old_position = new_position = 0
    for a, b in zip(old, new):
        assert before[old_position : a.keyword[0]] == after[new_position : b.keyword[0]], f"bytes before #{a.kind} changed"
        if _span(before, a) != _span(after, b):
            assert a.kind in REWRITTEN_KINDS and b.kind in {"if", "elif", a.kind}, f"#{a.kind} became #{b.kind}"
        old_position, new_position = a.argument[1], b.argument[1]
    assert before[old_position:] == after[new_position:], "bytes after the last directive changed"


def _span(data: bytes, directive: Directive) -> bytes:
    return data[directive.keyword[0] : directive.argument[1]]


@_settings(EXAMPLES["bytes-and-idempotence"])
@given(data=well_formed(), policy=st.sampled_from(sorted(VARIANTS)), build=st.sampled_from(sorted(BUILDS)))
def test_fix_changes_only_conditions_and_is_idempotent(data: bytes, policy: str, build: str) -> None:
    first = run_fix(data, policy, build)
    event("fixed" if first.data != data else "refused by the verifier" if first.unproven else "nothing to fix")
    assert not first.error, first.error
    if first.unproven:  # the verifier could not prove a rewrite (pcpp cannot evaluate it): not applied
        assert all("could not be verified" in message for message in first.unproven), first.unproven
        return
    assert_only_conditions_changed(data, first.data)
    second = run_fix(first.data, policy, build)
    assert second.data == first.data and not second.applied and not second.error, "fixing twice changed more"


@pytest.mark.slow
@_settings(EXAMPLES["gcc-equivalence"])
@given(data=well_formed(), policy=st.sampled_from(sorted(VARIANTS)), build=st.sampled_from(sorted(BUILDS)))
def test_every_rewrite_is_equivalent_for_gcc(tmp_path_factory: pytest.TempPathFactory, data: bytes, policy: str,
                                             build: str) -> None:
    """(c), under each build's own definitions: the rewrite's macro is the one that build defines."""
    result, codes = fix_observed(data, policy, build)
    event("no fix" if result.data == data else f"{min(len(codes), 3)}+ directives rewritten")
    if result.data == data:
        return
    case = Case(f"generated [{policy}, {build}]", data, result.data, VARIANTS[policy], codes)
    try:
        check_with_gcc(case, tmp_path_factory.mktemp("gcc"), BUILDS[build][1])
    except AssertionError as error:
        assume("too many configurations" not in str(error))  # more than the oracle sweeps: not judged
        raise


def fix_observed(data: bytes, policy: str, build: str = "port") -> tuple[FixResult, dict[int, set[str]]]:
    """`run_fix`, and which rules fixed which directive (by index: fixes never add or remove
    directives), round by round: a fix can make another guard reachable on ROCm, and the next
    round fixes that one too."""
    codes: dict[int, set[str]] = {}
    chosen: list[Finding] = []
    choose, verify = engine._non_overlapping, engine.verify

    def choosing(findings: list[Finding]) -> list[Finding]:
        chosen[:] = choose(findings)
        return chosen

    def verifying(file: FileAnalysis, new: bytes, edits: object, expectations: object) -> None:
        verify(file, new, edits, expectations)
        directives = file.scan.directives
        for finding in chosen:
            index = bisect.bisect_right([d.hash for d in directives], finding.start) - 1
            if index >= 0 and finding.start <= directives[index].end:
                codes.setdefault(index, set()).add(finding.code)

    with patch.object(engine, "_non_overlapping", choosing), patch.object(engine, "verify", verifying):
        result = run_fix(data, policy, build)
    return result, codes


@pytest.mark.slow
@_settings(EXAMPLES["never-raises"])
@given(data=st.one_of(any_source(), st.binary(max_size=400)), policy=st.sampled_from(sorted(VARIANTS)))
@example(data=b"#if CUDA_VERSION >= 1\nint x;\n#elif (~ CUDA_VERSION & defined CUDA_VERSION * (defined ( FOO ) or + 0x5LLu))"
              b"\nint y;\n#endif\n", policy="rocm-min=6.2")  # (a CUDA macro computed with as a number, in a proof)
def test_nothing_raises_on_any_bytes(data: bytes, policy: str) -> None:
    """(d): scan, group tree, every rule and the fix loop; a fix, when one is made, is still (a)."""
    result = scan(data)
    for directive in result.directives:
        assert 0 <= directive.hash < directive.keyword[1] <= directive.argument[0] <= directive.argument[1] <= directive.end <= len(data)
    GroupTree(result.directives)
    check(FileAnalysis("p.cu", data, Settings(policy=Policy.parse(policy))), CODES)
    fixed = run_fix(data, policy)
    if fixed.data != data:
        assert_only_conditions_changed(data, fixed.data)


def test_the_properties_can_fail(tmp_path: Path) -> None:
    """The checks above catch a rewrite that touches a byte outside a condition."""
    before = b"#if CUDA_VERSION >= 11000 // x\nint a;\n#endif\n"
    with pytest.raises(AssertionError, match="bytes before #endif changed"):
        assert_only_conditions_changed(before, before.replace(b"int a;", b"int b;"))
    with pytest.raises(AssertionError, match="bytes after the last directive changed"):
        assert_only_conditions_changed(before, before + b"\n")
    with pytest.raises(AssertionError, match="became"):
        assert_only_conditions_changed(b"#define X 1\n", b"#undef X 1\n")
