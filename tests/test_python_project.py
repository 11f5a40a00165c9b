"""Python findings that depend on the project's other modules (issue 25): the constants of a
platform variable a file imports, and the callers of a module's functions one call deep, in other
modules. Real git projects on disk, the real CLI."""

from __future__ import annotations

import os
import time
from pathlib import Path

from conftest import check_counting, git_project, run_cli

PLATFORM = '''import torch

SYSTEM = None
if torch.version.hip is not None:
    SYSTEM = "rocm"
elif torch.version.cuda is not None and torch.cuda.is_available():
    SYSTEM = "cuda"
else:
    SYSTEM = "cpu"
'''
LAYERS = '''import torch

from server.utils.platform import SYSTEM
from ..utils.platform import SYSTEM as KIND


def fp8_kernel() -> str:
    if SYSTEM == "cuda":
        major, _ = torch.cuda.get_device_capability()
        if major == 9:
            return "wgmma"
    return "generic"


def marlin() -> bool:
    return KIND in ("cuda", "xpu") and torch.cuda.get_device_capability()[0] == 9


def any_gpu() -> bool:
    return SYSTEM != "cpu" and torch.cuda.get_device_capability()[0] == 9
'''
HELPERS = '''import torch


def cuda_version() -> tuple[int, int]:
    major, minor = torch.version.cuda.split(".")[:2]
    return int(major), int(minor)


def cuda_arch_flags() -> list[str]:
    return ["-gencode"] if int(torch.version.cuda.split(".")[0]) >= 12 else []
'''
CALLERS = '''import torch

from tools import helpers
from tools.helpers import cuda_arch_flags, cuda_version


def flags() -> list[str]:
    if torch.version.cuda is not None and cuda_version() >= (12, 0):
        return helpers.cuda_arch_flags()
    return []


def more_flags() -> list[str]:
    return cuda_arch_flags()
'''


def _found(root: Path, *paths: str, fix: bool = False) -> set[tuple[str, int, str]]:
    result = run_cli("check", "--output-format", "json", *(("--fix",) if fix else ()), *(paths or (".",)), cwd=root)
    assert result.code in (0, 1), result.stderr
    return {(Path(item["filename"]).as_posix().lstrip("./"), item["location"]["row"], item["code"])
            for item in result.json()}


def test_an_imported_platform_variable_decides_where_rocm_goes(tmp_path: Path) -> None:
    """text-generation-inference: `SYSTEM` is "rocm" on ROCm, so `if SYSTEM == "cuda":` keeps ROCm
    out and `SYSTEM != "cpu"` lets it in, whether imported absolutely or relatively, and whether
    the folder or the file alone is checked; a change of the other module is seen on a warm run."""
    root = git_project(tmp_path / "tgi", {
        "server/__init__.py": "", "server/utils/__init__.py": "", "server/layers/__init__.py": "",
        "server/utils/platform.py": PLATFORM, "server/layers/fp8.py": LAYERS,
    })
    expected = {("server/layers/fp8.py", 20, "HG303")}
    assert _found(root) == expected
    assert _found(root, "server/layers/fp8.py") == expected
    assert _found(root) == expected  # (the cache's answer)
    assert _found(root, fix=True) == expected  # (a fix run asks the other modules first)
    (root / "server/utils/platform.py").write_text(PLATFORM.replace('SYSTEM = "rocm"', 'SYSTEM = "cuda"'))
    assert _found(root) == expected | {("server/layers/fp8.py", 10, "HG303"), ("server/layers/fp8.py", 16, "HG303")}


def test_a_helper_every_caller_in_the_project_guards_is_not_reported(tmp_path: Path) -> None:
    """apex-style: a helper that reads torch.version.cuda, called from another module only after
    `torch.version.cuda is not None`; its sibling, also called unguarded, is reported."""
    root = git_project(tmp_path / "ext", {
        "tools/__init__.py": "", "tools/helpers.py": HELPERS, "build.py": CALLERS,
    })
    assert _found(root) == {("tools/helpers.py", 10, "HG301")}
    # A second caller of the guarded helper that ROCm reaches brings its finding back.
    (root / "bench.py").write_text("from tools.helpers import cuda_version\n\nprint(cuda_version())\n")
    assert _found(root) == {("tools/helpers.py", 5, "HG301"), ("tools/helpers.py", 10, "HG301")}


