"""HG203/HG204, `--policy auto` and `hipify-guard map`: the rules that read the mapping table."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_guard.checks import CHECKS
from hipify_guard.checks.api_mapping import guard_macros
from hipify_guard.fix.auto_policy import CATALOGUED, CAUGHT_UP
from hipify_guard.engine.lint import check
from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.branch_apis import branch_apis
from hipify_guard.model.builds import Build
from hipify_guard.model.code_tokens import identifiers, segments
from hipify_guard.model.definitions import definitions_of
from hipify_guard.model.mapping import ApiFact, load_table
from hipify_guard.model.rocm_versions import EVERY, earliest
from hipify_guard.model.settings import Policy, Settings

NAMES = frozenset({b"cudaFoo", b"cudaBar", b"R", b"u8"})

RULES = Path(__file__).resolve().parent.parent / "rules"


def analysis(text: str, **settings) -> FileAnalysis:
    return FileAnalysis("t.cu", text.encode(), Settings(**settings))


def found(text: str, code: str, **settings) -> list[str]:
    return [f.message for f in check(analysis(text, **settings), [code])]


# --- what the rules know about a name -------------------------------------------------------


def test_api_facts_of_cuda_and_hip_names() -> None:
    table = load_table()
    facts = table.api_facts
    assert facts[b"cudaMalloc"] == ApiFact("cudaMalloc", "hipMalloc", "1.5.0")
    assert facts[b"hipMalloc"] == ApiFact("hipMalloc", "hipMalloc", "1.5.0")
    assert facts[b"cudaStreamGetId"].unsupported and facts[b"cudaStreamGetId"].added_version is None
    assert facts[b"hipGraphNodeSetParams"].added_version == (6, 3, 0)
    assert b"int" not in facts  # cusolver_int_t maps to `int`, which is no API
    assert table.newest_hip == (6, 3, 0)


# --- tokens of code -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("cudaFoo(); cudaBar;", [b"cudaFoo", b"cudaBar"]),
        ("// cudaFoo\ncudaBar", [b"cudaBar"]),
        ("// cudaFoo \\\n cudaFoo\ncudaBar", [b"cudaBar"]),  # a continued line comment
        ("/* cudaFoo\n cudaFoo */ cudaBar", [b"cudaBar"]),
        ('"cudaFoo \\" cudaFoo" cudaBar', [b"cudaBar"]),
        ("'c' cudaFoo 'x'", [b"cudaFoo"]),
        ("int x = 1'000'000; cudaFoo();", [b"cudaFoo"]),  # digit separators are not quotes
        ('R"x(cudaFoo )" cudaFoo)x" cudaBar', [b"cudaBar"]),  # raw string with a false end inside
        ('u8R"(cudaFoo)" cudaBar', [b"cudaBar"]),
        ('FOOR"cudaFoo" cudaBar', [b"cudaBar"]),  # FOOR is an identifier, the string is ordinary
        ("xcudaFoo cudaFoox cudaFoo_ 0xcudaFoo cudaFoo", [b"cudaFoo"]),  # whole tokens only
        ("/* unterminated cudaFoo", []),
    ],
)
def test_identifiers_skip_comments_and_literals(code: str, expected: list[bytes]) -> None:
    data = code.encode()
    assert [name for _, name in identifiers(data, 0, len(data), NAMES)] == expected


def test_identifier_offsets_are_byte_offsets() -> None:
    data = "é /* ü */ cudaFoo".encode()
    ((offset, name),) = identifiers(data, 0, len(data), NAMES)
    assert data[offset : offset + len(name)] == b"cudaFoo"


def test_segments_belong_to_the_innermost_arm() -> None:
    text = ("top();\n#if A\na();\n#ifdef B\nb();\n#endif\na2();\n#define M(x) m(x)\n"
            "#include <cudaFoo.h>\n#else\nc();\n#endif\nend();\n")
    file = analysis(text)
    data = file.data
    tree = file.tree
    texts = {tree.arm_of[key].directive.kind: b"".join(data[s:e] for s, e in spans)
             for key, spans in segments(file).items()}
    assert b"a();" in texts["if"] and b"a2();" in texts["if"] and b"m(x)" in texts["if"]
    assert b"b();" not in texts["if"] and b"b();" in texts["ifdef"]
    assert b"M(x)" not in texts["if"] and b"cudaFoo.h" not in texts["if"]  # macro name, #include
    assert b"c();" in texts["else"]
    assert not any(b"top();" in t or b"end();" in t for t in texts.values())  # file level


def test_declared_names() -> None:
    file = analysis("#define cudaFoo hipFoo\ntypedef unsigned long long cudaBar;\n"
                    "using cudaBaz = int;\nstruct cudaQux {};\nenum class cudaE : int;\nint cudaUse;\n")
    found = {name for name, _ in definitions_of(file).within(0, len(file.data))}
    assert found == {b"cudaFoo", b"cudaBar", b"cudaBaz", b"cudaQux", b"cudaE"}


# --- from which ROCm release a branch is taken ----------------------------------------------


def earliest_by_model(text: str, floor=EVERY) -> dict[str, object]:
    file = analysis(text)
    arm = file.arms[-1] if "#else" not in text else file.tree.conditionals[-1].arms[-1]
    return {m.name: earliest(file.path(arm), m, file.settings.macros, floor) for m in file.settings.rocm_models}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#if defined(USE_ROCM) && ROCM_VERSION >= 50000\nx\n#endif\n", (5, 0, 0)),
        ("#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || (defined(USE_ROCM) && ROCM_VERSION >= 50000)\n#endif\n",
         (5, 0, 0)),
        ("#if ROCM_VERSION > 60201\n#endif\n", (6, 2, 2)),
        ("#if HIP_VERSION >= 50221153\n#endif\n", (5, 2, 21153)),
        ("#if HIP_VERSION_MAJOR > 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR >= 3)\n#endif\n", (5, 3, 0)),
        ("#if (HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR) >= 502\n#endif\n", (5, 2, 0)),
        ("#ifdef USE_ROCM\n#endif\n", EVERY),
        ("#if !defined(ROCM_VERSION) || ROCM_VERSION >= 60000\n#endif\n", EVERY),  # undefined: every ROCm
        ("#if ROCM_VERSION < 50000\n#elif ROCM_VERSION < 60100\n#else\n#endif\n", (6, 1, 0)),
    ],
)
def test_earliest_release(text: str, expected: tuple[int, int, int]) -> None:
    assert set(earliest_by_model(text).values()) == {expected}


def test_earliest_release_per_model_and_floor() -> None:
    assert earliest_by_model("#if CUDA_VERSION >= 600\n#endif\n") == {"hip": None, "torch-hipify": (6, 0, 0)}
    assert earliest_by_model("#if defined(CUDA_VERSION) && !defined(USE_ROCM)\n#endif\n") == {
        "hip": None, "torch-hipify": None}
    assert set(earliest_by_model("#if ROCM_VERSION >= 50000\n#endif\n", floor=(5, 7, 0)).values()) == {(5, 7, 0)}
    assert set(earliest_by_model("#if ROCM_VERSION < 50000\n#endif\n", floor=(5, 7, 0)).values()) == {(5, 7, 0)}
    assert set(earliest_by_model("#if defined(ROCM_VERSION) && ROCM_VERSION < 50000\n#endif\n",
                                 floor=(5, 7, 0)).values()) == {None}


# --- HG203 / HG204 --------------------------------------------------------------------------

ISSUE_GUARD = "#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || (defined(USE_ROCM) && ROCM_VERSION >= 50000)\n"
EVERY_ROCM = "#ifdef USE_ROCM\nvoid f() { cudaGraphExecGetFlags(0, 0); }\n#endif\n"  # HIP 6.3.0


def test_hg203_names_the_api_and_both_versions() -> None:
    (message,) = found(ISSUE_GUARD + "void f() { cudaGraphInstantiateWithParams(0, 0, 0); }\n#endif\n", "HG203")
    assert "`cudaGraphInstantiateWithParams`" in message and "HIP 6.2.0" in message
    assert "`hipGraphInstantiateWithParams`" in message and "ROCm 5.0.0 and newer" in message


def test_hg203_on_every_rocm_needs_min_rocm() -> None:
    assert found(EVERY_ROCM, "HG203") == []
    (message,) = found(EVERY_ROCM, "HG203", min_rocm=(5, 7, 0))
    assert "HIP 6.3.0" in message and "min-rocm is 5.7.0" in message
    assert found(EVERY_ROCM, "HG203", min_rocm=(6, 3, 0)) == []


def test_hg203_branch_for_old_rocm_is_judged_against_min_rocm() -> None:
    text = ("#if defined(USE_ROCM) && ROCM_VERSION >= 60000\n#elif defined(USE_ROCM)\n"
            "#define FLAGS(e, f) cudaGraphExecGetFlags(e, f)\n#endif\n")  # taken below ROCm 6.0
    assert found(text, "HG203") == []
    (message,) = found(text, "HG203", min_rocm=(5, 7, 0))
    assert "`cudaGraphExecGetFlags` needs HIP 6.3.0" in message and "the `#elif` on line 2" in message


def test_min_rocm_from_the_project_configuration(tmp_path) -> None:
    (tmp_path / "hipify-guard.toml").write_text('min-rocm = "5.7"\n')
    (tmp_path / "a.cu").write_text(EVERY_ROCM)
    result = run_cli("check", "--select", "HG203", "--output-format", "json", "a.cu", cwd=tmp_path)
    assert result.code == 1, result.stderr
    (finding,) = result.json()
    assert finding["code"] == "HG203" and "min-rocm is 5.7.0" in finding["message"]
    assert finding["location"] == {"row": 2, "column": 12}


def test_hg203_ignores_apis_not_newer_than_the_guard() -> None:
    text = ISSUE_GUARD + "void f() { cudaMalloc(0, 0); cudaGraphUpload(0, 0); }\n#endif\n"  # 1.5.0, 5.3.0
    assert [m.split("`")[1] for m in found(text, "HG203")] == ["cudaGraphUpload"]
    assert found(text, "HG203", min_rocm=(5, 3, 0)) == []


def test_hg204_needs_a_rocm_release_the_table_describes() -> None:
    text = ("#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11030) || defined(USE_ROCM)\n"
            "void f() { cudaStreamGetId(0, 0); }\n#endif\n")
    assert len(found(text, "HG204")) == 1
    assert len(found(text, "HG204", min_rocm=(6, 2, 0))) == 1
    assert found(text, "HG204", min_rocm=(6, 3, 0)) == []  # the table is HIPIFY made for ROCm 6.3.0


def test_unguarded_code_is_not_judged() -> None:
    text = "void f() { cudaStreamGetId(0, 0); }\n#ifdef __cplusplus\nvoid g() { cudaStreamGetId(0, 0); }\n#endif\n"
    assert found(text, "HG204") == [] and found(text, "HG203", min_rocm=(1, 0, 0)) == []


def test_triggers_are_the_macros_that_make_a_branch_guarded() -> None:
    """The prefilter may skip a file without these names: no branch of it can be guarded."""
    settings = Settings()
    file = FileAnalysis("t.cu", b"", settings)
    expected = set(guard_macros(settings))
    assert expected == set(branch_apis(file).guard_macros)
    for code in ("HG203", "HG204"):
        assert set(CHECKS[code].triggers(settings)) == expected


def test_raise_fix_falls_back_when_the_constant_cannot_simply_be_replaced(tmp_path) -> None:
    source = tmp_path / "a.cu"
    source.write_text("#if defined(USE_ROCM) && (ROCM_VERSION >= 50000 || HIP_VERSION >= 50000000)\n"
                      "void f() { cudaGraphExecGetFlags(0, 0); }\n#endif\n")
    result = run_cli("check", "--select", "HG203", "--fix", "--unsafe-fixes", str(source))
    assert result.code == 0, result.stdout + result.stderr
    assert source.read_text().splitlines()[0] == (
        "#if defined(USE_ROCM) && (ROCM_VERSION >= 50000 || HIP_VERSION >= 50000000) "
        "&& (!defined(USE_ROCM) || ROCM_VERSION >= 60300)")


SHARED = "#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)\n{code}\n#endif\n"


def test_hg204_names_only_the_models_it_holds_under() -> None:
    code = "int algo() { return CUBLAS_GEMM_DEFAULT_TENSOR_OP; }\nvoid f() { cudaStreamGetId(0, 0); }"
    text = SHARED.format(code=code)
    mapped, missing = found(text, "HG204")
    assert mapped.startswith("`CUBLAS_GEMM_DEFAULT_TENSOR_OP` has no HIP equivalent")
    assert mapped.endswith("(native HIP)")
    assert missing.endswith("(native HIP, PyTorch's hipify)")
    assert [m.split("`")[1] for m in found(text, "HG204", model_names=("torch-hipify",))] == ["cudaStreamGetId"]
    (only,) = found(text, "HG204", model_names=("torch-hipify",))
    assert only.endswith("on ROCm (PyTorch's hipify)")


def test_hg204_says_what_opt_in_macro_hip_needs() -> None:
    text = SHARED.format(code="__device__ int f(int v) { return __shfl_down_sync(0xffffffff, v, 1); }")
    (message,) = found(text, "HG204")
    assert message.startswith("HIP declares `__shfl_down_sync` (HIP 6.2.0 and newer) only when "
                              "`HIP_ENABLE_WARP_SYNC_BUILTINS` is defined, but the `#if` on line 1")
    assert "no HIP equivalent" not in message
    assert found("#define HIP_ENABLE_WARP_SYNC_BUILTINS 1\n" + text, "HG204") == []
    build = Build((("HIP_ENABLE_WARP_SYNC_BUILTINS", 1),))
    assert found(text, "HG204", builds=(build,)) == []


def test_names_of_the_project_headers_plug_in_through_settings() -> None:
    """`Settings.header_definitions`: what the project headers a file includes define."""
    text = SHARED.format(code="inline void f(__nv_fp8x4_e4m3 x, __nv_bfloat162 y) { __hgt2_mask(y, y); }")
    assert [m.split("`")[1] for m in found(text, "HG204")] == ["__nv_fp8x4_e4m3", "__nv_bfloat162", "__hgt2_mask"]
    shims = frozenset({"__nv_fp8x4_e4m3", "__hgt2_mask"})
    assert [m.split("`")[1] for m in found(text, "HG204", header_definitions=shims)] == ["__nv_bfloat162"]


def test_a_definition_for_cuda_only_is_no_rocm_shim() -> None:
    cuda_only = "#ifndef USE_ROCM\ntypedef int CUmemFabricHandle_v1;\n#endif\n"
    text = cuda_only + SHARED.format(code="void f(CUmemFabricHandle_v1 h);")
    assert len(found(text, "HG204")) == 1
    assert found(text.replace("#ifndef USE_ROCM", "#ifdef USE_ROCM"), "HG204") == []


def test_hg203_reads_hip_version_constants_of_before_rocm_4_3() -> None:
    text = "#if HIP_VERSION >= 402\ntypedef hipsolverEigMode_t mode;\n#endif\n"  # hipSOLVER 4.5.0
    (message,) = found(text, "HG203")
    assert message == ("`hipsolverEigMode_t` needs HIP 4.5.0, but the `#if` on line 1 takes this branch on "
                       "ROCm 4.2.0 and newer (native HIP, PyTorch's hipify)")
    assert found(text.replace("402", "405"), "HG203") == []  # HIP 4.5 on the old encoding (HG104's finding)


def test_hg203_does_not_judge_a_guard_hg104_cannot_read() -> None:
    text = "#if defined(USE_ROCM) && ROCM_VERSION >= 502\nvoid f() { cudaGraphExecGetFlags(0, 0); }\n#endif\n"
    assert found(text, "HG203") == [] and len(found(text, "HG104")) == 1
    assert len(found(text.replace("502", "50200"), "HG203")) == 1


def test_hg203_takes_the_earliest_evidence() -> None:
    text = "#if defined(USE_ROCM) && ROCM_VERSION >= 50000\nhipDataType t = HIP_R_16F; cudaDataType_t c;\n#endif\n"
    assert found(text, "HG203") == []  # HIPIFY: 5.7.0; HIP's library_types.h: since ROCm 3.0.0
    first, _, third = found(text.replace("50000", "20000"), "HG203")
    assert first.startswith("`hipDataType` needs HIP 3.0.0, but") and "ROCm 2.0.0 and newer" in first
    assert third.startswith("`cudaDataType_t` needs HIP 3.0.0 (`hipDataType`)")


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("HIP_VERSION >= 402",
         "402 = HIP 4.2); from 4.3 on HIP_VERSION is major*10000000 + minor*100000 + patch (40300000 = HIP 4.3), "
         "larger than every old-scale number, so the comparison is true on every release from 4.3 on: harmless, "
         "unless it is meant to exclude a release after 4.3"),
        ("HIP_VERSION >= 502",
         "502 = HIP 5.2), but HIP 5.2 came after 4.3; from 4.3 on HIP_VERSION is major*10000000 + minor*100000 + "
         "patch (50200000 = HIP 5.2), so the comparison is true on every release from 4.3 on, also on ROCm 4.3-5.1, "
         "which it is meant to exclude: did you mean 50200000 (HIP 5.2)?"),
        ("HIP_VERSION < 600", "so the comparison is false on every release from 4.3 on, also on ROCm 4.3-5.x, which it "
                              "is meant to include: did you mean 60000000 (HIP 6.0)?"),
        ("HIP_VERSION > 403", "also on ROCm 4.3, which it is meant to exclude"),
        ("HIP_VERSION == 502", "false on every release from 4.3 on, also on ROCm 5.2, which it is meant to include: "
                               "did you mean 50200000 (HIP 5.2)?"),
    ],
)
def test_hg104_explains_the_encoding_before_rocm_4_3(condition: str, expected: str) -> None:
    harmless = "harmless" in expected  # (right on every release: HG108's, off by default)
    (finding,) = check(analysis(f"#if {condition}\n#endif\n"), ["HG108" if harmless else "HG104"])
    assert not check(analysis(f"#if {condition}\n#endif\n"), ["HG104" if harmless else "HG108"])
    assert finding.message.startswith(f"`{condition}`: {condition.split()[-1]} is on HIP_VERSION's encoding before "
                                      "ROCm 4.3 (major*100 + minor: ")
    assert finding.message.endswith(expected)
    assert (finding.fix is not None) == ("did you mean" in expected)


# --- --policy auto --------------------------------------------------------------------------

IMPLICIT = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nvoid f() {{ {call}; }}\n#endif\n"


def auto_fix(call: str, **settings):
    (fix,) = auto_fixes(IMPLICIT.format(call=call), **settings)
    return fix


def excluded_by(source: str, evidence: str):
    """The file's one HG101 auto fix, which must exclude ROCm and name `evidence`."""
    (fix,) = auto_fixes(source)
    assert fix.expectation.rocm == "false" and evidence in fix.message, fix.message
    return fix


