"""Proofs that do not enumerate (spec §11.6): each rewrite form is proven by substitution on
CUDA and on every ROCm model, a wrong rewrite is not, and a fix without a proof stays a finding."""

from __future__ import annotations

import pytest
from conftest import run_cli

from hipify_guard.core.findings import SAFE, Edit, Expectation, Finding, Fix
from hipify_guard.cpp.nodes import Node
from hipify_guard.cpp.parser import parse
from hipify_guard.engine.lint import FixResult, _proven
from hipify_guard.fix.symbolic import proves
from hipify_guard.fix.verify import _promised
from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.settings import Settings

MACROS = ("USE_ROCM", "ROCM_VERSION")
CUDA_MACROS = Settings().macros.cuda_version_macros


def _tree(text: str) -> Node:
    data = text.encode()
    return parse(data, 0, len(data))


def _proven_everywhere(old: str, new: str, rocm: str, minimum: int | None = None) -> list[bool]:
    settings = Settings()
    promise = _promised(_tree(old), Expectation(0, rocm, minimum), MACROS[1])
    cuda = proves(_tree(old), _tree(new), settings.cuda, MACROS, None)
    return [cuda, *(proves(_tree(old), _tree(new), model, MACROS, promise, CUDA_MACROS)
                    for model in settings.rocm_models)]


@pytest.mark.parametrize(("old", "new", "rocm", "minimum"), [
    ("defined(CUDA_VERSION) && CUDA_VERSION >= 11000",
     "defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)", "false", None),
    ("CUDA_VERSION < 11000 || X", "(CUDA_VERSION < 11000 || X) || defined(USE_ROCM)", "true", None),
    ("CUDA_VERSION >= 11000", "(CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 40300)", "min", 40300),
    ("CUDA_VERSION >= 11000 || X", "(CUDA_VERSION >= 11000 || X && !defined(USE_ROCM)) || (defined(USE_ROCM) && "
     "ROCM_VERSION >= 60200)", "min", 60200),
    ("CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)",
     "(CUDART_VERSION >= 11010 && !defined(USE_ROCM)) || defined(GGML_USE_MUSA)", "same", None),
    ("CUDA_VERSION < 11000 && !defined(BAR)", "(CUDA_VERSION < 11000 || defined(USE_ROCM)) && !defined(BAR)",
     "same", None),
    ("HIP_VERSION >= 50200000 && CUDA_VERSION >= 12000",
     "HIP_VERSION >= 50200000 && (CUDA_VERSION >= 12000 && !defined(USE_ROCM))", "same", None),
    ("(A) && (" + " || ".join(f"__CUDA_ARCH_FEAT_SM{n}_ALL" for n in range(90, 97)) + ") && CUDA_VERSION >= 12000",
     "(A) && (" + " || ".join(f"__CUDA_ARCH_FEAT_SM{n}_ALL" for n in range(90, 97)) + ") && CUDA_VERSION >= 12000"
     " && !defined(USE_ROCM)", "false", None),
])
def test_every_rewrite_form_is_proven_on_cuda_and_every_rocm_model(old: str, new: str, rocm: str,
                                                                   minimum: int | None) -> None:
    assert _proven_everywhere(old, new, rocm, minimum) == [True, True, True]


@pytest.mark.parametrize(("old", "new", "rocm", "wrong_on"), [
    ("CUDA_VERSION >= 11000", "CUDA_VERSION >= 11000 || defined(USE_ROCM)", "false", [True, False, False]),
    ("CUDA_VERSION >= 11000", "CUDA_VERSION >= 11001 && !defined(USE_ROCM)", "false", [False, True, True]),
    ("CUDA_VERSION >= 11000 || X", "(CUDA_VERSION >= 11000 || defined(USE_ROCM)) || X", "same", [True, False, False]),
    ("CUDA_VERSION >= 11000 && X", "CUDA_VERSION >= 11000 && !defined(USE_ROCM)", "false", [False, True, True]),
])
def test_a_wrong_rewrite_is_not_proven(old: str, new: str, rocm: str, wrong_on: list[bool]) -> None:
    assert _proven_everywhere(old, new, rocm) == wrong_on


def test_a_fix_without_proof_is_not_applied_and_its_finding_stays() -> None:
    """A rewrite that changes CUDA's value (planted) is refused with a warning, and the other
    fixes of the file are still applied."""
    data = b"#if CUDA_VERSION >= 11000\n#endif\n#if CUDA_VERSION >= 12000\n#endif\n"
    file = FileAnalysis("a.cu", data, Settings())
    second = data.index(b"#if CUDA_VERSION >= 12000")
    good_at, bad_at = data.index(b"11000") + 5, data.index(b"12000") + 5
    good = Finding("HG101", "m", 0, good_at, Fix(SAFE, "ok", (Edit(good_at, good_at, b" && !defined(USE_ROCM)"),),
                                                 Expectation(0, "false")))
    bad = Finding("HG101", "m", second, bad_at, Fix(SAFE, "bad", (Edit(bad_at, bad_at, b" || 1"),),
                                                    Expectation(second, "false")))
    result = FixResult(data)
    assert _proven(file, [good, bad], result) == [good]
    assert len(result.unproven) == 1 and "line 3: the fix for HG101 was not applied" in result.unproven[0]


def test_cutlass_style_arch_guard_is_fixed_without_enumerating(tmp_path) -> None:  # noqa: ANN001
    """Seven `__CUDA_ARCH_FEAT_*` macros and a version test: too many configurations for pcpp's
    budget, proven symbolically, fixed with exit 0 (no refusal for the number of configurations)."""
    features = " || ".join(f"defined(FEATURE_{n})" for n in range(7))
    guard = f"#if CUDA_VERSION >= 12000 && ({features}) && (X{0} > 1 || X1 > 2 || X2 > 3 || X3 > 4)\n"
    (tmp_path / "reg.h").write_bytes(guard.encode() + b"x\n#endif\n")
    result = run_cli("check", "--isolated", "--no-cache", "--fix", "reg.h", cwd=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert (tmp_path / "reg.h").read_bytes().startswith(guard.rstrip("\n").encode() + b" && !defined(USE_ROCM)\n")