def test_a_helper_nobody_calls_or_one_imported_through_a_package_stays_reported(tmp_path: Path) -> None:
    """No caller in the project (a library's function: its users call it), or a caller that imports
    it from a module that re-exports it: the finding stays."""
    root = git_project(tmp_path / "lib", {"tools/__init__.py": "", "tools/helpers.py": HELPERS})
    assert _found(root) == {("tools/helpers.py", 5, "HG301"), ("tools/helpers.py", 10, "HG301")}
    (root / "tools/__init__.py").write_text("from .helpers import cuda_version\n")
    (root / "setup.py").write_text("import torch\n\nfrom tools import cuda_version\n\n"
                                   "if torch.version.cuda is not None:\n    print(cuda_version())\n")
    assert _found(root) == {("tools/helpers.py", 5, "HG301"), ("tools/helpers.py", 10, "HG301")}


CUTE_TEST = '''import torch

from attn.cute.testing import reference

IS_SM90 = torch.cuda.get_device_capability()[0] == 9
BLOCK = 128 if IS_SM90 else 64
'''


def test_a_module_whose_project_imports_reach_a_cuda_only_module_is_not_run_on_rocm(tmp_path: Path) -> None:
    """flash-attention's tests/cute: the test imports `attn.cute.testing`; importing it runs the
    package `attn/cute/__init__.py`, which imports `.interface`, which imports CuTe DSL's `cutlass`
    at module level, so ROCm never runs the test. Guarded (`try`) or not reached through an import
    at module level, it runs there."""
    interface = "import cutlass\nimport cutlass.cute as cute\n\n\ndef attention():\n    return cute\n"
    root = git_project(tmp_path / "fa", {
        "attn/__init__.py": "", "attn/cute/__init__.py": "from .interface import attention\n",
        "attn/cute/interface.py": interface, "attn/cute/testing.py": "def reference():\n    return 0\n",
        "tests/cute/test_attn.py": CUTE_TEST,
        "attn/cute/capability.py": "import torch\n\nSM90 = torch.cuda.get_device_capability()[0] == 9\n",
    })
    assert _found(root) == set()
    assert _found(root, "tests/cute/test_attn.py") == set()
    assert _found(root) == set()  # (the cache's answer)
    guarded = "try:\n    import cutlass.cute as cute\nexcept ImportError:\n    cute = None\n"
    (root / "attn/cute/interface.py").write_text(guarded + interface.split("\n\n", 1)[1])
    assert _found(root) == {("tests/cute/test_attn.py", 5, "HG303"), ("attn/cute/capability.py", 3, "HG303")}


def test_kept_answers_hold_while_the_projects_python_files_do(tmp_path: Path) -> None:
    """A warm run takes a file's answers from the cache only while no Python file or folder of the
    project changed: each edit below (a module's CUDA-only import guarded, a platform variable's
    value, a caller added in a new file) is seen, and the cached run reports what a fresh one does."""
    root = git_project(tmp_path / "fa", {
        "attn/__init__.py": "", "attn/cute/__init__.py": "from .interface import attention\n",
        "attn/cute/interface.py": "import cutlass\n\n\ndef attention():\n    return cutlass\n",
        "attn/cute/testing.py": "def reference():\n    return 0\n", "tests/cute/test_attn.py": CUTE_TEST,
        "server/__init__.py": "", "server/utils/__init__.py": "", "server/layers/__init__.py": "",
        "server/utils/platform.py": PLATFORM, "server/layers/fp8.py": LAYERS,
        "tools/__init__.py": "", "tools/helpers.py": HELPERS, "build.py": CALLERS,
    })
    env = {"HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def found(*edited: str) -> set[tuple[str, int, str]]:
        past = time.time() - 10  # (older than the racy window, and newer than the last dating back)
        for folder, _, names in os.walk(root):
            for name in names if not edited else ():
                os.utime(os.path.join(folder, name), (past, past))
            if not edited:
                os.utime(folder, (past, past))
        for name in edited:
            os.utime(root / name, (past, past))
        run_cli("check", "--exit-zero", ".", cwd=root, env=env)  # (keeps the answers)
        cached = run_cli("check", "--exit-zero", "--output-format", "json", ".", cwd=root, env=env)
        fresh = run_cli("check", "--exit-zero", "--no-cache", "--output-format", "json", ".", cwd=root, env=env)
        assert cached.json() == fresh.json()
        return {(Path(item["filename"]).as_posix().lstrip("./"), item["location"]["row"], item["code"])
                for item in fresh.json()}

    first = {("server/layers/fp8.py", 20, "HG303"), ("tools/helpers.py", 10, "HG301")}
    assert found() == first
    (root / "attn/cute/interface.py").write_text("try:\n    import cutlass\nexcept ImportError:\n    cutlass = None\n")
    then = first | {("tests/cute/test_attn.py", 5, "HG303")}
    assert found("attn/cute/interface.py") == then
    (root / "server/utils/platform.py").write_text(PLATFORM.replace('SYSTEM = "rocm"', 'SYSTEM = "cuda"'))
    then |= {("server/layers/fp8.py", 10, "HG303"), ("server/layers/fp8.py", 16, "HG303")}
    assert found("server/utils/platform.py") == then
    (root / "bench.py").write_text("from tools.helpers import cuda_version\n\nprint(cuda_version())\n")
    assert found("bench.py", ".") == then | {("tools/helpers.py", 5, "HG301")}


VERSION_UTILS = '''import torch


def is_cuda_version_at_least(major: int, minor: int) -> bool:
    if not torch.cuda.is_available():
        return False
    cuda_version = torch.version.cuda
    if cuda_version is None:
        return False
    cuda_major, cuda_minor = map(int, cuda_version.split(".")[:2])
    return (cuda_major, cuda_minor) >= (major, minor)


def device_count() -> int:
    return torch.cuda.device_count()
'''

QUANT = '''import torch

from pkg.utils import device_count, is_cuda_version_at_least


def use_cutedsl() -> bool:
    return is_cuda_version_at_least(12, 8) and torch.cuda.get_device_capability()[0] == 10


def use_other() -> bool:
    return device_count() > 1 and torch.cuda.get_device_capability()[0] == 10
'''


def test_a_function_of_another_module_returns_what_its_reachable_returns_give(tmp_path: Path) -> None:
    """torchao: `is_cuda_version_at_least(12, 8)`, a function of `torchao.utils`, returns False
    where `torch.version.cuda` is None (every return ROCm reaches is `return False`), so the
    capability test after `and` is not ROCm's; a function that returns something else decides
    nothing."""
    root = git_project(tmp_path, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "",
                                  "pkg/utils.py": VERSION_UTILS, "pkg/quant.py": QUANT})
    assert _found(root) == {("pkg/quant.py", 11, "HG303")}


