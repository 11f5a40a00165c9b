"""A results cache committed to a repository must not decide what CI reports.

The attacker runs the same tool build, so their cache files are real ones for the same tool key;
they edit the entry of their file to "nothing to report", seal it with their own key (which a
tampered copy of the tool would also do), force-add the folder and push. A fresh clone, checked
with another user's key, must report the finding.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import require_tool, run_cli

from hipify_guard.project.cache import FOLDER_NAME, read_entries, write_entries

BAD = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nnew_api();\n#endif\n"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True,
                   capture_output=True)


def _as(user_cache: Path) -> dict[str, str]:
    """A user whose cache folder (and so key) is `user_cache`; the results cache is the default one
    in the checkout."""
    return {"XDG_CACHE_HOME": str(user_cache), "HIPIFY_GUARD_CACHE_DIR": ""}


def test_a_forged_cache_committed_to_the_repository_does_not_hide_a_finding(tmp_path: Path) -> None:
    require_tool("git")
    repository, attacker = tmp_path / "contribution", tmp_path / "attacker-cache"
    (repository / "src").mkdir(parents=True)
    (repository / "src" / "kernel.cu").write_bytes(BAD)
    _git(repository, "init", "-q")
    honest = run_cli("check", "src", cwd=repository, env=_as(attacker))
    assert honest.code == 1 and "HG101" in honest.stdout, honest.stdout + honest.stderr
    key = (attacker / "hipify-guard" / "key").read_bytes()
    [results] = (repository / FOLDER_NAME).glob("results-*")
    entries = read_entries(results, key)
    assert any(entries.values())
    write_entries(results, dict.fromkeys(entries), key)  # every file: nothing to report
    forged = run_cli("check", "src", cwd=repository, env=_as(attacker))
    assert (forged.code, forged.stdout.strip()) == (0, "All checks passed!"), "the forgery should fool its maker"
    _git(repository, "add", "-f", ".")
    _git(repository, "commit", "-q", "-m", "innocent change")

    clone, victim = tmp_path / "ci-clone", tmp_path / "ci-cache"
    _git(tmp_path, "clone", "-q", str(repository), str(clone))
    assert (clone / FOLDER_NAME / results.name).read_bytes() == results.read_bytes()
    ci = run_cli("check", "src", cwd=clone, env=_as(victim))
    assert ci.code == 1 and "src/kernel.cu:1:1: HG101" in ci.stdout, ci.stdout + ci.stderr
    assert (victim / "hipify-guard" / "key").read_bytes() != key
    assert ci.stdout == run_cli("check", "--no-cache", "src", cwd=clone, env=_as(victim)).stdout


def test_the_key_is_made_once_private_and_outside_the_checkout(tmp_path: Path) -> None:
    """Made on first use with mode 0600 in a 0700 folder, then reused; without XDG_CACHE_HOME it
    is in ~/.cache; a key that cannot be made leaves the run uncached, not failed."""
    (tmp_path / "a.cu").write_bytes(BAD)
    first = run_cli("check", ".", cwd=tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    key_file = tmp_path / "xdg" / "hipify-guard" / "key"
    key = key_file.read_bytes()
    assert first.code == 1 and len(key) == 32
    assert (key_file.stat().st_mode & 0o777, key_file.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    run_cli("check", ".", cwd=tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert key_file.read_bytes() == key
    home = tmp_path / "home"
    run_cli("check", ".", cwd=tmp_path, env={"XDG_CACHE_HOME": "", "HOME": str(home)})
    assert len((home / ".cache" / "hipify-guard" / "key").read_bytes()) == 32
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    uncached = run_cli("check", ".", cwd=tmp_path, env={"XDG_CACHE_HOME": str(blocked)})
    assert (uncached.code, uncached.stdout) == (first.code, first.stdout) and not uncached.stderr
    assert os.listdir(tmp_path / FOLDER_NAME)  # (written by the runs that had a key)


def test_api_tables_in_the_user_cache_are_sealed(tmp_path: Path) -> None:
    """The API tables' plain form (`table_cache`) is taken only with this user's MAC: tables that
    say HIP has everything, sealed with another key, do not silence HG203/HG204."""
    (tmp_path / "k.cu").write_bytes(b"#if defined(USE_ROCM) || CUDART_VERSION >= 12040\n"
                                    b"void export_handle(CUmemFabricHandle_v1* handle);\n#endif\n")
    user = tmp_path / "user"
    args = ("check", "--no-cache", "--select", "HG204", "--output-format", "json", "k.cu")
    made = run_cli(*args, cwd=tmp_path, env=_as(user))
    [tables] = (user / "hipify-guard").glob("api-tables-*")
    assert [item["code"] for item in made.json()] == ["HG204"]
    assert run_cli(*args, cwd=tmp_path, env=_as(user)).json() == made.json()  # (read from the file)
    plain = read_entries(tables, (user / "hipify-guard" / "key").read_bytes())["tables"]
    write_entries(tables, {"tables": (plain[0], {}, frozenset(), {}, {}, plain[5])}, os.urandom(32))
    assert run_cli(*args, cwd=tmp_path, env=_as(user)).json() == made.json()
