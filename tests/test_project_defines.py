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
