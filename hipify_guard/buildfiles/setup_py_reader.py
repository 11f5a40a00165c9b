"""Read `setup.py` files (and the project modules they import) for what they build only for ROCm or CUDA.

Parsed with `ast`, never run. Statements are followed in order; `if`/`elif`/`else` tests are
classified (`IS_HIP_EXTENSION`, `torch.version.hip`, `is_rocm`, `BUILD_TARGET == "rocm"`,
`ROCM_HOME is not None`: ROCm; `torch.version.cuda`, `not IS_HIP_EXTENSION`, the `else` of a
ROCm test: CUDA; `torch.cuda.is_available()`: either), and a name assigned a test keeps it
(`is_rocm = torch.version.hip is not None`). Values are followed as items with the literal they
came from and the conditions they are there under: strings, lists, `+`/`+=`/`.append`/`.extend`,
`os.path.join`, `Path(...) / ...`, `glob.glob(...)`, `Path.glob/rglob`, comprehensions and loops
over them, function bodies (once). What is found:

- sources: paths and globs passed to calls (`CUDAExtension(..., sources=[...])`) or returned;
  a list only assigned counts where it is assigned;
- definitions: `define_macros` tuples and `-D` flags stored in flags variables or keys
  (`extra_compile_args["nvcc"]`, `cxx_args`, `settings['define_macros']`) or passed as
  `extra_compile_args=`, `define_macros=`, `extra_cflags=`, `extra_cuda_cflags=`.

Modules a `setup.py` imports that are files of the project (beside it or in a folder beside it:
CuPy's `install/cupy_builder/`, DeepSpeed's `op_builder/`, all top-level modules of a package)
and that build extensions (they name `Extension`, `define_macros`, `extra_compile_args` ...) are
read the same way; the project's own runtime package, which a setup.py imports for its version,
is not. A file that
does not parse (a Python 2 `setup.py`) is noted and skipped.
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
from collections.abc import Callable, Sequence

from .build_conditions import CUDA, CUDA_SOME, EVERYWHERE, Holds
from .build_facts import Evidence, ReaderResult
from .cuda_required import cuda_required
from .python_module import Module, ModuleFacts
from .python_tests import contrasted_names, read_name
from .source_paths import relative_path

_ROCM_VALUES = ("rocm", "hip", "amd")
MAX_MODULES = 40  # project modules read per setup.py
_BUILDS = re.compile(r"Extension\b|define_macros|extra_compile_args|extra_cuda_cflags|nvcc_args|cxx_args|def sources")
Reader = Callable[[str], "str | None"]


def read_setup_py(root: str, paths: Sequence[str], read: Reader, rocm_built: bool = False) -> ReaderResult:
    """What the `setup.py` files `paths` (root-relative) and the project modules they import say.

    `rocm_built`: the project's build files build for ROCm somewhere; then what a setup.py that needs
    CUDA's toolkit compiles is CUDA-only (flash-attention's `csrc/*/setup.py`). Without a ROCm build
    every script needs it, and the project is checked as a port (spec §13.4)."""
    reader = _Reader(os.path.abspath(root), read, rocm_built)
    for path in paths:
        reader.read_script(path)
    return reader.result()


class _Reader:
    def __init__(self, root: str, read: Reader, rocm_built: bool) -> None:
        self.root = root
        self.read = read
        self.rocm_built = rocm_built
        self.done: set[str] = set()
        self.facts = ModuleFacts(root)
        self.files: list[str] = []
        self.cuda_scripts: list[tuple[str, Evidence]] = []
        self.rocm_selections: list[Evidence] = []  # where a script picks files for a ROCm build

    def read_script(self, path: str) -> None:
        """A setup.py and the project modules it imports that build extensions (once each)."""
        base = posixpath.dirname(path)
        tree = self._parse(path) if path not in self.done else None
        self.done.add(path)
        if tree is None:
            return
        modules = [(path, tree)]
        for module in self._imports(tree, base)[:MAX_MODULES]:
            if module not in self.done:
                self.done.add(module)
                text = self.read(module)
                module_tree = self._parse(module) if text is not None and _BUILDS.search(text) else None
                if module_tree is not None:
                    modules.append((module, module_tree))
        contrasted = contrasted_names(module_tree for _, module_tree in modules) | self._selectors(modules, base)
        needs = cuda_required(tree, self.read(path) or "") if self.rocm_built else None
        context = EVERYWHERE
        if needs is not None:  # what it compiles, only CUDA builds do; nor does a ROCm build run it
            line = getattr(needs, "lineno", 1)
            context = EVERYWHERE.within(CUDA_SOME, f"{path}:{line} needs CUDA's toolkit")
            text = (self.read(path) or "").splitlines()
            self.cuda_scripts.append((path, Evidence(path, line, text[line - 1].strip()[:200] if line <= len(text) else "")))
        for module, module_tree in modules:
            Module(self.facts, module, base, self.read(module) or "", module_tree, contrasted).run(context)

    def _selectors(self, modules: Sequence[tuple[str, ast.Module]], base: str) -> frozenset[str]:
        """Names a script formats into a path whose ROCm file is there (lmdeploy's
        `f"requirements/runtime_{get_target_device()}.txt"` beside `requirements/runtime_rocm.txt`):
        they select the build's platform, so `== "cuda"` of them is a CUDA test."""
        names = set()
        for path, tree in modules:
            for node in ast.walk(tree):
                if not isinstance(node, ast.JoinedStr):
                    continue
                fields = [part for part in node.values if isinstance(part, ast.FormattedValue)]
                name = read_name(fields[0].value) if len(fields) == 1 else None
                if name and name not in names and any(self._exists(base, _formatted(node, value))
                                                      for value in _ROCM_VALUES):
                    names.add(name)
                    self.rocm_selections.append(Evidence(path, node.lineno, ast.unparse(node)[:200]))
        return frozenset(names)

    def _exists(self, base: str, path: str) -> bool:
        folder = relative_path(self.root, os.path.join(self.root, base, path))
        return bool(folder) and "/" in path and os.path.isfile(os.path.join(self.root, folder))

    def _parse(self, path: str) -> ast.Module | None:
        text = self.read(path)
        if text is None:
            return None
        try:
            tree = ast.parse(text, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            line = getattr(error, "lineno", None)
            self.facts.notes.append(f"{path}:{line or 1}: not read as Python ({type(error).__name__}); left out")
            return None
        self.files.append(path)
        return tree

    def _imports(self, tree: ast.Module, base: str) -> list[str]:
        """The project files the module imports: modules or packages beside the setup.py or one folder below."""
        names = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
                names.extend(f"{node.module}.{alias.name}" for alias in node.names)
        found = []
        folders = [base] + [posixpath.join(base, entry) for entry in self._subfolders(base)]
        for name in names:
            relative = name.replace(".", "/")
            for folder in folders:
                found.extend(self._module_files(posixpath.join(folder, relative) if folder else relative))
        return found

    def _subfolders(self, base: str) -> list[str]:
        try:
            return sorted(entry.name for entry in os.scandir(os.path.join(self.root, base))
                          if entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."))
        except OSError:
            return []

    def _module_files(self, stem: str) -> list[str]:
        """`stem.py`, or a package's top-level modules (`stem/__init__.py` first)."""
        if os.path.isfile(os.path.join(self.root, stem + ".py")):
            return [stem + ".py"]
        package = os.path.join(self.root, stem)
        if not os.path.isfile(os.path.join(package, "__init__.py")):
            return []
        try:
            names = sorted(entry.name for entry in os.scandir(package) if entry.name.endswith(".py"))
        except OSError:
            return []
        return [f"{stem}/__init__.py"] + [f"{stem}/{name}" for name in names if name != "__init__.py"]

    # -- facts --------------------------------------------------------------------------------

    def result(self) -> ReaderResult:
        facts = self.facts
        return ReaderResult(tuple(facts.definitions.facts()), tuple(facts.mentions.facts()), tuple(facts.notes),
                            tuple(self.files), tuple(facts.hipify), cuda_only_scripts=tuple(self.cuda_scripts),
                            cuda_only_modules=self._cuda_only_modules(), cuda_only_cmake=self._cuda_only_cmake(),
                            rocm_selections=tuple(self.rocm_selections))

    def _cuda_only_cmake(self) -> tuple[tuple[str, Evidence], ...]:
        """The folders of CMake projects that setup.py files build only under a CUDA test
        (lmdeploy's TurboMind: `if get_target_device() == "cuda": ext_modules = [CMakeExtension(...)]`),
        in a project that builds for ROCm (without a ROCm build the project is checked as a port)."""
        if not (self.rocm_built or self.rocm_selections):
            return ()
        return _only_cuda(self.facts.cmake_extensions)

    def _cuda_only_modules(self) -> tuple[tuple[str, Evidence], ...]:
        """The extension modules (`CUDAExtension(name="fused_dense_lib", ...)`) that only CUDA
        builds make: in a script that needs CUDA's toolkit, or under a CUDA test (vLLM's `if
        _is_cuda(): ext_modules.append(CMakeExtension(name="vllm.vllm_flash_attn._vllm_fa2_C"))`).
        Where the module's package is no folder of the sources (`vllm/vllm_flash_attn`: the CUDA
        build makes it), the package is the CUDA-only module."""
        made = [(_made_package(self.root, base, name), holds, evidence)
                for name, holds, evidence, base in self.facts.extensions]
        return _only_cuda(made)


def _only_cuda(built: Sequence[tuple[str, Holds, Evidence]]) -> tuple[tuple[str, Evidence], ...]:
    """What only CUDA builds make, each with its first evidence: the things of `built` (a thing,
    where it is built, its line) that no build of another platform, or of any, makes too."""
    elsewhere = {thing for thing, holds, _ in built if holds.platform != CUDA}
    found: dict[str, Evidence] = {}
    for thing, _, evidence in built:
        if thing not in elsewhere:
            found.setdefault(thing, evidence)
    return tuple(found.items())


def _formatted(node: ast.JoinedStr, value: str) -> str:
    """The text of an f-string with `value` in its one field."""
    return "".join(part.value if isinstance(part, ast.Constant) else value for part in node.values
                   if isinstance(part, (ast.Constant, ast.FormattedValue)))


def _made_package(root: str, folder: str, module: str) -> str:
    """`module`, or its first package that is no package of the sources beside the setup.py in
    `folder` (no folder, or one without Python files: vLLM keeps `vllm/vllm_flash_attn/.gitkeep`
    for the CUDA build to fill) when an outer one is (`vllm.vllm_flash_attn` of
    `vllm.vllm_flash_attn._vllm_fa2_C`)."""
    parts = module.split(".")
    for count in range(1, len(parts)):
        if not _holds_python(os.path.join(root, folder, *parts[:count])):
            return ".".join(parts[:count]) if count > 1 else module
    return module


def _holds_python(folder: str) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(entry.name.endswith(".py") for entry in entries)
    except OSError:
        return False