BINDINGS = '''#include <torch/library.h>

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("rms_norm(Tensor! out, Tensor input, float epsilon) -> ()");
#ifndef USE_ROCM
  // Marlin: NVIDIA only
  ops.def(
      "marlin_gemm(Tensor a, Tensor b, int size_m) -> Tensor");
  ops.impl("marlin_gemm", torch::kCUDA, &marlin_gemm);
#else
  ops.def("rocm_only_gemm(Tensor a) -> Tensor");
#endif
#ifdef USE_ROCM
  ops.def("skinny_gemm(Tensor a) -> Tensor");
#else
  ops.def("machete_mm(Tensor a) -> Tensor");
  ops.def("skinny_gemm(Tensor a) -> Tensor");
#endif
}
'''
CUSTOM_OPS = '''import torch


def marlin_gemm(a, b, size_m):
    return torch.ops._C.marlin_gemm(a, b, size_m)


def rms_norm(out, x, epsilon):
    torch.ops._C.rms_norm(out, x, epsilon)
'''
MARLIN_UTILS = '''import torch

from pkg import custom_ops as ops


def use_atomic_add(device) -> bool:
    return torch.cuda.get_device_capability(device)[0] < 9


def apply_marlin_linear(x, weight):
    atomic = use_atomic_add(x.device)
    out = ops.marlin_gemm(x, weight, x.shape[0])
    return out.reshape(-1) if atomic else out


def apply_marlin_or_fallback(x, weight):
    if torch.cuda.get_device_capability()[0] >= 9:
        return x @ weight
    return ops.marlin_gemm(x, weight, x.shape[0])


def normalize(x, out):
    big = torch.cuda.get_device_capability(x.device)[0] >= 9
    ops.rms_norm(out, x, 1e-6 if big else 1e-5)
    return out
'''