def auto_fixes(source: str, **settings) -> list:
    """The fixes `--policy auto` gives the file's HG101 findings, in order."""
    return [finding.fix for finding in check(analysis(source, policy=Policy("auto"), **settings), ["HG101"])]


def test_auto_takes_the_newest_hip_version_above_min_rocm() -> None:
    fix = auto_fix("cudaGraphUpload(0, 0); cudaMalloc(0, 0)", min_rocm=(5, 0, 0))
    assert fix.applicability == "unsafe" and fix.expectation.rocm_min == 50300
    assert "`cudaGraphUpload`, added in HIP 5.3.0" in fix.message and "min-rocm 5.0.0" in fix.message


def test_auto_reads_the_files_own_alias_and_no_other_shape() -> None:
    """`using`, `typedef` and an object-like `#define` of one name under the ROCm macro make the
    CUDA name that HIP API (its release decides); a pointer, a struct body, a cast or a value do not."""
    guard = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000\n__nv_fp8_e4m3 scale;\n#endif\n"
    for alias in ("using __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;", "typedef __hip_fp8_e4m3_fnuz __nv_fp8_e4m3;",
                  "typedef struct __hip_fp8_e4m3_fnuz __nv_fp8_e4m3;", "#define __nv_fp8_e4m3 __hip_fp8_e4m3_fnuz"):
        (finding,) = check(analysis(f"#ifdef USE_ROCM\n{alias}\n#endif\n{guard}", policy=Policy("auto")), ["HG101"])
        assert finding.fix.expectation.rocm_min == 60200, alias
        assert "`__nv_fp8_e4m3`, which the project defines for ROCm as `__hip_fp8_e4m3_fnuz` (line 2)" in finding.fix.message
    for shape in ("typedef __hip_fp8_e4m3_fnuz* __nv_fp8_e4m3;", "#define __nv_fp8_e4m3 ((__hip_fp8_e4m3_fnuz)0)",
                  "typedef struct { __hip_fp8_e4m3_fnuz v; } __nv_fp8_e4m3;", "#define __nv_fp8_e4m3(x) __hip_fp8_e4m3_fnuz"):
        (finding,) = check(analysis(f"#ifdef USE_ROCM\n{shape}\n#endif\n{guard}", policy=Policy("auto")), ["HG101"])
        assert "which the project defines for ROCm as" not in (finding.fix.message if finding.fix else ""), shape


