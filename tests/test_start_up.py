"""Start-up by need: a check of C/C++ files imports no Python front end, a check of Python files
none of the C/C++ one, and a warm run no build-file reader (the real command line, in a fresh
process that reports the modules it imported)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

RUN = ("import json, sys; from hipify_guard.cli.main import main\n"
       "try:\n    main()\nexcept SystemExit:\n    pass\n"
       "print(json.dumps(sorted(name for name in sys.modules if name.startswith(('hipify_guard', 'pathspec')))), file=sys.stderr)")
PYTHON_SIDE = ("hipify_guard.python.source", "hipify_guard.model.python_analysis", "hipify_guard.checks.python_versions")
CPP_SIDE = ("hipify_guard.model.analysis", "hipify_guard.cpp.scanner", "hipify_guard.fix.verify",
            "hipify_guard.checks.guard_outcome", "hipify_guard.project.header_facts")  # (the last two: when needed)
READERS = ("hipify_guard.buildfiles.cmake_reader", "hipify_guard.buildfiles.setup_py_reader")
BY_NEED = ("hipify_guard.cpp.clang_front", "hipify_guard.model.version_flow")  # (libclang: where ROCm code needs it)


def imported(cwd: Path, *args: str) -> set[str]:
    environment = {**os.environ, "HIPIFY_GUARD_CACHE_DIR": str(cwd.parent / "cache"), "XDG_CACHE_HOME": str(cwd.parent)}
    completed = subprocess.run([sys.executable, "-c", RUN, "check", "--exit-zero", *args], cwd=cwd, env=environment,
                               capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(completed.stderr.strip().splitlines()[-1]))


def test_each_language_imports_its_own_front_end_only(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "k.cu").write_text("#if CUDA_VERSION >= 11000\n#endif\n")
    (root / "m.py").write_text("import torch\nif torch.version.cuda:\n    pass\n")
    (root / "CMakeLists.txt").write_text("project(p)\nadd_compile_definitions(USE_ROCM)\n")
    for path in (*root.iterdir(), root):  # (older than the cache's racy window: their facts are kept)
        os.utime(path, (time.time() - 10, time.time() - 10))
    cpp = imported(root, "k.cu")
    assert not cpp & set(PYTHON_SIDE) and set(CPP_SIDE[:4]) - {"hipify_guard.fix.verify"} <= cpp
    assert set(READERS) <= cpp and not cpp & set(BY_NEED)  # (the first run reads the build files)
    python = imported(root, "m.py")
    assert not python & {*CPP_SIDE, *READERS} and set(PYTHON_SIDE) <= python
    assert not imported(root, "k.cu") & set(READERS)  # (a later one takes their facts from the cache)


def test_an_ignore_file_of_comments_only_imports_no_pattern_library(tmp_path: Path) -> None:
    """`git init` writes `.git/info/exclude` with comments only: pathspec (50 ms to import) is
    needed only where a pattern is."""
    root = tmp_path / "p"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "k.cu").write_text("#if CUDA_VERSION >= 11000\n#endif\n")
    assert "pathspec" not in imported(root, "--no-cache", "k.cu")
    (root / ".gitignore").write_text("build/\n")
    assert "pathspec" in imported(root, "--no-cache", "k.cu")


def test_a_small_check_pays_for_no_garbage_collection(tmp_path: Path) -> None:
    """The command line's process keeps what it loads to its end: a check of a few files runs no
    collection of the older generations, and few young ones (over 20 at Python's default threshold)."""
    root = tmp_path / "p"
    root.mkdir()
    for number in range(10):
        (root / f"k{number}.cu").write_text(f"#if CUDA_VERSION >= 1{number}000\nint f{number}();\n#endif\n")
    counting = ("import gc, json, sys\nfrom hipify_guard.cli.main import main\n"
                "before = [stats['collections'] for stats in gc.get_stats()]\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print(json.dumps([stats['collections'] - old for stats, old in zip(gc.get_stats(), before)]), "
                "file=sys.stderr)")
    for _ in range(2):  # (the first run makes the API tables' stored form: a pre-commit hook's runs find it)
        completed = subprocess.run([sys.executable, "-c", counting, "check", "--exit-zero", "--no-cache", "."],
                                   cwd=root, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)}, capture_output=True,
                                   text=True, timeout=120, check=True)
    young, middle, old = json.loads(completed.stderr.strip().splitlines()[-1])
    assert young <= 3 and middle == old == 0
