"""The rules: one small module per rule family, each rule a function registered with
`registry.check`. Importing this package registers them all in `CHECKS`.

May import `fix`, `model`, the front ends (`cpp`) and `core`; never `engine`, `project` or `cli`.
"""

from __future__ import annotations

from . import (  # noqa: F401  (registers the rules)  # noqa: F401
    api_mapping,  # noqa: F401  (HG203, HG204: the CUDA -> HIP mapping table)
    guard_outcome,
    misspelled_macro,
    platform_macros,
    structure,
    suppression,
    version_code,  # noqa: F401  (HG201, HG202, HG905: libclang, loaded lazily)
    version_interchange,
    version_scale,
)
from .registry import CHECKS

__all__ = ["CHECKS"]
