"""Read a project's build files for what they say about its platforms: `read_build_files(root)`.

The tree below `root` is walked once (`build_tree`: vendored copies, submodules and build trees
left out). Read: `CMakeLists.txt` and `*.cmake` files and headers configured with `#cmakedefine`
(`cmake_reader`), `setup.py` files and the project modules they import (`setup_py_reader`),
Hugging Face kernel-builder `build.toml` files (`kernel_builder_reader`), Bazel `BUILD` files in a
platform's folder (`bazel_reader`), the tests the project's
ROCm CI scripts leave out (`rocm_ci`); the C++ files that register PyTorch operators are
listed (`torch_ops` reads them).
Nothing is executed; a file that cannot be read or parsed is noted and the rest is read.

A file is one platform's (`BuildFileFacts.sources`) when some build file names it for that
platform and no build file names it for the other or for every build. Headers are not claimed
from source lists (a header listed for CUDA may be included by code the ROCm build compiles:
pytorch_scatter lists `csrc/cuda/*.h` for its CUDA CMake build, and its setup.py compiles the
`.cu` files that include them for ROCm too); only a folder layout claims them (`source_layout`).
When the ROCm build compiles hipify outputs it does not name, no file is CUDA-only by the lists.

The facts follow from the walk and the bytes of the files read, nothing else: a `FactsMemo` (the
results cache of a check run) keeps them between runs under a digest of the walk, with the status
of every file read, and a later run whose walk and files are unchanged takes them from it. The
digest is kept with the walk too (`project_walk.remember`): while the walk is unchanged, a run
neither goes through it again nor hashes it.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from .build_conditions import CUDA, ROCM, name_holds
from .build_facts import BuildFileFacts, Definition, Evidence, Mention, ReaderResult, SourceFact
from ..walk import run_reads
from ..walk.project_walk import remember, walk_of
from .source_paths import GENERATED, is_header

if TYPE_CHECKING:
    from .build_tree import Tree
    from .source_matching import Matcher

# What a build for ROCm says in a build file's code: HIP's CMake package and language, hipcc,
# ROCm's install path, a `-D` of HIP's platform, PyTorch's ROCm tests, a hipify step.
_ROCM_BUILD = re.compile(r"(?i)find_package\s*\(\s*(?:hip|rocm)\b|enable_language\s*\(\s*hip\b|\bhip::|"
                         r"\blanguages?\b[^)\n]*\bhip\b|\bhipcc\b|\brocm_(?:path|home)\b|-D__HIP_PLATFORM_AMD__|"
                         r"\bversion\.hip\b|\bIS_HIP_EXTENSION\b|\bhipify|\bhip_add_(?:library|executable)\b")
_GLOB_CHARACTER = re.compile(r"[*?[]")
_COMMENT = re.compile(r"(?m)(?:^|(?<=\s))#.*$")
# A HIP build for NVIDIA GPUs: then a macro named for HIP (`GKO_COMPILING_HIP`) is defined on CUDA too.
_HIP_ON_NVIDIA = re.compile(r"(?i)hip_platform[^\n]*(?:nvidia|nvcc)|hip_compiler_id[^\n]*nvidia|"
                            r"__HIP_PLATFORM_(?:NVIDIA|NVCC)__")
_TORCH_BUILD = re.compile(r"torch\.utils\.cpp_extension|torch\.utils\.hipify|\bhipify_torch\b|CUDAExtension|"
                          r"find_package\s*\(\s*Torch\b")
MAX_BUILD_FILE = 4 << 20  # bytes; a larger "build file" is generated or not one
RACY_SECONDS = 2  # a file changed this recently may change again unseen: its facts are not kept
Status = tuple[str, int, int, int]  # a file read: (root-relative path, mtime_ns, ctime_ns, size)
_DIGEST = "build-tree-digest"  # what the project's walk keeps of this reader: (.gitmodules' status, digest)


class FactsMemo(Protocol):
    """Where facts are kept between runs (`cache.Cache`)."""

    def build_facts(self, key: bytes) -> tuple[BuildFileFacts, tuple[Status, ...]] | None: ...

    def keep_build_facts(self, key: bytes, facts: BuildFileFacts, reads: tuple[Status, ...]) -> None: ...


def read_build_files(root: str, memo: FactsMemo | None = None) -> BuildFileFacts:
    """The facts the build files below `root` state (see the module docstring)."""
    root = os.path.abspath(root)
    if memo is not None:  # the digest found from the same walk before (`project_walk.remember`)
        walked, submodules = walk_of(root), _status(root, ".gitmodules")
        run_reads.read((os.path.join(root, ".gitmodules"),))
        known = walked.derived.get(_DIGEST)
        if known is not None and known[0] == submodules and (kept := _holding(root, memo, known[1])) is not None:
            return kept
    from .build_tree import walk  # (a run whose walk is remembered reads no build file: none of the readers)

    notes: list[str] = []
    tree = walk(root, notes)
    texts = _Texts(root, notes)
    if memo is None:
        return _read(root, tree, texts, notes)
    key = _walk_digest(root, tree, notes)
    remember(walked, _DIGEST, (submodules, key))
    kept = _holding(root, memo, key)
    if kept is not None:
        return kept
    facts = _read(root, tree, texts, notes)
    run_reads.read(os.path.join(root, path) for path in texts.read)
    settled = time.time_ns() - RACY_SECONDS * 10**9
    reads = tuple((path, *status) for path in sorted(texts.read) if (status := _status(root, path)) is not None)
    if len(reads) == len(texts.read) and all(mtime < settled for _, mtime, _, _ in reads):
        memo.keep_build_facts(key, facts, reads)
    return facts


def _holding(root: str, memo: FactsMemo, key: bytes) -> BuildFileFacts | None:
    """The facts kept under `key` while every file they were read from is unchanged, else None."""
    kept = memo.build_facts(key)
    if kept is not None and all(_status(root, path) == tuple(status) for path, *status in kept[1]):
        run_reads.read(os.path.join(root, path) for path, *_ in kept[1])
        return kept[0]
    return None


def _walk_digest(root: str, tree: Tree, notes: list[str]) -> bytes:
    """What the walk found (and could not read), as a digest: facts are kept per walk."""
    digest = hashlib.sha256(root.encode("utf-8", "surrogateescape"))
    for names in (tree.cmake, tree.headers, tree.setup_py, tree.kernel_builds, tree.sources, notes, tree.starlark):
        digest.update(b"\1" + "\0".join(names).encode("utf-8", "surrogateescape"))
    for folder, children in sorted(tree.folders.items()):
        digest.update(b"\2" + f"{folder}\0{'/'.join(children)}".encode("utf-8", "surrogateescape"))
    return digest.digest()


def _status(root: str, path: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(os.path.join(root, path))
    except OSError:
        return None
    return status.st_mtime_ns, status.st_ctime_ns, status.st_size


def _read(root: str, tree: Tree, texts: _Texts, notes: list[str]) -> BuildFileFacts:
    """Run the readers over the walk's build files (imported here: a run whose facts are kept needs none)."""
    from .bazel_reader import read_bazel
    from .cmake_reader import read_cmake
    from .commented_definitions import retired_definitions
    from .commented_sources import commented_sources
    from .kernel_builder_reader import read_kernel_builds
    from .rocm_ci import rocm_ci_exclusions
    from .setup_py_reader import read_setup_py
    from .source_layout import layout_facts
    from .source_matching import Matcher
    from .torch_ops import is_bindings_file

    kernel_builds = read_kernel_builds(tree.kernel_builds, texts)
    rocm_built = bool(_first_line([*tree.cmake, *tree.setup_py], texts, _ROCM_BUILD))
    results = [read_cmake(root, tree.cmake, tree.headers, texts, tree.starlark),
               read_setup_py(root, tree.setup_py, texts, rocm_built), kernel_builds.result,
               read_bazel(tree.bazel, texts)]
    definitions = tuple({(item.name, item.value, item.platform, item.always, item.evidence, item.folder): item
                         for result in results for item in result.definitions}.values())
    cmake_projects = [item for result in results for item in result.cuda_only_cmake]
    mentions = [_built_by(item, cmake_projects) for result in results for item in result.mentions]
    notes.extend(note for result in results for note in result.notes)
    matcher = Matcher(tree.sources)
    claimed = _claimed(mentions, matcher)
    sources = resolve(mentions, matcher, claimed)
    opaque = _opaque_hipify(results, mentions)
    if opaque:
        notes.append(opaque)
        sources = [fact for fact in sources if fact.platform != CUDA]
    sources += layout_facts(root, tree, claimed, texts.read)
    if not opaque:
        rocm_cmake = [path for path in tree.cmake if _first_line([path], texts, _ROCM_BUILD)]
        sources += commented_sources(rocm_cmake, texts, matcher.known, claimed)
    ci_files, ci_folders = rocm_ci_exclusions(root, tree.rocm_ci, tree.folders, texts)
    sources += ci_files
    sources += [SourceFact(path, CUDA, "it needs CUDA's toolkit", evidence, (path,))
                for result in results for path, evidence in result.cuda_only_scripts]
    files = tuple(path for result in results for path in result.files)
    folders = (kernel_builds.cuda_only_folders + _cuda_only_subdirectories(results, cmake_projects, tree.sources, claimed)
               + tuple(ci_folders))
    return BuildFileFacts(root, files, definitions, tuple(sources), tuple(dict.fromkeys(notes)),
                          folders, _torch_builds(files, texts), _rocm_compiled_in(mentions, matcher),
                          _rocm_build(files, texts, definitions, [*mentions, *sources], results),
                          _first_line(files, texts, _HIP_ON_NVIDIA),
                          tuple(item for result in results for item in result.cuda_only_modules),
                          retired_definitions(files, texts, (item.name for item in definitions)),
                          tuple(path for path in tree.sources if is_bindings_file(path)))


