"""Near misses of known macros (HG107) and the bounded edit distance behind them."""

from __future__ import annotations

import random

import pytest

from hipify_guard.core.distance import edit_distance
from hipify_guard.model.platforms import MacroSet
from hipify_guard.model.spelling import known_macros, near_miss

KNOWN = known_macros(MacroSet())


def _full_distance(a: str, b: str) -> int:
    """Textbook optimal-string-alignment distance, the oracle for the banded one."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


def test_banded_distance_equals_the_full_table() -> None:
    generator = random.Random(7)
    for _ in range(5000):
        a = "".join(generator.choice("AB_C") for _ in range(generator.randint(0, 9)))
        b = "".join(generator.choice("AB_C") for _ in range(generator.randint(0, 9)))
        for limit in (0, 1, 2):
            assert edit_distance(a, b, limit) == min(_full_distance(a, b), limit + 1), (a, b, limit)


@pytest.mark.parametrize(("name", "intended", "by_word"), [
    ("__CUDA__ARCH__", "__CUDA_ARCH__", False),
    ("__CUDA_ARCH", "__CUDA_ARCH__", False),
    ("CUDA_VERISON", "CUDA_VERSION", False),
    ("CUDE_VERSION", "CUDA_VERSION", False),
    ("HIP_VERSON", "HIP_VERSION", False),
    ("__HIP_PLATFORM_AMD", "__HIP_PLATFORM_AMD__", False),
    ("USE_ROCm", "USE_ROCM", False),
    ("CUDART_RUNTIME", "CUDART_VERSION", True),
])
def test_near_misses(name: str, intended: str, by_word: bool) -> None:
    miss = near_miss(name, KNOWN)
    assert miss is not None and (miss.intended, miss.by_word) == (intended, by_word)


@pytest.mark.parametrize("name", [
    "CUDA_VERSION", "CUDNN_VERSION", "CUB_VERSION", "ZIP_VERSION", "LIB_VERSION", "__CUDACC_RTC__",
    "__CUDA_ARCH_LIST__", "HIP_VERSION_GITHASH", "USE_CUDA", "NCCL_VERSION", "X",
])
def test_not_near_misses(name: str) -> None:
    assert near_miss(name, KNOWN) is None
