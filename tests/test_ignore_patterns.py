"""Ignore patterns decided with one match per path: the same decisions as pathspec's GitIgnoreSpec
(the engine discovery used before, one search per pattern), on generated patterns and paths, and
the exclusion lists built on them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pathspec import GitIgnoreSpec
from pathspec.patterns.gitignore.base import GitIgnorePatternError

from hipify_guard.project.discovery import Exclusion
from hipify_guard.walk.ignore_patterns import IgnorePatterns

PIECES = ("a", "b", "ab", "*", "**", "?", "a*", "*a", "*.cu", "[ab]", "[!a]", "[a-b]", "\\*", "x\\ ", "#", "!")
NAMES = ("a", "b", "ab", "ba", "bb", "a.cu", "x.cu", "*", "#", "!", " ")


@st.composite
def patterns(draw: st.DrawFn) -> str:
    """A `.gitignore` line: negated or not, anchored or not, folder-only or not, with `**` and globs."""
    line = "/".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4)))
    return draw(st.sampled_from(("", "!", "/", "!/"))) + line + draw(st.sampled_from(("", "/", " ", "\\")))


@st.composite
def paths(draw: st.DrawFn) -> str:
    """A relative path as discovery asks about it: `/`-separated, a folder's with a final `/`."""
    return "/".join(draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5))) + draw(st.sampled_from(("", "/")))


def _pathspec_decisions(lines: list[str], queries: list[str]) -> list[bool | None]:
    """pathspec's decisions, its unusable lines left out (git discards them; pathspec raises)."""
    usable = []
    for line in lines:
        try:
            GitIgnoreSpec.from_lines([line])
        except (GitIgnorePatternError, re.error):  # a trailing backslash; a reversed range [b-a]
            continue
        usable.append(line)
    spec = GitIgnoreSpec.from_lines(usable)
    return [spec.check_file(path).include for path in queries]


@settings(max_examples=600, deadline=None)
@given(st.lists(patterns(), min_size=1, max_size=8), st.lists(paths(), min_size=1, max_size=20))
def test_one_match_decides_as_pathspec_pattern_by_pattern(lines: list[str], queries: list[str]) -> None:
    ours = IgnorePatterns(lines)
    assert [ours.decide(path) for path in queries] == _pathspec_decisions(lines, queries)


@pytest.mark.parametrize(("lines", "path", "decision"), [
    (["build/"], "build/", True), (["build/"], "build", None), (["build/"], "src/build/", True),
    (["build/"], "src/build/x.cu", True), (["/top.cu"], "top.cu", True), (["/top.cu"], "src/top.cu", None),
    (["docs/**/*.cu"], "docs/d.cu", True), (["docs/**/*.cu"], "docs/a/b/d.cu", True),
    (["*.gen.cu", "!keep.gen.cu"], "src/keep.gen.cu", False), (["*.gen.cu", "!keep.gen.cu"], "x.gen.cu", True),
    (["!keep.gen.cu", "*.gen.cu"], "keep.gen.cu", True),
    # a match through a folder above loses to an earlier pattern that matches the path itself
    (["!keep.cu", "vendor/"], "vendor/keep.cu", False), (["!keep.cu", "vendor/"], "vendor/other.cu", True),
    (["vendor/*", "!vendor/kept/"], "vendor/kept/", False), (["vendor/*", "!vendor/kept/"], "vendor/v.cu", True),
    (["# comment", "", "   "], "x", None),
])
def test_the_edges_of_gitignore_syntax(lines: list[str], path: str, decision: bool | None) -> None:
    assert IgnorePatterns(lines).decide(path) is decision
    assert _pathspec_decisions(lines, [path]) == [decision]


def test_patterns_git_discards_match_nothing_and_the_others_still_decide() -> None:
    ours = IgnorePatterns(["a\\", "[z-a].cu", "*.gen.cu", "[b-a]*"])
    assert ours
    assert ours.decide("x.gen.cu") is True
    assert ours.decide("a") is None and ours.decide("z.cu") is None and ours.decide("b") is None
    assert not IgnorePatterns(["a\\", "[z-a]", "# only these"])


def test_an_exclusion_follows_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "one" / "src").mkdir(parents=True)
    (tmp_path / "two" / "src").mkdir(parents=True)
    exclusion = Exclusion(["/one/src/"], base=str(tmp_path))
    monkeypatch.chdir(tmp_path / "one")
    assert exclusion("src", True) and exclusion("src/x.cu", False)
    monkeypatch.chdir(tmp_path / "two")  # the same relative names are other folders now
    assert not exclusion("src", True) and not exclusion("src/x.cu", False)
    monkeypatch.chdir(tmp_path)
    assert exclusion("one/src/deep/x.cu", False) and exclusion(str(tmp_path / "one" / "src" / "y.cu"), False)
    assert not exclusion(".", True) and not exclusion("..", True) and not exclusion("one/..", True)
    assert exclusion("one/src/", True) and exclusion("one/src/.", True) and exclusion("two/../one/src/z.cu", False)


def test_an_exclusion_never_matches_outside_its_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base").mkdir()
    monkeypatch.chdir(tmp_path / "base")
    exclusion = Exclusion(["*.cu", "out/"], base=os.curdir)
    assert exclusion("a.cu", False) and exclusion("./deep/a.cu", False) and exclusion("out", True)
    assert not exclusion("../a.cu", False) and not exclusion(str(tmp_path / "a.cu"), False)
    assert not exclusion("../base", True) and exclusion("../base/b.cu", False)


def _exclusion_as_before(spec: GitIgnoreSpec, base: str, path: str, is_dir: bool) -> bool:
    """How an exclusion decided before folders shared their prefix: from each path's own relpath."""
    relative = os.path.relpath(os.path.abspath(path), base)
    if relative == os.curdir or relative.split(os.sep, 1)[0] == os.pardir:
        return False
    return bool(spec.check_file(Path(relative).as_posix() + ("/" if is_dir else "")).include)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(("a", "b", "x.cu", ".", "..", "")), min_size=1, max_size=5),
                          st.booleans()), min_size=1, max_size=30))
def test_an_exclusion_decides_each_path_as_from_its_own_relpath(queries: list[tuple[list[str], bool]]) -> None:
    lines = ["a/", "/b/x.cu", "*.cu", "!a/x.cu", "b/**/a"]
    spec, here = GitIgnoreSpec.from_lines(lines), os.getcwd()
    for base in (here, os.path.join(here, "a")):
        exclusion = Exclusion(lines, base)
        for parts, is_dir in queries:
            path = "/".join(parts)
            for written in (path, os.path.join(here, path)):
                assert exclusion(written, is_dir) == _exclusion_as_before(spec, base, written, is_dir), written
