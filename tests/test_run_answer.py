"""A whole check run answered from the cache (`project/run_answer.py`): taken only while nothing
it read has changed. Real CLI runs on a project of more than `MIN_FILES` files: each edit below
touches one kind of thing the results come from but that is not a file checked (a build file, a
header outside the paths given, a Python module outside them or a new one, a new file, an ignore
file, a configuration file made in a folder or above the project), and after each the cached run
must report what a run without the cache does."""

from __future__ import annotations

import os
import time
from pathlib import Path

from conftest import git_project, run_cli
from test_build_facts_cache import CUDA_ONLY, EVERY_BUILD, GUARD
from test_python_project import CALLERS, HELPERS, LAYERS, PLATFORM

from hipify_guard.project.cache import read_entries, write_entries
from hipify_guard.project.run_answer import MIN_FILES

ARCH = "#pragma once\n#define LIB_ALWAYS 1\n"
ALWAYS = '#include "lib/arch_config.h"\n#if defined(LIB_ALWAYS)\n#if CUDA_VERSION >= 12050\n#endif\n#endif\n'
PATHS = ("src", "server/layers", "tools", "filler")  # (not include/ nor server/utils: read for the facts, not checked)


def _findings(result) -> set[tuple[str, int, str]]:
    assert result.code in (0, 1), result.stderr
    return {(Path(item["filename"]).as_posix(), item["location"]["row"], item["code"]) for item in result.json()}


