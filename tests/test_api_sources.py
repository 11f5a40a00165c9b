"""The sources of API knowledge besides HIPIFY (guard-semantics.md §11.4): PyTorch's hipify table,
HIP's headers with their release history, the project's own definitions; their generators, load
time, and what `hipify-guard map` shows of them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.api_knowledge import HEADERS, HIPIFY, NATIVE, TORCH, TORCH_TABLE, knowledge
from hipify_guard.model.definitions import definitions_of
from hipify_guard.model.hip_headers import load_hip_headers
from hipify_guard.model.settings import Settings
from hipify_guard.model.torch_mapping import TorchTable, load_torch_table

SCRIPTS = ROOT / "scripts"
TORCH_SOURCE = ROOT / "third_party" / "torch-hipify"
HEADER_SOURCE = ROOT / "third_party" / "hip-headers"
# The git clones the HIP-history generator reads, from HIPIFY_GUARD_HIP_MIRRORS: `HIP=DIR,hipamd=DIR,clr=DIR`.
HISTORY_SOURCES = ("HIP", "hipamd", "clr")


def history_mirrors() -> dict[str, str]:
    """The clones named in HIPIFY_GUARD_HIP_MIRRORS, when every one of them is a folder ({} otherwise)."""
    named = dict(item.partition("=")[::2] for item in os.environ.get("HIPIFY_GUARD_HIP_MIRRORS", "").split(",") if item)
    if set(named) != set(HISTORY_SOURCES) or not all(Path(folder).is_dir() for folder in named.values()):
        return {}
    return named


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=300)


# --- PyTorch's hipify table -----------------------------------------------------------------


def test_torch_table_renames_what_hipify_does_not() -> None:
    table = load_torch_table()
    assert table.get("CUBLAS_GEMM_DEFAULT_TENSOR_OP").hip == "HIPBLAS_GEMM_DEFAULT"
    assert table.get("__nv_bfloat162").hip == "__hip_bfloat162"
    assert table.get("CUDA_VERSION").hip == "TORCH_HIP_VERSION"
    assert table.get("cudaStreamGetId") is None
    assert "__hip_bfloat162" in table.hip_names
    assert {m.cuda for m in table.by_hip("__hip_bfloat162")} == {"__nv_bfloat162"}


def test_torch_table_keeps_the_last_row_of_a_name() -> None:
    table = TorchTable(["CU_X\thipX\tA\t", "CU_X\tHIP_X\tB\t1"])
    mapping = table.get("CU_X")
    assert (mapping.hip, mapping.table, mapping.unsupported) == ("HIP_X", "B", True)


def test_torch_generator_output_is_up_to_date() -> None:
    result = run_script("gen_torch_mapping.py", "--check")
    assert result.returncode == 0, result.stderr


def _torch_source(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "torch-hipify"
    folder.mkdir()
    for name in ("SOURCE.md", "LICENSE"):
        shutil.copy(TORCH_SOURCE / name, folder / name)
    source = folder / "cuda_to_hip_mappings.py"
    source.write_text(body)
    return source


def test_torch_generator_reads_old_tuples_and_hip_unsupported_without_running_the_file(tmp_path) -> None:
    source = _torch_source(tmp_path, (
        "import collections\nraise SystemExit('never run')\n"
        "A = collections.OrderedDict([\n"
        "    ('cudaFoo', ('hipFoo', CONV_MEM, API_RUNTIME)),\n"
        "    ('cudaBar', ('hipBar', CONV_MEM, API_RUNTIME, HIP_UNSUPPORTED)),\n"
        "    ('cub::Thing', ('hipcub::Thing', CONV_TYPE)),\n"
        "    ('cuda_runtime.h', ('hip/hip_runtime.h', CONV_INCLUDE)),\n"
        "])\nCUDA_TO_HIP_MAPPINGS = [A]\n"))
    output = tmp_path / "out.tsv"
    result = run_script("gen_torch_mapping.py", "--source", str(source), "--output", str(output))
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in output.read_text().splitlines() if not line.startswith("#")]
    assert rows == [["cuda", "hip", "table", "unsupported"],
                    ["cudaFoo", "hipFoo", "A", ""], ["cudaBar", "hipBar", "A", "1"]]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("A = {}\n", "CUDA_TO_HIP_MAPPINGS is not a list of table names"),
        ("CUDA_TO_HIP_MAPPINGS = [A]\nA = dict()\n", "A is not an OrderedDict([...]) literal"),
        ("CUDA_TO_HIP_MAPPINGS = [A]\nA = collections.OrderedDict([('cudaFoo',)])\n",
         ":2: A: expected a (name, mapping) pair"),
        ("CUDA_TO_HIP_MAPPINGS = [A]\nA = collections.OrderedDict([('cudaFoo', hip_name())])\n",
         ":2: expected a HIP name or a (name, KIND, ...) tuple"),
    ],
)
def test_torch_generator_fails_with_file_and_line(tmp_path, body: str, message: str) -> None:
    source = _torch_source(tmp_path, body)
    result = run_script("gen_torch_mapping.py", "--source", str(source), "--output", str(tmp_path / "o.tsv"))
    assert result.returncode == 2 and message in result.stderr and str(source) in result.stderr


# --- HIP's headers --------------------------------------------------------------------------


def test_header_declarations_with_opt_in_and_release() -> None:
    headers = load_hip_headers()
    sync = headers.get("__shfl_xor_sync")
    assert sync.opt_in == ("HIP_ENABLE_WARP_SYNC_BUILTINS",) and sync.since == (6, 2, 0)
    data_type = headers.get("hipDataType")
    assert (data_type.header, data_type.opt_in, data_type.since) == ("hip/library_types.h", (), (3, 0, 0))
    assert "roc-3.0.0:include/hip/hcc_detail/library_types.h" in data_type.evidence
    assert headers.get("__hmax2").opt_in == () and headers.get("__float2bfloat16") is not None
    assert headers.get("__nv_bfloat162") is None  # HIP spells it __hip_bfloat162


def test_header_generator_output_is_up_to_date() -> None:
    result = run_script("gen_hip_headers.py", "--check")
    assert result.returncode == 0, result.stderr


def test_header_generator_takes_opt_in_macros_from_the_headers(tmp_path) -> None:
    source = tmp_path / "hip-headers"
    (source / "hip").mkdir(parents=True)
    for name in ("SOURCE.md", "LICENSE-HIP.txt"):
        shutil.copy(HEADER_SOURCE / name, source / name)
    (source / "hip" / "x.h").write_text(
        "#pragma once\n__device__ int always(int);\n#ifdef HIP_ENABLE_SHINY\n__device__ int shiny(int);\n#endif\n"
        "#if defined(__HIP_PLATFORM_NVIDIA__)\nint nvidia_only(int);\n#endif\n")
    (source / "hip" / "nvidia_detail").mkdir()
    (source / "hip" / "nvidia_detail" / "y.h").write_text("int skipped(int);\n")
    (source / "since.tsv").write_text("# history\nname\tsince\tevidence\nalways\t1.0.0\tROCm/HIP roc-1.0.0:x.h\n")
    output = tmp_path / "out.tsv"
    result = run_script("gen_hip_headers.py", "--source", str(source), "--output", str(output))
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in output.read_text().splitlines() if not line.startswith("#")][1:]
    assert rows == [["always", "hip/x.h", "", "1.0.0", "ROCm/HIP roc-1.0.0:x.h"],
                    ["shiny", "hip/x.h", "HIP_ENABLE_SHINY", "", ""]]


def test_since_is_the_start_of_the_unbroken_run() -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        from gen_hip_history import since
    finally:
        sys.path.remove(str(SCRIPTS))
    history = {(1, 0, 0): {"a": "t1:a.h", "b": "t1:b.h"}, (2, 0, 0): {"a": "t2:a.h"},
               (3, 0, 0): {"a": "t3", "b": "t3:b.h"}}
    assert since(["a", "b", "c"], history) == [
        ("a", "1.0.0", "t1:a.h"), ("b", "3.0.0", "t3:b.h"),
        ("c", "6.3.0", "HIP 6.3 snapshot (third_party/hip-headers)")]


@pytest.mark.slow
@pytest.mark.skipif(not history_mirrors(),
                    reason="HIPIFY_GUARD_HIP_MIRRORS does not name clones of ROCm/HIP, hipamd and clr (HIP=DIR,hipamd=DIR,clr=DIR)")
def test_history_generator_reproduces_since_tsv(tmp_path) -> None:
    output = tmp_path / "since.tsv"
    mirrors = history_mirrors()
    result = run_script("gen_hip_history.py", *(f"--{name.lower()}={mirrors[name]}" for name in HISTORY_SOURCES),
                        "--output", str(output))
    assert result.returncode == 0, result.stderr
    committed = (HEADER_SOURCE / "since.tsv").read_text().splitlines()
    assert [line for line in output.read_text().splitlines() if not line.startswith("#")] == [
        line for line in committed if not line.startswith("#")]


# --- what each ROCm model's build has ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "way", "hip", "source", "added", "opt_in"),
    [
        ("CUBLAS_GEMM_DEFAULT_TENSOR_OP", NATIVE, None, HIPIFY, None, ()),
        ("CUBLAS_GEMM_DEFAULT_TENSOR_OP", TORCH, "HIPBLAS_GEMM_DEFAULT", TORCH_TABLE, (1, 8, 2), ()),
        ("__nv_bfloat162", TORCH, "__hip_bfloat162", TORCH_TABLE, (5, 7, 0), ()),
        ("cudaDataType", NATIVE, "hipDataType", HIPIFY, (3, 0, 0), ()),  # HIPIFY: 5.7.0; headers: 3.0.0
        ("__shfl_xor_sync", NATIVE, "__shfl_xor_sync", HEADERS, (6, 2, 0), ("HIP_ENABLE_WARP_SYNC_BUILTINS",)),
        ("__float2bfloat16", TORCH, "__float2bfloat16", HEADERS, (5, 7, 0), ()),
        ("cudaStreamGetId", TORCH, None, HIPIFY, None, ()),
    ],
)
def test_views(name, way, hip, source, added, opt_in) -> None:
    view = knowledge().view(name, way)
    assert (view.hip, view.source, view.added, view.opt_in) == (hip, source, added, opt_in)


def test_a_name_no_source_of_the_route_knows_is_not_judged() -> None:
    assert knowledge().view("magma_queue_create_from_cuda", NATIVE) is None  # PyTorch's table only
    assert knowledge().view("magma_queue_create_from_cuda", TORCH).hip == "magma_queue_create_from_hip"
    assert b"int" not in knowledge().names  # cusolver_int_t maps to `int`, which is no API


def test_the_knowledge_loads_without_making_every_entry_in_a_fresh_process() -> None:
    """Loading stays cheap by making HIPIFY's entries (and splitting PyTorch's rows) only when asked:
    a run that needs the names and a view makes none of the ~9,000 entries. (The load's CPU time
    is measured by `bench/table_load.py`, not by a test: best 24 ms, median 41 ms on 2 cores.)"""
    code = ("from hipify_guard.model.api_knowledge import knowledge; from hipify_guard.model.mapping import load_table; "
            "k = knowledge(); k.names; k.view('cudaDataType', 'hip'); "
            "print(sum(entry is not None for entry in load_table()._entries), len(load_table()._entries))")
    made, entries = map(int, subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                            check=True, timeout=60).stdout.split())
    assert entries > 8000 and made == 0


# --- the project's own definitions ----------------------------------------------------------


def defined(text: str) -> set[str]:
    file = FileAnalysis("t.cu", text.encode(), Settings())
    return {name.decode() for name, _ in definitions_of(file).within(0, len(file.data))}


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("using __nv_fp8x4_e4m3 = __hip_fp8x4_e4m3;", {"__nv_fp8x4_e4m3"}),
        ("typedef struct { int x; } CUmemFabricHandle_v1, *PHandle;", {"CUmemFabricHandle_v1", "PHandle"}),
        ("typedef void (*cudaHostFn_t)(void* data);", {"cudaHostFn_t", "data"}),
        ("static __device__ __forceinline__ uint32_t __hgt2_mask(const half2 a, const half2 b) { return 0; }",
         {"__hgt2_mask"}),
        ("template <typename T> __device__ T __shfl_xor_sync(unsigned m, T v, int l, int w = 32);",
         {"__shfl_xor_sync"}),
        ("enum cudaShim { CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 };", {"cudaShim", "CUDA_R_8F_E4M3", "CUDA_R_8F_E5M2"}),
        ("namespace cub = hipcub;", {"cub"}),
        ("constexpr auto CUBLAS_GEMM_DEFAULT_TENSOR_OP = HIPBLAS_GEMM_DEFAULT;", {"CUBLAS_GEMM_DEFAULT_TENSOR_OP"}),
        ("[[nodiscard]] int f(int); __attribute__((visibility(\"default\"))) int g(int);", {"f", "g"}),
        ("cudaError_t (*real_cudaMalloc)(void**, size_t) = nullptr;", {"real_cudaMalloc"}),
        ("void Foo::bar(int x) const { std::max(x, 1); }", {"bar"}),
        # calls and uses, not definitions
        ("void f() { cudaError_t e = cudaMalloc(&p, 4); CHECK(cudaFree(p)); return cudaGetLastError(); }", {"f"}),
        ("void f() { std::max(a, b); obj.cudaMemcpy(x); p->cudaFree(y); if (x) cudaDeviceSynchronize(); }", {"f"}),
        ("int cudaUse; cudaStream_t s;", set()),
        ("void f() {} typedef int cudaAfterBody;", {"f", "cudaAfterBody"}),
        ("// typedef int cudaInComment;\nconst char* s = \"using cudaInString = int;\";", {"s"}),
    ],
)
def test_definitions(code: str, names: set[str]) -> None:
    assert defined(code) == names


def test_definitions_are_found_across_directives() -> None:
    assert defined("#define cudaFoo hipFoo\n#if A\ntypedef int cudaBar;\n#else\nusing cudaBaz = long;\n#endif\n") == {
        "cudaFoo", "cudaBar", "cudaBaz"}


def test_a_range_gives_the_files_definitions_in_it_and_looks_at_its_tokens_only(monkeypatch) -> None:
    """`within` is asked per group: each range gives, in the file's order, exactly the definitions
    of the whole file whose offset it holds, and only the tokens in it are looked at (once)."""
    from hipify_guard.model import definitions as module

    data = "".join(f"#if V{n}\ntypedef int cudaT{n};\nvoid f{n}(int a) {{ g{n}(a); }}\n#define M{n} {n}\n#endif\n"
                   for n in range(30)).encode()
    whole = FileAnalysis("t.cu", data, Settings())  # (kept: the definitions refer to their file weakly)
    every = definitions_of(whole).within(0, len(data))
    assert len(every) == 90
    asked: list[int] = []
    real = module.is_definition
    monkeypatch.setattr(module, "is_definition", lambda code, index: asked.append(index) or real(code, index))
    file = FileAnalysis("t.cu", data, Settings())
    found = definitions_of(file)
    for start, end in [(0, 70), (60, 200), (200, 200), (len(data) - 100, len(data)), (0, 70)]:
        assert found.within(start, end) == [(name, at) for name, at in every if start <= at < end]
    code = found.code
    assert asked and all(code.starts[index] < 200 or code.starts[index] >= len(data) - 100 for index in asked)
    assert len(asked) == len(set(asked))  # (each token looked at once, whatever the ranges asked)


# --- hipify-guard map -----------------------------------------------------------------------


def test_map_shows_every_source_and_each_model() -> None:
    result = run_cli("map", "CUBLAS_GEMM_DEFAULT_TENSOR_OP", "cudaDataType", "__shfl_xor_sync")
    assert result.code == 0, result.stderr
    text = result.stdout
    assert "PyTorch's hipify: renames it to `HIPBLAS_GEMM_DEFAULT` (CUDA_IDENTIFIER_MAP)" in text
    assert "native HIP: no equivalent; PyTorch's hipify: `HIPBLAS_GEMM_DEFAULT`" in text
    assert "declare `hipDataType` in hip/library_types.h, since ROCm 3.0.0" in text
    assert "native HIP: `hipDataType` (HIPIFY's tables, added in HIP 3.0.0)" in text
    assert "only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined, since ROCm 6.2.0" in text


def test_map_finds_names_only_pytorch_or_hip_knows() -> None:
    result = run_cli("map", "__hip_bfloat162", "__activemask", "magma_queue_create_from_cuda")
    assert result.code == 0, result.stderr
    assert "__hip_bfloat162: the HIP name of 1 CUDA name" in result.stdout
    assert "declare `__activemask`" in result.stdout
    assert "magma_queue_create_from_cuda: not in HIPIFY's tables" in result.stdout


def test_map_json_has_every_source() -> None:
    result = run_cli("map", "--output-format", "json", "__nv_bfloat162", "__activemask")
    assert result.code == 0, result.stderr
    bf16, mask = json.loads(result.stdout)
    assert bf16["torch_hipify"] == [{"cuda": "__nv_bfloat162", "hip": "__hip_bfloat162",
                                     "table": "CUDA_TYPE_NAME_MAP", "unsupported": False}]
    assert bf16["models"]["hip"] == {"hip": None, "source": HIPIFY, "added": None, "opt_in": []}
    assert bf16["models"]["torch-hipify"]["hip"] == "__hip_bfloat162"
    assert [h["name"] for h in bf16["hip_headers"]] == ["__hip_bfloat162"]
    assert mask["direction"] == "hip-header" and mask["hip_headers"][0]["since"] == "6.2.0"
    assert mask["hip_headers"][0]["opt_in"] == ["HIP_ENABLE_WARP_SYNC_BUILTINS"]


def test_signature_generator_output_is_up_to_date() -> None:
    """rules/hip_signatures.tsv is what libclang reads from the vendored headers (needs libclang
    and an installed clang's resource headers, as CI's hipcc brings)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_hip_signatures import default_resource_dir

    if default_resource_dir() is None:
        pytest.skip("no clang resource headers installed (clang or hipcc brings them)")
    result = run_script("gen_hip_signatures.py", "--check")
    assert result.returncode == 0, result.stderr


def test_signature_table_knows_what_auto_checks() -> None:
    from hipify_guard.model.hip_signatures import load_hip_signatures

    table = load_hip_signatures()
    assert table.parameter_types("hipMemAdvise", 3) == {"int"}
    assert table.parameter_types("hipMemPrefetchAsync", 2) == {"int"}
    assert table.types["__half"] == frozenset() and table.types["hipMemLocation"] == {"type", "id"}
    assert ("double", "unsigned int", "int") in table.functions["__shfl_down"]
