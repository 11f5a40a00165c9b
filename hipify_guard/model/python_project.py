"""What the project's other Python modules say of one file (issue 25), and what a file asks them.

A file's findings can depend on three things outside it: the value of a platform variable it
imports (text-generation-inference's `from ...import_utils import SYSTEM`, then `if SYSTEM ==
"cuda":`), who calls its module-level functions (a helper that reads `torch.version.cuda`,
called only under `if torch.version.cuda is not None:` in the modules that import it), and
whether a project module it imports (or its own package) imports a CUDA-only module on the way
(flash-attention's tests import `flash_attn.cute.testing`, whose package imports CuTe DSL's
`cutlass`: the import fails on ROCm, so ROCm never runs the file). A check
run asks for these only for files with findings (`python_requests`); the project layer answers
from the other modules (`project.python_facts`), one level deep, and the file is checked again.
"""

from __future__ import annotations

from ..core.records import record


# the kinds of request: "value:..pkg.mod:NAME", "callers:FUNCTION", "imports:..pkg.mod" (PACKAGE: its own)
VALUE, CALLERS, IMPORTS = "value:", "callers:", "imports:"
PACKAGE = "."  # the module an `imports:` request names for the file's own package


@record(slots=True)
class PythonProjectFacts:
    """The answers: imported variables' constants on each platform, and the file's functions that
    no code of the other modules calls where ROCm goes."""

    # (the imported name as the file resolves it: (*module, name); its constants on ROCm; on CUDA)
    values: tuple[tuple[tuple[str, ...], tuple[object, ...] | None, tuple[object, ...] | None], ...] = ()
    unreached: frozenset[str] = frozenset()  # module-level functions whose every caller elsewhere ROCm never reaches
    cuda_only: tuple[tuple[str, str], ...] = ()  # (a module imported, as spelled, or PACKAGE; why it is CUDA-only)

    def cuda_only_module(self, module: str) -> str:
        """Why importing the project module `module` (as spelled) fails on ROCm ("": it may not)."""
        return next((why for name, why in self.cuda_only if name == module), "")

    def constants(self, names: tuple[str, ...], rocm: bool) -> frozenset[object] | None:
        """The constants an imported name holds on the platform (None: unknown)."""
        for key, on_rocm, on_cuda in self.values:
            if key == names:
                found = on_rocm if rocm else on_cuda
                return None if found is None else frozenset(found)
        return None

    def __bool__(self) -> bool:
        return bool(self.values or self.unreached or self.cuda_only)


def value_key(module: str, name: str) -> tuple[str, ...]:
    """The name as the file's symbols resolve it (`from ..utils import SYSTEM`: ("utils", "SYSTEM"))."""
    parts = module.lstrip(".")
    return (*(parts.split(".") if parts else ()), name)