def test_auto_includes_rocm_when_min_rocm_has_every_api() -> None:
    fix = auto_fix("cudaGraphUpload(0, 0)", min_rocm=(6, 0, 0))
    assert fix.expectation.rocm == "true" and "by ROCm 6.0.0 (min-rocm)" in fix.message


def test_auto_names_what_the_table_cannot_judge() -> None:
    """Nothing the tables know is no evidence in the code; the guard's direction decides (ROCm
    skips the branch as old CUDA does), and the names not judged are said."""
    fix = auto_fix("_(nvmlDeviceGetGpuFabricInfoV); local_helper()")
    assert fix.expectation.rocm == "true" and fix.applicability == "unsafe"
    assert "(policy auto): the branch's code decides nothing (no CUDA or HIP API" in fix.message
    assert "ROCm skips it today only as old CUDA (before 11.0) does" in fix.message
    assert fix.message.endswith("which ROCm takes like current CUDA (HIP has most of what CUDA added up to 11.4); "
                                "not in the tables, so not judged: `nvmlDeviceGetGpuFabricInfoV`")


def test_auto_excludes_rocm_for_an_api_hip_lacks() -> None:
    fix = auto_fix("cudaStreamGetId(0, 0); cudaGraphUpload(0, 0)")
    assert fix.applicability == "safe" and fix.expectation.rocm == "false"
    assert fix.message.endswith(
        "the branch uses `cudaStreamGetId`, which HIP does not have (HIPIFY's tables; native HIP, PyTorch's hipify)")


