"""From which ROCm version a path condition holds: the version sweep behind HG203 and `--policy auto`.

A ROCm release v = (major, minor, patch) gives every ROCm version macro its value on its own
scale (guard-semantics.md §2): the project's ROCm version macro (`ROCM_VERSION`,
major*10000 + minor*100 + patch), `HIP_VERSION` (major*10^7 + minor*10^5 + patch from ROCm 4.3
on, major*100 + minor before: `HIP_VERSION >= 402` is HIP 4.2, §11.5),
`HIP_VERSION_MAJOR/_MINOR/_PATCH`, and `TORCH_HIP_VERSION` (major*100 + minor; under PyTorch's
hipify also the renamed `CUDA_VERSION`). Each of them may also be undefined (the build may not
define it), independently. HIP's "added X.Y.Z" is read as ROCm X.Y.Z (see README).

The earliest version is found exactly: every comparison of such a macro with a constant c
changes value only at the release that encodes to c or to c+1, so it suffices to try those
releases (and the floor), lowest first, with `platforms.satisfiable`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from .platforms import UNDEFINED, MacroSet, Platform, Term, satisfiable

Version = tuple[int, int, int]
Literal = tuple[Term, bool]
EVERY = (0, 0, 0)  # the lowest version: reachable here means "on every ROCm"


def _rocm(v: Version) -> int:
    return v[0] * 10_000 + v[1] * 100 + min(v[2], 99)


def _hip(v: Version) -> int:
    if v < NEW_HIP_ENCODING:
        return v[0] * 100 + min(v[1], 99)
    return v[0] * 10_000_000 + min(v[1], 99) * 100_000 + min(v[2], 99_999)


NEW_HIP_ENCODING = (4, 3, 0)  # the first release whose HIP_VERSION is major*10^7 + minor*10^5 + patch
# macro -> (encode a release, decode a constant into the releases that may start a new interval).
# Minor and patch macros decode to a part only: the other parts come from the other candidates.
_SCALES: dict[str, tuple[Callable[[Version], int], Callable[[int], tuple[Version, ...]]]] = {
    "HIP_VERSION": (_hip, lambda c: ((c // 10_000_000, c // 100_000 % 100, c % 100_000), (c // 100, c % 100, 0))),
    "HIP_VERSION_MAJOR": (lambda v: v[0], lambda c: ((c, 0, 0),)),
    "TORCH_HIP_VERSION": (lambda v: v[0] * 100 + min(v[1], 99), lambda c: ((c // 100, c % 100, 0),)),
}
_PARTS = {"HIP_VERSION_MINOR": 1, "HIP_VERSION_PATCH": 2}


def version_text(version: Version) -> str:
    """`6.2.0` style."""
    return ".".join(map(str, version))


def earliest(literals: Sequence[Literal], model: Platform, macros: MacroSet, floor: Version = EVERY) -> Version | None:
    """The lowest release >= floor for which `literals` can all hold on `model`; None if none can."""
    scales = _scales(macros)
    names = {model.renames.get(n, n) for item, _ in literals for n in item.names}
    present = sorted(n for n in names if (n in scales or n in _PARTS) and n not in model.fixed)
    newer = _header_macros(names - set(present) - model.fixed.keys(), floor)
    if not present and not newer:
        return floor if satisfiable(literals, model) else None
    constants = {c for item, _ in literals for c in item.constants if c >= 0}
    for version in _candidates(present, constants, scales, floor, newer.values()):
        at_version = _without(model, [name for name, since in newer.items() if since > version])
        for defined in ((), *_definedness(present)):  # (all undefined first)
            if satisfiable(literals, _at(at_version, version, present, scales, defined)):
                return version
    return None


_HISTORY_START = (1, 0, 0)  # the first release of HIP's header history (since.tsv): a name since then is in all


def _header_macros(names: Iterable[str], floor: Version) -> dict[str, Version]:
    """The names among `names` that HIP's headers define only from a release after `floor`, with
    that release (`HIP_FP8_TYPE_OCP`: 6.3.0): before it, no ROCm build defines them."""
    candidates = [name for name in names if name.startswith(("HIP_", "__HIP"))]
    if not candidates:
        return {}
    from .api_tables import api_tables  # (guards that test HIP's own macros only)

    found = {}
    for name in candidates:
        declaration = api_tables().hip.get(name)
        if declaration is not None and declaration.since is not None and declaration.since > max(floor, _HISTORY_START):
            found[name] = declaration.since
    return found


def _without(model: Platform, names: list[str]) -> Platform:
    """`model` with `names` undefined."""
    if not names:
        return model
    return replace(model, fixed={**model.fixed, **dict.fromkeys(names, UNDEFINED)})


def _scales(macros: MacroSet) -> dict[str, tuple[Callable[[Version], int], Callable[[int], tuple[Version, ...]]]]:
    rocm = (_rocm, lambda c: ((c // 10_000, c // 100 % 100, c % 100),))
    return {**_SCALES, "ROCM_VERSION": rocm, macros.rocm_version_macro: rocm}


def _candidates(present: list[str], constants: set[int], scales: dict, floor: Version,
                starts: Iterable[Version] = ()) -> list[Version]:
    """Releases from `floor` on at which some comparison of a present macro may change value, or a
    macro of HIP's headers appears (`starts`)."""
    found = {floor, *starts}
    for name in present:
        if name in scales:
            found.update(version for c in constants for version in scales[name][1](c))
        if name == "HIP_VERSION":
            found.add(NEW_HIP_ENCODING)  # every comparison with an old-scale constant may change there
    for name in present:
        if name in _PARTS:
            part = _PARTS[name]
            bases = list(found)
            for base, c in itertools.product(bases, constants):
                found.add(tuple(c if i == part else (base[i] if i < part else 0) for i in range(3)))
    return sorted(v for v in found if v >= floor and v[1] <= 99)


def _definedness(present: list[str]) -> list[tuple[str, ...]]:
    """Every non-empty subset of the present macros that is defined (the rest undefined)."""
    return [c for size in range(len(present), 0, -1) for c in itertools.combinations(present, size)]


def _at(model: Platform, version: Version, present: list[str], scales: dict, defined: tuple[str, ...]) -> Platform:
    """`model` with the present version macros fixed to `version` (or undefined)."""
    values: dict[str, int | None] = {}
    for name in present:
        if name not in defined:
            values[name] = UNDEFINED
        elif name in _PARTS:
            values[name] = version[_PARTS[name]]
        else:
            values[name] = scales[name][0](version)
    return Platform(model.name, model.title, model.is_rocm, {**model.fixed, **values}, model.renames, model.ranges)
