"""HG310: a test that expects a device-side assertion's message where ROCm reaches it (spec §12,
the HIP note's last section).

ROCm builds of PyTorch compile kernel asserts (`CUDA_KERNEL_ASSERT`) to a bare `abort()` (older
releases: to nothing) unless PyTorch was built with `-DROCM_FORCE_ENABLE_GPU_ASSERTS:BOOL=ON`
or the kernels with `C10_USE_ROCM_KERNEL_ASSERT` defined: the "device-side assert triggered"
that a CUDA run raises never comes there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ..core.findings import Finding
from ..core.languages import PYTHON
from ..model.python_analysis import PythonFile
from ..python.names import argument, dotted, last_name, string_value
from .registry import check

ENABLING_DEFINE = "C10_USE_ROCM_KERNEL_ASSERT"
# The message of a failed kernel assert on CUDA ("CUDA error: device-side assert triggered"), as
# text or as a regular expression (`device\-side assert`, `device.side assert`).
_MESSAGE = re.compile(r"device[-_ .]?side[-_ .]assert", re.IGNORECASE)
# Where a test names the message it expects: (position, keyword) of the text among the arguments.
_MATCHERS = {
    "assertRaisesRegex": (1, "expected_regex"), "assertRaisesRegexp": (1, "expected_regexp"),
    "assertRegex": (1, "expected_regex"), "assertRegexpMatches": (1, "expected_regexp"), "assertIn": (0, "member"),
}


@check("HG310", lambda settings: ("side assert", "side-assert", "side_assert", "side.assert"), language=PYTHON)
def device_assert_expected(file: PythonFile) -> Iterator[Finding]:
    """`pytest.raises(..., match="device-side assert")`, `assertRaisesRegex(E, "device-side assert")`,
    `assertIn`/`assertRegex`/`assert ... in` of that text, where ROCm can reach it, in a PyTorch
    test that does not compile its kernels with C10_USE_ROCM_KERNEL_ASSERT."""
    if not _uses_torch(file) or _enables_asserts(file):
        return
    for node in _expectations(file):
        if file.flow.reachable(node):
            message = (f"`{file.shown(node)}` expects a device-side assertion's message where ROCm can reach it; "
                       "PyTorch on ROCm compiles kernel asserts to a bare abort() (older releases: to nothing) unless "
                       "it was built with -DROCM_FORCE_ENABLE_GPU_ASSERTS:BOOL=ON, so the message never comes: skip "
                       f"the test on ROCm (`@skipIfRocm`, `torch.version.hip`) or compile its kernels with "
                       f"`-D{ENABLING_DEFINE}`")
            yield Finding("HG310", message, *file.span(node))


def _expectations(file: PythonFile) -> Iterator[ast.expr]:
    """Calls and `in` tests that name the device-side assert message as the one expected."""
    for call in file.nodes(ast.Call):
        name = last_name(call.func)
        if name == "raises" and (dotted(call.func) or ())[-2:] == ("pytest", "raises"):
            expected = next((item.value for item in call.keywords if item.arg == "match"), None)
        elif name in _MATCHERS:
            expected = argument(call, *_MATCHERS[name])
        else:
            continue
        if _names_the_message(file, expected):
            yield call
    for test in file.nodes(ast.Assert):
        compare = test.test
        if (isinstance(compare, ast.Compare) and len(compare.ops) == 1 and isinstance(compare.ops[0], ast.In)
                and _names_the_message(file, compare.left)):
            yield compare


def _names_the_message(file: PythonFile, node: ast.expr | None) -> bool:
    """A string (or a name of one) that is, or matches as a pattern, the device-side assert message."""
    if node is None:
        return False
    text = string_value(file.symbols.value(node) or node)
    return text is not None and _MESSAGE.search(text.replace("\\", "")) is not None


def _uses_torch(file: PythonFile) -> bool:
    """Whether the file imports PyTorch (the message is PyTorch's)."""
    for node in file.nodes(ast.Import, ast.ImportFrom):
        modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if any(module == "torch" or module.startswith("torch.") for module in modules):
            return True
    return False


def _enables_asserts(file: PythonFile) -> bool:
    """Whether a string of the file names C10_USE_ROCM_KERNEL_ASSERT (`-DC10_USE_ROCM_KERNEL_ASSERT`
    in the flags of `torch.utils.cpp_extension.load_inline`): its kernels keep their asserts on ROCm."""
    return any(ENABLING_DEFINE in (string_value(node) or "") for node in file.nodes(ast.Constant))