def test_auto_names_the_models_it_decided_by() -> None:
    fix = auto_fix("(void)CUBLAS_GEMM_DEFAULT_TENSOR_OP")
    assert fix.expectation.rocm == "false" and fix.message.endswith("which HIP does not have (HIPIFY's tables; native HIP)")
    fix = auto_fix("(void)CUBLAS_GEMM_DEFAULT_TENSOR_OP", model_names=("torch-hipify",))
    assert fix.expectation.rocm_min == 10802 and "added in HIP 1.8.2 (PyTorch's hipify; PyTorch's hipify;" in fix.message
    fix = auto_fix("__shfl_xor_sync(0xffffffff, 1, 1)")
    assert fix.message.endswith("which HIP declares only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined "
                                "(HIP's headers; native HIP, PyTorch's hipify)")


def test_auto_no_evidence_keeps_today_and_says_so() -> None:
    """§14.1: a branch that calls nothing the tables know, under a test that does not put ROCm on
    the side of old CUDA, is decided by preserve, never "include"."""
    for condition, today in (("CUDA_VERSION != 10020", "true"), ("CUDA_VERSION == 11000", "false")):
        (finding,) = check(analysis(f"#if {condition}\nint legacy = 1;\n#endif\n", policy=Policy("auto")),
                           ["HG101", "HG102"])
        assert finding.fix.expectation.rocm == today and finding.fix.applicability == "safe", condition
        assert "no evidence decides this branch" in finding.fix.message, condition


