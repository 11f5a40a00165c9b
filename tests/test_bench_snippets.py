"""bench/auto_policy/snippets.py on made-up cases: the real tool, gcc, files read from --sources."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
COMMIT = "0123456789abcdef0123456789abcdef01234567"

SOURCE = """\
#include <cuda_runtime.h>
int f() {
#if defined(USE_ROCM) || CUDART_VERSION >= 9020
  return 0;
#else
  return 1;
#endif
}
void g(cudaStream_t s) {
#if !defined(USE_ROCM) && \\
    CUDA_VERSION >= 11030
  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                     cudaFlushGPUDirectRDMAWritesToOwner);
#endif
}
#if CUDA_VERSION >= 12000 || (defined(USE_ROCM) && ROCM_VERSION >= 70000)
int h() { return 2; }
#endif
"""
ROWS = [
    ("001", "3", "#if defined(USE_ROCM) || CUDART_VERSION >= 9020", "#if CUDART_VERSION >= 9020", "include"),
    ("002", "10", "#if !defined(USE_ROCM) && CUDA_VERSION >= 11030", "#if CUDA_VERSION >= 11030", "exclude"),
    ("003", "16", "#if CUDA_VERSION >= 12000 || (defined(USE_ROCM) && ROCM_VERSION >= 70000)",
     "#if CUDA_VERSION >= 12000", "rocm-min=7.0"),
    ("004", "5", "#if CUDA_VERSION >= 1", "#if CUDA_VERSION >= 1", "include"),  # not the guard's line
]


def test_snippets_compares_the_branch_rocm_compiles(tmp_path: Path) -> None:
    source = tmp_path / "sources" / "someone+project" / COMMIT / "src" / "a.cu"
    source.parent.mkdir(parents=True)
    source.write_text(SOURCE, encoding="utf-8")
    cases = tmp_path / "cases"
    cases.mkdir()
    header = "id\trepo\tpath\tline\toriginal_directive\tstripped_directive\tdecision\tnote\n"
    (cases / "cases.tsv").write_text(header + "".join(
        f"{ident}\tsomeone/project\tsrc/a.cu\t{line}\t{original}\t{stripped}\t{decision}\t{COMMIT}\n"
        for ident, line, original, stripped, decision in ROWS), encoding="utf-8")
    tool = Path(sys.executable).parent / "hipify-guard"
    report = tmp_path / "report.tsv"
    done = subprocess.run([sys.executable, str(ROOT / "bench/auto_policy/snippets.py"), "--cases", str(cases),
                           "--sources", str(tmp_path / "sources"), "--tool", str(tool), "--report", str(report)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    verdicts = {row.split("\t")[0]: row.split("\t")[1] for row in report.read_text().splitlines()[1:]}
    # 001: no evidence, ROCm on the old side of 9.2: auto includes, as the maintainer did.
    # 002: an API HIP lacks (the continued guard is replaced whole): auto excludes.
    # 003: no evidence for CUDA 12.0 (newer than HIP has caught up with): today's exclusion, not 7.0.
    # 004: line 5 is not the maintainer's directive: an error, not a verdict.
    assert verdicts == {"001": "agree", "002": "agree", "003": "disagree", "004": "error"}, done.stdout
    assert "maintainer ARM_0, tool none" in done.stdout and "line 5 is not the maintainer's guard" in done.stdout
    assert "4 cases; agree 2; disagree 1; errors 1" in done.stdout
    assert source.read_text(encoding="utf-8") == SOURCE  # the source is read, never rewritten


def test_in_tree_checks_each_file_in_its_project_and_gives_its_bytes_back(tmp_path: Path) -> None:
    """--in-tree: the stripped file is checked where it lies, in its own project (here a CMake
    build that defines MY_USE_HIP for ROCm: the fix must use it), then restored byte for byte."""
    tree = tmp_path / "trees" / "someone+project"
    (tree / "src").mkdir(parents=True)
    (tree / ".commit").write_text(COMMIT + "\n")
    (tree / "CMakeLists.txt").write_text("if(MY_HIP)\n  add_compile_definitions(MY_USE_HIP)\n  add_library(p src/a.cu)\n"
                                         "else()\n  add_library(p src/a.cu)\nendif()\n")
    text = "#if CUDART_VERSION >= 9020 || defined(MY_USE_HIP)\nint f();\n#endif\n"
    (tree / "src" / "a.cu").write_text(text)
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "cases.tsv").write_text(
        "id\trepo\tpath\tline\toriginal_directive\tstripped_directive\tdecision\tnote\n"
        f"001\tsomeone/project\tsrc/a.cu\t1\t{text.splitlines()[0]}\t#if CUDART_VERSION >= 9020\tinclude\t{COMMIT}\n")
    report = tmp_path / "report.tsv"
    done = subprocess.run([sys.executable, str(ROOT / "bench/auto_policy/snippets.py"), "--cases", str(cases),
                           "--in-tree", str(tmp_path / "trees"), "--tool", str(Path(sys.executable).parent / "hipify-guard"),
                           "--report", str(report), "-v"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (row,) = [line.split("\t") for line in report.read_text().splitlines()[1:]]
    assert row[:2] == ["001", "agree"] and row[3] == "#if (CUDART_VERSION >= 9020) || defined(MY_USE_HIP)", done.stdout
    assert (tree / "src" / "a.cu").read_text() == text


def test_together_strips_the_rest_of_the_feature_with_the_case(tmp_path: Path) -> None:
    """--together: the same file's other guard that reads the same is stripped too, so auto reads
    the two as one feature (README step 5) and takes the helper's branch from the release of the
    API the other branch calls; alone, the other keeps its ROCm part and the helper shows no evidence."""
    guard = "#if CUDA_VERSION >= 12000 || (defined(USE_ROCM) && ROCM_VERSION >= 50300)"
    text = (f"#include <cuda_runtime.h>\n{guard}\nvoid launch(cudaStream_t s) {{ cudaStreamBeginCapture(s, "
            f"cudaStreamCaptureModeGlobal); }}\n#endif\nint x;\n{guard}\nvoid helper() {{ launch(0); }}\n#endif\n")
    source = tmp_path / "sources" / "someone+project" / COMMIT / "src" / "a.cu"
    source.parent.mkdir(parents=True)
    source.write_text(text, encoding="utf-8")
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "cases.tsv").write_text(
        "id\trepo\tpath\tline\toriginal_directive\tstripped_directive\tdecision\tnote\n" + "".join(
            f"{ident}\tsomeone/project\tsrc/a.cu\t{line}\t{guard}\t#if CUDA_VERSION >= 12000\trocm-min=5.3\t{COMMIT}\n"
            for ident, line in (("001", 2), ("002", 6))), encoding="utf-8")

    def fixed(*extra: str) -> str:
        report = tmp_path / "report.tsv"
        done = subprocess.run([sys.executable, str(ROOT / "bench/auto_policy/snippets.py"), "--cases", str(cases),
                               "--sources", str(tmp_path / "sources"), "--tool", str(Path(sys.executable).parent / "hipify-guard"),
                               "--report", str(report), "--only", "002", *extra], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return report.read_text().splitlines()[1].split("\t")[3]

    assert "!defined(USE_ROCM)" in fixed()
    assert "ROCM_VERSION >=" in fixed("--together")
