"""The layout: one folder per stage, imports one way down the data path (import-linter), the
README's Architecture section true to the folders, and every folder packaged."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hipify_guard"


def _stage_folders() -> set[str]:
    """Every subpackage of hipify_guard, as a dotted path below it (`cli.formatters`)."""
    return {str(init.parent.relative_to(PACKAGE)).replace("/", ".") for init in PACKAGE.rglob("__init__.py")
            if init.parent != PACKAGE and "__pycache__" not in init.parts}


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert command, "import-linter is a test dependency: pip install '.[test]'"
    return subprocess.run([command, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(cwd)})


def test_the_layer_contracts_are_kept() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 5 kept, 0 broken." in result.stdout


def _planted(tmp_path: Path, module: str, line: str) -> subprocess.CompletedProcess[str]:
    """lint-imports on a copy of the package with `line` added to `module` (a path below it)."""
    shutil.copytree(PACKAGE, tmp_path / "hipify_guard", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / "hipify_guard" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    return _lint_imports(tmp_path)


def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    """The front end must not know about the engine: one planted import fails the contract."""
    result = _planted(tmp_path, "cpp/scanner.py", "from ..engine import lint  # planted")
    assert result.returncode == 1, result.stdout
    assert "hipify_guard.cpp is not allowed to import hipify_guard.engine" in result.stdout
    assert "BROKEN" in result.stdout


def test_click_outside_the_command_line_breaks_a_contract(tmp_path: Path) -> None:
    result = _planted(tmp_path, "model/settings.py", "import click  # planted")
    assert result.returncode == 1, result.stdout
    assert "hipify_guard.model is not allowed to import click" in result.stdout


def test_the_server_uses_the_public_api_only(tmp_path: Path) -> None:
    result = _planted(tmp_path, "server/hover.py", "from ..project import config  # planted")
    assert result.returncode == 1, result.stdout
    assert "hipify_guard.server is not allowed to import hipify_guard.project" in result.stdout


def test_every_folder_is_a_layer_and_is_packaged() -> None:
    """A new folder must take its place in the layers and in the wheel (pyproject.toml)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packaged = {name.removeprefix("hipify_guard.") for name in pyproject["tool"]["setuptools"]["packages"]}
    assert _stage_folders() | {"hipify_guard", "_rules"} == packaged
    contract = next(c for c in pyproject["tool"]["importlinter"]["contracts"] if c["id"] == "layers")
    layered = {name.strip() for layer in contract["layers"] for name in re.split(r"[|:]", layer.strip("()"))}
    top_level = {folder for folder in _stage_folders() if "." not in folder}
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__", *contract["exhaustive_ignores"]}
    assert top_level | modules == layered


def test_the_readme_architecture_names_every_folder_and_only_those() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Architecture\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^- `hipify_guard/([a-z_/]+)/`", section, re.M))
    assert named == {folder.replace(".", "/") for folder in _stage_folders()}
    assert "```mermaid" in section


@pytest.mark.parametrize("folder", sorted(_stage_folders()))
def test_every_folder_says_what_it_owns(folder: str) -> None:
    init = PACKAGE / folder.replace(".", "/") / "__init__.py"
    text = init.read_text(encoding="utf-8")
    assert text.startswith('"""') and len(text.split('"""')[1].split()) >= 8, f"{init}: say what it owns"
