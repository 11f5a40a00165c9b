"""Near misses of the version and platform macro names (for HG107).

A name is a near miss of a known macro when it is one edit away (two for long names; an edit
is an insertion, deletion, substitution or swap of adjacent characters) and keeps the known
name's leading word (`CUDA` in `CUDA_VERSION`), when only its underscores differ (`__CUDA_ARCH`),
or when it has the known name's words with one word replaced (`CUDART_RUNTIME` for `CUDART_VERSION`); the caller decides whether such a
word-level near miss is used like the known macro. Real, unrelated macros that happen to be
near (`CUDNN_VERSION`, `__CUDACC_RTC__`) are never near misses.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..core.distance import edit_distance
from .platforms import CUDA_ARCH_MACROS, MacroSet

if TYPE_CHECKING:
    from .settings import Settings

PLATFORM_MACROS = frozenset({
    "__CUDACC__", "__NVCC__", "__CUDA_ARCH__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_NVIDIA__",
    "__HIP_PLATFORM_HCC__", "__HIP_PLATFORM_NVCC__", "__HIPCC__", "__HIP__", "__HIP_DEVICE_COMPILE__",
    "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH",
})
# Real macros of CUDA, HIP and their libraries that are within reach of a known name.
LEGITIMATE = frozenset({
    "CUDNN_VERSION", "CUB_VERSION", "NCCL_VERSION", "RCCL_VERSION", "CUDA_VERSION_MAJOR",
    "__CUDACC_RTC__", "__CUDACC_RDC__", "__CUDACC_EWP__", "__CUDACC_DEBUG__", "__CUDACC_VER__",
    "__CUDACC_EXTENDED_LAMBDA__", "__CUDA__", "__CUDA_ARCH_LIST__", "__CUDA_ARCH_FEAT_SM90_ALL",
    "__HIPCC_RTC__", "__HIP_CPU_RT__", "__HIP_ROCclr__", "__HIP_NO_HALF_CONVERSIONS__",
    "HIP_VERSION_GITHASH", "HIP_VERSION_BUILD_ID", "HIP_VERSION_BUILD_NAME",
    "USE_CUDA", "USE_HIP", "__HIP_PLATFORM_SPIRV__",
})
MAX_WORDS = 6
MEMO_LIMIT = 1 << 16  # names a `judged` memo keeps before it starts afresh (a huge tree stays bounded)


class NearMiss(NamedTuple):
    """A name that is probably a misspelling of `intended`."""

    name: str
    intended: str
    by_word: bool  # one whole word differs (needs corroboration by the caller)


def known_macros(macros: MacroSet, extra: Iterable[str] = ()) -> frozenset[str]:
    """Every macro name HG107 compares with: the configured sets, platform macros and `extra`."""
    return frozenset({
        *macros.cuda_version_macros, *macros.rocm_macros, macros.rocm_macro, macros.rocm_version_macro,
        *CUDA_ARCH_MACROS, *PLATFORM_MACROS, *extra,
    })


def settings_known(settings: Settings) -> frozenset[str]:
    """The known macros for a configuration, with the macros its user ROCm models define."""
    extra = (name for model in settings.user_models for name, _ in model.definitions)
    return known_macros(settings.macros, extra)


def judged(name: bytes, known: frozenset[str], memo: dict[bytes, bool]) -> bool:
    """Whether the ASCII identifier `name` is a near miss of `known`, memoised in `memo` (emptied
    when it holds MEMO_LIMIT names): for byte-level screens that meet the same names in every file."""
    near = memo.get(name)
    if near is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        near = memo[name] = near_miss(name.decode("ascii"), known) is not None
    return near


@lru_cache(maxsize=1 << 16)  # the same names recur in every file of a tree
def near_miss(name: str, known: frozenset[str]) -> NearMiss | None:
    """The known macro `name` is a near miss of, if any (the closest; ties by name)."""
    if name in known or name in LEGITIMATE:
        return None
    words = _words(name)
    if not words:
        return None
    best: tuple[int, str] | None = None
    by_word = None
    vocabulary = _vocabulary(known)
    for lead in _leads_near(words[0], known):
        for intended, intended_words, limit in vocabulary[lead]:
            if words == intended_words and name.startswith("_") == intended.startswith("_"):
                distance = 1  # only underscores differ: `__CUDA_ARCH`, `__CUDA__ARCH__`
            elif abs(len(intended) - len(name)) <= limit:
                distance = edit_distance(name, intended, limit)
            else:
                continue
            if distance <= limit and (best is None or (distance, intended) < best):
                best = (distance, intended)
            if by_word is None and lead == words[0] and _one_word_replaced(words, intended_words):
                by_word = intended
    if best is not None:
        return NearMiss(name, best[1], by_word=False)
    return NearMiss(name, by_word, by_word=True) if by_word else None


@lru_cache(maxsize=1 << 14)  # leading words recur far more than names (8,000 names, 2,000 words)
def _leads_near(word: str, known: frozenset[str]) -> tuple[str, ...]:
    """The leading words of `known` that `word` keeps: equal, or one edit away when both have four
    letters or more."""
    return tuple(lead for lead in _vocabulary(known)
                 if lead == word or (min(len(lead), len(word)) >= 4 and edit_distance(lead, word, 1) <= 1))


@lru_cache(maxsize=16)
def _vocabulary(known: frozenset[str]) -> dict[str, list[tuple[str, list[str], int]]]:
    """Known names by leading word: (name, words, allowed edits), in name order.

    A near miss keeps the leading word, or changes it by one edit when it has four letters or
    more: `CUDE_VERSION` is a near miss of `CUDA_VERSION`, `CUDNN_VERSION` and `ZIP_VERSION` are not.
    """
    table: dict[str, list[tuple[str, list[str], int]]] = {}
    for intended in sorted(known):
        words = _words(intended)
        if words:
            limit = 1 if len(intended.strip("_")) < 10 else 2
            table.setdefault(words[0], []).append((intended, words, limit))
    return table


def _words(name: str) -> list[str]:
    return [word for word in name.split("_") if word]


def _one_word_replaced(a: list[str], b: list[str]) -> bool:
    """Same number of words (2 to MAX_WORDS), exactly one word after the first different."""
    if len(a) != len(b) or not 2 <= len(a) <= MAX_WORDS:
        return False
    return sum(x != y for x, y in zip(a, b)) == 1