def _first_line(files: Sequence[str], texts: _Texts, pattern: re.Pattern[str]) -> tuple[Evidence, ...]:
    """The first line of code (comments left out) of the build files that `pattern` finds, if any
    (`_ROCM_BUILD` or `_HIP_ON_NVIDIA`: what they find names HIP or ROCm)."""
    for path in files:
        code = texts.hip_code(path)
        match = pattern.search(code)
        if match:
            line = code.count("\n", 0, match.start()) + 1
            return (Evidence(path, line, (texts(path) or "").splitlines()[line - 1].strip()[:200]),)
    return ()


def _rocm_build(files: Sequence[str], texts: _Texts, definitions: Sequence[Definition],
                mentions: Sequence[Mention | SourceFact], results: Sequence[ReaderResult]) -> tuple[Evidence, ...]:
    """Where the build files build for ROCm: a definition or a source under a ROCm condition, a
    hipify step, a script picking files for ROCm (`requirements/runtime_rocm.txt`), a ROCm folder
    beside a CUDA one, or a line of code (comments left out) that uses HIP's or ROCm's tools (spec
    §13.4)."""
    for found in (*(item.evidence for item in definitions if item.platform == ROCM),
                  *(item.evidence for item in mentions if item.platform == ROCM or not item.evidence.line),
                  *(evidence for result in results for evidence in (*result.hipify, *result.rocm_selections))):
        return (found,)
    found = _first_line(files, texts, _ROCM_BUILD)
    if found:
        return found
    for path in files:  # jax's `jax_plugins/rocm/setup.py`, whose Bazel build is not read
        if any(name_holds(part).platform == ROCM for part in path.split("/")[:-1]):
            return (Evidence(path, 0, "a build file in a ROCm folder"),)
    return ()


