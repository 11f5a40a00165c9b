"""HG107 over a tree: a near miss that some checked file #defines is no misspelling."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

USE = "#if defined(__CUDA__ARCH__)\n#endif\n"


def _rows(root: Path, *paths: str) -> list[tuple[str, str]]:
    result = run_cli("check", "--no-cache", "--select", "HG107", "--output-format", "json", *paths, cwd=root)
    assert result.code in (0, 1), result.stderr
    return sorted((Path(d["filename"]).as_posix(), d["code"]) for d in result.json())


def test_a_define_anywhere_in_the_checked_tree_counts(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.cu").write_text(USE)
    (tmp_path / "include").mkdir()
    (tmp_path / "include/compat.h").write_text("#define __CUDA__ARCH__ __CUDA_ARCH__\n")
    assert _rows(tmp_path) == []
    assert _rows(tmp_path, "src") == [("src/a.cu", "HG107")], "only the checked files are the tree"


def test_a_define_in_a_comment_or_string_does_not_count(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(USE)
    (tmp_path / "b.h").write_text('/*\n#define __CUDA__ARCH__ 1\n*/\nconst char *s = "#define __CUDA__ARCH__";\n')
    assert _rows(tmp_path) == [("a.cu", "HG107")]


def _cached_rows(root: Path, cache: Path, *args: str) -> list[tuple[str, str]]:
    result = run_cli("check", "--select", "HG107,HG902", "--output-format", "json", *args, cwd=root,
                     env={"HIPIFY_GUARD_CACHE_DIR": str(cache)})
    assert result.code in (0, 1), result.stderr
    return sorted((Path(d["filename"]).as_posix(), d["code"]) for d in result.json())


def test_cached_results_follow_defines_added_and_removed_elsewhere(tmp_path: Path) -> None:
    """A file's cached result does not depend on other files: adding or removing a define
    elsewhere changes the finding, in cold and warm runs alike."""
    cache = tmp_path / "cache"
    root = tmp_path / "tree"
    root.mkdir()
    (root / "a.cu").write_text(USE)
    (root / "b.h").write_text("#define OTHER 1\n")
    for _ in range(2):
        assert _cached_rows(root, cache) == [("a.cu", "HG107")]
    (root / "b.h").write_text("#define __CUDA__ARCH__ 1\n")
    for _ in range(2):
        assert _cached_rows(root, cache) == []
        assert _cached_rows(root, cache, "-j2") == []
    (root / "b.h").write_text("#define OTHER 1\n")
    assert _cached_rows(root, cache) == [("a.cu", "HG107")]


SUPPRESSED = "#if defined(__CUDA__ARCH__) // hipify-guard: ignore[HG107]\n#endif\n"


def test_a_suppression_of_a_finding_that_a_define_elsewhere_removes_is_unused(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(SUPPRESSED)
    assert _cached_rows(tmp_path, tmp_path / "cache") == []
    (tmp_path / "b.h").write_text("#define __CUDA__ARCH__ 1\n")
    assert _cached_rows(tmp_path, tmp_path / "cache") == [("a.cu", "HG902")]
    assert _cached_rows(tmp_path, tmp_path / "cache") == [("a.cu", "HG902")], "warm"


def test_fix_and_diff_know_the_defines_of_the_whole_run(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(SUPPRESSED)
    (tmp_path / "b.h").write_text("#define __CUDA__ARCH__ 1\n")
    diff = run_cli("check", "--no-cache", "--select", "HG107,HG902", "--diff", ".", cwd=tmp_path)
    assert diff.code == 1 and "-#if defined(__CUDA__ARCH__) // hipify-guard: ignore[HG107]" in diff.stdout
    fixed = run_cli("check", "--no-cache", "--select", "HG107,HG902", "--fix", ".", cwd=tmp_path)
    assert fixed.code == 0, fixed.stdout + fixed.stderr
    assert (tmp_path / "a.cu").read_text() == "#if defined(__CUDA__ARCH__)\n#endif\n"


def test_standard_input_is_a_tree_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "b.h").write_text("#define __CUDA__ARCH__ 1\n")
    result = run_cli("check", "--select", "HG107", "--output-format", "json", "-", "--stdin-filename", "a.cu",
                     cwd=tmp_path, stdin=USE.encode())
    assert result.code == 1 and [d["code"] for d in result.json()] == ["HG107"]
    defined = run_cli("check", "--select", "HG107", "-", "--stdin-filename", "a.cu", cwd=tmp_path,
                      stdin=("#define __CUDA__ARCH__ 1\n" + USE).encode())
    assert defined.code == 0, defined.stdout


def test_a_baseline_is_written_and_read_after_the_defines_are_settled(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(USE)
    (tmp_path / "b.h").write_text("#define __CUDA__ARCH__ 1\n")
    written = run_cli("check", "--no-cache", "--select", "HG107", "--write-baseline", "base.json", ".", cwd=tmp_path)
    assert written.code == 0 and "Wrote 0 findings" in written.stderr
    (tmp_path / "b.h").unlink()
    assert run_cli("check", "--no-cache", "--select", "HG107", "--baseline", "base.json", ".", cwd=tmp_path).code == 1
