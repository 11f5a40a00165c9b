"""What `hipify-guard init` writes: the project's platform profile as a configuration file, every
entry with its evidence as a comment, for a person to review (spec §11.1).

It holds what `check` would infer anyway (so a reviewed file pins it, and a wrong entry can be
deleted): the build files' facts (`platform_profile`), and the build switches the sources test
(`GGML_USE_HIP`, `MFEM_USE_CUDA`), each with the first conditional directive that tests it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from ..core.languages import CPP, language_of
from ..core.reading import read_file
from ..model.platform_names import CUDA, ROCM, build_macro
from .discovery import DEFAULT_EXTENSIONS, discover
from .platform_profile import Entry, infer

CONFIG_NAME = ".hipify-guard.toml"
_CONDITION = re.compile(rb"^[ \t]*#[ \t]*(?:el)?if(?:n?def)?\b([^\r\n]*)", re.M)
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_TITLES = {
    "hipify": "How the sources reach ROCm (\"torch-extension\": PyTorch's hipify in an extension's build).",
    "rocm-build-macros": "Defined in every ROCm build: \"this is the ROCm build\".",
    "cuda-build-macros": "Undefined in every ROCm build: \"this is the CUDA build\".",
    "cuda-only-files": "Files only the CUDA build compiles: only the rules that are not about ROCm run on them.",
    "rocm-build-defines": "What the ROCm build's command lines define.",
}
_HEADER = """\
# hipify-guard configuration, written by `hipify-guard init` from what this project's build files
# and sources say about its ROCm and CUDA builds. Review every entry: its comment says where it was
# read. `hipify-guard check` infers the same where no configuration speaks; what this file says wins.
"""


def source_switches(root: str) -> list[Entry]:
    """The build switches (by name, spec §11.1) that the conditional directives below `root` test,
    each with its first test as evidence."""
    first: dict[str, Entry] = {}
    for name, path in discover([root], DEFAULT_EXTENSIONS):
        if language_of(name) != CPP:
            continue
        try:
            data = read_file(path)[0]
        except OSError:
            continue
        for match in _CONDITION.finditer(data):
            for word in _NAME.findall(match.group(1)):
                macro = word.decode("ascii")
                switch = build_macro(macro) if macro not in first else None
                if switch is not None:
                    line = data.count(b"\n", 0, match.start()) + 1
                    text = match.group(0).strip().decode("utf-8", "replace")
                    key = "rocm-build-macros" if switch.side == ROCM else "cuda-build-macros"
                    where = os.path.relpath(name, root).replace(os.sep, "/")
                    first[macro] = Entry(key, macro, f"{where}:{line}: {text} (by its name)")
    rocm_prefixes = {build_macro(entry.value).prefix for entry in first.values() if entry.key == "rocm-build-macros"}
    return [entry for entry in first.values() if entry.key == "rocm-build-macros"
            or build_macro(entry.value).side == CUDA and build_macro(entry.value).prefix in rocm_prefixes - {""}]


def render(root: str) -> str:
    """The configuration text for the project at `root`."""
    inference = infer(root)
    entries = list(inference.entries)
    named = {entry.value for entry in entries} | inference.profile.rocm_may_define
    entries += [entry for entry in source_switches(root) if entry.value not in named]
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        by_key.setdefault(entry.key, []).append(entry)
    parts = [_HEADER]
    for key in ("hipify", "rocm-build-macros", "cuda-build-macros", "cuda-only-files"):
        if key in by_key:
            parts.append(_section(key, by_key[key]))
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
    if len(parts) == 1:
        parts.append("# Nothing was found to say about the platforms: the built-in defaults apply.\n")
    return "\n".join(parts)


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
