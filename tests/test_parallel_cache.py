"""-j and the results cache change nothing but speed: identical findings and fixes with -j1, -j2,
cached and uncached; the cache is really used, notices changed files and heals when damaged."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from hipify_guard.project.cache import KEY_SIZE, content_digest, read_entries, sealed, write_entries
from hipify_guard.project.execute import PARALLEL_MIN_JOBS

SOURCES = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c", ".hip"}
DAY_AGO = 24 * 3600
BAD_GUARD = "#if CUDA_VERSION >= {version}\nint f{i}();\n#endif\n"
FINE_GUARD = "#if CUDA_VERSION >= {version} && !defined(USE_ROCM)\nint f{i}();\n#endif\n"
QUIET = "// CUDA helpers {i}\nstatic inline int g{i}() {{ return {i}; }}\n"


def _filler(i: int) -> str:
    if i % 37 == 0:
        return BAD_GUARD.format(version=9000 + i, i=i)
    return (FINE_GUARD if i % 3 == 0 else QUIET).format(version=10000 + i, i=i)


def _age(root: Path) -> None:
    """Date every file and folder a day back, so the stat index may record them (fresh ones are racy)."""
    past = os.stat(root).st_mtime - DAY_AGO
    for path in (*root.rglob("*"), root):
        os.utime(path, (past, past))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rule fixtures plus enough small files that -j2 really starts a pool."""
    root = tmp_path_factory.mktemp("template")
    fixtures = sorted(p for p in (ROOT / "tests" / "rules").rglob("*")
                      if p.is_file() and p.suffix in SOURCES and ".fixed" not in p.name)
    (root / "rules").mkdir()
    for number, path in enumerate(fixtures):
        shutil.copyfile(path, root / "rules" / f"{number:03d}_{path.name}")
    (root / "filler").mkdir()
    for i in range(PARALLEL_MIN_JOBS + 20):
        (root / "filler" / f"f{i:03d}.h").write_text(_filler(i))
    return root


