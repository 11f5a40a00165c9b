"""Rule selection: prefixes, longest prefix wins (flake8/ruff), ALL, extend-select, per-file-ignores."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_guard.engine.selection import Selection, validate
from hipify_guard.project.workspace import Project

CODES = ("HG101", "HG102", "HG103", "HG104", "HG201", "HG901", "HG902")


@pytest.mark.parametrize(("select", "ignore", "extend", "expected"), [
    (("ALL",), (), (), CODES),
    (("HG1",), (), (), ("HG101", "HG102", "HG103", "HG104")),
    (("HG1",), ("HG10",), (), ()),
    (("HG1",), ("HG101",), (), ("HG102", "HG103", "HG104")),
    (("HG101",), ("HG1",), (), ("HG101",)),  # the longer select prefix wins
    (("ALL",), ("HG",), (), ()),  # any prefix is longer than ALL
    (("HG",), ("ALL",), (), CODES),
    (("HG1",), ("HG1",), (), ()),  # a tie goes to ignore
    (("HG9",), (), ("HG101",), ("HG101", "HG901", "HG902")),
    (("HG9",), ("HG101",), ("HG1",), ("HG102", "HG103", "HG104", "HG901", "HG902")),
    ((), (), (), ()),
])
def test_longest_prefix_wins(select, ignore, extend, expected) -> None:
    assert tuple(Selection(select, ignore, extend).codes(CODES)) == expected


def test_validate_names_prefixes_that_match_nothing() -> None:
    assert validate(["ALL", "HG", "HG1", "HG104", "HG3", "HG1041", "X"], CODES) == ["HG3", "HG1041", "X"]


def test_per_file_ignores_remove_codes_for_matching_files(tmp_path: Path) -> None:
    (tmp_path / ".hipify-guard.toml").write_text(
        'select = ["HG1", "HG9"]\n[per-file-ignores]\n"tests/**" = ["HG1"]\n"*.cuh" = ["ALL"]\n"a.cu" = ["HG104"]\n')
    project = Project(CODES)
    def codes(name: str) -> tuple[str, ...]:
        path = str(tmp_path / name)
        return project.codes(path, project.options(path))
    assert codes("a.cu") == ("HG101", "HG102", "HG103", "HG901", "HG902")
    assert codes("tests/b.cu") == ("HG901", "HG902")
    assert codes("sub/c.cuh") == ()
    assert codes("sub/a.cu") == ("HG101", "HG102", "HG103", "HG901", "HG902"), "a bare name matches anywhere"
