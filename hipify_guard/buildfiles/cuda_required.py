"""A `setup.py` that builds only with CUDA's toolkit: what it compiles, no ROCm build compiles.

It needs nvcc when it stops without `CUDA_HOME` (`if CUDA_HOME is None: raise ...`, SageAttention),
runs nvcc (`subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"])`, flash-attention's
`csrc/fused_dense_lib/setup.py`), or passes nvcc's own code-generation and assembler flags (`-gencode`,
`arch=compute_80`, `--ptxas-options`: DeepEP), which hipcc rejects; a `CUDA_HOME` check counts
where no other `if` holds it; and it never speaks of ROCm (no `hip`, `rocm`,
`ROCM_HOME`, `IS_HIP_EXTENSION`, `torch.version.hip` in its code): PyTorch's `cpp_extension`
would otherwise hipify its sources on a ROCm PyTorch.
"""

from __future__ import annotations

import ast
import re

from .python_tests import dotted

_ROCM = re.compile(r"(?i)(?<![a-z0-9])(?:hip|rocm|hipcc|rocm_home|is_hip_extension)(?![a-z])")
_NVCC_FLAG = re.compile(r"^-gencode|arch=compute_|^-arch=sm_|^--generate-code|^--ptxas-options|^-Xptxas")
_NVCC_PATH = re.compile(r"/nvcc(?:\.exe)?$")
_JOINS = ("os.path.join", "posixpath.join", "Path", "pathlib.Path")


def cuda_required(tree: ast.Module, text: str) -> ast.AST | None:
    """The statement or call that shows the script needs CUDA's toolkit (None: it does not, or it
    speaks of ROCm)."""
    if _ROCM.search(_code(text)):
        return None
    for node in _outside_ifs(tree.body):
        if isinstance(node, ast.If) and _without_cuda_home(node.test) and any(
                isinstance(item, ast.Raise) or isinstance(item, ast.Call) and dotted(item.func) in ("sys.exit", "exit")
                for statement in node.body for item in ast.walk(statement)):
            return node
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                _NVCC_FLAG.search(node.value) or _NVCC_PATH.search(node.value.strip())):
            return node
        if isinstance(node, ast.Call) and dotted(node.func) in _JOINS and any(
                isinstance(arg, ast.Constant) and arg.value in ("nvcc", "nvcc.exe") for arg in node.args):
            return node  # os.path.join(CUDA_HOME, "bin", "nvcc"); a bare "nvcc" key is hipcc's too
    return None


def _outside_ifs(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of the module and its functions that no other `if` holds (a check
    under `if "--permutation_search" in sys.argv:` needs CUDA for that option only)."""
    found: list[ast.stmt] = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.extend(_outside_ifs(statement.body))
    return found


def _without_cuda_home(test: ast.expr) -> bool:
    """`CUDA_HOME is None`, `not CUDA_HOME`, `CUDA_HOME == None`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return dotted(test.operand).endswith("CUDA_HOME")
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq))
            and dotted(test.left).endswith("CUDA_HOME") and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None)


def _code(text: str) -> str:
    """The text without comments (a `# TODO: ROCm` does not build for ROCm)."""
    return re.sub(r"(?m)#.*$", "", text)
