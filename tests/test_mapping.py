"""Tests of the CUDA -> HIP mapping table: its counts, lookups, load time and generator."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # a source checkout without install: import the tree under test
    sys.path.insert(0, str(ROOT))

from hipify_guard.model.mapping import COLUMNS, ApiEntry, MappingTable, load_table, version_tuple  # noqa: E402

SOURCE = ROOT / "third_party" / "hipify"
GENERATOR = ROOT / "scripts" / "gen_mapping.py"
needs_source = pytest.mark.skipif(
    not SOURCE.is_dir(), reason="third_party/hipify (the generator's input) is not in this tree"
)


def run_generator(*args: str) -> subprocess.CompletedProcess[str]:
    """Run scripts/gen_mapping.py with `args`, capturing its output."""
    return subprocess.run(
        [sys.executable, str(GENERATOR), *args], capture_output=True, text=True, timeout=120
    )


def the(name: str) -> ApiEntry:
    """The single entry for CUDA name `name`."""
    (entry,) = load_table().by_cuda(name)
    return entry


# --- Counts (those of guard-semantics.md section 9) ---


def test_row_count_is_that_of_the_twelve_primary_tables():
    rows = load_table().rows
    assert len(rows) == 8932
    assert len({row.library for row in rows}) == 12


def test_unique_cuda_names():
    assert len(load_table().cuda_names) == 8922


def test_hip_name_and_hip_added_counts():
    rows = load_table().rows
    assert sum(row.supported for row in rows) == 4943
    assert sum(row.hip_added is not None for row in rows) == 4662


def test_names_in_two_tables_are_all_returned():
    entries = load_table().by_cuda("libraryPropertyType")
    assert {(e.library, e.cuda_scale, e.cuda_added) for e in entries} == {
        ("CUDA Runtime API", "CUDA", "8.0"),
        ("CUDNN API", "cuDNN", "6.0.0"),
    }


def test_versions_are_on_the_recorded_scale():
    for row in load_table().rows:
        cuda_parts = 3 if row.cuda_scale == "cuDNN" else 2
        assert row.cuda_scale == ("cuDNN" if row.library == "CUDNN API" else "CUDA")
        for version in (row.cuda_added, row.cuda_deprecated, row.cuda_changed, row.cuda_removed):
            assert version is None or len(version_tuple(version)) == cuda_parts, row
        for version in (row.hip_added, row.hip_removed, row.roc_added, row.roc_removed):
            assert version is None or len(version_tuple(version)) == 3, row


# --- Lookups ---


def test_runtime_function_with_hip_version():
    entry = the("cudaRuntimeGetVersion")
    assert (entry.hip, entry.hip_added, entry.supported) == ("hipRuntimeGetVersion", "1.6.0", True)
    assert (entry.library, entry.section) == ("CUDA Runtime API", "29. Version Management")


def test_reverse_lookup_by_hip_name():
    cuda_names = {entry.cuda for entry in load_table().by_hip("hipMalloc")}
    assert {"cudaMalloc", "cuMemAlloc"} <= cuda_names


def test_unsupported_name_has_no_hip():
    entry = the("cudaDeviceFlushGPUDirectRDMAWrites")
    assert entry.hip is None and not entry.supported
    assert (entry.cuda_added, entry.hip_added) == ("11.3", None)


def test_unknown_names_give_empty_results():
    table = load_table()
    assert table.by_cuda("cudaNoSuchThing") == () and table.by_hip("cudaMalloc") == ()
    assert "cudaMalloc" in table.cuda_names and "hipMalloc" not in table.cuda_names


def test_cudnn_row_has_its_miopen_equivalent():
    entry = the("cudnnCreate")
    assert (entry.cuda_scale, entry.cuda_added) == ("cuDNN", "1.0.0")
    assert (entry.hip, entry.hip_added) == ("hipdnnCreate", None)  # hipDNN has no versions
    assert (entry.roc, entry.roc_added) == ("miopenCreate", "2.1.0")


def test_cublas_row_has_its_rocblas_equivalent():
    entry = the("cublasSgemm")
    assert (entry.hip, entry.hip_added) == ("hipblasSgemm", "1.8.2")
    assert (entry.roc, entry.roc_added) == ("rocblas_sgemm", "1.5.0")


def test_tables_without_joint_table_have_no_roc_names():
    assert not any(row.roc for row in load_table().rows if row.library == "CUDA Runtime API")


def test_near_suggests_close_names():
    table = load_table()
    assert table.near("cudaMaloc")[0] == "cudaMalloc"
    assert "cudaMalloc" in table.near("CUDAMALLOC")
    assert "hipMemcpyAsync" in table.near("hipMemcpyAsyn")
    assert len(table.near("cublasSgem", limit=2)) == 2
    assert table.near("zzzzzzzzzzzzzzzzzzzzzz") == []


def test_load_table_is_cached():
    assert load_table() is load_table()
    assert load_table().by_cuda("cudaMalloc")[0] is load_table().by_cuda("cudaMalloc")[0]


def test_version_tuple():
    assert version_tuple("6.2.0") == (6, 2, 0)
    assert version_tuple("11.3") == (11, 3)
    assert version_tuple("3.10.0") > version_tuple("3.9.0")
    with pytest.raises(ValueError):
        version_tuple("6.x")


def test_malformed_tsv_is_rejected_with_its_line():
    header = "\t".join(COLUMNS)
    with pytest.raises(ValueError, match="header row"):
        MappingTable("# comment\nnot\ta\theader\n")
    with pytest.raises(ValueError, match=r":3: 2 cells"):
        MappingTable(f"# comment\n{header}\ncudaFoo\tCUDA Runtime API\n")


def test_load_time_in_a_fresh_process():
    code = (
        "import time; import hipify_guard.model.mapping as m; "
        "t = time.process_time(); m.load_table(); print(time.process_time() - t)"
    )
    times = [
        float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, check=True, timeout=60).stdout)
        for _ in range(3)
    ]  # fmt: skip
    # CPU time of the loading process: the load of other jobs on a shared machine does not count
    assert min(times) < 0.050, f"load_table() took {min(times) * 1000:.1f} ms of CPU (best of 3)"


# --- The generator ---


@needs_source
def test_committed_tsv_is_up_to_date():
    result = run_generator("--check")
    assert result.returncode == 0, result.stderr


@needs_source
def test_check_fails_on_a_stale_file(tmp_path):
    stale = tmp_path / "map.tsv"
    stale.write_text((ROOT / "rules" / "hipify_map.tsv").read_text().replace("1.6.0", "1.6.1"))
    result = run_generator("--output", str(stale), "--check")
    assert result.returncode == 1 and "out of date" in result.stderr


@needs_source
@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("|`cudaFoo`| | | | |`hipFoo`|1.6.0| | | |", "10 cells, expected 11"),
        ("|`cudaFoo`|11.x| | | |`hipFoo`|1.6.0| | | | |", "bad version '11.x'"),
        ("|`cudaFoo`| | | | | |1.6.0| | | | |", "versions without a target name"),
        ("|cuda`Foo| | | | |`hipFoo`|1.6.0| | | | |", "malformed name cell"),
        ("some stray text", "table row must start and end with '|'"),
    ],
)
def test_malformed_row_fails_with_file_and_line(tmp_path, bad_line, message):
    source = tmp_path / "hipify"
    source.mkdir()
    for name in ("SOURCE.md", "LICENSE.txt", "cuComplex_API_supported_by_HIP.md"):
        shutil.copy(SOURCE / name, source / name)
    table = source / "cuComplex_API_supported_by_HIP.md"
    lines = table.read_text().splitlines()
    lines.insert(7, bad_line)  # after the first data row, which is line 7
    table.write_text("\n".join(lines))
    result = run_generator("--source", str(source), "--output", str(tmp_path / "out.tsv"))
    assert result.returncode == 2
    assert f"{table}:8: " in result.stderr and message in result.stderr


@needs_source
def test_escaped_characters_outside_code_spans_are_unescaped(tmp_path):
    source = tmp_path / "hipify"
    source.mkdir()
    for name in ("SOURCE.md", "LICENSE.txt"):
        shutil.copy(SOURCE / name, source / name)
    (source / "X_API_supported_by_HIP.md").write_text(
        "# X API supported by HIP\n\n## **1. Odd \\*names\\***\n\n"
        "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|**D**|**C**|**R**|**E**|\n"
        "|:--|:-:|:-:|:-:|:-:|:--|:-:|:-:|:-:|:-:|:-:|\n"
        "|`void*`| | | | |cu\\_x\\*| | | | | |\n\n"
        "\\*A - Added; D - Deprecated; C - Changed; R - Removed; E - Experimental"
    )
    output = tmp_path / "out.tsv"
    assert run_generator("--source", str(source), "--output", str(output)).returncode == 0
    table = MappingTable(output.read_text())
    assert [(e.cuda, e.section, e.hip) for e in table.rows] == [("void*", "1. Odd *names*", "cu_x*")]


def test_the_tables_stored_form_gives_the_same_facts() -> None:
    """A table store keeps each HIPIFY fact as one text (`Facts.packed`); the tables made from it
    answer every name as those made from the TSVs."""
    from hipify_guard.model.api_tables import ApiTables

    made = ApiTables.from_tsv()
    kept = ApiTables.from_plain(made.plain())
    assert kept is not None and len(kept.facts) == len(made.facts) > 10_000
    assert all(kept.facts[name] == made.facts[name] for name in made.facts)
    assert kept.facts.get(b"cudaMalloc") == ("cudaMalloc", "hipMalloc", made.facts[b"cudaMalloc"].added)
    assert kept.facts.get(b"notAnApi") is None and kept.names == made.names