def _torch_builds(files: Sequence[str], texts: _Texts) -> tuple[Evidence, ...]:
    """Where a build file (`setup.py`, CMake, a module a setup.py imports) builds with PyTorch's
    extension tools or its hipify (the first such line of each)."""
    found = []
    for path in files:
        text = texts(path) if path.endswith(("CMakeLists.txt", ".cmake", ".py")) else None
        match = _TORCH_BUILD.search(text) if text else None
        if match:
            line = text.count("\n", 0, match.start()) + 1
            found.append(Evidence(path, line, text.splitlines()[line - 1].strip()))
    return tuple(found)


def _opaque_hipify(results: Sequence[ReaderResult], mentions: Sequence[Mention]) -> str | None:
    """Why no source is CUDA-only by the lists when the ROCm build compiles hipify outputs it does not name.

    (gloo runs a hipify script over files of its own choosing and compiles `${HIPIFY_OUTPUT_DIR}/hip*.cc`:
    any CUDA source may be among them. One generated file a build names, FBGEMM's placeholder
    `${CMAKE_CURRENT_BINARY_DIR}/gen_placeholder_${salt}.cpp`, is no such glob.)
    """
    hipify = [evidence for result in results for evidence in result.hipify]
    unseen = [mention for mention in mentions if mention.platform == ROCM and (
        mention.pattern.startswith("**/") or mention.pattern.startswith(GENERATED) and _GLOB_CHARACTER.search(mention.pattern))]
    if not hipify or not unseen:
        return None
    pattern = unseen[0].pattern.replace(GENERATED, "<build folder>")
    return (f"{hipify[0]}: the ROCm build runs hipify and compiles sources it does not name ({pattern} at "
            f"{unseen[0].evidence}): no file is called CUDA-only from the build files' source lists")