@pytest.mark.parametrize(("condition", "rule", "rocm", "side"), [
    ("CUDA_VERSION < 9000", "HG102", "false", "takes it today only as old CUDA (before 9.0) does"),
    ("(CUDA_VERSION <= 6000)", "HG102", "false", "takes it today only as old CUDA (before 6.1) does"),
    ("CUDART_VERSION >= 9020", "HG101", "true", "skips it today only as old CUDA (before 9.2) does"),
    ("__CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 2)", "HG101", "true",
     "skips it today only as old CUDA (before 11.2) does"),
])
def test_auto_without_evidence_in_the_code_follows_current_cuda(condition: str, rule: str, rocm: str, side: str) -> None:
    """Step 6: no evidence in the code, but the test tells old CUDA from new and ROCm is on the
    old side: ROCm takes the path of current CUDA (rccl's `#if CUDART_VERSION >= 9200 / #define
    NCCL_GROUP_CUDA_STREAM 0 / #else ... 1`, mmcv's `#if CUDA_VERSION < 10020` turning an op off)."""
    source = f"#if {condition}\n#define GROUP_STREAM 0\n#else\n#define GROUP_STREAM 1\n#endif\nint s = GROUP_STREAM;\n"
    (finding,) = check(analysis(source, policy=Policy("auto")), [rule])
    fix = finding.fix
    assert fix.expectation.rocm == rocm and fix.applicability == "unsafe"
    assert side in fix.message and "the guard's version test decides" in fix.message


def test_auto_reads_a_branch_with_the_code_under_the_same_condition() -> None:
    """Two guards of one feature: the call under the first, the check of its result under the
    second. The second holds project code only; the first's API decides both."""
    source = ("void f(cublasHandle_t h, double **a, double **t, int *info) {{\n"
              "#if CUDA_VERSION >= 6050\n    cublasDgeqrfBatched(h, 4, 4, a, 4, t, info, 8);\n#endif\n"
              "#if {second}\n    report(check_result(t));\n#endif\n}}\n")
    findings = check(analysis(source.format(second="CUDA_VERSION >= 6050"), policy=Policy("auto"),
                              min_rocm=(6, 0, 0)), ["HG101"])
    assert [f.fix.expectation.rocm for f in findings] == ["true", "true"]
    assert "HIP has every API the code under the same condition (line 2) uses by ROCm 6.0.0" in findings[1].fix.message
    findings = check(analysis(source.format(second="CUDA_VERSION >= 9000"), policy=Policy("auto"),
                              min_rocm=(6, 0, 0)), ["HG101"])  # another condition: another decision
    assert [f.fix.expectation.rocm for f in findings] == ["true", "true"]  # the second by its test alone
    assert "no CUDA or HIP API" in findings[1].fix.message and "the guard's version test decides" in findings[1].fix.message


def test_the_preserve_check_reads_only_the_branchs_own_names() -> None:
    """The safe preserve fix is withheld where the branch's own names are all HIP's; the rest of
    the feature is auto's reading, not a reason to withhold it."""
    source = ("void f(cublasHandle_t h, double **a, double **t, int *info) {\n"
              "#if CUDA_VERSION >= 6050\n    cublasDgeqrfBatched(h, 4, 4, a, 4, t, info, 8);\n#endif\n"
              "#if CUDA_VERSION >= 6050\n    report(check_result(t));\n#endif\n}\n")
    call, check_result = check(analysis(source, min_rocm=(6, 0, 0)), ["HG101"])
    assert call.fix is None and "no safe fix" in call.message
    assert check_result.fix is not None and check_result.fix.applicability == "safe"


def test_auto_reads_each_branch_of_the_same_condition_with_its_own_declarations() -> None:
    """A name's type comes from its declaration in the same branch: `v` is a `half` in the first
    function only, so `v.x` in the second (a `my_pair`) is no evidence of CUDA's `half`."""
    source = ("#if CUDA_VERSION >= 11000\nvoid a() {{ half v; use(v); }}\n#endif\n"
              "#if CUDA_VERSION >= 11000\nvoid b(my_pair v) {{ use(v.x); }}\n#endif\n"
              "#if CUDA_VERSION >= 11000\nvoid c() {{ {third}; }}\n#endif\n")
    *_, last = check(analysis(source.format(third="report()"), policy=Policy("auto"), min_rocm=(6, 0, 0)),
                     ["HG101"])
    assert last.fix.expectation.rocm == "true" and "uses by ROCm 6.0.0 (min-rocm): `half`" in last.fix.message
    *_, last = check(analysis(source.format(third="half w; use(w.x)"), policy=Policy("auto"),
                              min_rocm=(6, 0, 0)), ["HG101"])
    assert last.fix.expectation.rocm == "false" and "reads `w.x` of a `half`" in last.fix.message


def test_auto_leaves_an_include_only_branch_to_its_own_evidence() -> None:
    """A branch that only includes a header is neither a flag nor code: it stays undecided even
    when a branch under the same condition uses a HIP API (a CUDA header is the CUDA path)."""
    source = ("#if CUDA_VERSION >= 9020\n#include <cuda_fp16.h>\n#endif\n"
              "#if CUDA_VERSION >= 9020\nvoid h(__half x);\n#endif\n")
    first, second = check(analysis(source, policy=Policy("auto"), min_rocm=(6, 0, 0)), ["HG101"])
    assert first.fix.expectation.rocm == "false" and "no evidence decides this branch" in first.fix.message
    assert second.fix.expectation.rocm == "true"


def test_auto_counts_names_only_hips_headers_know() -> None:
    """§14.2: `__any_sync` is in no mapping table; HIP 6.3 declares it only behind an opt-in macro."""
    fix = auto_fix("(void)__any_sync(0xffffffff, 1)")
    assert fix.expectation.rocm == "false"
    assert "uses `__any_sync`, which HIP declares only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined (HIP's headers" \
        in fix.message


