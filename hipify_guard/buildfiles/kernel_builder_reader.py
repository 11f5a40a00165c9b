"""Read Hugging Face kernel-builder `build.toml` files: which backends build a kernel folder, and from which sources.

A kernel-builder project (kernels-community: one folder per kernel) declares its backends in
`[general] backends = ["cuda", "rocm", ...]` (or, in older files, only by each `[kernel.NAME]`
table's `backend`) and each kernel's sources in `[kernel.NAME] src = [...]`, relative to the
folder of `build.toml`; `[torch] src` is compiled for every backend. A folder whose build.toml
names no `rocm` backend is never built for ROCm: everything below it (sources, headers, Python
modules) is CUDA-only. Where a `rocm` backend is named, a source only `cuda` kernels list is
CUDA-only, one only `rocm` kernels list is ROCm-only (through the ordinary source-list rules).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

from ..core.records import record
from .build_conditions import CUDA, ROCM
from .build_facts import Evidence, Mention, ReaderResult

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

Reader = Callable[[str], "str | None"]
_PLATFORMS = {"cuda": CUDA, "rocm": ROCM}


@record(slots=True)
class KernelBuilds:
    """What the build.toml files say: source mentions, and folders no ROCm backend builds."""

    result: ReaderResult
    cuda_only_folders: tuple[tuple[str, Evidence], ...]  # root-relative folder ("" for the root), why


def read_kernel_builds(paths: Sequence[str], read: Reader) -> KernelBuilds:
    """The facts of the build.toml files `paths` (root-relative); other TOML files are left alone."""
    mentions: list[Mention] = []
    folders: list[tuple[str, Evidence]] = []
    notes: list[str] = []
    files: list[str] = []
    for path in paths:
        text = read(path)
        if text is None:
            continue
        try:
            table = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError) as error:
            notes.append(f"{path}: not read as a kernel-builder build.toml: {error}")
            continue
        kernels = table.get("kernel")
        general = table.get("general")
        if not isinstance(general, dict) or not isinstance(kernels, dict):
            continue  # not kernel-builder's format
        files.append(path)
        folder = posixpath.dirname(path)
        backends = _backends(general, kernels)
        if "rocm" not in backends:
            shown = ", ".join(sorted(backends)) or "none"
            folders.append((folder, _evidence(path, text, "backends", f"backends: {shown} (no rocm)")))
            continue
        mentions += _mentions(path, text, folder, table.get("torch"), kernels)
    return KernelBuilds(ReaderResult(mentions=tuple(mentions), notes=tuple(notes), files=tuple(files)),
                        tuple(folders))


def _backends(general: dict, kernels: dict) -> set[str]:
    """The backends the file builds: `[general] backends`, else those of its kernels."""
    named = general.get("backends")
    if isinstance(named, list):
        return {str(item) for item in named}
    return {str(kernel.get("backend")) for kernel in kernels.values() if isinstance(kernel, dict)
            and isinstance(kernel.get("backend"), str)}


def _mentions(path: str, text: str, folder: str, torch: object, kernels: dict) -> list[Mention]:
    """Each listed source, for its kernel's backend (`[torch] src`: every build)."""
    found = []
    tables: list[tuple[str, object, str | None]] = [("torch", torch, None)]
    tables += [(f"kernel.{name}", kernel, _PLATFORMS.get(str(kernel.get("backend")), None))
               for name, kernel in kernels.items() if isinstance(kernel, dict)]
    for title, table, platform in tables:
        sources = table.get("src") if isinstance(table, dict) else None
        if not isinstance(sources, list):
            continue
        evidence = _evidence(path, text, f"[{title}]", f"[{title}] src")
        for source in sources:
            if isinstance(source, str) and source and ".." not in source.split("/"):
                pattern = posixpath.normpath(posixpath.join(folder, source))
                found.append(Mention(pattern, platform, f"[{title}] backend", evidence))
    return found


def _evidence(path: str, text: str, needle: str, shown: str) -> Evidence:
    """The first line of `text` that holds `needle` (line 1 when none does)."""
    found = text.find(needle)
    line = text.count("\n", 0, found) + 1 if found >= 0 else 1
    return Evidence(path, line, shown)
