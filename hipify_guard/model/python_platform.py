"""What PyTorch code sees on each platform (the HIP note, spec §12): the project's own platform
flags and the test decorators that skip ROCm.

ROCm here is a ROCm build of PyTorch on an AMD GPU: `torch.version.hip` is a version string,
`torch.version.cuda` is None, `torch.cuda.is_available()` is true and
`torch.cuda.get_device_capability()` is the GPU's gfx version (`python_capability`). CUDA is a
CUDA build on an NVIDIA GPU: the reverse.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.records import record

# Names and no-argument calls that say "this is ROCm" (true there) or "this is CUDA" (false on
# ROCm), matched against the end of the dotted name an expression spells or imports
# (`IS_HIP_EXTENSION` matches `cpp_extension.IS_HIP_EXTENSION`). Seen on the real trees:
# torch.utils.cpp_extension, torch's test utilities, vLLM's `current_platform`, cupy's
# `cupy.cuda.runtime.is_hip`, Triton helpers `is_hip()` / `is_cuda()`, apex's `is_rocm_pytorch()`, torchao's `is_ROCM()`,
# flash-linear-attention's `IS_AMD` / `IS_NVIDIA` (from Triton's active backend).
DEFAULT_ROCM_FLAGS = (
    "IS_HIP_EXTENSION", "IS_ROCM", "IS_HIP", "IS_AMD", "TEST_WITH_ROCM", "runtime.is_hip",
    "is_hip()", "is_rocm()", "is_ROCM()", "is_rocm_pytorch()", "_is_hip()", "_is_rocm()",
)
DEFAULT_CUDA_FLAGS = ("IS_NVIDIA", "current_platform.is_cuda()", "is_cuda()", "_is_cuda()")
# Modules written for NVIDIA GPUs' own programming models, with no ROCm build: a file that imports
# one unconditionally at module level runs only on CUDA (CUTLASS's Python DSLs, CuTe DSL among
# them: `nvidia-cutlass-dsl`; cuTile; TensorRT and TensorRT-LLM).
DEFAULT_CUDA_MODULES = ("cutlass", "cuda.tile", "tensorrt", "tensorrt_llm")
# Test decorators that skip the test on ROCm (torch's, and the real trees' own).
ROCM_SKIP_DECORATORS = frozenset({"skipIfRocm", "skipCUDAIfRocm", "skip_if_rocm", "skip_rocm", "disable_on_rocm"})
CALL = "()"  # the part a call without arguments adds to a dotted name
CALL_WITH_ARGUMENTS = "(...)"
_FLAG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?")

def flag_problem(spec: str) -> str:
    """Why `spec` is no flag (a dotted name, optionally ending in `()`), or ""."""
    return "" if _FLAG.fullmatch(spec) else f"not a dotted name or a call without arguments: {spec!r}"


@lru_cache(maxsize=64)
def _compiled(specs: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Each flag as dotted parts, CALL last for a call."""
    split = ((spec[:-2], (CALL,)) if spec.endswith(CALL) else (spec, ()) for spec in specs)
    return tuple((*name.split("."), *call) for name, call in split)


@record(slots=True)
class PythonPlatforms:
    """The project's platform flags (configuration keys `python-rocm-flags`, `python-cuda-flags`)
    its CUDA-only modules (`python-cuda-modules`) and the PyTorch operators only its CUDA build
    registers (`python-cuda-ops`: calling one raises on ROCm)."""

    rocm_flags: tuple[str, ...] = DEFAULT_ROCM_FLAGS
    cuda_flags: tuple[str, ...] = DEFAULT_CUDA_FLAGS
    cuda_modules: tuple[str, ...] = DEFAULT_CUDA_MODULES  # `python-cuda-modules`
    cuda_ops: frozenset[str] = frozenset()  # `python-cuda-ops`

    def cuda_module(self, module: str) -> bool:
        """Whether importing `module` (a dotted absolute name) means the code runs only on CUDA."""
        return any(module == name or module.startswith(name + ".") for name in self.cuda_modules)

    def flag(self, names: tuple[str, ...]) -> bool | None:
        """True for a ROCm flag, False for a CUDA flag, None for neither (`names`: dotted parts,
        with CALL last for a call without arguments)."""
        for value, specs in ((True, self.rocm_flags), (False, self.cuda_flags)):
            if any(names[-len(parts):] == parts for parts in _compiled(specs) if len(parts) <= len(names)):
                return value
        return None
