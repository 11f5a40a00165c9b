"""bench/auto_policy/mine.py on a small git history made here: each commit one kind of decision."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    not (shutil.which("git") and shutil.which("gcc")), reason="needs git and gcc"
)


def _load():
    name = "bench_auto_policy_mine"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench/auto_policy/mine.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


PARENT = """\
#include <cuda.h>
int f() {
#if CUDA_VERSION >= 11000
  return new_api();
#else
  return old_api();
#endif
}
int g() {
#if CUDA_VERSION < 11000
  return legacy();
#endif
  return 0;
}
int h() {
#if CUDART_VERSION >= 11030
  return graphs();
#endif
  return 0;
}
int k() {
#ifdef CUDA_VERSION
  return versioned();
#endif
  return 0;
}
int m() {
#if CUDA_VERSION >= 11070
  return __hmax(a, b);
#else
  return fallback(a, b);
#endif
}
"""

CHILD = """\
#include <cuda.h>
int f() {
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)
  return new_api();
#else
  return old_api();
#endif
}
int g() {
#if (CUDA_VERSION < 11000) || defined(USE_ROCM)
  return legacy();
#endif
  return 0;
}
int h() {
#if CUDART_VERSION >= 11030 || (defined(USE_ROCM) && ROCM_VERSION >= 60100)
  return graphs();
#endif
  return 0;
}
int k() {
#if defined(USE_ROCM)
  return rocm_only();
#elif defined(CUDA_VERSION)
  return versioned();
#endif
  return 0;
}
int m() {
#if !defined(USE_ROCM) && CUDA_VERSION < 11070
  return fallback(a, b);
#else
  return __hmax(a, b);
#endif
}
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
        env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
             "GIT_COMMITTER_EMAIL": "t@t", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
             "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z", "PATH": "/usr/bin:/bin"},
    ).stdout


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    work = tmp_path_factory.mktemp("repo")
    _git(work, "init", "-q", "-b", "main")
    (work / "k.cu").write_text(PARENT)
    _git(work, "add", "k.cu")
    _git(work, "commit", "-q", "-m", "cuda only")
    (work / "k.cu").write_text(CHILD)
    _git(work, "commit", "-q", "-am", "rocm decisions")
    out = tmp_path_factory.mktemp("out")
    mine = _load()
    assert mine.main([str(work / ".git"), "--out", str(out)]) == 0
    lines = [l for l in (out / "guards.tsv").read_text().splitlines() if not l.startswith("#")]
    header = lines[0].split("\t")
    rows = {int(r["line"]): r for r in (dict(zip(header, l.split("\t"))) for l in lines[1:])}
    return rows, out


def test_decisions(mined):
    rows, _ = mined
    got = {line: (r["form"], r["decision"], r["chain_decision"]) for line, r in rows.items()}
    assert got == {
        3: ("rewrite", "exclude", "exclude"),
        10: ("rewrite", "include", "include"),
        16: ("rewrite", "rocm-min=6.1", "include"),
        22: ("arm", "exclude", "rocm-code"),
        # the new line says "exclude", but its branches were swapped: ROCm runs __hmax
        28: ("rewrite", "other", "include"),
    }


def test_chain_arms_and_side_file(mined):
    rows, out = mined
    assert (rows[3]["rocm_arm_before"], rows[3]["rocm_arm_after"]) == ("1", "1")
    assert (rows[10]["rocm_arm_before"], rows[10]["rocm_arm_after"]) == ("0", "0")
    assert rows[16]["old_rocm"] == "exclude" and rows[10]["old_rocm"] == "include"
    assert rows[16]["cuda_same"] == "yes"
    import json

    recs = [json.loads(l) for l in (out / "branches.jsonl").read_text().splitlines()]
    h = next(r for r in recs if r["line"] == 16)
    assert h["arms"][0]["body"] == "  return graphs();"
    assert h["rocm_arms_after"]["6.0"] == "none" and h["rocm_arms_after"]["6.1"] == "0"


def test_version_scales():
    mine = _load()
    assert mine.version_macros((6, 2, 0))["HIP_VERSION"] == 60200000
    assert mine.version_macros((4, 2, 0))["HIP_VERSION"] == 402
    assert mine.versions_from_constants("HIP_VERSION >= 50322000") == {(5, 3, 22000)}
    assert mine.fmt_version((5, 3, 22000), exact_patch=True) == "5.3"
    assert mine.fmt_version((6, 2, 1), exact_patch=True) == "6.2.1"
    assert mine.canon("( defined CUDA_VERSION && (CUDA_VERSION >= 10) )") == \
        "defined(CUDA_VERSION)&&(CUDA_VERSION>=10)"
    assert mine.rocm_kind("GGML_USE_HIP") == "platform"
    assert mine.rocm_kind("GGML_HIP_GRAPHS") == "option"
    assert mine.rocm_kind("__HIP_PLATFORM_NVIDIA__") is None
