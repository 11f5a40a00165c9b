"""What a ROCm build has for a CUDA or HIP name, from the four sources of guard-semantics.md §11.4.

1. HIPIFY's tables (`mapping`): what hipify-perl and hipify-clang rename, so what native HIP
   (the `hip` model, and user models, which describe native HIP builds) compiles.
2. PyTorch's hipify table (`torch_mapping`): what the `torch-hipify` model compiles. A name it
   renames is compiled as its HIP name (unless marked HIP_UNSUPPORTED); a name it leaves alone
   is compiled as HIPIFY knows it (HIP has the equivalent) or as HIP's headers declare it.
3. HIP's own headers (`hip_headers`): a CUDA spelling that no table translates still compiles
   when HIP declares it, unless the declaration needs an opt-in macro the build does not define.
4. The project's own definitions (`definitions`): decided per use by `branch_apis`, not here.

The names worth finding are those the tables know and the CUDA spellings HIP's headers declare
(`__any_sync`, spec §14.2). "Added in HIP X" is the earliest evidence for the compiled name:
HIPIFY's HIP version, or the release since which HIP's headers have declared it. A view is the same for every file: what a
file or build defines (an opt-in macro, a shim) is applied by the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from .api_tables import API_NAME, ApiTables, api_tables
from .platforms import Platform

NATIVE, TORCH = "hip", "torch-hipify"
HIPIFY, TORCH_TABLE, HEADERS = "HIPIFY's tables", "PyTorch's hipify", "HIP's headers"
Version = tuple[int, int, int]


def is_api(name: str) -> bool:
    """Whether `name` is a CUDA or HIP API name, the only names whose use is evidence (spec §14.6)."""
    return knowledge().is_api(name)


class ApiView(NamedTuple):
    """What one route's ROCm build has for one name used in code."""

    name: str
    hip: str | None  # the name the build compiles; None: the build has no equivalent
    source: str  # which source says so (HIPIFY, TORCH_TABLE, HEADERS)
    added: Version | None = None  # the earliest evidence of `hip` in HIP
    opt_in: tuple[str, ...] = ()  # macros HIP's headers need defined to declare `hip`

    @property
    def missing(self) -> bool:
        """True when the build has no equivalent at all."""
        return self.hip is None


def titles(models: Iterable[Platform]) -> str:
    """The models' titles, each once, for messages: "native HIP, PyTorch's hipify"."""
    return ", ".join(dict.fromkeys(model.title for model in models))


def route(model: Platform) -> str:
    """How a ROCm model's sources become HIP: PyTorch's hipify (TORCH) or native HIP (NATIVE)."""
    return TORCH if model.name.partition("@")[0] == TORCH else NATIVE


class ApiKnowledge:
    """The views of every name, made on first use and kept."""

    def __init__(self, tables: ApiTables) -> None:
        self.tables = tables
        self._views: dict[tuple[str, str], ApiView] = {}
        self._apis: dict[str, bool] = {}

    @property
    def names(self) -> frozenset[bytes]:
        """The names worth finding in code: every identifier HIPIFY's or PyTorch's table knows."""
        return self.tables.names

    def is_api(self, name: str) -> bool:
        """See the module-level `is_api`."""
        known = self._apis.get(name)
        if known is None:
            known = self._apis[name] = name.encode() in self.tables.library_apis or API_NAME.match(name) is not None
        return known

    def view(self, name: str, way: str) -> ApiView | None:
        """What the build of route `way` has for `name`; None when no source of that route knows it."""
        key = (name, way)
        if key not in self._views:
            self._views[key] = self._view(name, way)
        return self._views[key]

    def _view(self, name: str, way: str) -> ApiView | None:
        facts = self.tables.facts
        fact = facts.get(name.encode())
        torch = self.tables.torch
        rename = torch.get(name) if way == TORCH else None
        if rename is not None:
            if rename.unsupported:
                return ApiView(name, None, TORCH_TABLE)
            compiled, source = rename.hip_name, TORCH_TABLE
        elif fact is not None and fact.hip is not None:
            compiled, source = fact.hip, HIPIFY
        else:
            compiled, source = name, HEADERS
        declaration = self.tables.hip.get(compiled)
        if source == HEADERS and declaration is None:
            if name in torch.hip_names:
                source = TORCH_TABLE  # a HIP name of PyTorch's table, used as such
            else:
                return ApiView(name, None, HIPIFY) if fact is not None else None
        evidence = [declaration.since] if declaration is not None and declaration.since else []
        hipify_name = facts.get(compiled.encode()) if compiled.isidentifier() else None
        evidence += [item.added_version for item in (fact, hipify_name)
                     if item is not None and item.hip == compiled and item.added is not None]
        opt_in = declaration.opt_in if declaration is not None else ()
        return ApiView(name, compiled, source, min(evidence) if evidence else None, opt_in)


@functools.lru_cache(maxsize=1)
def knowledge() -> ApiKnowledge:
    """The shipped knowledge (tables loaded once, on first use)."""
    return ApiKnowledge(api_tables())