def test_auto_excludes_a_polyfill_of_what_hip_declares() -> None:
    """§14.3: a `__shfl_down` overload for double, which HIP declares itself."""
    source = ("#if CUDA_VERSION < 9000\n__device__ double __shfl_down(double var, unsigned int delta, int width) "
              "{ return var; }\n#endif\n")
    (finding,) = check(analysis(source, policy=Policy("auto")), ["HG102"])
    assert finding.fix.expectation.rocm == "false"
    assert "defines `__shfl_down(double, unsigned int, int)` (line 2), which HIP already declares" in finding.fix.message
    other = source.replace("double var", "my_type var")  # an overload HIP lacks: no evidence from it
    (finding,) = check(analysis(other, policy=Policy("auto")), ["HG102"])
    assert "HIP already declares" not in finding.fix.message and "the guard's version test decides" in finding.fix.message


def test_auto_excludes_inline_ptx() -> None:
    """§14.4: NVIDIA's assembly is the CUDA-only path."""
    fix = auto_fix('asm volatile("st.v2.u32 [%0], {%1, %2};" :: "l"(p), "r"(a), "r"(b))')
    assert fix.expectation.rocm == "false" and "holds inline PTX (`st.v2.u32`, line 2)" in fix.message


def test_auto_direction_stops_at_what_hip_has_caught_up_with() -> None:
    """A branch for CUDA 12.8 (PyTorch's green contexts) is new CUDA that HIP has not caught up
    with: no evidence keeps ROCm out, as today. A workaround for CUDA before 12.0 without an
    `#else` (rtp-llm's `volatile`) is still skipped: that sends ROCm into no new code."""
    (finding,) = check(analysis("#if CUDA_VERSION >= 12080\nreturn make_context(device);\n#else\n"
                                "fail(\"only CUDA 12.8+\");\n#endif\n", policy=Policy("auto")), ["HG101"])
    assert finding.fix.expectation.rocm == "false" and "no evidence decides this branch" in finding.fix.message
    (finding,) = check(analysis("#if CUDART_VERSION < 12000\nvolatile\n#endif\nint x;\n", policy=Policy("auto")),
                       ["HG102"])
    assert finding.fix.expectation.rocm == "false" and "the guard's version test decides" in finding.fix.message
    (finding,) = check(analysis("#if CUDART_VERSION < 12000\nold();\n#else\nnew_api();\n#endif\n",
                                policy=Policy("auto")), ["HG102"])  # excluding would send ROCm into CUDA 12 code
    assert finding.fix.expectation.rocm == "true" and "no evidence decides this branch" in finding.fix.message


def test_auto_direction_follows_flags_to_the_code_they_gate() -> None:
    """A branch that only defines a capability flag is decided by what the flag switches on:
    flashinfer's `FLASHINFER_CP_ASYNC_ENABLED` (and cutlass' `..._SUPPORTED` -> `..._ENABLED`)
    gate inline PTX, so ROCm stays out; a flag the file never reads is judged where it is read."""
    ptx = ("#if (__CUDACC_VER_MAJOR__ >= 11)\n#define CP_ASYNC_SUPPORTED 1\n#endif\n"
           "#if defined(CP_ASYNC_SUPPORTED)\n#if __CUDA_ARCH__ >= 800\n#define CP_ASYNC_ENABLED\n#endif\n#endif\n"
           "__device__ void copy(void* s) {\n#ifdef CP_ASYNC_ENABLED\n"
           '  asm volatile("cp.async.commit_group;\\n" ::);\n#else\n  *(int*)s = 0;\n#endif\n}\n')
    (finding,) = check(analysis(ptx, policy=Policy("auto")), ["HG101"])
    assert finding.fix.expectation.rocm == "false" and "no evidence decides this branch" in finding.fix.message
    unread = "#if CUDA_VERSION >= 9020\n#define GROUP_POLICY_SUPPORTED\n#endif\n"
    (finding,) = check(analysis(unread, policy=Policy("auto")), ["HG101"])
    assert finding.fix.expectation.rocm == "false" and "no evidence decides this branch" in finding.fix.message
    plain = ptx.replace('asm volatile("cp.async.commit_group;\\n" ::);', "*(int*)s = 1;")
    (finding,) = check(analysis(plain, policy=Policy("auto")), ["HG101"])
    assert finding.fix.expectation.rocm == "true" and "the guard's version test decides" in finding.fix.message


def test_caught_up_is_what_hipifys_tables_say() -> None:
    """CAUGHT_UP: the newest CUDA release of which HIP has at least half the runtime and driver
    APIs it added, no release after it reaching half (rules/hipify_map.tsv)."""
    added: dict[tuple[int, int], list[bool]] = {}
    with open(RULES / "hipify_map.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"):
            if row["library"] in ("CUDA Runtime API", "CUDA Driver API") and row["cuda_added"]:
                release = tuple(int(part) for part in row["cuda_added"].split(".")[:2])
                added.setdefault(release, []).append(bool(row["hip"]))
    half = [release for release, has in sorted(added.items()) if 2 * sum(has) >= len(has)]
    assert CAUGHT_UP == half[-1] == (11, 4)
    assert all(2 * sum(has) < len(has) for release, has in added.items() if release > CAUGHT_UP)


def test_auto_excludes_libcudacxx_names() -> None:
    """flashinfer's `cuda::maximum<>` for CUDA 12.9 (the maintainer kept ROCm on `cub::Max`):
    libcu++'s `cuda::` namespace is not HIP's; PyTorch's `at::cuda::` is no such name."""
    source = ("#if CUDA_VERSION >= 12090\nusing MaxReduceOp = cuda::maximum<>;\n#else\n"
              "using MaxReduceOp = cub::Max;\n#endif\n")
    excluded_by(source, "uses `cuda::maximum` of libcu++ (line 2), which HIP's headers do not declare")
    torch = source.replace("cuda::maximum<>", "decltype(at::cuda::getCurrentCUDAStream())")
    (fix,) = auto_fixes(torch)
    assert "libcu++" not in fix.message
    everywhere = "cuda::std::optional<int> chosen;\n" + source  # the whole file needs libcu++ anyway
    (fix,) = auto_fixes(everywhere)
    assert "libcu++" not in fix.message


