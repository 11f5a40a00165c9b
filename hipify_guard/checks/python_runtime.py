"""HG306-HG309: PyTorch runtime settings that the HIP note says ROCm does not have (spec §12):
TF32, the `hip`/`rocm` device types, the cuFFT plan cache size, distributed backends other than
nccl and gloo."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

from ..core.findings import SAFE, Finding, Fix
from ..core.languages import PYTHON
from ..fix.python_rewrite import DEVICE_TYPE, cuda_device
from ..model.python_analysis import PythonFile
from ..model.settings import Settings
from ..python.names import argument, dotted, last_name, string_value
from .registry import check

_TF32_TRIGGERS = ("allow_tf32", "set_float32_matmul_precision", "fp32_precision")
_TF32_PRECISIONS = frozenset({"high", "medium"})
_DEVICE_KEYWORDS = ("device", "device_type")
_DEVICE_PREFIX = re.compile(r"(?:hip|rocm)(?::|$)", re.I)
# The backends CUDA builds of PyTorch offer that ROCm's do not (it has only nccl, RCCL underneath,
# and gloo). Backends of other accelerators (xccl, ccl, hccl, mccl, cncl, ...) select code for
# hardware that a ROCm machine does not have, and torch's test backends (fake, threaded) work
# everywhere: neither is reported.
_NOT_ON_ROCM = frozenset({"mpi", "ucc"})
# Their names as the code spells them: "mpi", 'ucc', "cpu:gloo,cuda:mpi", Backend.MPI.
_BACKEND_TRIGGERS = tuple(f"{before}{name}" for name in sorted(_NOT_ON_ROCM) for before in ("'", '"', ":")) + (
    "Backend.MPI", "Backend.UCC")
# Where each torch.distributed call takes its backend: (position, keyword).
_BACKEND_ARGUMENT = {"init_process_group": 0, "new_group": 2, "new_subgroups": 3, "new_subgroups_by_enumeration": 2}


@check("HG306", lambda settings: _TF32_TRIGGERS, language=PYTHON)
def tf32_enabled(file: PythonFile) -> Iterator[Finding]:
    """TF32 turned on (`allow_tf32 = True`, `set_float32_matmul_precision("high")`), which ROCm ignores."""
    for node in file.nodes(ast.Assign):
        if _enables_tf32(node) and file.flow.reachable(node):
            yield _tf32(file, node)
    for call in file.nodes(ast.Call):
        name = last_name(call.func)
        precision = string_value(argument(call, 0, "precision")) if name == "set_float32_matmul_precision" else None
        flags = name == "flags" and any(k.arg == "allow_tf32" and _is_true(k.value) for k in call.keywords)
        if (precision in _TF32_PRECISIONS or flags) and file.flow.reachable(call):
            yield _tf32(file, call)


def _enables_tf32(node: ast.Assign) -> bool:
    for target in node.targets:
        if isinstance(target, ast.Attribute) and target.attr == "allow_tf32" and _is_true(node.value):
            return True
        if isinstance(target, ast.Attribute) and target.attr == "fp32_precision" and string_value(node.value) == "tf32":
            return True
    return False


def _is_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _tf32(file: PythonFile, node: ast.AST) -> Finding:
    message = (f"`{file.shown(node)}` enables TF32, which ROCm does not support (PyTorch's HIP note): on ROCm "
               "float32 products and convolutions are not rounded to TF32 as on CUDA, so results and speed differ")
    return Finding("HG306", message, *file.span(node))


def _device_screen(settings: Settings) -> Callable[[bytes], bool]:
    """HG307's screen: a quoted `hip` counts only in a file that names a device or calls `.to(`."""
    return lambda data: b"device" in data or b".to(" in data


@check("HG307", lambda settings: ("'hip", '"hip', "'rocm", '"rocm', "'HIP", '"HIP', "'ROCM", '"ROCM'),
       _device_screen, language=PYTHON)
