"""What `hipify-guard init` writes: the project's platform profile as a configuration file, every
entry with its evidence as a comment, for a person to review (spec §11.1).

It holds what `check` would infer anyway (so a reviewed file pins it, and a wrong entry can be
deleted): the build files' facts (`platform_profile`), and the build switches the sources test
(`GGML_USE_HIP`, `MFEM_USE_CUDA`), each with the first conditional directive that tests it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..model.platform_names import ROCM, build_macro
from ..model.rewrite_macros import is_rewrite_macro
from .platform_profile import Entry, Inference, infer
from .source_switches import rocm_side, tested_switches

CONFIG_NAME = ".hipify-guard.toml"
_TITLES = {
    "hipify": "How the sources reach ROCm (\"torch-extension\": PyTorch's hipify in an extension's build).",
    "rocm-build-macros": "Defined in every ROCm build: \"this is the ROCm build\".",
    "cuda-build-macros": "Undefined in every ROCm build: \"this is the CUDA build\".",
    "cuda-only-files": "Files only the CUDA build compiles: only the rules that are not about ROCm run on them.",
    "rocm-build-defines": "What the ROCm build's command lines define.",
    "extend-python-cuda-modules": "Python extension modules only CUDA builds make: a file importing one never runs on ROCm.",
    "python-cuda-ops": "PyTorch operators only the CUDA build registers: code that always calls one cannot complete on ROCm.",
}
_HEADER = """\
# hipify-guard configuration, written by `hipify-guard init` from what this project's build files
# and sources say about its ROCm and CUDA builds. Review every entry: its comment says where it was
# read. `hipify-guard check` infers the same where no configuration speaks; what this file says wins.
"""


def source_switches(root: str, counts: dict[str, int] | None = None) -> list[Entry]:
    """The build switches (by name, spec §11.1) that the conditional directives below `root` test,
    each with its first test as evidence (`counts`: filled with how many conditions test each):
    the ROCm-side ones, and the CUDA-side ones whose prefix has a ROCm side among them, as `check`
    reads them (`source_switches`)."""
    tested = tested_switches(os.path.abspath(root))
    if counts is not None:
        counts.update((name, item.count) for name, item in tested.items())
    rocm_prefixes = {build_macro(name).prefix for name in rocm_side(tested)} - {""}
    entries = []
    for name, item in tested.items():
        switch = build_macro(name)
        if switch is not None and (switch.side == ROCM or switch.prefix in rocm_prefixes):
            key = "rocm-build-macros" if switch.side == ROCM else "cuda-build-macros"
            entries.append(Entry(key, name, f"{item.first} (by its name)"))
    return entries


def render(root: str) -> str:
    """The configuration text for the project at `root`."""
    inference = infer(root)
    entries = list(inference.entries)
    named = {entry.value for entry in entries} | inference.profile.rocm_may_define
    tested: dict[str, int] = {}
    entries += [entry for entry in source_switches(root, tested) if entry.value not in named]
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        by_key.setdefault(entry.key, []).append(entry)
    parts = [_HEADER]
    for key in ("hipify", "rocm-build-macros", "cuda-build-macros", "cuda-only-files", "extend-python-cuda-modules",
                "python-cuda-ops"):
        if key in by_key:
            parts.append(_section(key, by_key[key]))
    parts.append(rewrite_section(inference, tested))  # (top-level keys: before any [table])
    if "torch-scopes" in by_key:
        lines = ["# PyTorch's hipify builds the sources in these folders (inferred; no key says it):"]
        lines += [f"#   {entry.value}/  ({_comment(entry.evidence)})" for entry in by_key["torch-scopes"]]
        parts.append("\n".join(lines) + "\n")
    if "rocm-build-defines" in by_key:
        lines = [f"# {_TITLES['rocm-build-defines']}", "[rocm-build-defines]"]
        for entry in by_key["rocm-build-defines"]:
            name, _, value = entry.value.partition("=")
            lines.append(f"{name} = {value if value else chr(34) * 2}  # {_comment(entry.evidence)}")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def rewrite_section(inference: Inference, tested: dict[str, int]) -> str:
    """The macros the rewrites test for ROCm and its version (spec §13.2), with their evidence:
    set where one holds for the whole project, else commented out (each file's rewrites then use
    what its own ROCm build defines)."""
    profile = inference.profile
    lines = ["# The macros the rewrites test for ROCm and for its version (each with where the build defines it)."]
    candidates = [(scoped.define, scoped.folder) for scoped in inference.scoped
                  if not scoped.elsewhere and is_rewrite_macro(scoped.define.name)]
    candidates += [(define, "<header>") for define in profile.configured_rocm if is_rewrite_macro(define.name)]
    if profile.hipify in ("torch", "torch-extension"):
        built = next((define.evidence for define, folder in candidates if define.name == "USE_ROCM" and not folder),
                     "PyTorch's ROCm builds define it (cpp_extension: -DUSE_ROCM=1)")
        lines.append(f'rocm-macro = "USE_ROCM"  # {_comment(built)}')
        if profile.hipify == "torch":
            lines.append('rocm-version-macro = "ROCM_VERSION"  # PyTorch\'s own build defines it')
        return "\n".join(lines) + "\n"
    if not profile.rocm_build:
        lines += ["# No build file builds for HIP or ROCm: the project is checked as a port, and the rewrites use",
                  "# the macros the port will define (change them to your port's):",
                  'rocm-macro = "USE_ROCM"', 'rocm-version-macro = "ROCM_VERSION"']
        return "\n".join(lines) + "\n"
    if not candidates:
        tested_switches = sorted((name for name in tested if is_rewrite_macro(name)), key=lambda name: -tested[name])
        lines.append("# No build file here defines a macro in every ROCm build: the rewrites need one (until it is set,")
        lines.append("# findings have no fix). The sources test these as the ROCm build's switch; set the one it defines:")
        lines += [f'# rocm-macro = "{name}"  # tested in {tested[name]} condition{"s" if tested[name] != 1 else ""}'
                  for name in tested_switches[:3]] or ['# rocm-macro = "..."']
        return "\n".join(lines) + "\n"
    ranked = sorted(candidates, key=lambda item: (-tested.get(item[0].name, 0), item[1] != "", item[0].name))
    best, where = ranked[0]
    if where == "":  # the project's own style, defined for every file
        lines.append(f'rocm-macro = "{best.name}"  # {_comment(best.evidence)}')
    else:
        lines.append("# Each file's rewrites use the first of these its ROCm build defines (uncomment one to use "
                     "it everywhere):")
        for define, folder in ranked[: 1 + next((n for n, (_, at) in enumerate(ranked) if at == ""), len(ranked))]:
            reach = ("files that include the header" if folder == "<header>" else
                     f"what {folder}/ builds" if folder else "every file")
            lines.append(f'# rocm-macro = "{define.name}"  # for {reach}: {_comment(define.evidence)}')
    version = next((scoped.define for scoped in inference.scoped if scoped.define.name == "ROCM_VERSION"
                    and not scoped.folder and not scoped.elsewhere), None)
    if version is not None:
        lines.append(f'rocm-version-macro = "ROCM_VERSION"  # {_comment(version.evidence)}')
    else:
        lines.append("# rocm-version-macro: none is defined by the build; rocm-min fixes use HIP_VERSION where a file "
                     "includes hip/hip_version.h or is compiled in HIP mode")
    return "\n".join(lines) + "\n"


def _section(key: str, entries: Iterable[Entry]) -> str:
    items = list(entries)
    if key == "hipify":
        return f"# {_TITLES[key]}\n# {_comment(items[0].evidence)}\nhipify = \"{items[0].value}\"\n"
    lines = [f"# {_TITLES[key]}", f"{key} = ["]
    for entry in items:
        value = f"/{entry.value}" if key == "cuda-only-files" else entry.value
        lines.append(f"    {_quoted(value)},  # {_comment(entry.evidence)}")
    return "\n".join([*lines, "]"]) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _comment(text: str) -> str:
    """Evidence on one comment line."""
    single = " ".join(text.split())
    return single if len(single) <= 160 else single[:157] + "..."
