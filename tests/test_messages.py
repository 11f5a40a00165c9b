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