def test_code_that_always_calls_an_operator_only_the_cuda_build_registers_is_not_rocms(tmp_path: Path) -> None:
    """vLLM: the Marlin GEMMs are registered in `csrc/torch_bindings.cpp` only under
    `#ifndef USE_ROCM`, so a function that always calls one cannot complete on ROCm, nor can the
    helper only such functions call; a function with another way out, or one calling an operator
    every build registers, stays reported. `init` writes the operators it found."""
    root = git_project(tmp_path / "vllm", {
        "CMakeLists.txt": "project(pkg LANGUAGES CXX)\nif(VLLM_GPU_LANG STREQUAL \"HIP\")\n"
                          "  add_compile_definitions(USE_ROCM)\nendif()\n"
                          "add_library(_C csrc/torch_bindings.cpp)\n",
        "csrc/torch_bindings.cpp": BINDINGS, "pkg/__init__.py": "", "pkg/custom_ops.py": CUSTOM_OPS,
        "pkg/marlin_utils.py": MARLIN_UTILS,
    })
    assert _found(root) == {("pkg/marlin_utils.py", 17, "HG303"), ("pkg/marlin_utils.py", 23, "HG303")}
    written = run_cli("init", "--stdout", ".", cwd=root)
    assert written.code == 0, written.stderr
    assert 'python-cuda-ops = [\n    "machete_mm",  # csrc/torch_bindings.cpp:16' in written.stdout
    assert '"marlin_gemm",  # csrc/torch_bindings.cpp:7' in written.stdout
    assert "skinny_gemm" not in written.stdout and "rms_norm" not in written.stdout
    # Registered for every build, the Marlin GEMM brings the helper's finding back.
    (root / "csrc/torch_bindings.cpp").write_text(BINDINGS.replace("#ifndef USE_ROCM", "#if 1"))
    assert ("pkg/marlin_utils.py", 7, "HG303") in _found(root)


def test_a_file_checked_again_with_its_modules_answers_is_not_parsed_again(tmp_path: Path, monkeypatch) -> None:
    """A check run checks a Python file again once its project's other modules are asked; the
    second check takes the first one's syntax tree and names (`PythonFile.keep_source`): the file
    is parsed once, and its findings are those of a run that parses it twice."""
    from hipify_guard.model import python_analysis

    root = git_project(tmp_path / "tgi", {
        "server/__init__.py": "", "server/utils/__init__.py": "", "server/layers/__init__.py": "",
        "server/utils/platform.py": PLATFORM, "server/layers/fp8.py": LAYERS,
    })
    output, parsed = check_counting(monkeypatch, root, python_analysis, "PythonSource", "server/layers/fp8.py")
    assert "server/layers/fp8.py:20:" in output and "HG303" in output, output
    assert parsed.count(LAYERS.encode()) == 1


