"""Read a project's build files for what they say about its platforms: `read_build_files(root)`.

The tree below `root` is walked once (`build_tree`: vendored copies, submodules and build trees
left out). Read: `CMakeLists.txt` and `*.cmake` files and headers configured with `#cmakedefine`
(`cmake_reader`), `setup.py` files and the project modules they import (`setup_py_reader`),
Hugging Face kernel-builder `build.toml` files (`kernel_builder_reader`).
Nothing is executed; a file that cannot be read or parsed is noted and the rest is read.

A file is one platform's (`BuildFileFacts.sources`) when some build file names it for that
platform and no build file names it for the other or for every build. Headers are not claimed
from source lists (a header listed for CUDA may be included by code the ROCm build compiles:
pytorch_scatter lists `csrc/cuda/*.h` for its CUDA CMake build, and its setup.py compiles the
`.cu` files that include them for ROCm too); only a folder layout claims them (`source_layout`).
When the ROCm build compiles hipify outputs it does not name, no file is CUDA-only by the lists.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from .build_conditions import CUDA, ROCM
from .build_facts import BuildFileFacts, Mention, ReaderResult, SourceFact
from .build_tree import walk
from .cmake_reader import read_cmake
from .kernel_builder_reader import read_kernel_builds
from .setup_py_reader import read_setup_py
from .source_layout import layout_facts
from .source_matching import Matcher
from .source_paths import is_header

MAX_BUILD_FILE = 4 << 20  # bytes; a larger "build file" is generated or not one


def read_build_files(root: str) -> BuildFileFacts:
    """The facts the build files below `root` state (see the module docstring)."""
    root = os.path.abspath(root)
    notes: list[str] = []
    tree = walk(root, notes)
    texts = _Texts(root, notes)
    kernel_builds = read_kernel_builds(tree.kernel_builds, texts)
    results = [read_cmake(root, tree.cmake, tree.headers, texts), read_setup_py(root, tree.setup_py, texts),
               kernel_builds.result]
    definitions = tuple({(item.name, item.value, item.platform, item.always, item.evidence): item
                         for result in results for item in result.definitions}.values())
    mentions = [item for result in results for item in result.mentions]
    notes.extend(note for result in results for note in result.notes)
    matcher = Matcher(tree.sources)
    claimed = _claimed(mentions, matcher)
    sources = resolve(mentions, matcher, claimed)
    opaque = _opaque_hipify(results, mentions)
    if opaque:
        notes.append(opaque)
        sources = [fact for fact in sources if fact.platform != CUDA]
    sources += layout_facts(root, tree, claimed)
    files = tuple(path for result in results for path in result.files)
    return BuildFileFacts(root, files, definitions, tuple(sources), tuple(dict.fromkeys(notes)),
                          kernel_builds.cuda_only_folders)


def _opaque_hipify(results: Sequence[ReaderResult], mentions: Sequence[Mention]) -> str | None:
    """Why no source is CUDA-only by the lists when the ROCm build compiles hipify outputs it does not name.

    (gloo runs a hipify script over files of its own choosing and compiles `${HIPIFY_OUTPUT_DIR}/hip*.cc`:
    any CUDA source may be among them.)
    """
    hipify = [evidence for result in results for evidence in result.hipify]
    unseen = [mention for mention in mentions if mention.platform == ROCM and mention.pattern.startswith("**/")]
    if not hipify or not unseen:
        return None
    return (f"{hipify[0]}: the ROCm build runs hipify and compiles sources it does not name ({unseen[0].pattern} at "
            f"{unseen[0].evidence}): no file is called CUDA-only from the build files' source lists")


class _Texts:
    """Build files' texts, read once each (decoded as UTF-8 with replacement; too large: skipped with a note)."""

    def __init__(self, root: str, notes: list[str]) -> None:
        self.root = root
        self.notes = notes
        self.cache: dict[str, str | None] = {}

    def __call__(self, path: str) -> str | None:
        if path not in self.cache:
            self.cache[path] = self._read(path)
        return self.cache[path]

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


def _claimed(mentions: Iterable[Mention], matcher: Matcher) -> dict[str, set[str | None]]:
    """Per tree file: the platforms (None: every build) of the build-file mentions that match it."""
    claimed: dict[str, set[str | None]] = {}
    for mention in mentions:
        for name in matcher(mention.pattern):
            claimed.setdefault(name, set()).add(mention.platform)
    return claimed


def resolve(mentions: Sequence[Mention], matcher: Matcher, claimed: dict[str, set[str | None]]) -> list[SourceFact]:
    """The mentions that make files one platform's, each with the files it is the evidence for."""
    facts: dict[tuple, SourceFact] = {}
    for mention in mentions:
        if not mention.supports or mention.platform not in (ROCM, CUDA):
            continue
        only = tuple(name for name in matcher(mention.pattern)
                     if claimed[name] == {mention.platform} and not is_header(name))
        if only:
            key = (mention.pattern, mention.platform, mention.evidence)
            if key not in facts:
                facts[key] = SourceFact(mention.pattern, mention.platform, mention.condition, mention.evidence, only)
    return list(facts.values())
