"""What the project's other Python modules say of one file (issue 25), and what a file asks them.

A file's findings can depend on two things outside it: the value of a platform variable it
imports (text-generation-inference's `from ...import_utils import SYSTEM`, then `if SYSTEM ==
"cuda":`), and who calls its module-level functions (a helper that reads `torch.version.cuda`,
called only under `if torch.version.cuda is not None:` in the modules that import it). A check
run asks for these only for files with findings (`python_requests`); the project layer answers
from the other modules (`project.python_facts`), one level deep, and the file is checked again.
"""

from __future__ import annotations

from dataclasses import dataclass

VALUE, CALLERS = "value:", "callers:"  # the kinds of request: "value:..pkg.mod:NAME", "callers:FUNCTION"


@dataclass(frozen=True, slots=True)
class PythonProjectFacts:
    """The answers: imported variables' constants on each platform, and the file's functions that
    no code of the other modules calls where ROCm goes."""

    # (the imported name as the file resolves it: (*module, name); its constants on ROCm; on CUDA)
    values: tuple[tuple[tuple[str, ...], tuple[object, ...] | None, tuple[object, ...] | None], ...] = ()
    unreached: frozenset[str] = frozenset()  # module-level functions whose every caller elsewhere ROCm never reaches

    def constants(self, names: tuple[str, ...], rocm: bool) -> frozenset[object] | None:
        """The constants an imported name holds on the platform (None: unknown)."""
        for key, on_rocm, on_cuda in self.values:
            if key == names:
                found = on_rocm if rocm else on_cuda
                return None if found is None else frozenset(found)
        return None

    def __bool__(self) -> bool:
        return bool(self.values or self.unreached)


def value_key(module: str, name: str) -> tuple[str, ...]:
    """The name as the file's symbols resolve it (`from ..utils import SYSTEM`: ("utils", "SYSTEM"))."""
    parts = module.lstrip(".")
    return (*(parts.split(".") if parts else ()), name)