def hip_device_type(file: PythonFile) -> Iterator[Finding]:
    """The device type `"hip"` or `"rocm"` in `torch.device`, `.to` or `device=`: ROCm keeps `"cuda"`."""
    seen: set[int] = set()
    for call in file.nodes(ast.Call):
        for given in _device_arguments(call):
            for literal in _literals(file, given):
                if id(literal) in seen:
                    continue
                seen.add(id(literal))
                edit = cuda_device(file, literal)
                message = (f"`{file.shown(literal)}` is no device type of PyTorch on ROCm, which keeps the CUDA "
                           "interfaces and the device type 'cuda' (PyTorch's HIP note): use 'cuda'")
                fix = Fix(SAFE, "Use the device type 'cuda'", (edit,)) if edit else None
                yield Finding("HG307", message, *file.span(literal), fix)


def _device_arguments(call: ast.Call) -> list[ast.expr]:
    """The arguments of a call that name a device: `torch.device(x)`, `t.to(x)`, `device=x`."""
    found = [k.value for k in call.keywords if k.arg in _DEVICE_KEYWORDS]
    name = last_name(call.func)
    if name in ("device", "to") and call.args and not isinstance(call.args[0], ast.Starred):
        found.append(call.args[0])
    if name == "device":
        found += [k.value for k in call.keywords if k.arg == "type"]
    return found


def _literals(file: PythonFile, node: ast.expr) -> list[ast.Constant | ast.JoinedStr]:
    """The `"hip"`/`"rocm"` device literals `node` is or holds: itself, the branches of a
    conditional expression, or what its one-level alias is assigned (`device = "hip" if ...`)."""
    alias = file.symbols.value(node)
    values = [node if alias is None else alias]
    literals = []
    while values:
        value = values.pop()
        if isinstance(value, ast.IfExp):
            values += [value.body, value.orelse]
        elif string_value(value) is not None and DEVICE_TYPE.fullmatch(value.value):
            literals.append(value)
        elif isinstance(value, ast.JoinedStr) and value.values:
            if _DEVICE_PREFIX.match(string_value(value.values[0]) or ""):
                literals.append(value)  # f"hip:{index}"
    return literals


@check("HG308", lambda settings: ("cufft_plan_cache",), language=PYTHON)
def cufft_plan_cache_size(file: PythonFile) -> Iterator[Finding]:
    """Setting `torch.backends.cuda.cufft_plan_cache` sizes where ROCm can reach it."""
    for node in file.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(_plan_cache_size(target) for target in targets) and file.flow.reachable(node):
            message = (f"`{file.shown(node)}` sets the cuFFT plan cache size, which ROCm's hipFFT/rocFFT does not "
                       "support (PyTorch's HIP note)")
            yield Finding("HG308", message, *file.span(node))


def _plan_cache_size(target: ast.expr) -> bool:
    if not (isinstance(target, ast.Attribute) and target.attr == "max_size"):
        return False
    node = target.value
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        if isinstance(node, ast.Attribute) and node.attr == "cufft_plan_cache":
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id == "cufft_plan_cache"


@check("HG309", lambda settings: _BACKEND_TRIGGERS, language=PYTHON)
def unsupported_distributed_backend(file: PythonFile) -> Iterator[Finding]:
    """A torch.distributed backend that CUDA builds have and ROCm's do not (mpi, ucc), where ROCm can reach it."""
    for call in file.nodes(ast.Call):
        position = _BACKEND_ARGUMENT.get(last_name(call.func))
        given = argument(call, position, "backend") if position is not None else None
        if given is None or (file.symbols.names(call.func) or ())[:2] != ("torch", "distributed"):
            continue
        literal = file.symbols.value(given) or given
        unsupported = sorted(set(_backend_names(literal)) & _NOT_ON_ROCM)
        if unsupported and file.flow.reachable(call):
            shown = ", ".join(f"'{name}'" for name in unsupported)
            message = (f"`{file.shown(literal)}` asks torch.distributed for the {shown} backend, but PyTorch on ROCm "
                       "has only 'nccl' (RCCL) and 'gloo' (PyTorch's HIP note)")
            yield Finding("HG309", message, *file.span(given))


def _backend_names(node: ast.expr) -> list[str]:
    """The backends a value names: "mpi", "cpu:gloo,cuda:ucc", `dist.Backend.MPI`."""
    text = string_value(node)
    if text is not None:
        return [part.rpartition(":")[2].strip().lower() for part in text.split(",") if part.strip()]
    spelled = dotted(node) or ()
    return [spelled[-1].lower()] if spelled[-2:-1] == ("Backend",) else []
