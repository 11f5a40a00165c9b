"""The prefilter says exactly what `any(name in data)` says, whatever the grouping of names."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hipify_guard.prefilter import MIN_PROBE, Prefilter, RuleFilter, plan

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