def test_auto_reads_pytorchs_driver_api_members_as_the_api() -> None:
    """PyTorch calls the driver API as `DriverAPI::get()->cuGreenCtxDestroy_(...)` (c10/cuda/driver_api.h
    declares each as `name##_`): the member is the API, which HIP does not have; the same name
    outside a member access is no use of it."""
    source = ("#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080\n"
              "  C10_CUDA_DRIVER_CHECK(c10::cuda::DriverAPI::get()->cuGreenCtxDestroy_(green_ctx_));\n"
              "#else\n  TORCH_CHECK(false, \"green contexts need CUDA 12.8\");\n#endif\n")
    excluded_by(source, "uses `cuGreenCtxDestroy`, which HIP does not have")
    plain = source.replace("c10::cuda::DriverAPI::get()->cuGreenCtxDestroy_", "cuGreenCtxDestroy_")
    (fix,) = auto_fixes(plain)
    assert "uses `cuGreenCtxDestroy`" not in fix.message


def test_auto_excludes_each_part_of_a_feature_another_part_of_which_is_cuda_only() -> None:
    """PyTorch's green contexts: every part is under the same condition; one destroys the context
    (`cuGreenCtxDestroy`, no HIP equivalent), another pops it (`cuCtxPopCurrent`, HIP 1.6). The
    maintainers kept ROCm out of all of them: the part HIP could compile alone is no feature."""
    guard = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080\n"
    source = (f"void destroy() {{\n{guard}  cuGreenCtxDestroy(ctx);\n#endif\n}}\n"
              f"void pop() {{\n{guard}  CUcontext popped;\n  cuCtxPopCurrent(&popped);\n#endif\n}}\n")
    destroy, pop = auto_fixes(source)
    assert destroy.expectation.rocm == pop.expectation.rocm == "false"
    assert ("the branch is one part of a feature whose other part, under the same condition (line 2), "
            "uses `cuGreenCtxDestroy`, which HIP does not have") in pop.message
    alone = source[source.index("void pop()"):]
    (fix,) = auto_fixes(alone)
    assert fix.expectation.rocm != "false" and "cuCtxPopCurrent" in fix.message
    # The sibling named is the one CUDA's alone for the hardest reason: HIP declares `__shfl_sync`
    # behind an opt-in macro, and has no `cuGreenCtxDestroy` at all.
    shuffle = f"void lanes() {{\n{guard}  v = __shfl_sync(0xffffffff, v, 0);\n#endif\n}}\n"
    pop = auto_fixes(shuffle + source)[-1]
    assert "other part, under the same condition (line 7), uses `cuGreenCtxDestroy`" in pop.message, pop.message
    # A branch's own message names only the APIs HIP lacks when some are not even opt-in.
    (both,) = auto_fixes(f"{guard}  v = __shfl_sync(0xffffffff, v, 0);\n  cuGreenCtxDestroy(ctx);\n#endif\n")
    assert "uses `cuGreenCtxDestroy`, which HIP does not have" in both.message and "__shfl_sync" not in both.message
    # A release HIP has caught up with (CAUGHT_UP) gates a capability, not one feature: nccl's
    # `CUDART_VERSION >= 11030` graph-capture parts, which rccl took from ROCm 6.1, one of which
    # waits with `cudaEventWaitExternal`, which HIP lacks.
    old = source.replace("defined(CUDA_VERSION) && CUDA_VERSION >= 12080", "CUDART_VERSION >= 11030")
    destroy, pop = auto_fixes(old)
    assert destroy.expectation.rocm == "false" and pop.expectation.rocm != "false"


def test_auto_reads_cuda_names_no_table_knows_in_branches_for_cuda_past_the_tables() -> None:
    """PyTorch's grouped matrix layouts for CUDA 13.2: HIPIFY's tables catalogue CUDA's APIs to
    CUDA 12.6, so `cublasLtGroupedMatrixLayoutCreate`, which none knows, is newer, and HIP does not
    have it. For a branch of CUDA 12.0 the tables would know it: no evidence. A name the project
    defines, or a project's snake-case or `CUDA_CHECK` macro, is no CUDA API."""
    body = ("  cublasLtMatrixLayout_t layout = nullptr;\n  int device = comm->cudaDev;\n"
            "  CUDA_CHECK(cublasLtGroupedMatrixLayoutCreate(&layout, type, count, rows, cols, ld));\n")
    source = f"#if defined(CUDA_VERSION) && CUDA_VERSION >= 13020\n{body}#endif\n"
    fix = excluded_by(source, "uses `cublasLtGroupedMatrixLayoutCreate`, a name spelled as a CUDA API that no "
                              "source knows (not HIP's headers, not PyTorch's hipify, not HIPIFY's tables, which "
                              "list CUDA's APIs to CUDA 12.6, ported or not), in a branch for CUDA 13.2")
    assert "cudaDev" not in fix.message  # a member is no API
    (fix,) = auto_fixes(source.replace("13020", "12000"))
    assert "no source knows" not in fix.message and fix.expectation.rocm != "false"
    shim = "#define cublasLtGroupedMatrixLayoutCreate(...) CUBLAS_STATUS_SUCCESS\n" + source
    (fix,) = auto_fixes(shim)
    assert "no source knows" not in fix.message


def test_catalogued_is_the_newest_cuda_release_of_hipifys_tables() -> None:
    """CATALOGUED: the newest `cuda_added` release of rules/hipify_map.tsv (CUDA's own APIs)."""
    with open(RULES / "hipify_map.tsv", encoding="utf-8") as handle:
        rows = csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
        releases = {tuple(int(part) for part in row["cuda_added"].split(".")[:2])
                    for row in rows if row["cuda_scale"] == "CUDA" and row["cuda_added"]}
    assert CATALOGUED == max(releases) == (12, 6)


