"""The prefilter says exactly what `any(name in data)` says, whatever the grouping of names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hipify_guard.core.prefilter import MIN_PROBE, Prefilter, RuleFilter, plan

# A small alphabet so that names share prefixes (groups) and occur in the data by chance.
NAME = st.text("AB_C", min_size=1, max_size=12).map(str.encode)
DATA = st.lists(st.one_of(NAME, st.binary(max_size=6)), max_size=30).map(b"".join)


@given(st.lists(NAME, min_size=1, max_size=40), DATA)
@settings(max_examples=400, deadline=None)
def test_prefilter_agrees_with_a_plain_search(names: list[bytes], data: bytes) -> None:
    assert Prefilter(names)(data) == any(name in data for name in names)


@given(st.lists(NAME, min_size=1, max_size=40))
def test_every_name_sits_under_one_probe_that_starts_it(names: list[bytes]) -> None:
    prefilter = Prefilter(names)
    grouped = [name for probe, group in prefilter.probes for name in group if name.startswith(probe)]
    assert sorted(grouped) == sorted(prefilter.names)


def test_names_containing_another_are_dropped() -> None:
    assert Prefilter([b"CUDA_VERSION", b"CUDA", b"X_CUDA_Y", b"HIP"]).names == (b"CUDA", b"HIP")


def test_shared_prefixes_become_one_probe() -> None:
    names = (b"__HIPCC__", b"__HIP_DEVICE_COMPILE__", b"__HIP_PLATFORM_AMD__", b"__HIP__", b"CUDA_VERSION")
    probes = dict(plan(tuple(sorted(names))))
    assert probes[b"__HIP"] == tuple(sorted(n for n in names if n.startswith(b"__HIP")))
    assert probes[b"CUDA_VERSION"] == (b"CUDA_VERSION",)
    assert all(len(probe) >= MIN_PROBE for probe in probes)


def test_large_groups_are_confirmed_through_an_index() -> None:
    names = [f"cudaApi{i:04d}Thing".encode() for i in range(500)]
    prefilter = Prefilter(names)
    assert len(prefilter.probes) == 1 and len(prefilter.probes[0][1]) == 500
    assert prefilter(b"x = cudaApi0042Thing(1);")
    assert not prefilter(b"x = cudaApi0042Thin(1); cudaApi9999Thing")
    assert prefilter(b"cudaApi cudaApi0499Things")


def test_empty_names_never_match() -> None:
    assert not Prefilter([])(b"anything")
    assert not Prefilter([b""])(b"anything")


def test_rule_filter_keeps_the_rules_whose_names_occur_in_order() -> None:
    rules = RuleFilter({"HG101": (b"CUDA_VERSION",), "HG106": (b"USE_ROCM", b"__HIP__"),
                        "HG107": (b"CUDA", b"HIP"), "HG905": ()})
    assert rules(b"#if CUDA_VERSION > 1\n") == ("HG101", "HG107", "HG905")
    assert rules(b"#ifdef __HIP__\n") == ("HG106", "HG107", "HG905")
    assert rules(b"int cuda;\n") == ()  # nothing occurs: not even the rule without names runs
    assert RuleFilter({"HG905": ()})(b"CUDA_VERSION") == ()


def test_a_screen_drops_its_rule_and_a_rule_without_names_runs_only_with_another() -> None:
    rules = RuleFilter({"HG101": (b"CUDA_VERSION",), "HG107": (b"CUDA",), "HG905": ()},
                       {"HG107": lambda data: b"#if" in data})
    assert rules(b"#if CUDA_VERSION > 1\n") == ("HG101", "HG107", "HG905")
    assert rules(b"int x = CUDA_VERSION;\n") == ("HG101", "HG905")
    assert rules(b"// CUDA\n") == (), "the screen rejects HG107, and HG905 never runs alone"


# HG107's screen: files whose conditional directives name a near miss (or may: the line goes on).
ADMITTED = [
    b"#if CUDA_VERSON >= 11000\n#endif\n", b"#ifdef HIP_VERSON\n#endif\n", b"# ifndef __CUDA__ARCH__\n",
    b"#if X\n#elif defined(CUDART_RUNTIME)\n", b"#elifdef ROCM_VERSON\n", b"/* c */ #if CUDA_VERSON\n",
    b"#/* x */if CUDA_VERSON\n", b"#if A || \\\n  CUDA_VERSON\n", b"#if A /* two\n lines */ || CUDA_VERSON\n",
    b"#if CU\\\nDA_VERSON\n", b"#if A\r#elif CUDA_VERSON\r", b"#if X /*/ CUDA_VERSON */\n", b"#if \xc3\xa9\n",
]
REJECTED = [
    b"#if CUDA_VERSION >= 11000\n#endif\n", b"#define CUDA_VERSON 1\n", b"// CUDA_VERSON\nint x;\n",
    b"#include <cuda.h>\n#pragma CUDA_VERSON\n", b"#if defined(__CUDACC__) /* CUDA */\n#endif\n", b"#iffy CUDA_VERSON\n",
]


def test_the_hg107_screen_admits_conditionals_that_name_a_near_miss() -> None:
    from hipify_guard.checks.misspelled_macro import conditional_near_misses
    from hipify_guard.model.settings import Settings

    admits = conditional_near_misses(Settings())
    assert [data for data in ADMITTED if not admits(data)] == []
    assert [data for data in REJECTED if admits(data)] == []


SCALE_ADMITTED = [
    b"#if CUDA_VERSION >= 110\n", b"#if (110) <= (CUDA_VERSION)\n", b"#if CUDA_VERSION >= 'a'\n",
    b"#if CUDA_VERSION not_eq 12\n", b"#if __CUDA_ARCH__ >= 80\n", b"#if HIP_VERSION >= 403\n",
    b"#if CUDA_VERSION /* x */ >= 11000\n", b"#if CUDA_VERSION >= 1.5\n", b"#if A && \\\n CUDA_VERSION > 5\n",
    b"#if CUDA_VERSION>=12ULL\n", b"#if X\n#elif ROCM_VERSION == 6\n",
]
SCALE_REJECTED = [
    b"#if CUDA_VERSION >= 11000\n", b"#if 11000 <= CUDA_VERSION\n", b"#if CUDA_VERSION not_eqx 12\n",
    b"#if __CUDA_ARCH__ >= 800\n", b"#if CUDA_VERSION >= FOO\n", b"#if CUDA_VERSION >= 0x2EE0\n", b"#ifdef CUDA_VERSION\n",
    b"#if MY_CUDA_VERSION > 5\n", b"#if CUDA_VERSION >> 5\n", b"#if CUDA_VERSION >= 11'000\n", b"int v = CUDA_VERSION > 5;\n",
]


def test_the_hg104_screen_admits_comparisons_with_implausible_constants() -> None:
    from hipify_guard.checks.version_scale import implausible_comparisons
    from hipify_guard.model.settings import Settings

    admits = implausible_comparisons(Settings())
    assert [data for data in SCALE_ADMITTED if not admits(data)] == []
    assert [data for data in SCALE_REJECTED if admits(data)] == []


@pytest.mark.parametrize("code", ["HG104", "HG107"])
def test_a_rule_finds_nothing_where_its_screen_rejects(code: str) -> None:
    from pathlib import Path

    from hipify_guard.checks import CHECKS
    from hipify_guard.model.analysis import FileAnalysis
    from hipify_guard.model.settings import Settings

    settings = Settings()
    admits = CHECKS[code].screen(settings)
    fixtures = [path.read_bytes() for path in Path(__file__).parent.glob("rules/*/*")]
    assert all(admits(data) for data in fixtures if f"expect: {code}".encode() in data)
    samples = REJECTED + SCALE_REJECTED + fixtures
    rejected = [data for data in samples if not admits(data)]
    assert len(rejected) > 20
    for data in rejected:
        assert list(CHECKS[code].function(FileAnalysis("x.cu", data, settings))) == [], data


CODES = st.sampled_from(["HG101", "HG104", "HG107", "HG203", "HG905"])


@given(st.dictionaries(CODES, st.lists(NAME, max_size=6).map(tuple), min_size=1), st.lists(DATA, max_size=5))
@settings(max_examples=300, deadline=None)
def test_rule_filter_agrees_with_a_plain_search(triggers: dict[str, tuple[bytes, ...]], files: list[bytes]) -> None:
    """Names that one group finds absent are not searched again by the others: same answers,
    also when one filter sees several files (its plans are shared between them)."""
    rules = RuleFilter(triggers)
    for data in files:
        named = {code for code, names in triggers.items() if any(name in data for name in names)}
        expected = [code for code in triggers if code in named or (named and not triggers[code])]
        assert rules(data) == tuple(expected)
