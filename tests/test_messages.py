"""Messages say what ROCm gets today, in plain words fitted to the situation."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

CASES = [
    ("#if CUDA_VERSION >= 11000\n#endif\n", "HG101", "this branch is silently skipped on ROCm"),
    ("#if CUDA_VERSION < 11000\n#endif\n", "HG102", "ROCm silently takes the branch meant for old CUDA (before 11.0)"),
    # Issue 25: the branch ROCm takes is the one of the CUDA releases whose tests have ROCm's values.
    ("#if !defined(CUDART_VERSION) || CUDART_VERSION >= 12000\n#endif\n", "HG102",
     "ROCm silently takes the branch meant for new CUDA (12.0 and newer)"),
    ("#if !(CUDART_VERSION >= 12020 && CUDART_VERSION < 13000)\n#endif\n", "HG102",
     "ROCm silently takes the branch meant for CUDA before 12.2 and from 13.0 on"),
    ("#if CUDART_VERSION != 10020\n#endif\n", "HG102", "ROCm silently takes the branch meant for every CUDA release but 10.2"),
    ("#if (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ == 0) == 0\n#endif\n", "HG102",
     "ROCm silently takes the branch meant for every CUDA release but 12.0"),
    ("#if CUDART_VERSION >= 12000\n#elif CUDART_VERSION != 10020\n#endif\n", "HG102",
     "ROCm silently takes the branch meant for CUDA before 10.2 and 10.3 to 11.9"),
    ("#if CUDART_VERSION < 11080\n#error CUDA 11.8 or newer\n#endif\n", "HG102",
     "ROCm hits the `#error` meant for old CUDA (before 11.8)"),
    ("#if __CUDACC_VER_MAJOR__ < 11 || __CUDACC_VER_BUILD__ < 3\n#endif\n", "HG102",
     "ROCm silently takes a branch meant for some CUDA releases only"),
    ("#ifndef CUDA_VERSION\n#define CUDA_VERSION 0\n#endif\n", "HG103", "native HIP: true"),
    ("#ifndef CUDART_VERSION\n#define CUDART_VERSION 0\n#endif\n", "HG102",
     "ROCm silently uses this fallback definition of CUDART_VERSION"),
    ("#ifdef USE_ROCM\n#if CUDA_VERSION >= 11000\n#endif\n#endif\n", "HG101",
     "only ROCm compiles this region, so the test is always false here"),
    ("#if __HIP_PLATFORM_AMD__\n#endif\n", "HG106", "hard error on ROCm"),
]


@pytest.mark.parametrize(("source", "code", "words"), CASES, ids=[c[1] + ":" + c[2][:30] for c in CASES])
def test_message_says_what_rocm_gets(tmp_path: Path, source: str, code: str, words: str) -> None:
    target = tmp_path / "case.cu"
    target.write_text(source)
    result = run_cli("check", "--no-cache", "--select", code, "--output-format", "json", str(target))
    messages = [item["message"] for item in result.json()]
    assert len(messages) == 1 and words in messages[0], messages


AGAINST_TODAY = [
    ("#if CUDA_VERSION < 9000\n__device__ void put(unsigned* p) { asm volatile(\"st.u32 [%0], 1;\" :: \"l\"(p)); }\n"
     "#endif\n", "HG102", "no safe fix: ROCm takes this branch today, but the branch holds inline PTX"),
    ("#if CUDA_VERSION >= 12000\ninline void flush() {}\n#else\ninline void flush() {\n"
     "  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,\n"
     "                                     cudaFlushGPUDirectRDMAWritesToOwner);\n}\n#endif\n", "HG101",
     "no safe fix: the code ROCm takes instead uses `cudaDeviceFlushGPUDirectRDMAWrites`"),
    ("#if CUDA_VERSION >= 11000\ninline void upload(cudaGraphExec_t e) { cudaGraphUpload(e, 0); }\n#endif\n", "HG101",
     "no safe fix: ROCm skips this branch today, but the newest API the branch uses is `cudaGraphUpload`"),
    # magma's sparse sources: a no-op stand-in for an API CUDA 11 removed and hipSPARSE never had
    ("#if CUDA_VERSION >= 11000\n#define cusparseDestroySolveAnalysisInfo(info) {;}\n#endif\n", "HG101",
     "no safe fix: ROCm skips this branch today, but the branch defines the macro `cusparseDestroySolveAnalysisInfo`"),
    # lmdeploy's sm90_utils.h: both arms encode a stride for the same PTX instruction
    ("__device__ void stride(void* map, long s) {\n#if CUDA_VERSION >= 12050\n"
     "  asm volatile(\"tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 1, %1;\" :: \"l\"(map), \"l\"(s));\n"
     "#else\n"
     "  asm volatile(\"tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 1, %1;\" :: \"l\"(map), \"l\"(s >> 4));\n"
     "#endif\n}\n", "HG101", "no safe fix: the code ROCm takes instead holds inline PTX"),
    # TransformerEngine's cublaslt_gemm.cu: the branch ROCm takes prints CUDA_VERSION, undefined there
    ("#include <torch/extension.h>\nvoid gemm(bool atomic) {\n#if !(CUDA_VERSION >= 12020 && CUDA_VERSION < 13000)\n"
     "  if (atomic) throw_error(\"Atomic GEMM requires CUDA 12.2, compile-time CUDA version is \", CUDA_VERSION);\n"
     "#endif\n}\n", "HG102", "no safe fix: ROCm takes this branch today, but the branch reads `CUDA_VERSION` as a value"),
]


@pytest.mark.parametrize(("source", "code", "words"), AGAINST_TODAY, ids=[c[2][31:70] for c in AGAINST_TODAY])
def test_no_safe_fix_where_the_branch_says_otherwise(tmp_path: Path, source: str, code: str, words: str) -> None:
    """Keeping ROCm's outcome of today is no fix where the branch's code says otherwise (spec §14's
    evidence): the finding stays, without a fix, and says why and which policy rewrites it."""
    target = tmp_path / "case.cu"
    target.write_text(source)
    result = run_cli("check", "--no-cache", "--select", code, "--output-format", "json", str(target))
    found = result.json()
    assert len(found) == 1 and words in found[0]["message"] and found[0]["fix"] is None, found


CAPABILITY = "import torch\nmajor, minor = torch.cuda.get_device_capability()\n"
PYTHON_CASES = [
    # The GPUs where the comparison misfires, not those where it is harmless (issue 25).
    ("if major != 10:\n    raise RuntimeError('SM100 only')\n", "HG303",
     "false on gfx1030 (RX 6000), as on the architectures it names:"),
    ("if major != 9:\n    hopper_kernels = None\n", "HG303",
     "false on gfx908 (MI100), gfx90a (MI200), gfx942 (MI300), gfx950 (MI350), as on the architectures it names:"),
    ("if (major, minor) == (9, 0):\n    pass\n", "HG303", "true on gfx908 (MI100), gfx90a (MI200), as on the"),
    ("if major < 9:\n    pass\n", "HG303", "false on every AMD GPU, which no NVIDIA GPU from Volta to Ampere gives it:"),
    ("if major >= 10:\n    pass\n", "HG303", "true on gfx1030 (RX 6000), gfx1100 (RX 7000), gfx1201 (RX 9000), which"),
    ("if major < 10:\n    raise RuntimeError('Blackwell only')\n", "HG303",
     "false on gfx1030 (RX 6000), gfx1100 (RX 7000), gfx1201 (RX 9000), which no NVIDIA GPU from Volta to Ampere"),
]


@pytest.mark.parametrize(("source", "code", "words"), PYTHON_CASES, ids=[c[1] + ":" + c[0][:20] for c in PYTHON_CASES])
def test_python_message_names_where_rocm_misfires(tmp_path: Path, source: str, code: str, words: str) -> None:
    target = tmp_path / "case.py"
    target.write_text(CAPABILITY + source)
    result = run_cli("check", "--no-cache", "--isolated", "--select", code, "--output-format", "json", str(target))
    messages = [item["message"] for item in result.json()]
    assert len(messages) == 1 and words in messages[0], messages
