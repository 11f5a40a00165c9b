"""The rules: one small module per rule family, each rule a function registered with
`registry.check`. Importing this package registers them all in `CHECKS`.

May import `fix`, `model`, the front ends (`cpp`, `python`) and `core`; never `engine`, `project` or `cli`.
"""

from __future__ import annotations

from . import (  # noqa: F401  (registers the rules)  # noqa: F401
    api_mapping,  # noqa: F401  (HG203, HG204: the CUDA -> HIP mapping table)
    guard_outcome,
    misspelled_macro,
    platform_macros,
    python_devices,  # noqa: F401  (HG303, HG304: device capability, cuDNN version)
    python_runtime,  # noqa: F401  (HG306-HG309: TF32, device types, plan cache, distributed backends)
    python_structure,  # noqa: F401  (HG904: Python files that do not parse)
    python_versions,  # noqa: F401  (HG301, HG302, HG305: torch.version.cuda / .hip)
    structure,
    suppression,
    version_code,  # noqa: F401  (HG201, HG202, HG905: libclang, loaded lazily)
    version_interchange,
    version_scale,
)
from .registry import CHECKS

__all__ = ["CHECKS"]
