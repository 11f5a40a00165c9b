"""The CUDA -> HIP API mapping table (from AMD HIPIFY's docs), loaded from rules/hipify_map.tsv."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from ..core.package_data import rules_folder
from .tsv import data_lines

TSV_NAME = "hipify_map.tsv"
# Names whose length differs more than this from the query are not "did you mean" candidates.
_NEAR_LENGTH_SLACK = 3
_NEAR_CUTOFF = 0.8
# HIP names that are C/C++ keywords (a CUDA handle type that HIP spells `int`): never an API use.
_KEYWORDS = frozenset({"bool", "char", "double", "float", "int", "long", "short", "signed", "unsigned", "void"})


class ApiEntry(NamedTuple):
    """One row of HIPIFY's tables: a CUDA name, its HIP and ROC/MIOpen names and versions.

    Versions are strings as written (None = not given). `cuda_*` versions are on the
    `cuda_scale` scale: "CUDA" (toolkit, "11.3") or "cuDNN" (cuDNN release, "8.0.1", for the
    CUDNN API). `hip_*` and `roc_*` versions are HIP/ROCm releases ("6.2.0"). For the CUDNN API
    `roc` is the MIOpen name; otherwise it is the rocBLAS/rocSPARSE/rocSOLVER/rocRAND name.
    """

    cuda: str
    library: str
    section: str
    hip: str | None
    hip_added: str | None
    hip_deprecated: str | None
    hip_changed: str | None
    hip_removed: str | None
    hip_experimental: str | None
    cuda_scale: str
    cuda_added: str | None
    cuda_deprecated: str | None
    cuda_changed: str | None
    cuda_removed: str | None
    roc: str | None
    roc_added: str | None
    roc_deprecated: str | None
    roc_changed: str | None
    roc_removed: str | None
    roc_experimental: str | None

    @property
    def supported(self) -> bool:
        """True when HIP has an equivalent name."""
        return self.hip is not None


COLUMNS = ApiEntry._fields
_HIP_COLUMN = COLUMNS.index("hip")
_HIP_ADDED_COLUMN = COLUMNS.index("hip_added")

# Version getters whose value is on a different scale on each side (guard-semantics.md §2): the
# CUDA name, what its value encodes, and what the HIP equivalent's value encodes.
VERSION_GETTERS = {
    "cudaRuntimeGetVersion": ("CUDA_VERSION's major*1000 + minor*10 (12040 = CUDA 12.4)",
                              "HIP_VERSION's major*10000000 + minor*100000 + patch (60241134 = HIP 6.2)"),
    "cudaDriverGetVersion": ("CUDA_VERSION's major*1000 + minor*10 (12040 = CUDA 12.4)",
                             "HIP_VERSION's major*10000000 + minor*100000 + patch (60241134 = HIP 6.2)"),
    "cuDriverGetVersion": ("CUDA_VERSION's major*1000 + minor*10 (12040 = CUDA 12.4)",
                           "HIP_VERSION's major*10000000 + minor*100000 + patch (60241134 = HIP 6.2)"),
    "cufftGetVersion": ("the cuFFT version (CUFFT_VERSION, e.g. 11200)", "the hipFFT version"),
    "curandGetVersion": ("the cuRAND version (CURAND_VERSION, e.g. 10305)", "the hipRAND version"),
    "cusparseGetVersion": ("the cuSPARSE version (CUSPARSE_VERSION, e.g. 12300)", "the hipSPARSE version"),
    "cublasGetVersion": ("the cuBLAS version (CUBLAS_VERSION, e.g. 120400)", "the hipBLAS version"),
    "cublasGetVersion_v2": ("the cuBLAS version (CUBLAS_VERSION, e.g. 120400)", "the hipBLAS version"),
    "cublasLtGetVersion": ("the cuBLASLt version (e.g. 120400)", "the hipBLASLt version"),
    "cusolverGetVersion": ("the cuSOLVER version (CUSOLVER_VERSION, e.g. 11600)", "the hipSOLVER version"),
    "cudnnGetVersion": ("the cuDNN version (CUDNN_VERSION, e.g. 90100)", "the hipDNN/MIOpen version"),
    "nvrtcVersion": ("the CUDA toolkit's major and minor (12, 4)", "HIP's major and minor (6, 2)"),
}  # fmt: skip


class ApiFact(NamedTuple):
    """What the rules need to know about one CUDA or HIP name used in code.

    `hip` is the HIP equivalent (the name itself for a HIP name), None when HIP has none;
    `added` is the HIP version that added it (the earliest, when the name has several rows).
    """

    name: str
    hip: str | None
    added: str | None

    @property
    def unsupported(self) -> bool:
        """True for a CUDA name with no HIP equivalent."""
        return self.hip is None

    @property
    def added_version(self) -> tuple[int, int, int] | None:
        """`added` as (major, minor, patch)."""
        if self.added is None:
            return None
        major, minor, patch = (version_tuple(self.added) + (0, 0))[:3]
        return major, minor, patch


class MappingTable:
    """All entries, with exact lookups by CUDA or HIP name and "did you mean" suggestions.

    Built from the TSV text (`#` comment lines, a header row naming COLUMNS, data rows). The
    indexes are built when first used and an entry when first looked up (and kept), so loading
    stays fast: a check run needs `api_facts` only, and making all ~9,000 entries, as the first
    use of `rows` does, is slower.
    """

    def __init__(self, text: str) -> None:
        self._lines = data_lines(TSV_NAME, text, COLUMNS)
        self._entries: list[ApiEntry | None] = [None] * len(self._lines)

    @functools.cached_property
    def cuda_names(self) -> frozenset[str]:
        """Every CUDA name of the table."""
        return frozenset(self._cuda_rows)

    @functools.cached_property
    def rows(self) -> tuple[ApiEntry, ...]:
        """Every entry, in table order."""
        return tuple(map(self._entry, range(len(self._lines))))

    def cuda_names_outside(self, library: str) -> frozenset[bytes]:
        """The CUDA names with a row of another library than `library` (one pass over the raw rows)."""
        return frozenset(cuda.encode() for cuda, row_library, *_ in (line.split("\t", 2) for line in self._lines)
                         if row_library != library)

    def by_cuda(self, name: str) -> tuple[ApiEntry, ...]:
        """Entries for this CUDA name (exact, case-sensitive); a few names are in two tables."""
        return tuple(map(self._entry, self._cuda_rows.get(name, ())))

    def by_hip(self, name: str) -> tuple[ApiEntry, ...]:
        """Entries whose HIP name is `name` (several CUDA names may map to one HIP name)."""
        return tuple(map(self._entry, self._hip_rows.get(name, ())))

    def near(self, name: str, limit: int = 3) -> list[str]:
        """Up to `limit` CUDA or HIP names close to `name` (case-insensitive), best first."""
        folded = name.lower()
        lengths = range(len(folded) - _NEAR_LENGTH_SLACK, len(folded) + _NEAR_LENGTH_SLACK + 1)
        candidates = [c for length in lengths for c in self._folded_by_length.get(length, ())]
        from difflib import get_close_matches

        matches = get_close_matches(folded, candidates, n=limit, cutoff=_NEAR_CUTOFF)
        return [original for match in matches for original in self._folded_names[match]][:limit]

    @functools.cached_property
    def api_facts(self) -> dict[bytes, ApiFact]:
        """Every identifier-shaped CUDA and HIP name -> its ApiFact, keyed by its bytes.

        Built from the raw rows (no ApiEntry is made; an ApiFact only when looked up: a file
        uses a few of the 12,000 names). A CUDA name is supported when any of its rows has a
        HIP name, or when HIP uses the very same name.
        """
        names: dict[str, tuple[str | None, str | None]] = {}
        known = names.get
        for line in self._lines:  # (9,000 rows: the first name's row is the common case, kept short)
            cuda, _, _, hip, added = line.split("\t", _HIP_ADDED_COLUMN + 1)[: _HIP_ADDED_COLUMN + 1]
            fact = (hip, added or None) if hip else (None, None)
            for name in (cuda, hip) if hip else (cuda,):
                before = known(name)
                if before is None:
                    if name.isidentifier() and name.isascii() and name not in _KEYWORDS:
                        names[name] = fact
                elif hip:
                    names[name] = _merged(before, fact)
        return Facts({name.encode(): (name, *fact) for name, fact in names.items()})

    @functools.cached_property
    def newest_hip(self) -> tuple[int, int, int]:
        """The newest HIP version the table records: the release its HIPIFY snapshot was made for.

        "Unsupported" means "not in HIP as far as the snapshot knows". The snapshot of the shipped
        table predates that release (HIPIFY's HIP_LATEST = 6.3.0, committed 2024-10-24), so it
        does not know all of it, and nothing of later ones.
        """
        versions = self.api_facts.added_versions() - {None}
        newest = max(versions, key=version_tuple, default="0.0.0")
        return ApiFact("", None, newest).added_version

    def _entry(self, index: int) -> ApiEntry:
        """The entry of data row `index`, made on first use."""
        entry = self._entries[index]
        if entry is None:
            entry = ApiEntry(*[cell or None for cell in self._lines[index].split("\t")])
            self._entries[index] = entry
        return entry

    @functools.cached_property
    def _cuda_rows(self) -> dict[str, tuple[int, ...]]:
        """CUDA name -> data row indexes."""
        return _positions(line[: line.index("\t")] for line in self._lines)

    @functools.cached_property
    def _hip_rows(self) -> dict[str, tuple[int, ...]]:
        """HIP name -> data row indexes."""
        return _positions(line.split("\t", _HIP_COLUMN + 1)[_HIP_COLUMN] for line in self._lines)

    @functools.cached_property
    def _folded_names(self) -> dict[str, tuple[str, ...]]:
        """Lower-cased CUDA and HIP names -> the names themselves."""
        names: dict[str, list[str]] = {}
        for name in sorted(self.cuda_names.union(self._hip_rows)):
            names.setdefault(name.lower(), []).append(name)
        return {folded: tuple(group) for folded, group in names.items()}

    @functools.cached_property
    def _folded_by_length(self) -> dict[int, tuple[str, ...]]:
        """Lower-cased names grouped by length, to narrow the candidates of `near`."""
        groups: dict[int, list[str]] = {}
        for folded in self._folded_names:
            groups.setdefault(len(folded), []).append(folded)
        return {length: tuple(group) for length, group in groups.items()}


class Facts(dict):
    """name -> ApiFact, each made on first lookup from its (name, hip, added), or from the one text
    `packed` gives it (a table store's form: 12,000 texts unpickle in half the time of tuples)."""

    def __getitem__(self, name: bytes) -> ApiFact:
        fact = super().__getitem__(name)
        kind = type(fact)
        if kind is str:
            hip, added = fact.split("\t")
            fact = self[name] = ApiFact(name.decode(), hip or None, added or None)
        elif kind is tuple:
            fact = self[name] = ApiFact(*fact)
        return fact

    def get(self, name: bytes, default: ApiFact | None = None) -> ApiFact | None:
        return self[name] if name in self else default

    def added_versions(self) -> set[str | None]:
        """The `added` of every fact, made or not."""
        return {self[name].added for name in self}

    def packed(self) -> dict[bytes, str]:
        """name -> "hip<TAB>added" ("" for None): every fact's name is its key."""
        facts = ((name, self[name]) for name in self)
        return {name: f"{fact.hip or ''}\t{fact.added or ''}" for name, fact in facts}


def _merged(known: tuple[str | None, str | None], row: tuple[str, str | None]) -> tuple[str | None, str | None]:
    """A name's (hip, added) once another of its rows, with a HIP name, is seen: supported if
    any row is, the earliest `added`."""
    versions = [v for v in (known[1], row[1]) if v is not None]
    return known[0] or row[0], min(versions, key=version_tuple) if versions else None


def _positions(keys: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """Each non-empty key -> the indexes where it occurs, in order."""
    groups: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        if key:
            groups.setdefault(key, []).append(index)
    return {key: tuple(group) for key, group in groups.items()}


@functools.lru_cache(maxsize=1)
def load_table() -> MappingTable:
    """The mapping table shipped with hipify-guard (loaded once, then cached)."""
    return MappingTable((rules_folder() / TSV_NAME).read_text(encoding="utf-8"))


def version_tuple(text: str) -> tuple[int, ...]:
    """A dotted version as integers: "6.2.0" -> (6, 2, 0); ValueError if not numeric."""
    return tuple(int(part) for part in text.strip().split("."))
