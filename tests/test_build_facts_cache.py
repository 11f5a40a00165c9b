"""Build-file facts kept between check runs: a warm run takes them from the cache only while the
walk and every file read for them are unchanged (real CLI runs on a CMake project on disk)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from conftest import require_tool, run_cli

from hipify_guard.project.cache import key_file, read_entries, write_entries

GUARD = "#if CUDA_VERSION >= 12000\nfast();\n#endif\n"
CUDA_ONLY = ('cmake_minimum_required(VERSION 3.20)\nproject(p)\nif(P_GPU_LANG STREQUAL "CUDA")\n'
             '  list(APPEND SRC src/only_cuda.cu)\nelseif(P_GPU_LANG STREQUAL "HIP")\n  list(APPEND SRC src/hip_only.hip)\n'
             'endif()\nlist(APPEND SRC src/shared.cu)\nadd_library(p ${SRC})\n')
EVERY_BUILD = CUDA_ONLY.replace("list(APPEND SRC src/shared.cu)", "list(APPEND SRC src/shared.cu src/only_cuda.cu)")


def _settled(path: Path, text: str, age: float) -> None:
    """Write `text` and date the file `age` seconds back (past the cache's racy window)."""
    path.write_text(text, encoding="utf-8")
    when = time.time() - age
    os.utime(path, (when, when))


def _project(tmp_path: Path) -> Path:
    require_tool("git")
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    _settled(root / "CMakeLists.txt", CUDA_ONLY, 100)
    for name in ("only_cuda.cu", "shared.cu"):
        _settled(root / "src" / name, GUARD, 100)
    _settled(root / "src" / "hip_only.hip", "\n", 100)
    return root


def _reported(root: Path, cache: Path) -> list[str]:
    result = run_cli("check", "--output-format", "json", "src", cwd=root, env={"HIPIFY_GUARD_CACHE_DIR": str(cache)})
    assert result.code in (0, 1), result.stderr
    return sorted(item["filename"].removeprefix("./") for item in result.json())


def test_build_facts_follow_the_build_files_between_runs(tmp_path: Path) -> None:
    root, cache = _project(tmp_path), tmp_path / "cache"
    assert _reported(root, cache) == ["src/shared.cu"]  # only_cuda.cu: only the CUDA build compiles it
    [kept] = cache.glob("build-facts-*")
    assert _reported(root, cache) == ["src/shared.cu"]  # warm: from the cache
    _settled(root / "CMakeLists.txt", EVERY_BUILD, 50)  # a build file read for the facts changed
    assert _reported(root, cache) == ["src/only_cuda.cu", "src/shared.cu"]
    _settled(root / "CMakeLists.txt", CUDA_ONLY, 40)
    assert _reported(root, cache) == ["src/shared.cu"]
    (root / "src" / "cuda").mkdir()  # the walk changed: a CUDA folder beside a HIP one with its counterpart
    (root / "src" / "hip").mkdir()
    _settled(root / "src" / "cuda" / "layout.cu", GUARD, 30)
    _settled(root / "src" / "hip" / "layout.hip", "\n", 30)
    assert _reported(root, cache) == ["src/shared.cu"]  # (src/cuda/layout.cu is CUDA-only, by the layout)
    assert kept.exists()
    _settled(root / ".gitmodules", '[submodule "x"]\n\tpath = vendor/x\n', 20)
    for folder in (root, root / "src", root / "src" / "cuda", root / "src" / "hip"):
        os.utime(folder, (time.time() - 20, time.time() - 20))  # (a walk kept with its digest)
    assert _reported(root, cache) == _reported(root, cache) == ["src/shared.cu"]
    _settled(root / ".gitmodules", '[submodule "c"]\n\tpath = src/cuda\n', 10)  # the same walk, a submodule more
    assert _reported(root, cache) == ["src/cuda/layout.cu", "src/shared.cu"]


def test_a_damaged_or_foreign_build_facts_file_is_a_miss(tmp_path: Path) -> None:
    root, cache = _project(tmp_path), tmp_path / "cache"
    assert _reported(root, cache) == ["src/shared.cu"]
    [kept] = cache.glob("build-facts-*")
    kept.write_bytes(b"\0" * 40 + b"not a pickle")  # damaged: its MAC fails
    assert _reported(root, cache) == ["src/shared.cu"]
    key = key_file().read_bytes()
    entries = read_entries(kept, key)
    assert entries, "the run should have written the facts again"
    # A sealed entry whose payload names a class outside the facts' own is refused, not built.
    forged = {name: b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x02os\x8c\x06system\x93." for name in entries}
    write_entries(kept, forged, key)
    assert _reported(root, cache) == ["src/shared.cu"]
