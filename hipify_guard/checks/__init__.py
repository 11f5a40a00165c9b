"""The rules: one small module per rule family, each rule a function registered with
`registry.check`. A run imports the rule modules of the languages it checks (`rules_for`): a
run over C/C++ files never loads the Python rules and their front end, nor the reverse.
`CHECKS` imports them all.

May import `fix`, `model`, the front ends (`cpp`, `python`) and `core`; never `engine`, `project` or `cli`.
"""

from __future__ import annotations

from importlib import import_module

from ..core.languages import ANY, CPP, PYTHON
from . import registry
from .registry import RegisteredCheck

# The modules of each language's rules (`tests/test_catalogue.py` holds this to what they register).
MODULES = {
    CPP: (
        "api_mapping",  # HG203, HG204: the CUDA -> HIP mapping table
        "guard_outcome",
        "misspelled_macro",
        "platform_macros",
        "structure",
        "version_code",  # HG201, HG202, HG905: libclang, loaded lazily
        "version_interchange",
        "version_scale",
    ),
    PYTHON: (
        "python_asserts",  # HG310: device-side assertions expected by tests
        "python_devices",  # HG303, HG304: device capability, cuDNN version
        "python_runtime",  # HG306-HG309: TF32, device types, plan cache, distributed backends
        "python_structure",  # HG904: Python files that do not parse
        "python_versions",  # HG301, HG302, HG305: torch.version.cuda / .hip
    ),
    ANY: ("suppression",),
}


def rules_for(*languages: str) -> dict[str, RegisteredCheck]:
    """The registry, with the rules of `languages` (and those about the tool itself) registered."""
    for language in (*languages, ANY):
        for module in MODULES[language]:
            import_module(f"{__name__}.{module}")
    return registry.CHECKS


def __getattr__(name: str) -> dict[str, RegisteredCheck]:
    """`CHECKS`: every rule, registered on first use."""
    if name == "CHECKS":
        return rules_for(*MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
