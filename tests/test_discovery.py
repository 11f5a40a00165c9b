"""File discovery: .gitignore, exclusions, --force-exclude, symlinks, unreadable folders."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import console_script, require_tool, run_cli, without_file_permission_override

GUARD = b"#if CUDA_VERSION >= 11000\nint x;\n#endif\n"


def _tree(root: Path, files: dict[str, bytes | str]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return root


def _checked(cwd: Path, *args: str) -> list[str]:
    result = run_cli("check", "--output-format", "json", *args, cwd=cwd)
    assert result.code in (0, 1), result.stderr
    return sorted(item["filename"] for item in result.json())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    require_tool("git")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return _tree(tmp_path, {
        ".gitignore": "build/\n*.gen.cu\n!keep.gen.cu\n",
        "src/a.cu": GUARD, "src/b.gen.cu": GUARD, "src/keep.gen.cu": GUARD,
        "src/vendor/.gitignore": "*.cuh\n", "src/vendor/v.cuh": GUARD, "src/vendor/v.cu": GUARD,
        "build/out.cu": GUARD, "notes.txt": GUARD,
    })


def test_gitignore_files_are_respected_root_and_nested(repo: Path) -> None:
    _tree(repo, {"private/p.cu": GUARD, ".git/info/exclude": "private/\n"})
    assert _checked(repo, ".") == ["./src/a.cu", "./src/keep.gen.cu", "./src/vendor/v.cu"]


def test_walking_a_subfolder_still_applies_the_root_gitignore(repo: Path) -> None:
    assert _checked(repo / "src", ".") == ["./a.cu", "./keep.gen.cu", "./vendor/v.cu"]


def test_explicit_paths_are_checked_even_when_ignored(repo: Path) -> None:
    assert _checked(repo, "src/b.gen.cu", "build") == ["build/out.cu", "src/b.gen.cu"]


def test_gitignore_applies_outside_git_at_the_given_root(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "skip/\n", "skip/s.cu": GUARD, "k.cu": GUARD})
    assert _checked(tmp_path, ".") == ["./k.cu"]


def test_exclude_patterns_bare_names_and_anchored_paths(repo: Path) -> None:
    assert _checked(repo, "--exclude", "vendor", ".") == ["./src/a.cu", "./src/keep.gen.cu"]
    assert _checked(repo, "--exclude", "/src/a.cu,keep*", ".") == ["./src/vendor/v.cu"]
    assert _checked(repo, "--exclude", "vendor", "--extend-exclude", "a.cu", ".") == ["./src/keep.gen.cu"]


def test_explicit_paths_ignore_exclusions_unless_forced(repo: Path) -> None:
    assert _checked(repo, "--exclude", "vendor/", "src/vendor/v.cu") == ["src/vendor/v.cu"]
    assert _checked(repo, "--exclude", "vendor/", "--force-exclude", "src/vendor/v.cu", "src/a.cu") == ["src/a.cu"]
    assert _checked(repo, "--exclude", "src", "--force-exclude", "src") == []


def test_symlinks_never_lead_out_of_the_root(tmp_path: Path) -> None:
    outside = _tree(tmp_path / "outside", {"o.cu": GUARD, "deep/d.cu": GUARD})
    root = _tree(tmp_path / "root", {"r.cu": GUARD})
    (root / "linked_dir").symlink_to(outside / "deep", target_is_directory=True)
    (root / "linked_out.cu").symlink_to(outside / "o.cu")
    (root / "linked_in.cu").symlink_to(root / "r.cu")
    (root / "loop").symlink_to(root, target_is_directory=True)
    assert _checked(root, ".") == ["./linked_in.cu", "./r.cu"]


def test_an_unreadable_folder_is_a_note_not_a_crash(tmp_path: Path) -> None:
    _tree(tmp_path, {"ok.cu": GUARD, "locked/hidden.cu": GUARD})
    (tmp_path / "locked").chmod(0)
    try:
        completed = subprocess.run([*console_script(), "check", "--output-format", "json", "."], cwd=tmp_path,
                                   capture_output=True, env={**os.environ, "NO_COLOR": "1"}, timeout=120,
                                   preexec_fn=without_file_permission_override if os.geteuid() == 0 else None,
                                   check=False)
    finally:
        (tmp_path / "locked").chmod(0o755)
    if completed.returncode == 77:
        pytest.skip("cannot drop the file-permission capabilities of root here")
    stderr = completed.stderr.decode()
    assert completed.returncode == 1, stderr
    assert "./locked: warning: cannot read folder: Permission denied; skipped" in stderr
    assert "Traceback" not in stderr
    assert [item["filename"] for item in json.loads(completed.stdout)] == ["./ok.cu"]
