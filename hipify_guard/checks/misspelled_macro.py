"""HG107: a condition names a near miss of a version or platform macro that nothing defines."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..core.findings import DISPLAY_ONLY, Edit, Finding, Fix
from ..cpp.comparisons import comparisons
from ..cpp.conditional_lines import conditional_lines
from ..cpp.nodes import Defined, Identifier, Node, walk
from ..model.analysis import FileAnalysis
from ..model.defines import defined_names
from ..model.scales import scales
from ..model.settings import Settings
from ..model.spelling import NearMiss, judged, near_miss, settings_known
from .registry import check

# The leading words of the known macros: a misspelling rarely loses all of them.
LEAD_WORDS = ("CUDA", "HIP", "ROCM", "ROCm", "NVCC")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD_BYTES = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def conditional_near_misses(settings: Settings) -> Callable[[bytes], bool]:
    """HG107's screen: does a conditional directive's line name a near miss (`conditional_lines`;
    a line that may go on says maybe)? Words are judged once per process."""
    known = settings_known(settings)
    memo: dict[bytes, bool] = {}

    def admits(data: bytes) -> bool:
        lines = conditional_lines(data)
        if None in lines:
            return True
        return any(judged(word, known, memo) for word in set(_WORD_BYTES.findall(b"\n".join(lines))))

    return admits


@check("HG107", lambda settings: LEAD_WORDS, screen=conditional_near_misses)
def misspelled_version_macro(file: FileAnalysis) -> Iterator[Finding]:
    """`__CUDA__ARCH__`, `CUDART_RUNTIME >= 12000`, `HIP_VERSON`: always 0 / undefined."""
    known = settings_known(file.settings)
    misses: dict[str, NearMiss | None] = {}
    local: set[str] | None = None
    for arm in file.arms:
        if not _may_name_a_near_miss(file.data, arm.directive.argument, known):
            continue  # (a byte test first: parsing and reachability cost far more)
        condition = file.condition(arm).term
        if condition is None or not any(near_miss(name, known) for name in condition.names):
            continue
        if not file.reachable_anywhere(arm):
            continue
        for node in walk(condition.node):
            if not isinstance(node, (Identifier, Defined)):
                continue
            if node.name not in misses:
                misses[node.name] = near_miss(node.name, known)
            miss = misses[node.name]
            if miss is None or node.name in file.settings.project_defines:
                continue
            local = defined_names(file.data, file.scan.directives) if local is None else local
            if node.name not in local and (not miss.by_word or _used_like(condition.node, node, miss, file)):
                yield _finding(file, node, miss)


def _may_name_a_near_miss(data: bytes, span: tuple[int, int], known: frozenset[str]) -> bool:
    """Whether a word of the directive's argument is a near miss; a continuation (which can
    splice a name) or a non-ASCII byte always says maybe. Every name of the condition is a word."""
    text = data[span[0] : span[1]]
    if b"\\" in text or not text.isascii():
        return True
    return any(near_miss(word, known) for word in set(_WORD.findall(text.decode("ascii"))))


def _used_like(root: Node, node: Node, miss: NearMiss, file: FileAnalysis) -> bool:
    """A word-level near miss counts when it is compared with a version on the intended scale."""
    scale = scales(file.settings.macros.rocm_version_macro).get(miss.intended)
    if scale is None:
        return False
    return any(item.macro is node and item.constant.value and scale.plausible(item.constant.value)
               for item in comparisons(root))


def _finding(file: FileAnalysis, node: Identifier | Defined, miss: NearMiss) -> Finding:
    start = file.data.index(node.name.encode(), node.span[0], node.span[1])
    end = start + len(node.name)
    how = f"is compared like `{miss.intended}` but " if miss.by_word else ""
    message = (f"`{node.name}` {how}is defined nowhere in the checked files, so `#if` reads it as 0 "
               f"and `defined` as false: did you mean `{miss.intended}`?")
    fix = Fix(DISPLAY_ONLY, f"Rename to `{miss.intended}` (changes which branch is compiled)",
              (Edit(start, end, miss.intended.encode()),))
    return Finding("HG107", message, start, end, fix)
