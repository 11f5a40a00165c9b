"""What a HIP header declares on AMD GPUs: the names, and the opt-in macro some of them need.

Shared by scripts/gen_hip_headers.py (HIP 6.3's headers) and scripts/gen_hip_history.py (the
headers of every older release). A name is declared when hipify-guard's own definition finder
(`hipify_guard.model.definitions`) finds a definition of it in code that the native HIP model
compiles (`__HIP_PLATFORM_AMD__` defined, `__HIP_PLATFORM_NVIDIA__` and `__CUDACC__` undefined,
every other macro free). It is *gated* by an opt-in macro (`HIP_ENABLE_WARP_SYNC_BUILTINS`: the
headers' `HIP_ENABLE_*` macros) when every such definition needs that macro defined.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import PurePosixPath

from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.definitions import definitions_of
from hipify_guard.model.platforms import UNDEFINED
from hipify_guard.model.settings import Settings

GATE = re.compile(rb"\bHIP_ENABLE_[A-Z0-9_]+\b")
# Folders of NVIDIA-platform headers, HIP's bundled ELF reader, and the profiler's and tracer's
# generated tables (an id and a string per API, no declarations of their own).
SKIPPED_FOLDERS = frozenset({"nvcc_detail", "nvidia_detail", "elfio"})
SKIPPED_FILES = frozenset({"hip_prof_str.h", "hip_api_trace.hpp"})
HEADER_SUFFIXES = (".h", ".hpp")
_SETTINGS = Settings(model_names=("hip",))


def is_amd_header(path: str) -> bool:
    """Whether a header path (relative, `/`-separated) is one whose declarations count."""
    parts = PurePosixPath(path).parts
    return (path.endswith(HEADER_SUFFIXES) and parts[-1] not in SKIPPED_FILES
            and not SKIPPED_FOLDERS.intersection(parts))


def declarations(name: str, data: bytes) -> dict[str, tuple[str, ...]]:
    """Each name the header declares on AMD -> the opt-in macros it needs (() = none)."""
    file = FileAnalysis(name, data, _SETTINGS)
    hip = _SETTINGS.rocm_models[0]
    gates = sorted({gate.decode() for directive in file.scan.directives if directive.is_conditional
                    for gate in GATE.findall(data, *directive.argument)})
    closed = dataclasses.replace(hip, name="hip-without-opt-ins",
                                 fixed={**hip.fixed, **dict.fromkeys(gates, UNDEFINED)})
    found: dict[str, tuple[str, ...]] = {}
    for declared, offset in definitions_of(file).within(0, len(file.data)):
        arm = file.tree.enclosing(offset)
        if not file.reachable(arm, hip, inside=True):
            continue
        needs = () if file.reachable(arm, closed, inside=True) else _gates_on_path(file, arm, gates)
        text = declared.decode("ascii")
        if text not in found or (found[text] and not needs):
            found[text] = needs
    return found


def _gates_on_path(file: FileAnalysis, arm, gates: list[str]) -> tuple[str, ...]:
    named = set().union(*(item.names for item, _ in file.path(arm)))
    return tuple(gate for gate in gates if gate in named)
