"""A short fuzz run of the scanner and `#if` parser targets (fuzz/hipify_guard_fuzz.py).

With atheris installed (the `test` extra, Linux x86-64) libFuzzer mutates the rule fixtures and
examples for HIPIFY_GUARD_FUZZ_SECONDS (default 15) and must end without a crash; the number of
executions is printed (`pytest -s`). The same targets also run on hypothesis-made inputs, with or
without atheris. Longer runs for maintainers: fuzz/README.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from source_strategies import CONDITIONS, any_source

FUZZ = ROOT / "fuzz"
SECONDS = int(os.environ.get("HIPIFY_GUARD_FUZZ_SECONDS", "15"))
sys.path.insert(0, str(FUZZ))
import hipify_guard_fuzz as targets  # noqa: E402 - the fuzz folder is not a package


def _seed(corpus: Path) -> int:
    """The rule fixtures and the examples, each behind each target-choosing first byte."""
    corpus.mkdir()
    sources = sorted(p for folder in (ROOT / "tests" / "rules", ROOT / "examples") for p in folder.rglob("*")
                     if p.is_file() and p.suffix in (".cu", ".cuh", ".h", ".cpp", ".hip"))
    for number, source in enumerate(sources):
        for choice in (0, 4, 7):  # scanner, expression, check
            (corpus / f"{number}-{choice}").write_bytes(bytes([choice]) + source.read_bytes()[:2048])
    return len(sources)


@pytest.mark.slow
def test_short_libfuzzer_run_finds_no_crash(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install '.[test]' on Linux x86-64)")
    assert _seed(tmp_path / "corpus") > 10
    done = subprocess.run(
        [sys.executable, str(FUZZ / "hipify_guard_fuzz.py"), f"-max_total_time={SECONDS}", "-max_len=2048",
         "-seed=8", f"-dict={FUZZ / 'cpp.dict'}", f"-artifact_prefix={tmp_path}/", "-print_final_stats=1",
         str(tmp_path / "corpus")],
        capture_output=True, timeout=SECONDS + 120, cwd=tmp_path)
    log = done.stderr.decode(errors="replace")
    crashes = [p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-", "leak-"))]
    assert done.returncode == 0 and not crashes, f"{crashes}\n{log[-4000:]}"
    runs = re.search(r"Done (\d+) runs in (\d+) second", log)
    assert runs, log[-2000:]
    print(f"\nfuzz: {runs.group(1)} executions in {runs.group(2)} s, no crash")


FUZZED = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZED
@given(st.one_of(st.binary(max_size=600), any_source()))
def test_scanner_target_on_generated_bytes(data: bytes) -> None:
    targets.scanner_target(data)


@FUZZED
@given(st.one_of(st.binary(max_size=200), CONDITIONS.map(str.encode), st.text(alphabet="()!~-+*/%<>=&|^?: 0x1'\\\n",
                                                                               max_size=60).map(str.encode)))
def test_expression_target_on_generated_bytes(data: bytes) -> None:
    targets.expression_target(data)


def test_targets_reject_a_broken_invariant() -> None:
    """The targets are not vacuous: an out-of-range span fails them."""
    from hipify_guard.cpp import scanner

    real = scanner.scan
    try:
        scanner.scan = lambda data: real(data + b"\n#if 1\n")
        with pytest.raises(AssertionError):
            targets.scanner_target(b"int x;")
    finally:
        scanner.scan = real
