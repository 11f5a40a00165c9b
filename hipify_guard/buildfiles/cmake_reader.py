"""Read a project's CMake files for what they define and compile only for ROCm or only for CUDA.

A small abstract interpreter, never CMake itself: each `CMakeLists.txt` is run from the outermost
down, following `add_subdirectory()` and `include()` with their conditions; `if/elseif/else`
arms are classified (`cmake_conditions`) and `return()` under a condition guards the rest of its
file. Variables are followed as lists of items, each with the literal it came from and the
conditions it is there under (`set`, `list(APPEND|PREPEND|INSERT|TRANSFORM)`, `string(APPEND)`,
`file(GLOB[_RECURSE])`, `foreach`). What is found:

- definitions: `add_definitions`, `add_compile_definitions`, `target_compile_definitions`,
  `*_compile_options`, `COMPILE_DEFINITIONS`/`COMPILE_OPTIONS`/`COMPILE_FLAGS` properties, `-D`
  words stored in flags variables (`CMAKE_HIP_FLAGS`, `HIP_CXX_FLAGS`: the variable's name says
  which compiler gets them) or passed after a flags keyword (`NVCC_FLAGS`, `HIPCC_OPTIONS`);
- source mentions: source paths and globs in every command, with the conditions of the literal
  and of the command that uses it. A user function's keyword (`CUDA_SPECIFIC_SRCS` of FBGEMM's
  `gpu_cpp_library`) holds where the function's body uses `${prefix_KEYWORD}` (after
  `cmake_parse_arguments`), followed through functions it forwards to;
- `#cmakedefine NAME` in configured headers: NAME is defined where the CMake variable is true
  (`#cmakedefine01 NAME`: 1 there, 0 where it is false);
- a call of a `.bzl` function named in an argument (`get_filelist("get_x_srcs()" SRCS)`): the
  sources its list may hold are named there (`starlark_lists`).

A file no other CMake file reaches is read on its own, under the platform its folder names
(`ggml-hip/`, `cuda/`). Anything not followed is left out or kept only as a use that prevents a
claim; nothing unknown is guessed to be one platform's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from .build_conditions import CUDA_SOME, EVERYWHERE, Context, cuda_library_switch, either, name_holds, negated
from .build_facts import Evidence, ReaderResult
from .build_flags import macro
from .cmake_conditions import contrasted_names
from .cmake_run import Run
from .cmake_state import ProjectState, Reader, Scope
from .starlark_lists import StarlarkLists

MAX_VISITS = 4  # times one file is run (it may be included from many places)
MAX_DEPTH = 40
_CMAKEDEFINE = re.compile(r"^[ \t]*#[ \t]*cmakedefine(01)?[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(.*?)[ \t]*$", re.M)


def read_cmake(root: str, files: Sequence[str], headers: Sequence[str], read: Reader,
               starlark: Sequence[str] = ()) -> ReaderResult:
    """What the CMake files (`files`, and the configured headers `headers`; root-relative) say;
    `starlark`: the `.bzl` files whose source lists they may read (`starlark_lists`)."""
    project = _Project(os.path.abspath(root), files, read)
    project.starlark = StarlarkLists(starlark, read)
    project.run_all()
    project.read_headers(headers)
    return project.result()


class _Project(ProjectState):
    """The state of a project's CMake run, and how its files are run and its configured headers read."""

    def __init__(self, root: str, files: Sequence[str], read: Reader) -> None:
        super().__init__(root, files, read)
        self.order = sorted(files, key=lambda path: (not path.endswith("CMakeLists.txt"), path.count("/"), path))
        self.headers: list[str] = []

    def run_all(self) -> None:
        """Run every file, outermost first; files nothing reached, on their own under their folder's platform."""
        parsed = [self.parsed_file(path) for path in self.order]
        self.contrasted = contrasted_names(command.arguments for found in parsed if found for command in found[0]
                                           if command.name in ("if", "elseif", "while"))
        for path in self.order:
            if path not in self.visits:
                folder = os.path.dirname(path)
                scope = self.file_scope(folder, None)
                self.run_file(path, scope, _folder_context(folder), 0)
        self.uncalled_mentions()

    def run_file(self, path: str, scope: Scope, context: Context, depth: int) -> None:
        parsed = self.parsed_file(path)
        if parsed is None or depth > MAX_DEPTH or self.visits.get(path, 0) >= MAX_VISITS:
            return
        self.visits[path] = self.visits.get(path, 0) + 1
        Run(self, path, parsed[1], scope, depth).run(parsed[0], context)

    def read_headers(self, headers: Sequence[str]) -> None:
        """`#cmakedefine NAME` lines: NAME is defined where the CMake variable NAME is true."""
        for path in headers:
            text = self.read(path)
            if text is None:
                continue
            self.headers.append(path)
            lines = text.splitlines()
            for match in _CMAKEDEFINE.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                self._header_definition(match, self.evidence(path, lines, line))

    def _header_definition(self, match: re.Match, evidence: Evidence) -> None:
        zero_one, name, rest = match.group(1), match.group(2), match.group(3)
        value = "1" if zero_one else ("" if not rest else (macro(f"{name}={rest}") or (name, None))[1])
        truth = self._truth(name)
        self.define(name, value, truth, evidence, header=True)
        if zero_one:  # 0 where the variable is false: in no ROCm build when every one sets it true
            self.define(name, "0", Context(negated(truth.holds), (f"{name} false",)), evidence, header=True)

    def _truth(self, name: str) -> Context:
        """Where the CMake variable `name` is true: where it is set true, or what its name says."""
        contexts = self.truths.get(name)
        if contexts:
            holds = contexts[0].holds
            for context in contexts[1:]:
                holds = either(holds, context.holds)
            shown = " or ".join(dict.fromkeys(f"({c.condition})" if c.condition else "every build" for c in contexts))
            return Context(holds, (f"set true {shown}",))
        library = cuda_library_switch(name)
        if library is not None:  # (kokkos-kernels' KOKKOSKERNELS_ENABLE_TPL_CUSPARSE, on by default with CUDA)
            return Context(CUDA_SOME, (f"it switches on {library}, a CUDA library no ROCm build has",))
        return EVERYWHERE.within(name_holds(name), f"the CMake variable {name} is true")

    def result(self) -> ReaderResult:
        mentions = self.mentions.facts()
        files = tuple(path for path, parsed in self.parsed.items() if parsed is not None) + tuple(self.headers)
        return ReaderResult(tuple(dict.fromkeys(self.definitions)), tuple(dict.fromkeys(mentions)), tuple(self.notes),
                            files, tuple(dict.fromkeys(self.hipify)), tuple(dict.fromkeys(self.subdirectories)))


def _folder_context(folder: str) -> Context:
    """The platform a file's folder names (`src/ggml-hip`: ROCm), for files no other CMake file reaches."""
    context = EVERYWHERE
    for part in folder.split("/") if folder else ():
        holds = name_holds(part)
        if holds.known:
            context = context.within(holds, f"folder {part}/")
    return context