def test_auto_checks_chosen_arguments_and_members_against_hips_declarations() -> None:
    """§14.5: the CUDA 13 form of cudaMemAdvise passes a cudaMemLocation where HIP takes an int;
    HIP's __half keeps its bits protected."""
    fix = auto_fix("cudaMemLocation loc = {}; cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, loc)")
    assert fix.expectation.rocm == "false"
    assert ("passes a `cudaMemLocation` as argument 4 of `cudaMemAdvise` (line 2), where HIP's `hipMemAdvise` "
            "takes `int`") in fix.message
    fix = auto_fix("half r; r.x = ptr->x")
    assert fix.expectation.rocm == "false" and "reads `r.x` of a `half`" in fix.message
    assert "a member HIP's `half` does not make public (its public members: none" in fix.message
    fix = auto_fix("cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, device)", min_rocm=(6, 0, 0))
    assert fix.expectation.rocm == "true"  # the int form: HIP has it
    # The nearest declaration types a name: FBGEMM's NVFP4 kernels take a `__nv_bfloat16 const* input`,
    # a later function an `at::Tensor input`, whose `input.numel()` is no member of a bf16.
    assert "reads `input.x`" in auto_fix("half input; } void g(Tensor other) { int n = input.x").message
    assert "reads `input.x`" not in auto_fix("half input; } void g(Tensor input) { int n = input.x").message
    assert "reads `input.x`" not in auto_fix("half const* input = p; int n = input.x").message  # not this `input`
    assert "reads `input.x`" in auto_fix("half input; if (n) return input; int m = input.x").message


def test_auto_takes_versions_from_hip_apis_only() -> None:
    """§14.6: `uint32_t` or `exp` are no version evidence (nor any evidence)."""
    fix = auto_fix("uint32_t x = exp(1.0)")
    assert "no CUDA or HIP API" in fix.message and "ROCM_VERSION" not in str(fix.edits)


def test_auto_never_contradicts_the_enclosing_groups() -> None:
    """§14.7: inside `#ifdef USE_ROCM`, the enclosing group decides the guard: no R clause."""
    source = "#ifdef USE_ROCM\n#if CUDA_VERSION >= 11000\nvoid f() { cudaStreamGetId(0, 0); }\n#endif\n#endif\n"
    findings = check(analysis(source, policy=Policy("auto")), ["HG101"])
    assert all(f.fix is None or "USE_ROCM" not in "".join(e.content for e in f.fix.edits) for f in findings)


def test_auto_fix_end_to_end(tmp_path) -> None:
    """The issue's done-when: rocm-min of the API's HIP version, or exclusion of ROCm."""
    source = tmp_path / "a.cu"
    source.write_text("#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000\n"
                      "void f() { cudaGraphInstantiateWithParams(0, 0, 0); }\n#endif\n"
                      "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11030\n"
                      "void g() { cudaStreamGetId(0, 0); }\n#endif\n")
    result = run_cli("check", "--policy", "auto", "--fix", "--unsafe-fixes", str(source))
    assert result.code == 0, result.stdout + result.stderr
    lines = source.read_text().splitlines()
    assert lines[0] == ("#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || "
                        "(defined(USE_ROCM) && ROCM_VERSION >= 60200)")
    assert lines[3] == "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11030 && !defined(USE_ROCM)"


# --- hipify-guard map -----------------------------------------------------------------------


def test_map_runtime_version_getter() -> None:
    result = run_cli("map", "cudaRuntimeGetVersion")
    assert result.code == 0, result.stderr
    assert "cudaRuntimeGetVersion -> hipRuntimeGetVersion" in result.stdout
    assert "added 1.6.0" in result.stdout and "warning: the value scales differ" in result.stdout


def test_map_hip_name_finds_its_cuda_names() -> None:
    result = run_cli("map", "hipMalloc")
    assert result.code == 0 and "cudaMalloc -> hipMalloc" in result.stdout
    assert "hipMalloc: the HIP name of" in result.stdout


def test_map_unsupported_name_says_so() -> None:
    result = run_cli("map", "cudaDeviceFlushGPUDirectRDMAWrites")
    assert result.code == 0 and "unsupported (HIP has no equivalent)" in result.stdout


def test_map_unknown_name_exits_1_with_suggestions() -> None:
    result = run_cli("map", "cudaMalloc", "cudaMaloc")
    assert result.code == 1
    assert "cudaMalloc -> hipMalloc" in result.stdout
    assert "cudaMaloc: not in the mapping tables nor in HIP's headers; did you mean cudaMalloc" in result.stderr


def test_map_is_case_sensitive() -> None:
    result = run_cli("map", "CUDAMALLOC")
    assert result.code == 1 and "did you mean cudaMalloc" in result.stderr


def test_map_json() -> None:
    result = run_cli("map", "--output-format", "json", "cudaRuntimeGetVersion", "hipMaloc")
    assert result.code == 1
    first, second = json.loads(result.stdout)
    assert first["found"] and first["direction"] == "cuda-to-hip" and first["warnings"]
    (entry,) = first["entries"]
    assert (entry["hip"], entry["hip_added"], entry["supported"]) == ("hipRuntimeGetVersion", "1.6.0", True)
    assert not second["found"] and "hipMalloc" in second["suggestions"]


def test_map_without_names_is_a_usage_error() -> None:
    assert run_cli("map").code == 2


def test_hg203_names_the_version_test_around_the_branch(tmp_path) -> None:
    """mscclpp: the FP8 aliases are under `#if defined(MSCCLPP_ROCM_FP8_FNUZ)`, inside
    `#if HIP_VERSION_MAJOR >= 6`: the message names the version test (line 2), which is what lets
    ROCm 6.0 in, not the switch around the use."""
    (tmp_path / "a.hip").write_text("#include <hip/hip_runtime.h>\n"
                                    "#if defined(HIP_VERSION_MAJOR) && (HIP_VERSION_MAJOR >= 6)\n"
                                    "#include <hip/hip_fp8.h>\n#if defined(USE_FNUZ)\n"
                                    "using fp8 = __hip_fp8_e4m3_fnuz;\n#endif\n#endif\n")
    result = run_cli("check", "--select", "HG203", "--output-format", "json", "a.hip", cwd=tmp_path)
    (finding,) = result.json()
    assert finding["message"].startswith("`__hip_fp8_e4m3_fnuz` needs HIP 6.2.0, but the `#if` on line 2 takes "
                                         "this branch on ROCm 6.0.0 and newer")
