"""Folder layouts that say which platform compiles a file: a CUDA folder beside its HIP sibling.

`platforms/cuda/` beside `platforms/hip/`, `Cuda/` beside `HIP/`, `src/cuda/` beside `src/rocm/`
(sibling folders whose names differ only by the platform word). A file in the CUDA folder is
CUDA-only when the HIP folder has its counterpart: the same place below the folder, the same name
with the platform word swapped (`Kokkos_Cuda_Team.hpp` / `Kokkos_HIP_Team.hpp`, `device_conj.cu` /
`device_conj.hip`) and of the same kind (header or not), that does not name the CUDA file
(`cuda/forall.hpp` when both have one name: a HIP wrapper that includes its CUDA original
compiles both). The counterpart is ROCm-only. The same holds for two files of one folder whose
names differ only by the platform word (ggml's `vendors/cuda.h` beside `vendors/hip.h`, RAJA's
`policy/cuda.hpp` beside `policy/hip.hpp`: one is included where the other is) or by a `.hip`
suffix (`X.cpp` beside `X.hip.cpp`, `X.cu` beside `X.hip`). A folder
with no counterparts (`ggml-hip/`, only a CMakeLists.txt that compiles `../ggml-cuda/`) says
nothing; nor does a layout about a file some build file names for another build.
"""

from __future__ import annotations

import os
import posixpath
from bisect import bisect_left
from collections.abc import Sequence

from .build_conditions import CUDA, CUDA_WORDS, ROCM, ROCM_WORDS, name_holds, words
from .build_facts import Evidence, SourceFact
from .build_tree import Tree
from .source_paths import is_header

_PLATFORM_WORDS = ROCM_WORDS | CUDA_WORDS


MAX_READ = 1 << 20  # bytes of a counterpart searched for the CUDA file's name


def layout_facts(root: str, tree: Tree, claimed: dict[str, set[str | None]], read: set[str]) -> list[SourceFact]:
    """CUDA-only and ROCm-only files by their folders (`claimed`: the build files' platforms per
    file); the counterparts it opens are added to `read`."""
    facts: list[SourceFact] = []
    for parent, children in tree.folders.items():
        for cuda, hip in _sibling_pairs(children):
            cuda_folder = f"{parent}/{cuda}" if parent else cuda
            hip_folder = f"{parent}/{hip}" if parent else hip
            facts.extend(_pair_facts(root, cuda_folder, hip_folder, tree.sources, claimed, read))
    by_folder: dict[str, list[str]] = {}
    for path in tree.sources:
        by_folder.setdefault(posixpath.dirname(path), []).append(path)
    for paths in by_folder.values():
        facts.extend(_file_pair_facts(root, paths, claimed, read))
    return facts


def _file_pair_facts(root: str, paths: Sequence[str], claimed: dict[str, set[str | None]],
                     read: set[str]) -> list[SourceFact]:
    """CUDA-only and ROCm-only files among the files of one folder (`paths`), by names that differ
    only by the platform word (`cuda.h` / `hip.h`, `Foo_Cuda.hpp` / `Foo_HIP.hpp`)."""
    by_platform: dict[str, dict[tuple, str]] = {CUDA: {}, ROCM: {}}
    for path in paths:
        name = posixpath.basename(path)
        stem = name.partition(".")[0]
        platform = name_holds(stem).platform
        if platform is not None:
            by_platform[platform].setdefault((_key(stem), is_header(name)), path)
    pairs = [(path, twin) for key, path in by_platform[CUDA].items() if (twin := by_platform[ROCM].get(key))]
    pairs += _hip_suffix_pairs(paths)
    facts = []
    for path, twin in pairs:
        name, twin_name = posixpath.basename(path), posixpath.basename(twin)
        facts += _counterparts(root, path, twin, name, f"{name} beside {twin_name}, its counterpart", claimed, read)
    return facts


def _hip_suffix_pairs(paths: Sequence[str]) -> list[tuple[str, str]]:
    """(CUDA file, HIP file) of one folder named `X.cpp` / `X.hip.cpp` (ginkgo's
    `identify_stream_usage.cpp`) or `X.cu` / `X.hip`."""
    present = set(paths)
    pairs = []
    for twin in paths:
        stem, dot, extension = twin.rpartition(".")
        if stem.endswith(".hip") and extension != "hip":
            original = f"{stem[:-4]}.{extension}"
        elif extension == "hip" and dot:
            original = f"{stem}.cu"
        else:
            continue
        if original in present:
            pairs.append((original, twin))
    return pairs


def _sibling_pairs(children: Sequence[str]) -> list[tuple[str, str]]:
    """(CUDA folder, HIP folder) among sibling names that differ only by the platform word."""
    by_platform: dict[str, list[str]] = {CUDA: [], ROCM: []}
    for name in children:
        platform = name_holds(name).platform
        if platform is not None:
            by_platform[platform].append(name)
    return [(cuda, hip) for cuda in by_platform[CUDA] for hip in by_platform[ROCM] if _key(cuda) == _key(hip)]


def _key(name: str) -> tuple[str, ...]:
    """A name's words with the platform word made neutral: `ggml-cuda` and `ggml-hip` have one key."""
    return tuple("gpu" if word in _PLATFORM_WORDS else word for word in words(name))


def _file_key(relative: str) -> tuple:
    """(folders, stem, is a header) of a path below a platform folder, platform words made neutral."""
    folders, _, name = relative.rpartition("/")
    return tuple(_key(part) for part in folders.split("/") if part), _key(name.partition(".")[0]), is_header(name)


def _below(files: Sequence[str], folder: str) -> list[str]:
    prefix = folder + "/"
    start = bisect_left(files, prefix)
    end = bisect_left(files, folder + "0")  # "0" sorts right after "/"
    return list(files[start:end])


def _pair_facts(root: str, cuda_folder: str, hip_folder: str, files: Sequence[str],
                claimed: dict[str, set[str | None]], read: set[str]) -> list[SourceFact]:
    counterparts = {}
    for path in _below(files, hip_folder):
        counterparts.setdefault(_file_key(path[len(hip_folder) + 1:]), path)
    facts = []
    for path in _below(files, cuda_folder):
        twin = counterparts.get(_file_key(path[len(cuda_folder) + 1:]))
        if twin is not None:
            name = os.path.basename(path)
            needle = name if name != os.path.basename(twin) else posixpath.basename(cuda_folder) + "/" + name
            because = f"{cuda_folder}/ beside {hip_folder}/, which has its counterpart"
            facts += _counterparts(root, path, twin, needle, because, claimed, read)
    return facts


def _counterparts(root: str, path: str, twin: str, needle: str, because: str, claimed: dict[str, set[str | None]],
                  read: set[str]) -> list[SourceFact]:
    """`path` CUDA-only and `twin` ROCm-only, unless a build file says otherwise or the twin names
    `needle` (a HIP wrapper that includes its CUDA original compiles both); the twin is opened."""
    if not claimed.get(path, {CUDA}) <= {CUDA} or not claimed.get(twin, {ROCM}) <= {ROCM}:
        return []
    read.add(twin)
    if _names(os.path.join(root, twin), needle):
        return []
    return [SourceFact(path, CUDA, because, Evidence(twin, 0, ""), (path,)),
            SourceFact(twin, ROCM, because, Evidence(path, 0, ""), (twin,))]


def _names(path: str, name: str) -> bool:
    """Whether the file at `path` names `name` (or cannot be read: then it may)."""
    try:
        with open(path, "rb") as stream:
            return os.fsencode(name) in stream.read(MAX_READ)
    except OSError:
        return True