@pytest.fixture
def tree(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(template, copy)
    _age(copy)
    return copy


def _environment(cache: Path) -> dict[str, str]:
    """The cache in `cache`, the user's key next to it (in `xdg/`, as `$XDG_CACHE_HOME`)."""
    return {"HIPIFY_GUARD_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(cache.parent / "xdg")}


def _key(cache: Path) -> bytes:
    key = (cache.parent / "xdg" / "hipify-guard" / "key").read_bytes()
    assert len(key) == KEY_SIZE
    return key


def _entries(path: Path) -> dict:
    """A cache file's entries, read with the key of the runs that wrote it."""
    return read_entries(path, _key(path.parent))


def _check(tree: Path, cache: Path, *args: str):
    result = run_cli("check", ".", "--output-format", "json", *args, cwd=tree, env=_environment(cache))
    assert result.code in (0, 1), result.stderr
    return result.code, result.json(), result.stderr


def test_findings_identical_with_any_jobs_and_cache(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    reference = _check(tree, cache, "-j1", "--no-cache")
    assert len(reference[1]) >= 10 and not cache.exists()
    for args in (("-j2", "--no-cache"), ("-j2",), ("-j2",), ("-j1",), ("-j3",)):
        assert _check(tree, cache, *args) == reference, args
    assert (cache / "index").stat().st_size > 0
    assert len(list(cache.glob("results-*"))) == 1


def test_warm_run_answers_from_the_cache(tree: Path, tmp_path: Path) -> None:
    """Poison the cache: a clean file's entry replaced by another file's findings shows up."""
    cache = tmp_path / "cache"
    truth = _check(tree, cache, "-j2")
    bad, clean = tree / "filler" / "f037.h", tree / "filler" / "f001.h"
    results_file = next(cache.glob("results-*"))
    results = _entries(results_file)
    config = next(iter(results))[:16]
    results[config + content_digest(clean.read_bytes())] = results[config + content_digest(bad.read_bytes())]
    write_entries(results_file, results, _key(cache))
    for answer in cache.glob("answers-*"):  # (else the whole run is answered, and no file's result is looked up)
        answer.unlink()
    poisoned = _check(tree, cache, "-j2")
    names = [finding["filename"] for finding in poisoned[1]]
    assert "./filler/f001.h" in names and "./filler/f001.h" not in [f["filename"] for f in truth[1]]
    assert _check(tree, cache, "-j2", "--no-cache") == truth


def test_changed_file_is_checked_again(tree: Path, tmp_path: Path) -> None:
    """Same size, same mtime, new bytes: the status (ctime) and content hash catch it."""
    cache = tmp_path / "cache"
    _check(tree, cache, "-j1")
    target = tree / "filler" / "f002.h"
    before = target.stat()
    text = target.read_text()
    assert "#if CUDA_VERSION" not in text
    target.write_text(BAD_GUARD.format(version=11000, i=2).ljust(len(text) - 1) + "\n")
    assert target.stat().st_size == before.st_size
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    warm = _check(tree, cache, "-j1")
    assert "./filler/f002.h" in [finding["filename"] for finding in warm[1]]
    assert warm == _check(tree, cache, "-j1", "--no-cache")


def test_damaged_cache_heals(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    truth = _check(tree, cache, "-j1", "--no-cache")
    _check(tree, cache, "-j1")
    damaged = [cache / "index", *cache.glob("results-*"), *cache.glob("answers-*")]
    assert len(damaged) == 3
    for path in damaged:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2] + b"garbage")
    assert _check(tree, cache, "-j2") == truth
    for path in damaged:
        assert _entries(path), path
    assert _check(tree, cache, "-j2") == truth


def test_cache_never_runs_code(tree: Path, tmp_path: Path) -> None:
    """A crafted pickle in the cache folder is rejected, not executed, even with a valid MAC (one
    made with the user's own key)."""
    cache = tmp_path / "cache"
    truth = _check(tree, cache, "-j1")
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self):
            return os.system, (f"touch {marker}",)

    for path in [cache / "index", *cache.glob("results-*")]:
        path.write_bytes(sealed(_key(cache), path.name, pickle.dumps(Exploit())))
    assert _check(tree, cache, "-j1") == truth
    assert not marker.exists()


def _fix(tree: Path, cache: Path, *args: str) -> tuple[int, str, dict[str, bytes]]:
    result = run_cli("check", ".", "--fix", "--unsafe-fixes", *args, cwd=tree, env=_environment(cache))
    assert result.code in (0, 1), result.stderr
    files = {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*")) if p.is_file()}
    return result.code, result.stdout, files


@pytest.mark.slow
def test_fixes_identical_with_any_jobs_and_cache(template: Path, tmp_path: Path) -> None:
    trees = []
    for name in ("serial", "parallel", "cached"):
        trees.append(tmp_path / name)
        shutil.copytree(template, trees[-1])
        _age(trees[-1])
    cache = tmp_path / "cache"
    diffs = {run_cli("check", ".", "--diff", jobs, cwd=trees[0], env=_environment(cache)).stdout
             for jobs in ("-j1", "-j2")}
    assert len(diffs) == 1 and next(iter(diffs)).count("+++ b/") >= 5
    _check(trees[2], cache, "-j2")  # a warm cache must not change what --fix does
    serial = _fix(trees[0], cache, "-j1", "--no-cache")
    assert serial[2] != {str(p.relative_to(template)): p.read_bytes() for p in template.rglob("*") if p.is_file()}
    assert _fix(trees[1], cache, "-j2", "--no-cache") == serial
    assert _fix(trees[2], cache, "-j2") == serial


def test_clean_removes_the_cache(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _check(tree, cache, "-j1")
    assert cache.is_dir() and (cache / "CACHEDIR.TAG").exists()
    removed = run_cli("clean", env=_environment(cache))
    assert removed.code == 0 and "Removed" in removed.stdout and not cache.exists()
    again = run_cli("clean", env=_environment(cache))
    assert again.code == 0 and "No cache" in again.stdout


def test_default_cache_folder_is_in_the_project_root(tree: Path) -> None:
    (tree / "pyproject.toml").write_text("")
    environment = {k: v for k, v in os.environ.items() if k != "HIPIFY_GUARD_CACHE_DIR"}
    result = subprocess.run([sys.executable, "-c", "from hipify_guard.project.cache import cache_folder; print(cache_folder())"],
                            cwd=tree / "filler", env=environment, capture_output=True, text=True, check=True)
    assert Path(result.stdout.strip()) == (tree / ".hipify-guard-cache").resolve()


def test_configuration_key_is_stable_across_hash_seeds() -> None:
    """Sets in the settings must not make the key depend on PYTHONHASHSEED."""
    program = ("from hipify_guard.project.cache import configuration_key; from hipify_guard.model.settings import Settings; "
               "s = Settings(project_defines=frozenset({'A', 'B', 'C', 'HIP_VERSON', 'X1', 'X2'})); "
               "print(configuration_key((s, ('HG101', 'HG107'), 'check', False)).hex())")
    keys = {subprocess.run([sys.executable, "-c", program], env={**os.environ, "PYTHONHASHSEED": seed},
                           capture_output=True, text=True, check=True).stdout for seed in ("1", "2", "3")}
    assert len(keys) == 1 and len(next(iter(keys)).strip()) == 32


def test_jobs_and_settings_pickle() -> None:
    """What a spawned worker receives survives pickling, cached properties included."""
    from hipify_guard.model.settings import Settings
    from hipify_guard.project.runner import Job

    settings = Settings()
    assert settings.rocm_models and settings.cuda  # fill the cached properties
    job = Job("a.cu", "a.cu", settings, ("HG101",))
    assert pickle.loads(pickle.dumps(job)) == job


def test_concurrent_runs_share_one_cache(tree: Path, tmp_path: Path) -> None:
    """Runs that read and write the same cache at once all answer right and leave it loadable."""
    cache = tmp_path / "cache"
    truth = _check(tree, cache, "-j1", "--no-cache")
    environment = {**os.environ, "NO_COLOR": "1", **_environment(cache)}
    from conftest import console_script

    runs = [subprocess.Popen([*console_script(), "check", ".", "--output-format", "json", "-j1", *extra],
                             cwd=tree, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for extra in ((), ("filler",), (), ("rules",))]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert json.loads(outputs[0][0]) == json.loads(outputs[2][0]) == truth[1]
    assert [run.returncode for run in runs] == [truth[0], 1, truth[0], 1]
    for path in [cache / "index", *cache.glob("results-*")]:
        assert _entries(path)
    assert not list(cache.glob(".*.*"))  # no temporary file left behind
    assert _check(tree, cache, "-j2") == truth


def test_old_builds_and_leftovers_are_pruned(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    truth = _check(tree, cache, "-j1")  # makes and tags the folder
    for path in cache.glob("results-*"):
        os.utime(path, (1e9 - 1, 1e9 - 1))
    old = [cache / f"results-old{i}" for i in range(6)]
    for age, path in enumerate(old):
        path.write_bytes(pickle.dumps({}))
        os.utime(path, (1e9 + age, 1e9 + age))
    leftover, fresh = cache / ".index.killed", cache / ".index.writing"
    leftover.write_bytes(b"partial")
    os.utime(leftover, (1e9, 1e9))
    fresh.write_bytes(b"partial")
    (tree / "filler" / "f001.h").write_text("// changed\n")  # something new to save
    changed = _check(tree, cache, "-j1")
    assert changed == _check(tree, cache, "-j1", "--no-cache") and changed[1] == truth[1]
    kept = sorted(path.name for path in cache.glob("results-*"))
    assert len(kept) == 4 and "results-old5" in kept and "results-old0" not in kept
    assert not leftover.exists() and fresh.exists()


def test_reports_come_back_in_job_order(template: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: a forced pool returns the same reports, in the jobs' order (strided chunks)."""
    import hipify_guard.project.execute as execute_module
    from hipify_guard.engine.lint import active_codes
    from hipify_guard.engine.selection import Selection
    from hipify_guard.model.settings import Settings
    from hipify_guard.project.runner import Job

    paths = sorted(str(p) for p in template.rglob("*") if p.is_file())
    settings, codes = Settings(), tuple(active_codes(Selection()))
    jobs = [Job(path, path, settings, codes) for path in reversed(paths)]
    serial = execute_module.execute(jobs, workers=1)
    monkeypatch.setattr(execute_module, "PARALLEL_MIN_JOBS", 0)
    seen: list[str] = []
    pooled = execute_module.execute(jobs, lambda report: seen.append(report.filename), workers=3)
    assert [r.filename for r in pooled] == [job.filename for job in jobs]
    assert pooled == serial and sorted(seen) == sorted(job.filename for job in jobs)
    assert sum(len(report.diagnostics) for report in serial) >= 10


def test_a_foreign_cache_folder_is_neither_tagged_pruned_nor_cleaned(tree: Path, tmp_path: Path) -> None:
    """$HIPIFY_GUARD_CACHE_DIR may point at a folder of the user's: leave their files alone."""
    folder = tmp_path / "mine"
    folder.mkdir()
    theirs = [folder / "results-2024.csv", folder / ".index.old"]
    for path in theirs:
        path.write_text("keep me")
        os.utime(path, (1e9, 1e9))
    truth = _check(tree, folder, "-j1", "--no-cache")
    assert _check(tree, folder, "-j1") == truth
    assert all(path.exists() for path in theirs) and not (folder / ".gitignore").exists()
    refused = run_cli("clean", env={"HIPIFY_GUARD_CACHE_DIR": str(folder)})
    assert refused.code == 2 and "not a hipify-guard cache folder" in refused.stderr
    assert all(path.exists() for path in theirs)