def test_a_whole_run_is_answered_only_while_nothing_it_read_changed(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {
        "CMakeLists.txt": CUDA_ONLY, ".gitignore": "build/\n", "src/only_cuda.cu": GUARD, "src/shared.cu": GUARD, "src/hip_only.hip": "\n",
        "include/lib/arch_config.h": ARCH, "src/always.cuh": ALWAYS,
        "server/__init__.py": "", "server/utils/__init__.py": "", "server/layers/__init__.py": "",
        "server/utils/platform.py": PLATFORM, "server/layers/fp8.py": LAYERS,
        "tools/__init__.py": "", "tools/helpers.py": HELPERS, "build.py": CALLERS,
        **{f"filler/f{n}.cu": f"int f{n};\n" for n in range(MIN_FILES)},
    })
    cache = tmp_path / "cache"
    env = {"HIPIFY_GUARD_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def settle(*edited: str) -> None:
        """Date the edited files and folders (all, when none is named) past the racy window."""
        past = time.time() - 10
        named = [root / name for name in edited] or [Path(folder) / name for folder, folders, files in os.walk(root)
                                                       for name in (*files, *folders, ".")]
        for path in named:
            os.utime(path, (past, past))

    def found(*edited: str) -> set[tuple[str, int, str]]:
        """What a cached run reports (each expected set below is what a run without the cache reports)."""
        settle(*edited)
        return _findings(run_cli("check", "--exit-zero", "--output-format", "json", *PATHS, cwd=root, env=env))

    first = {("src/shared.cu", 1, "HG101"), ("src/always.cuh", 3, "HG101"), ("server/layers/fp8.py", 20, "HG303"),
             ("tools/helpers.py", 10, "HG301")}
    assert found() == first == _findings(run_cli("check", "--exit-zero", "--no-cache", "--output-format", "json",
                                                 *PATHS, cwd=root, env=env))
    # Answered: the per-file results are gone, and the run neither needs nor writes them again.
    [answers] = cache.glob("answers-*")
    for kept in cache.glob("results-*"):
        kept.unlink()
    again = run_cli("check", "--exit-zero", "--output-format", "json", *PATHS, cwd=root, env=env)
    assert _findings(again) == first and not list(cache.glob("results-*"))

    # A build file and a header outside PATHS are edited after a run that read them and after a run
    # that took what was found from them from the memos.
    (root / "CMakeLists.txt").write_text(EVERY_BUILD)  # a build file: only_cuda.cu is compiled by ROCm too
    assert found("CMakeLists.txt") == first | {("src/only_cuda.cu", 1, "HG101")}
    (root / "include/lib/arch_config.h").write_text("#pragma once\n#if (__CUDACC_VER_MAJOR__ >= 12)\n"
                                                    "#define LIB_ALWAYS 1\n#endif\n")  # a header outside PATHS
    assert found("include/lib/arch_config.h") == first - {("src/always.cuh", 3, "HG101")} | {
        ("src/only_cuda.cu", 1, "HG101")}
    (root / "CMakeLists.txt").write_text(CUDA_ONLY)
    assert found("CMakeLists.txt") == first - {("src/always.cuh", 3, "HG101")}
    (root / "include/lib/arch_config.h").write_text(ARCH)
    assert found("include/lib/arch_config.h") == first
    (root / "include/lib/arch_config.h").write_text("#pragma once\n#if (__CUDACC_VER_MAJOR__ >= 11)\n"
                                                    "#define LIB_ALWAYS 1\n#endif\n")  # (right after a read)
    assert found("include/lib/arch_config.h") == first - {("src/always.cuh", 3, "HG101")}
    (root / "include/lib/arch_config.h").write_text(ARCH)
    assert found("include/lib/arch_config.h") == first
    (root / "src/shared.cu").write_text(GUARD.replace("12000", "12000 || defined(USE_ROCM)"))  # a file checked
    then = first - {("src/shared.cu", 1, "HG101")}
    assert found("src/shared.cu") == then
    (root / "server/utils/platform.py").write_text(PLATFORM.replace('SYSTEM = "rocm"', 'SYSTEM = "cuda"'))
    then |= {("server/layers/fp8.py", 10, "HG303"), ("server/layers/fp8.py", 16, "HG303")}
    assert found("server/utils/platform.py") == then
    (root / "bench.py").write_text("from tools.helpers import cuda_version\n\nprint(cuda_version())\n")
    then |= {("tools/helpers.py", 5, "HG301")}  # a new caller, in a folder no path given holds
    assert found("bench.py", ".") == then
    (root / "src/new.cu").write_text(GUARD)  # a new file
    then |= {("src/new.cu", 1, "HG101")}
    assert found("src/new.cu", "src") == then
    (root / ".gitignore").write_text("build/\nsrc/new.cu\n")  # an ignore file
    then -= {("src/new.cu", 1, "HG101")}
    assert found(".gitignore") == then
    (root / "src/.hipify-guard.toml").write_text('ignore = ["HG101"]\n')  # a configuration file made in a folder
    then = {finding for finding in then if not finding[0].startswith("src/")}
    assert found("src/.hipify-guard.toml", "src") == then
    (tmp_path / ".hipify-guard.toml").write_text('ignore = ["HG303"]\n')  # above the project (no walk goes there)
    assert found("../.hipify-guard.toml") == {finding for finding in then if finding[2] != "HG303"}
    assert answers.exists()


def test_a_kept_answer_of_another_shape_is_a_miss(tmp_path: Path) -> None:
    """An entry sealed with the user's key but not of the answer's shape (another build's, or
    damaged) is recomputed, never trusted or crashed on."""
    root = git_project(tmp_path / "p", {"src/shared.cu": GUARD,
                                        **{f"filler/f{n}.cu": f"int f{n};\n" for n in range(MIN_FILES)}})
    past = time.time() - 10
    for folder, _, files in os.walk(root):
        for name in (*files, "."):
            os.utime(os.path.join(folder, name), (past, past))
    cache = tmp_path / "cache"
    env = {"HIPIFY_GUARD_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    expected = {("src/shared.cu", 1, "HG101")}
    assert _findings(run_cli("check", "--exit-zero", "--output-format", "json", ".", cwd=root, env=env)) == expected
    [answers] = cache.glob("answers-*")
    key = (tmp_path / "xdg" / "hipify-guard" / "key").read_bytes()
    [(run, entry)] = read_entries(answers, key).items()
    for forged in (entry[:-1], (*entry[:6], ((10**6, b"x"),), entry[7]), (*entry[:3], 7, *entry[4:]),
                   (*entry[:6], ((0, b"not a report"),), entry[7])):
        write_entries(answers, {run: forged}, key)
        again = run_cli("check", "--exit-zero", "--output-format", "json", ".", cwd=root, env=env)
        assert _findings(again) == expected, forged[:3]
