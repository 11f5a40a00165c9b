"""HG102's words for the CUDA releases whose branch ROCm takes: grouping releases by the outcomes
of the conditions' comparisons gives what trying every release gives."""

from __future__ import annotations

import pytest

from hipify_guard.cpp.parser import parse
from hipify_guard.model import cuda_releases
from hipify_guard.model.cuda_releases import _VALUES, _comparisons, _takes


def node(text: str):
    data = text.encode()
    return parse(data, 0, len(data))


@pytest.mark.parametrize("condition", [
    "CUDA_VERSION >= 11000",
    "CUDA_VERSION < 12020 || CUDA_VERSION >= 13000",
    "CUDA_VERSION != 10020",
    "__CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 4)",
    "11000 <= CUDART_VERSION",
    "!(CUDA_VERSION >= 9000) && defined(CUDA_VERSION)",
    "__CUDACC_VER_MINOR__ == 2",
])
@pytest.mark.parametrize("wanted", [True, False])
@pytest.mark.parametrize("earlier", [[], ["CUDA_VERSION >= 12000"], ["defined(FOO) && CUDA_VERSION < 9020"]])
def test_grouped_releases_take_what_each_release_takes(condition: str, wanted: bool, earlier: list[str]) -> None:
    tests, before = [(node(condition), wanted)], [node(text) for text in earlier]
    comparisons = _comparisons([tests[0][0], *before])
    assert comparisons is not None
    every = [_takes(values, tests, before) for values in _VALUES]
    outcomes = [tuple(cuda_releases._COMPARE[op](values[name], number) for name, op, number in comparisons)
                for values in _VALUES]
    first = {}
    for outcome, taken in zip(outcomes, every):
        assert first.setdefault(outcome, taken) == taken, (condition, outcome)


@pytest.mark.parametrize("condition", ["CUDA_VERSION / 1000 >= 11", "CUDA_VERSION >= FOO", "CUDA_VERSION"])
def test_a_macro_outside_a_comparison_with_a_number_tries_every_release(condition: str) -> None:
    assert _comparisons([node(condition)]) is None
