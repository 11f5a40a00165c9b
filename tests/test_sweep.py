"""The critical-value sweep of `platforms.outcome`: a condition it calls always true (or always
false) on a platform is so at any value of its free macros, not only at the values it tried."""

from __future__ import annotations

import os
import random
import re

import pytest
from expression_strategies import GCC, expressions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify_guard.cpp.evaluator import EvalError, truth
from hipify_guard.cpp.parser import ParseError, parse
from hipify_guard.model.platforms import MacroSet, Outcome, Platform, builtin_models, cuda_platform, outcome, term

NAMES = {"A": "CUDA_VERSION", "B": "FOO", "C": "BAR", "D": "CUDART_VERSION", "E": "USE_ROCM"}
_NAME = re.compile(r"\b[A-E]\b")
PLATFORMS = [cuda_platform(MacroSet()), *builtin_models(MacroSet()).values()]
# Values no sweep of these expressions tries on its own: powers of two and their neighbours, both
# signs, the 64-bit extremes, and real version numbers of the four scales.
WIDE = sorted({*range(-40, 41), *(2**k for k in range(64)), *(-(2**k) for k in range(64)),
               *(2**k - 1 for k in range(1, 65)), 100, 255, 256, 403, 602, 1000, 9000, 10000, 11000, 11080,
               11200, 12040, 60200, 40300000, 60241134})
FACTOR = int(os.environ.get("HYPOTHESIS_EXAMPLES_FACTOR", "1"))
TRIES = 300


def _value(platform: Platform, name: str, rng: random.Random) -> int | None:
    """A random value (None: undefined) for a free macro, inside the platform's range if it has one."""
    low, high = platform.ranges.get(name, (None, None))
    if low is not None:
        return rng.choice([None, rng.randint(low, high)])
    return rng.choice([None, *WIDE])


def counterexample(text: str, rng: random.Random) -> tuple[str, dict] | None:
    """A platform and configuration where `text` has the value its decided outcome denies."""
    data = text.encode()
    try:
        node = parse(data, 0, len(data))
    except ParseError:
        return None
    item = term(node)
    for platform in PLATFORMS:
        verdict = outcome(item, platform)
        if verdict not in (Outcome.TRUE, Outcome.FALSE) or item.names & {"true", "false"}:
            continue  # C++ keywords: not macros anyone defines to other values
        free = sorted({platform.renames.get(name, name) for name in item.names} - set(platform.fixed))
        fixed = {name: value for name, value in platform.fixed.items() if value is not None}
        for _ in range(TRIES):
            values = {**fixed, **{name: _value(platform, name, rng) for name in free}}
            config = {name: values[platform.renames.get(name, name)] for name in item.names
                      if values.get(platform.renames.get(name, name)) is not None}
            config.update((call, rng.choice(WIDE)) for call in item.calls)
            try:
                if truth(node, config) != (verdict is Outcome.TRUE):
                    return platform.name, config
            except EvalError:
                continue
    return None


CONDITIONS = expressions(GCC).filter(lambda text: len(text) < 200).map(
    lambda text: _NAME.sub(lambda m: NAMES[m.group()], text))


@pytest.mark.slow
@settings(max_examples=1000 * FACTOR, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(text=CONDITIONS, seed=st.integers(0, 2**32 - 1))
def test_a_decided_outcome_holds_at_wide_values(text: str, seed: int) -> None:
    found = counterexample(text, random.Random(seed))
    assert found is None, f"`{text}` on {found[0]} with {found[1]}: not what the sweep decided"


@pytest.mark.parametrize("text", [
    "~(CUDA_VERSION | FOO)",  # false only at FOO == -1
    "BAR <= defined(USE_ROCM)",  # a truth value compared with a macro: false from BAR == 2
    "+ + FOO >= USE_ROCM",  # USE_ROCM is 0 on CUDA: false for negative FOO
    "CUDART_VERSION + 1",  # false at -1
    "- CUDA_VERSION < ~ '\\n'",  # a folded constant, -11: true from 12
    "compl defined CUDA_VERSION >= CUDA_VERSION",  # -2 >= X
    "(compl defined ( FOO ) - not '\\t' + FOO / ((255z) | 1))",  # zero for FOO in 510..764
    "CUDA_VERSION <= FOO || FOO <= 'a'",  # two macros compared: false only at FOO = 98, CUDA_VERSION = 99
])
def test_sweeps_that_once_decided_too_much(text: str) -> None:
    """Found by the property above and by the gcc property of test_properties."""
    node = parse(text.encode(), 0, len(text))
    assert outcome(term(node), PLATFORMS[0]) in (Outcome.DEPENDS, Outcome.UNKNOWN)  # CUDA: all free
    assert counterexample(text, random.Random(0)) is None


def test_the_property_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep that decided wrongly would be caught: `FOO >= 11000` is not false everywhere."""
    monkeypatch.setattr(f"{__name__}.outcome", lambda item, platform: Outcome.FALSE)
    assert counterexample("FOO >= 11000", random.Random(0)) is not None
