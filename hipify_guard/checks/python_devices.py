"""HG303, HG304: device facts that mean something else on ROCm, compared with CUDA's numbers
(spec §12): the compute capability (the AMD GPU's gfx version there) and cuDNN's version
(MIOpen's there)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

from ..core.findings import Finding
from ..core.languages import PYTHON
from ..model.python_analysis import PythonFile
from ..model.python_capability import (AMD_CAPABILITIES, AMD_GPUS, PRE_HOPPER_CAPABILITIES, comparison_on,
                                           is_capability)
from ..model.python_values import constant_number, decided_without, derives, is_cudnn_version, never_read
from ..model.settings import Settings
from .registry import check


def _comparisons(file: PythonFile, test: Callable[[tuple[str, ...]], bool]) -> Iterator[ast.Compare]:
    """Comparisons of a value that `test` recognises with numeric constants, in code that ROCm and
    CUDA both reach (where the value means different things: not in a ROCm-only branch) and whose
    value matters (not `... and False`, nor stored in a name nothing reads)."""
    for compare in file.nodes(ast.Compare):
        sides = [compare.left, *compare.comparators]
        for number, op in enumerate(compare.ops):
            left, right = sides[number : number + 2]
            if isinstance(op, (ast.Is, ast.IsNot)):
                continue
            if (constant_number(right) and derives(file, left, test) is not None) or (
                    constant_number(left) and derives(file, right, test) is not None):
                if (file.flow.reachable(compare) and file.cuda_flow.reachable(compare)
                        and not decided_without(file, compare) and not never_read(file, compare)):
                    yield compare
                break


def _capability_screen(settings: Settings) -> Callable[[bytes], bool]:
    """HG303's screen: `get_device_properties` counts only with a `.major` or `.minor` in the file."""
    return lambda data: b"get_device_capability" in data or b".major" in data or b".minor" in data


@check("HG303", lambda settings: ("get_device_capability", "get_device_properties"), _capability_screen,
       language=PYTHON)
def capability_compared_with_cuda(file: PythonFile) -> Iterator[Finding]:
    """`get_device_capability()` (or its major/minor) compared with CUDA compute capabilities where
    ROCm can reach it; `major == 9 and minor == 0` is one finding. One that treats every AMD GPU as
    a GPU whose features it has is not reported (`_harmless`)."""
    found = list(_comparisons(file, is_capability))
    reported: set[ast.Compare] = set()
    for compare in found:
        if compare in reported:
            continue
        parent = file.source.parents.get(id(compare))
        group = [compare]
        if isinstance(parent, ast.BoolOp) and all(operand in found for operand in parent.values):
            group = parent.values
        reported.update(group)
        node = parent if len(group) > 1 else compare
        any_of = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or)
        on_amd = _values(file, group, any_of, AMD_GPUS)
        if on_amd is not None and _harmless(file, group, any_of, on_amd):
            continue
        message = (f"`{file.shown(node)}` compares the device capability with CUDA compute capabilities where "
                   "ROCm can reach it; there it is the AMD GPU's gfx version (gfx90a, MI200: (9, 0); gfx942, MI300: "
                   f"(9, 4)){_misfiring(file, group, any_of, on_amd)}: test the platform first "
                   "(`torch.version.hip`) or use `gcnArchName` on ROCm")
        yield Finding("HG303", message, *file.span(node))


def _harmless(file: PythonFile, comparisons: list[ast.Compare], any_of: bool, on_amd: list[bool]) -> bool:
    """Whether the comparisons treat each AMD GPU as a GPU whose features it has: tests for given
    architectures (`==`, `in`; `!=`, `not in`) that no AMD GPU matches, and thresholds that give
    each AMD GPU a value that some GPU from Volta to Ampere gets (`>= (8, 0)`, `< 8`)."""
    kinds = {_kind(compare) for compare in comparisons}
    if kinds == {"equal"}:
        return not any(on_amd)
    if kinds == {"unequal"}:
        return all(on_amd)
    on_pre_hopper = _values(file, comparisons, any_of, PRE_HOPPER_CAPABILITIES)
    return on_pre_hopper is not None and set(on_amd) <= set(on_pre_hopper)


def _kind(compare: ast.Compare) -> str:
    """"equal" for a test for given architectures, "unequal" for its negation, else "order"."""
    ops = {type(op) for op in compare.ops}
    if ops <= {ast.Eq, ast.In}:
        return "equal"
    if ops <= {ast.NotEq, ast.NotIn}:
        return "unequal"
    return "order"


def _values(file: PythonFile, comparisons: list[ast.Compare], any_of: bool,
            capabilities: Sequence[tuple[int, int]]) -> list[bool] | None:
    """The value of `comparisons` (joined by `or` when `any_of`, else by `and`) on a GPU reporting
    each of `capabilities`, or None when something else than the capability decides one."""
    values = [comparison_on(file.symbols, compare, capabilities) for compare in comparisons]
    if None in values:
        return None
    combine = any if any_of else all
    return [combine(value[number] for value in values) for number in range(len(capabilities))]


def _misfiring(file: PythonFile, comparisons: list[ast.Compare], any_of: bool, on_amd: list[bool] | None) -> str:
    """`, so this is true on ...`: the AMD GPUs the comparisons misfire on, and their value there
    ("" when it could not be evaluated). A test for given architectures misfires where it matches
    (`== 9`: true) and its negation where it does not (`!= 10`: false); a threshold where it gives
    a value that no GPU from Volta to Ampere gets (`< 9`: false, as on Hopper and newer)."""
    if on_amd is None:
        return ""
    kinds = {_kind(compare) for compare in comparisons}
    if kinds in ({"equal"}, {"unequal"}):
        wrong, why = {True} if kinds == {"equal"} else {False}, "as on the architectures it names"
    else:
        on_pre_hopper = _values(file, comparisons, any_of, PRE_HOPPER_CAPABILITIES)
        if on_pre_hopper is None:
            return ""
        wrong, why = {True, False} - set(on_pre_hopper), "which no NVIDIA GPU from Volta to Ampere gives it"
    misfires = [(value, f"{arch} ({board})") for value, (arch, board, _) in zip(on_amd, AMD_CAPABILITIES)
                if value in wrong]
    if not misfires:
        return ""
    value = "true" if misfires[0][0] else "false"
    where = "every AMD GPU" if len(misfires) == len(AMD_CAPABILITIES) else ", ".join(gpu for _, gpu in misfires)
    return f", so this is {value} on {where}, {why}"


@check("HG304", lambda settings: ("cudnn.version",), language=PYTHON)
def cudnn_version_compared(file: PythonFile) -> Iterator[Finding]:
    """`torch.backends.cudnn.version()` compared with cuDNN version numbers where ROCm can reach it."""
    for compare in _comparisons(file, is_cudnn_version):
        message = (f"`{file.shown(compare)}` compares `torch.backends.cudnn.version()` with a cuDNN version where "
                   "ROCm can reach it; on ROCm it returns MIOpen's version, on another scale: test the platform "
                   "first (`torch.version.hip`)")
        yield Finding("HG304", message, *file.span(compare))