class _Texts:
    """Build files' texts, read once each (decoded as UTF-8 with replacement; too large: skipped with a note)."""

    def __init__(self, root: str, notes: list[str]) -> None:
        self.root = root
        self.notes = notes
        self.cache: dict[str, str | None] = {}
        self.read: set[str] = set()  # every file opened, by the readers and the layout (what the facts depend on)
        self._hip_codes: dict[str, str] = {}

    def __call__(self, path: str) -> str | None:
        if path not in self.cache:
            self.read.add(path)
            self.cache[path] = self._read(path)
        return self.cache[path]

    def hip_code(self, path: str) -> str:
        """The file's code, its `#` comments left out, if it may name HIP or ROCm in any letter
        case (`(?i)` also takes a dotless or dotted I for an `i`: a text not all ASCII may), else
        "". Made once per file: most build files name neither, and are not searched."""
        code = self._hip_codes.get(path)
        if code is None:
            text = self(path) or ""
            lowered = text.lower()
            named = "hip" in lowered or "rocm" in lowered or not text.isascii()
            code = self._hip_codes[path] = _COMMENT.sub("", text) if named else ""
        return code

    def _read(self, path: str) -> str | None:
        try:
            with open(os.path.join(self.root, path), "rb") as stream:
                data = stream.read(MAX_BUILD_FILE + 1)
        except OSError as error:
            self.notes.append(f"{path}: cannot read: {error.strerror or error}")
            return None
        if len(data) > MAX_BUILD_FILE:
            self.notes.append(f"{path}: larger than {MAX_BUILD_FILE >> 20} MB; not read as a build file")
            return None
        return data.decode("utf-8", "replace")