def test_a_run_after_an_edit_reads_only_the_changed_modules_imports(tmp_path: Path) -> None:
    """The module-level imports of the project's modules are kept in the cache with each file's
    status: after the test file is edited, its project's answers are found again, from the kept
    imports of the modules it did not change (none is read again), and they are the same."""
    import json
    import subprocess
    import sys

    interface = "import cutlass\nimport cutlass.cute as cute\n\n\ndef attention():\n    return cute\n"
    root = git_project(tmp_path / "fa", {
        "attn/__init__.py": "", "attn/cute/__init__.py": "from .interface import attention\n",
        "attn/cute/interface.py": interface, "attn/cute/testing.py": "def reference():\n    return 0\n",
        "tests/cute/test_attn.py": CUTE_TEST,
    })
    counting = ("import json, sys\nfrom hipify_guard.project import cuda_only_modules as modules\n"
                "read, real = [], modules.read_file\n"
                "modules.read_file = lambda path: read.append(path) or real(path)\n"
                "from hipify_guard.cli.main import main\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print(json.dumps(read), file=sys.stderr)")

    def run(*changed: Path) -> tuple[list[str], list[str]]:
        for path in changed:  # (older than the cache's racy window: what is read is kept)
            os.utime(path, (time.time() - 10, time.time() - 10))
        completed = subprocess.run([sys.executable, "-c", counting, "check", "--exit-zero", "--output-format", "json",
                                    "."], cwd=root, env={**os.environ, "HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "c")},
                                   capture_output=True, text=True, timeout=120, check=True)
        return json.loads(completed.stdout), json.loads(completed.stderr.strip().splitlines()[-1])

    first, read = run(*root.rglob("*.py"))
    assert first == [] and any(path.endswith("interface.py") for path in read)
    (root / "tests/cute/test_attn.py").write_text(CUTE_TEST + "# edited\n")
    again, read = run(root / "tests/cute/test_attn.py", root / "tests/cute")
    assert again == [] and read == []


def test_each_import_is_resolved_once_per_folder_whatever_the_depth_it_is_followed_at(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    """A module's imports are followed at each depth it is reached at; the files an import runs
    depend on the importing folder only, so `Answers` resolves each (folder, name) once, and the
    answer is the one each resolution afresh gives."""
    from hipify_guard.model.python_platform import PythonPlatforms
    from hipify_guard.project import cuda_only_modules as modules

    shared = "from pkg import base\nfrom pkg import leaf\n"
    root = git_project(tmp_path / "p", {
        "pkg/__init__.py": "", "pkg/base.py": "from pkg import leaf\n", "pkg/leaf.py": "import cutlass\n",
        "pkg/a.py": shared, "pkg/b.py": shared, "pkg/c.py": "from pkg import a\nfrom pkg import b\n",
        "tests/test_it.py": "from pkg import c\nfrom pkg import a\n",
    })
    resolved: list[tuple[str, str]] = []
    real = modules.executed_files
    monkeypatch.setattr(modules, "executed_files", lambda importer, module, top: resolved.append(
        (os.path.dirname(importer), module)) or real(importer, module, top))
    answers = modules.Answers()
    test = os.path.realpath(root / "tests/test_it.py")
    reasons = [modules.cuda_only_import(test, name, os.path.realpath(root), PythonPlatforms(), answers)
               for name in ("pkg.c", "pkg.a")]
    assert all("pkg/leaf.py:1 imports `cutlass`" in why for why in reasons), reasons
    assert resolved and len(resolved) == len(set(resolved))
    assert reasons == [modules.cuda_only_import(test, name, os.path.realpath(root), PythonPlatforms())
                       for name in ("pkg.c", "pkg.a")]


def test_a_callers_answer_is_kept_while_what_it_came_from_holds(tmp_path: Path) -> None:
    """What a module says of the functions it calls is kept with what it came from: after an
    edit of the module asked of, no caller is analysed again; a module that comes to define the
    name a caller took from it as a re-export, or a new module that shadows a caller's import, is
    seen (and the cached run reports what a fresh one does)."""
    import json
    import subprocess
    import sys

    root = git_project(tmp_path / "ext", {
        "tools/__init__.py": "", "tools/helpers.py": HELPERS, "scripts/build.py": CALLERS,
        "compat/__init__.py": "", "compat/helpers.py": "from tools.helpers import cuda_version\n",
        "bench.py": "from compat.helpers import cuda_version\n\nprint(cuda_version())\n",
    })
    env = {**os.environ, "HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    counting = ("import json, sys\nfrom hipify_guard.project import python_references as references\n"
                "analysed, real = [], references._found\n"
                "references._found = lambda reads, *rest: analysed.append(reads.path) or real(reads, *rest)\n"
                "from hipify_guard.cli.main import main\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print(json.dumps(analysed), file=sys.stderr)")

    def found(*edited: str) -> tuple[set[tuple[str, int, str]], list[str]]:
        past = time.time() - 10  # (older than the racy window: what is read is kept)
        for name in edited:
            os.utime(root / name, (past, past))
        run = [sys.executable, "-c", counting, "check", "--exit-zero", "--output-format", "json", "."]
        cached = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=120, check=True)
        fresh = run_cli("check", "--exit-zero", "--no-cache", "--output-format", "json", ".", cwd=root, env=env)
        assert json.loads(cached.stdout) == fresh.json()
        analysed = json.loads(cached.stderr.strip().splitlines()[-1])
        return ({(Path(item["filename"]).as_posix().lstrip("./"), item["location"]["row"], item["code"])
                 for item in fresh.json()}, sorted(Path(path).relative_to(root.resolve()).as_posix()
                                                   for path in analysed))

    everything = [str(path.relative_to(root)) for path in root.rglob("*") if ".git" not in path.parts]
    both = {("tools/helpers.py", 5, "HG301"), ("tools/helpers.py", 10, "HG301")}
    first, analysed = found(*everything, ".")
    assert first == both  # (bench.py's call, through a module that re-exports it, counts as reached)
    assert {"bench.py", "scripts/build.py"} <= set(analysed)
    (root / "tools/helpers.py").write_text(HELPERS + "# edited\n")
    assert found("tools/helpers.py") == (both, [])
    (root / "compat/helpers.py").write_text("def cuda_version():\n    return (0, 0)\n")
    assert found("compat/helpers.py") == ({("tools/helpers.py", 10, "HG301")}, ["bench.py"])
    (root / "scripts/tools").mkdir()
    (root / "scripts/tools/__init__.py").write_text("")
    (root / "scripts/tools/helpers.py").write_text("def cuda_version():\n    return (0, 0)\n\n\n"
                                                   "def cuda_arch_flags():\n    return []\n")
    edited = ("scripts/tools/__init__.py", "scripts/tools/helpers.py", "scripts/tools", "scripts")
    assert found(*edited) == (both, ["scripts/build.py"])  # (build.py's guarded call is to its own helper now)
