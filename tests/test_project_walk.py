"""The remembered walk: a warm run scans only the folders that changed, and finds what a fresh walk finds."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_guard.model.settings import Settings
from hipify_guard.project import cuda_only_headers, header_facts, header_includers
from hipify_guard.walk import project_walk
from hipify_guard.project.discovery import discover
from hipify_guard.project.header_includes import headers_named
from hipify_guard.walk.project_walk import Walk, remember_in, walk_of

GUARD = b"#if CUDA_VERSION < 11000\nx\n#endif\n"


class DictMemo:
    """A WalkMemo in memory (the results cache keeps the same plain values in a file)."""

    def __init__(self) -> None:
        self.kept: dict[str, object] = {}

    def project_walk(self, folder: str) -> object | None:
        return self.kept.get(folder)

    def keep_project_walk(self, folder: str, plain: object) -> None:
        self.kept[folder] = plain


def settle(root: Path) -> None:
    """Date every folder and file of the tree 10 s back: older than the racy window."""
    past = time.time() - 10
    for folder, names, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))
        os.utime(folder, (past, past))


def tree(root: Path) -> Path:
    for name in ("src/a.cu", "src/deep/b.cuh", "skipped/c.cu", "docs/d.h", ".hidden/e.cu"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(GUARD)
    (root / ".git").mkdir()
    (root / ".gitignore").write_text("skipped/\n")
    settle(root)
    return root


@pytest.fixture
def memo():
    kept = DictMemo()
    remember_in(kept)
    yield kept
    remember_in(None)


def found(root: Path) -> list[str]:
    walk_of.cache_clear()  # (a new run)
    return [os.path.relpath(path, root) for _, path in discover([str(root)])]


def test_a_kept_walk_is_revalidated_by_folder_status_alone(tmp_path: Path, memo: DictMemo, monkeypatch) -> None:
    root = tree(tmp_path / "p")
    first = found(root)
    assert first == [".hidden/e.cu", "docs/d.h", "src/a.cu", "src/deep/b.cuh"]
    assert str(root) in memo.kept
    scanned: list[str] = []
    real_scandir = os.scandir
    monkeypatch.setattr(project_walk.os, "scandir", lambda path: scanned.append(path) or real_scandir(path))
    assert found(root) == first and scanned == []  # nothing changed: a stat per folder, no scan
    (root / "src" / "deep" / "new.cu").write_bytes(GUARD)
    assert found(root) == [*first, "src/deep/new.cu"]
    assert scanned == [str(root / "src" / "deep")]  # only the folder that changed


def test_a_rescanned_folder_keeps_its_entries_decisions_and_decides_new_ones(tmp_path: Path, memo: DictMemo) -> None:
    root = tree(tmp_path / "p")
    (root / ".gitignore").write_text("skipped/\ngen_*.cu\n")
    (root / "src" / "gen_old.cu").write_bytes(GUARD)
    settle(root)
    found(root)
    (root / "src" / "a.cu.new").write_bytes(GUARD)
    os.replace(root / "src" / "a.cu.new", root / "src" / "a.cu")  # saved by renaming: the folder changed
    (root / "src" / "gen_new.cu").write_bytes(GUARD)
    (root / "src" / "b.cu").write_bytes(GUARD)
    expected = [".hidden/e.cu", "docs/d.h", "src/a.cu", "src/b.cu", "src/deep/b.cuh"]
    assert found(root) == expected
    remember_in(None)
    assert found(root) == expected  # (a fresh walk)


def test_an_ignored_folder_is_scanned_only_for_the_header_index(tmp_path: Path, memo: DictMemo, monkeypatch) -> None:
    root = tree(tmp_path / "p")
    scanned: list[str] = []
    real_scandir = os.scandir
    monkeypatch.setattr(project_walk.os, "scandir", lambda path: scanned.append(path) or real_scandir(path))
    found(root)
    assert str(root / "skipped") not in scanned  # (ignored: discovery and the build files never look)
    assert headers_named(str(root))["b.cuh"] == (str((root / "src/deep/b.cuh").resolve()),)
    assert str(root / "skipped") in scanned


def test_a_changed_ignore_file_scans_everything_again(tmp_path: Path, memo: DictMemo) -> None:
    root = tree(tmp_path / "p")
    found(root)
    (root / ".gitignore").write_text("skipped/\ndocs/\n")
    assert found(root) == [".hidden/e.cu", "src/a.cu", "src/deep/b.cuh"]
    (root / "src" / ".gitignore").write_text("deep/\n")  # a new ignore file in a kept folder
    assert found(root) == [".hidden/e.cu", "src/a.cu"]


def test_a_walk_with_recent_changes_is_not_kept(tmp_path: Path, memo: DictMemo) -> None:
    root = tree(tmp_path / "p")
    (root / "src" / "fresh.cu").write_bytes(GUARD)  # modified just now: its folder's status may repeat
    found(root)
    assert memo.kept == {}


def test_a_damaged_memo_entry_is_walked_afresh(tmp_path: Path, memo: DictMemo) -> None:
    root = tree(tmp_path / "p")
    memo.kept[str(root)] = ("not", "a walk")
    assert found(root) == [".hidden/e.cu", "docs/d.h", "src/a.cu", "src/deep/b.cuh"]
    assert Walk.from_plain(memo.kept[str(root)]) is not None


def test_warm_runs_see_added_removed_and_ignored_files(tmp_path: Path) -> None:
    """Through the command line and its cache: each run reports what a run without the cache reports."""
    root = tree(tmp_path / "p")
    env = {"HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def both() -> tuple[str, str]:
        cached = run_cli("check", "--exit-zero", "--output-format", "concise", ".", cwd=root, env=env)
        fresh = run_cli("check", "--exit-zero", "--no-cache", "--output-format", "concise", ".", cwd=root, env=env)
        return cached.stdout, fresh.stdout

    cached, fresh = both()
    assert cached == fresh and "src/a.cu" in cached
    assert (tmp_path / "cache").is_dir() and any(path.name.startswith("walks-") for path in (tmp_path / "cache").iterdir())
    (root / "docs" / "more.cuh").write_bytes(GUARD)
    (root / "src" / "a.cu").unlink()
    (root / ".gitignore").write_text("skipped/\n.hidden/\n")
    cached, fresh = both()
    assert cached == fresh and "docs/more.cuh" in cached and "src/a.cu" not in cached and ".hidden" not in cached


def header_project(tmp_path: Path, header: str) -> tuple[Path, Callable[..., list[str]]]:
    """A project whose `src/ops/hmax.cu` compares with CUDART_HMAX, defined in the file `header` that
    its `mid.cuh` includes as "common.cuh"; and what its checks report, once the paths given are dated back (as
    everything is at first). Each time the cached run must report what an uncached one does."""
    root = tmp_path / "p"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "ops").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "src" / "ops" / "hmax.cu").write_text('#include "mid.cuh"\n#if CUDART_VERSION >= CUDART_HMAX\n#endif\n')
    (root / "src" / "ops" / "mid.cuh").write_text('#pragma once\n#include "common.cuh"\n')
    (root / header).parent.mkdir(parents=True, exist_ok=True)
    (root / header).write_text("#pragma once\n#define CUDART_HMAX 11070\n")
    settle(root)
    env = {"HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def codes(*changed: Path) -> list[str]:
        for path in changed:  # (only these: dating a folder back changes its ctime, and so its status)
            os.utime(path, (time.time() - 10, time.time() - 10))
        run_cli("check", "--exit-zero", ".", cwd=root, env=env)  # (keeps what it found)
        cached = run_cli("check", "--exit-zero", "--output-format", "json", ".", cwd=root, env=env)
        fresh = run_cli("check", "--exit-zero", "--no-cache", "--output-format", "json", ".", cwd=root, env=env)
        assert cached.json() == fresh.json()
        assert any(path.name.startswith("header-facts-") for path in (tmp_path / "cache").iterdir())
        return [item["code"] for item in fresh.json()]

    return root, codes


def test_kept_header_facts_follow_an_edited_header_and_one_found_first(tmp_path: Path) -> None:
    root, codes = header_project(tmp_path, "include/common.cuh")  # (found in the project's include/)
    assert codes() == ["HG101"]  # a version test: false on ROCm
    (root / "include" / "common.cuh").write_text("#pragma once\n#define CUDART_HMAX HMAX_OF_THE_BUILD\n")
    assert codes(root / "include" / "common.cuh") == []  # no threshold: nothing to judge
    (root / "src" / "ops" / "common.cuh").write_text("#pragma once\n#define CUDART_HMAX 11070\n")  # beside mid.cuh
    assert codes(root / "src" / "ops" / "common.cuh", root / "src" / "ops") == ["HG101"]
    hmax = root / "src" / "ops" / "hmax.cu"
    hmax.write_text(hmax.read_text().replace("mid.cuh", "limits.cuh"))  # includes another header now
    assert codes(hmax) == []


def test_kept_header_facts_follow_the_header_index_into_ignored_folders(tmp_path: Path) -> None:
    root, codes = header_project(tmp_path, "gen/common.cuh")  # (generated, ignored: found by the index)
    (root / ".gitignore").write_text("gen/\n")
    settle(root)
    assert codes() == ["HG101"]
    (root / "gen" / "old").mkdir()
    (root / "gen" / "old" / "common.cuh").write_text("#pragma once\n")  # two of that name: neither is taken
    assert codes(root / "gen" / "old" / "common.cuh", root / "gen" / "old", root / "gen") == []


def test_kept_header_facts_follow_the_header_index(tmp_path: Path) -> None:
    root, codes = header_project(tmp_path, "src/common.cuh")  # (found as the one header of that name)
    assert codes() == ["HG101"]
    (root / "lib" / "other").mkdir()
    (root / "lib" / "other" / "common.cuh").write_text("#pragma once\n")  # two of that name: neither is taken
    assert codes(root / "lib" / "other" / "common.cuh", root / "lib" / "other", root / "lib") == []


class FactsMemo(DictMemo):
    """A memo of walks and of what is found from them (`header_memo`), in memory."""

    def __init__(self) -> None:
        super().__init__()
        self.facts: dict[bytes, object] = {}

    def header_facts(self, key: bytes) -> object | None:
        return self.facts.get(key)

    def keep_header_facts(self, key: bytes, plain: object) -> None:
        self.facts[key] = plain


def test_kept_cuda_only_headers_hold_while_include_lines_and_listings_do(tmp_path: Path, monkeypatch) -> None:
    """A pre-commit run's edits leave the include lines as they were: the files are read again, the
    headers not found again; an edit of an include line, or a new file, finds them again."""
    root = tmp_path / "p"
    files = {"csrc/qattn/attn.cu": '#include "../mma.cuh"\n', "csrc/mma.cuh": "\n",
             "csrc/bind.cpp": '#include "shared.cuh"\n', "csrc/shared.cuh": "\n"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    settle(root)
    remember_in(FactsMemo())
    found_again = _calls(monkeypatch, cuda_only_headers, "_cuda_only_headers")
    try:
        def headers() -> list[str]:
            return sorted(cuda_only_headers.cuda_only_headers(str(root), frozenset({"csrc/qattn/attn.cu"}), frozenset()))

        assert headers() == ["csrc/mma.cuh"] and len(found_again) == 1
        for name in ("csrc/qattn/attn.cu", "csrc/bind.cpp"):  # edited just now: read again in the next run too
            with open(root / name, "a") as stream:
                stream.write("// edited\n")
        assert headers() == headers() == ["csrc/mma.cuh"] and len(found_again) == 1
        (root / "csrc" / "saved.tmp").write_text('#include "shared.cuh"\n')  # saved by renaming: same files
        os.replace(root / "csrc" / "saved.tmp", root / "csrc" / "bind.cpp")
        assert headers() == ["csrc/mma.cuh"] and len(found_again) == 1
        with open(root / "csrc" / "bind.cpp", "a") as stream:
            stream.write('#include "mma.cuh"\n')
        assert headers() == [] and len(found_again) == 2
        (root / "csrc" / "bind.cpp").write_text('#include "shared.cuh"\n')
        assert headers() == ["csrc/mma.cuh"] and len(found_again) == 3
        (root / "csrc" / "qattn" / "other.cu").write_text('#include "../mma.cuh"\n')  # not CUDA-only
        assert headers() == [] and len(found_again) == 4
    finally:
        remember_in(None)


def test_kept_header_facts_hold_while_the_files_around_keep_their_include_lines(tmp_path: Path, monkeypatch) -> None:
    """vLLM's gguf: `kernel.cu` puts the shim `common.h` in front of `vecdot.cuh`. The files of the
    folder are read for their `#include` lines only: edits that keep them (a pre-commit run's) leave
    the facts kept; an edit of the shim, read whole, or of an include line finds them again."""
    root = tmp_path / "p"
    (root / "gguf").mkdir(parents=True)
    (root / "gguf" / "common.h").write_text("#pragma once\n#if defined(USE_ROCM)\n"
                                            "static __device__ int __vsubss4(int a, int b) { return a - b; }\n#endif\n")
    (root / "gguf" / "vecdot.cuh").write_text("#if defined(USE_ROCM)\nstatic __device__ int f(int a) { return __vsubss4(a, a); }\n"
                                              "#endif\n")
    (root / "gguf" / "kernel.cu").write_text('#include "common.h"\n#include "vecdot.cuh"\n')
    (root / "gguf" / "other.cu").write_text("// nothing included\n")
    settle(root)
    remember_in(FactsMemo())
    found_again = _calls(monkeypatch, header_facts, "_included_facts")
    try:
        def defined() -> frozenset[str]:
            for read_once in (header_facts.file_bytes, header_facts.includes, header_includers._included_names):
                read_once.cache_clear()  # (a new run)
            return header_facts.included_facts(str(root / "gguf" / "vecdot.cuh"), {"__vsubss4"}, str(root),
                                               Settings()).defined

        assert defined() == {"__vsubss4"} and len(found_again) == 1
        for name in ("kernel.cu", "other.cu", "vecdot.cuh"):
            with open(root / "gguf" / name, "a") as stream:
                stream.write("// edited\n")
        assert defined() == defined() == {"__vsubss4"} and len(found_again) == 1
        (root / "gguf" / "common.h").write_text("#pragma once\n")
        assert defined() == frozenset() and len(found_again) == 2
        (root / "gguf" / "common.h").write_text("#pragma once\nstatic __device__ int __vsubss4(int a, int b);\n")
        assert defined() == {"__vsubss4"} and len(found_again) == 3
        (root / "gguf" / "kernel.cu").write_text('#include "vecdot.cuh"\n')
        assert defined() == frozenset() and len(found_again) == 4
    finally:
        remember_in(None)


def _calls(monkeypatch, module, name: str) -> list[int]:
    """A list that gets one item per call of `module.name` from now on (the facts found again)."""
    calls: list[int] = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *args: calls.append(1) or real(*args))
    return calls
