"""Rule fixtures: `tests/rules/<CODE>/<name>.<ext>` with expected findings marked in comments.

A line that ends with `expect: HG101` (in a `//` or `/* */` comment, `#` in Python fixtures;
several codes separated by commas) must produce exactly those findings on that line, and no other line may produce any
finding of the fixture folder's rule. `<name>.fixed.<ext>` is the expected result of `--fix`
with the default policy; `<name>.<policy>.fixed.<ext>` the result of `--fix --unsafe-fixes
--policy <policy>` (in the file name, `rocm-min-6.2` stands for `rocm-min=6.2`), and
`<name>.unsafe.fixed.<ext>` the result of `--fix --unsafe-fixes`.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

FIXTURES = ROOT / "tests" / "rules"
_EXPECT = re.compile(rb"expect:\s*(HG\d{3}(?:\s*,\s*HG\d{3})*)")


def _sources() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("HG*/*") if p.is_file() and ".fixed." not in p.name)


def _expected(path: Path, code: str) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            found += [(number, c.strip()) for c in match.group(1).decode().split(",") if c.strip() == code]
    return sorted(found)


def _fixed_variants(source: Path) -> list[tuple[Path, list[str]]]:
    variants = []
    for fixed in sorted(source.parent.glob(f"{source.stem}.*fixed{source.suffix}")):
        middle = fixed.name[len(source.stem) + 1 : -len(".fixed" + source.suffix)]
        if not middle:
            variants.append((fixed, []))
        elif middle == "unsafe":
            variants.append((fixed, ["--unsafe-fixes"]))
        else:
            policy = re.sub(r"^rocm-min-", "rocm-min=", middle)
            variants.append((fixed, ["--unsafe-fixes", "--policy", policy]))
    return variants


# Rules that read what the other checked files define (HG107: a name defined in the project is no
# misspelling): their fixtures are checked one by one.
_RUN_ALONE = frozenset({"HG107"})


@functools.lru_cache(maxsize=None)
def _checked(code: str, alone: str = "") -> dict[str, list[tuple[int, str]]]:
    """The findings of one run of the CLI over all the fixtures of a rule (or the one fixture
    `alone`), by file: each file is judged on its own, and one run saves a start-up per fixture."""
    sources = [alone] if alone else [str(path) for path in _sources() if path.parent.name == code]
    result = run_cli("check", "--select", code, "--output-format", "json", *sources)
    assert result.code in (0, 1), result.stderr
    found: dict[str, list[tuple[int, str]]] = {path: [] for path in sources}
    for item in result.json():
        found[str(Path(item["filename"]).resolve())].append((item["location"]["row"], item["code"]))
    return {path: sorted(items) for path, items in found.items()}


@pytest.mark.parametrize("source", _sources(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_findings_match_markers(source: Path) -> None:
    code = source.parent.name
    alone = str(source) if code in _RUN_ALONE else ""
    assert _checked(code, alone)[str(source)] == _expected(source, code)


@pytest.mark.parametrize(
    ("source", "fixed", "extra"),
    [(s, f, e) for s in _sources() for f, e in _fixed_variants(s)],
    ids=lambda v: v.name if isinstance(v, Path) else " ".join(v),
)
def test_fix_matches_expected_file(source: Path, fixed: Path, extra: list[str], tmp_path: Path) -> None:
    code = source.parent.name
    target = tmp_path / source.name
    shutil.copyfile(source, target)
    first = run_cli("check", "--select", code, "--fix", *extra, str(target))
    assert first.code in (0, 1), first.stderr
    assert target.read_bytes() == fixed.read_bytes()
    again = run_cli("check", "--select", code, "--fix", *extra, "--output-format", "json", str(target))
    assert target.read_bytes() == fixed.read_bytes(), "fixing twice must equal fixing once"
    assert not [d for d in again.json() if d["fix"] and d["fix"]["applicability"] == "safe"]


def test_every_rule_has_fixtures() -> None:
    from hipify_guard.checks import CHECKS

    missing = [code for code in CHECKS if not any((FIXTURES / code).glob("*"))]
    assert not missing, f"rules without fixtures: {missing}"
