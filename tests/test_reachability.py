"""The one-walk reachability (`hipify_guard.model.reachability`) against `satisfiable` per arm.

The walk promises `satisfiable`'s answers: an arm is reached when every prefix of its path
condition (the walk adds one literal at a time) is satisfiable, which is `satisfiable(path)`
itself wherever the critical-value sweep is exact. Hypothesis builds nested conditionals from
guards on CUDA, ROCm, hipify-renamed and free macros, opaque calls and arithmetic, and every arm,
directive and group, is compared on CUDA and on every ROCm model.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.platforms import satisfiable
from hipify_guard.model.reachability import MAX_COMPONENT_LITERALS, key, reachable_arms
from hipify_guard.model.settings import Settings

ATOMS = (
    "CUDA_VERSION >= 11000", "CUDA_VERSION < 12000", "CUDA_VERSION == 11080", "defined(CUDA_VERSION)",
    "CUDA_VERSION", "CUDART_VERSION >= CUDA_VERSION", "CUDA_VERSION / 1000 >= 11", "__CUDACC_VER_MAJOR__ > 11",
    "defined(USE_ROCM)", "ROCM_VERSION >= 50000", "TORCH_HIP_VERSION >= 600", "defined(__HIP_PLATFORM_AMD__)",
    "__HIP_PLATFORM_AMD__", "HIP_VERSION >= 50200000", "FOO", "FOO > 2", "defined(BAR)", "BAR == FOO", "0", "1",
    "__has_include(<x.h>)", "CUDA_VERSION >= FOO * 1000", "1 / FOO",
)
NAMES = ("CUDA_VERSION", "USE_ROCM", "FOO", "__HIP_PLATFORM_AMD__", "TORCH_HIP_VERSION")


def _condition() -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)
    pair = st.tuples(atom, st.sampled_from(("&&", "||")), atom).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})")
    return st.one_of(atom, pair, atom.map(lambda a: f"!({a})"))


def _opening() -> st.SearchStrategy[str]:
    return st.one_of(_condition().map(lambda c: f"#if {c}"), st.sampled_from(NAMES).map(lambda n: f"#ifdef {n}"),
                     st.sampled_from(NAMES).map(lambda n: f"#ifndef {n}"))


def _body(children: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    return st.lists(children, max_size=3).map(lambda parts: [line for part in parts for line in part])


def _conditional(children: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    elif_arm = st.tuples(_condition(), _body(children)).map(lambda t: [f"#elif {t[0]}", *t[1]])
    else_arm = st.one_of(st.just([]), _body(children).map(lambda body: ["#else", *body]))
    return st.tuples(_opening(), _body(children), st.lists(elif_arm, max_size=2), else_arm).map(
        lambda t: [t[0], *t[1], *(line for arm in t[2] for line in arm), *t[3], "#endif"])


SOURCES = st.recursive(st.just(["code();"]), _conditional, max_leaves=12).map(lambda lines: "\n".join(lines) + "\n")


def _arms(file: FileAnalysis):
    return [arm for conditional in file.tree.conditionals for arm in conditional.arms]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SOURCES)
def test_walk_gives_satisfiable_answers_for_every_arm(source: str) -> None:
    file = FileAnalysis("t.cu", source.encode(), Settings())
    for platform in (file.settings.cuda, *file.settings.rocm_models):
        table = reachable_arms(file.tree, lambda arm: file.condition(arm).term, platform)
        for arm in _arms(file):
            for inside in (False, True):
                literals = file.path(arm) if inside else file.context(arm)
                expected = all(satisfiable(literals[:end], platform) for end in range(1, len(literals) + 1))
                assert table[key(arm, inside)] == expected, (platform.name, arm.directive, inside, source)


def test_rocm_only_group_its_else_and_a_nested_guard() -> None:
    data = b"#if defined(USE_ROCM)\na\n#if CUDA_VERSION >= 1\nb\n#endif\n#else\nc\n#endif\n"
    file = FileAnalysis("t.cu", data, Settings())
    outer, inner = file.tree.conditionals
    cuda = file.settings.cuda
    assert not file.reachable(outer.arms[0], cuda, inside=True)
    assert not file.reachable(inner.arms[0], cuda, inside=False)
    assert file.reachable(outer.arms[1], cuda, inside=True)
    reached = {model.name for model in file.reachable_on_rocm(inner.arms[0], inside=True)}
    assert reached == {"torch-hipify"}  # native HIP leaves CUDA_VERSION undefined


def _nested(count: int, line: str) -> bytes:
    return ("".join(line.format(i=i) for i in range(count)) + "x\n" + "#endif\n" * count).encode()


def test_ten_thousand_nested_guards_are_walked_in_linear_time() -> None:
    """Before the walk, 1,000 nested `#if CUDA_VERSION >= N` took 40 s and 10,000 hours."""
    for line in ("#if CUDA_VERSION >= {i}\n", "#if CUDA_VERSION < 30000 - {i}\n", "#if defined(F{i}) || CUDA_VERSION\n",
                 "#if CUDA_VERSION >= {i}\n#else\n"):
        file = FileAnalysis("t.cu", _nested(10_000, line), Settings())
        started = time.process_time()  # CPU time: other jobs on a shared machine do not count
        deepest = file.tree.conditionals[-1].arms[0]
        for platform in (file.settings.cuda, *file.settings.rocm_models):
            file.reachable(deepest, platform, inside=True)
        assert time.process_time() - started < 10, line


def _contradiction_at_depth(depth: int) -> bool:
    """Whether `#if CUDA_VERSION < 3` inside `depth` nested `#if CUDA_VERSION > N` is reached on CUDA."""
    data = b"".join(b"#if CUDA_VERSION > %d\n" % i for i in range(depth))
    data += b"#if CUDA_VERSION < 3\nx\n#endif\n" + b"#endif\n" * depth
    file = FileAnalysis("t.cu", data, Settings())
    return file.reachable(file.tree.conditionals[-1].arms[0], file.settings.cuda, inside=True)


def test_a_component_beyond_the_literal_limit_is_assumed_reachable() -> None:
    """Past MAX_COMPONENT_LITERALS literals on one macro the walk stops sweeping, as it does for
    too many configurations: a contradiction is found at a real depth, assumed away past the limit."""
    assert not _contradiction_at_depth(5)
    assert not _contradiction_at_depth(MAX_COMPONENT_LITERALS - 1)
    assert _contradiction_at_depth(MAX_COMPONENT_LITERALS + 5)
