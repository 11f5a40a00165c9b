"""HG105: CUDA and HIP/ROCm version numbers used as if they were one scale."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..core.findings import Finding
from ..cpp.comparisons import RELATIONAL, bare, comparisons
from ..cpp.nodes import Binary, Node, names, walk
from ..cpp.scanner import Directive
from ..model.analysis import FileAnalysis
from ..model.settings import Settings
from .registry import check

HIP_VERSION_MACROS = frozenset({
    "HIP_VERSION", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH", "ROCM_VERSION", "TORCH_HIP_VERSION",
})
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_TRIVIAL = frozenset({0, 1})  # `CUDA_VERSION > 0 || HIP_VERSION > 0` only asks "is it defined"


def hip_version_macros(settings: Settings) -> frozenset[str]:
    """The HIP/ROCm version macros, with the configured ROCm version macro."""
    return HIP_VERSION_MACROS | {settings.macros.rocm_version_macro}


def _triggers(settings: Settings) -> list[str]:
    return sorted(hip_version_macros(settings))


@check("HG105", _triggers)
def cuda_hip_version_interchange(file: FileAnalysis) -> Iterator[Finding]:
    """`#define CUDA_VERSION HIP_VERSION`, shared thresholds, CUDA compared with HIP versions."""
    cuda = file.settings.macros.cuda_version_macros
    hip = hip_version_macros(file.settings)
    for directive in file.scan.directives:
        if directive.kind == "define":
            finding = _aliased(file, directive, cuda, hip)
            if finding is not None:
                yield finding
    for arm in file.arms:
        condition = file.condition(arm).term
        if condition is None or not (condition.names & cuda and condition.names & hip):
            continue
        if file.reachable_anywhere(arm):
            yield from _mixed(file, condition.node, cuda, hip)


def _aliased(file: FileAnalysis, directive: Directive, cuda: frozenset[str], hip: frozenset[str]) -> Finding | None:
    """A CUDA version macro defined as a HIP/ROCm version (or the reverse)."""
    start, end = directive.argument
    name = _IDENTIFIER.match(file.data, start, end)
    if name is None or file.data[name.end() : name.end() + 1] == b"(":
        return None
    defined = name.group().decode("ascii")
    body = {match.group().decode("ascii") for match in _IDENTIFIER.finditer(file.data, name.end(), end)}
    other = sorted(body & hip) if defined in cuda else sorted(body & cuda) if defined in hip else []
    if not other or not any(file.reachable_at(directive.hash, platform) for platform in (file.cuda, *file.rocm_models)):
        return None
    scales = ("CUDA", "HIP/ROCm") if defined in cuda else ("HIP/ROCm", "CUDA")
    shown = " ".join(file.text(directive.hash, end).split())
    message = (f"`{shown}` gives the {scales[0]} version macro {defined} a {scales[1]} version ({other[0]}): "
               f"the scales are unrelated, so every `{defined}` test now compares numbers of different meaning")
    return Finding("HG105", message, directive.hash, end)


def _mixed(file: FileAnalysis, root: Node, cuda: frozenset[str], hip: frozenset[str]) -> Iterator[Finding]:
    for node in walk(root):
        if isinstance(node, Binary) and node.op in RELATIONAL:
            left, right = names(bare(node.left)), names(bare(node.right))
            if (left & cuda and right & hip) or (left & hip and right & cuda):
                first, second = min((left | right) & cuda), min((left | right) & hip)
                message = (f"`{_text(file, node)}` compares CUDA's {first} with {second}: "
                           "CUDA and HIP/ROCm version numbers are on unrelated scales")
                yield Finding("HG105", message, *node.span)
    shared = _shared_thresholds(root, cuda, hip)
    for constant, (cuda_macro, hip_macro) in sorted(shared.items()):
        message = (f"`{_text(file, root)}` uses the threshold {constant} for both {cuda_macro} and "
                   f"{hip_macro}: CUDA and HIP/ROCm version numbers are on unrelated scales")
        yield Finding("HG105", message, *root.span)


def _shared_thresholds(root: Node, cuda: frozenset[str], hip: frozenset[str]) -> dict[int, tuple[str, str]]:
    """Constants compared with a CUDA version macro and with a HIP/ROCm one."""
    seen: dict[int, dict[bool, str]] = {}
    for item in comparisons(root):
        name, value = item.macro.name, item.constant.value
        if value not in _TRIVIAL and (name in cuda or name in hip):
            seen.setdefault(value, {}).setdefault(name in cuda, name)
    return {value: (by[True], by[False]) for value, by in seen.items() if len(by) == 2}


def _text(file: FileAnalysis, node: Node) -> str:
    text = " ".join(file.text(*node.span).split())
    return text if len(text) <= 70 else text[:67] + "..."