def _rocm_compiled_in(mentions: Iterable[Mention], matcher: Matcher) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per tree file, the folders of the build files that compile it in a ROCm build: under a ROCm
    condition, or under no condition at all (a mention under a condition not understood, such as
    ggml's `if(GGML_MUSA)`, is another platform's build or an option's, not counted)."""
    folders: dict[str, set[str]] = {}
    used = {mention.evidence for mention in mentions if not mention.stored}
    for mention in mentions:
        if mention.stored and mention.evidence in used:
            continue  # a list stored where it is written, and compiled where it is used
        if mention.supports and (mention.platform == ROCM or mention.platform is None and not mention.condition):
            for name in matcher.mentioned(mention.pattern, mention.exclude):
                folders.setdefault(name, set()).add(mention.folder)
    return tuple((name, tuple(sorted(found))) for name, found in sorted(folders.items()))


def _built_by(mention: Mention, cmake_projects: Sequence[tuple[str, Evidence]]) -> Mention:
    """A CMake file's mention with no platform of its own, in a CMake project that only a CUDA
    build's setup.py makes, is that build's (lmdeploy's TurboMind)."""
    if mention.platform is not None:
        return mention
    evidence = _cmake_project(mention.evidence.path, cmake_projects)
    if evidence is None:
        return mention
    return replace(mention, platform=CUDA, condition=f"{evidence.path}:{evidence.line}: {evidence.text}")


def _cmake_project(path: str, cmake_projects: Sequence[tuple[str, Evidence]]) -> Evidence | None:
    """The evidence that only CUDA builds make the CMake project holding the CMake file `path`, if any."""
    if not path.endswith(("CMakeLists.txt", ".cmake")):
        return None
    return next((evidence for folder, evidence in cmake_projects if not folder or path.startswith(folder + "/")),
                None)


def _cuda_only_subdirectories(results: Sequence[ReaderResult], cmake_projects: Sequence[tuple[str, Evidence]],
                              files: Sequence[str], claimed: dict[str, set[str | None]]
                              ) -> tuple[tuple[str, Evidence], ...]:
    """Folders only CUDA builds add (FBGEMM's `add_subdirectory(experimental/hstu)` after a
    FATAL_ERROR for every other variant; any folder of a CMake project only a CUDA build's setup.py
    makes) and whose files no other build names: nothing below them is built for ROCm, Python
    modules included."""
    added: dict[str, list[tuple[str | None, Evidence]]] = {}
    for result in results:
        for folder, platform, evidence in result.subdirectories:
            made = _cmake_project(evidence.path, cmake_projects) if platform is None else None
            added.setdefault(folder, []).append((CUDA, made) if made else (platform, evidence))
    found = []
    for folder, ways in sorted(added.items()):
        if folder and all(platform == CUDA for platform, _ in ways) and not any(
                claimed.get(name, {CUDA}) - {CUDA} for name in files if name.startswith(folder + "/")):
            found.append((folder, ways[0][1]))
    return tuple(found)


def _claimed(mentions: Iterable[Mention], matcher: Matcher) -> dict[str, set[str | None]]:
    """Per tree file: the platforms (None: every build) of the build-file mentions that match it."""
    claimed: dict[str, set[str | None]] = {}
    for mention in mentions:
        for name in matcher.mentioned(mention.pattern, mention.exclude):
            claimed.setdefault(name, set()).add(mention.platform)
    return claimed


def resolve(mentions: Sequence[Mention], matcher: Matcher, claimed: dict[str, set[str | None]]) -> list[SourceFact]:
    """The mentions that make files one platform's, each with the files it is the evidence for."""
    facts: dict[tuple, SourceFact] = {}
    for mention in mentions:
        if not mention.supports or mention.platform not in (ROCM, CUDA):
            continue
        only = tuple(name for name in matcher.mentioned(mention.pattern, mention.exclude)
                     if claimed[name] == {mention.platform} and not is_header(name))
        if only:
            key = (mention.pattern, mention.platform, mention.evidence)
            if key not in facts:
                facts[key] = SourceFact(mention.pattern, mention.platform, mention.condition, mention.evidence, only)
    return list(facts.values())
