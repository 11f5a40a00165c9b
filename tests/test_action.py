"""The GitHub Action (`action.yml`) and the README's workflows: valid against the published
schemas (check-jsonschema's vendored copies, no network), and the action's own steps run here
as the runner runs them (bash, its env, `$GITHUB_OUTPUT`), with this environment's hipify-guard
in place of the install step, which a slow test runs for real."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]
_EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")
FINDING = "#if CUDA_VERSION >= 11000\nfast();\n#endif\n"


def _check_jsonschema(schema: str, *files: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    command = command or shutil.which("check-jsonschema")
    assert command, "check-jsonschema is a test dependency: pip install '.[test]'"
    return subprocess.run([command, "--builtin-schema", schema, *map(str, files)], capture_output=True, text=True,
                          timeout=300)


def test_the_action_is_valid() -> None:
    result = _check_jsonschema("vendor.github-actions", ROOT / "action.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert ACTION["runs"]["using"] == "composite"


def test_the_schema_check_can_fail(tmp_path: Path) -> None:
    broken = {**ACTION, "runs": {"using": "composite", "steps": [{"run": "echo no shell"}]}}
    (tmp_path / "action.yml").write_text(yaml.safe_dump(broken))
    result = _check_jsonschema("vendor.github-actions", tmp_path / "action.yml")
    assert result.returncode == 1 and "shell" in result.stdout


def _readme_workflows() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block for block in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "\njobs:" in block]


def test_the_readme_workflows_are_valid(tmp_path: Path) -> None:
    workflows = _readme_workflows()
    assert len(workflows) >= 2
    for number, workflow in enumerate(workflows):
        (tmp_path / f"w{number}.yml").write_text(workflow)
    result = _check_jsonschema("vendor.github-workflows", *sorted(tmp_path.glob("w*.yml")))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_readme_uses_only_inputs_the_action_has() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    uses = [step for block in re.findall(r"```yaml\n(.*?)```", readme, re.S)
            for step in _steps(yaml.safe_load(block)) if "/hipify-guard@" in step.get("uses", "")]
    assert len(uses) >= 2
    for step in uses:
        assert set(step.get("with", {})) <= set(ACTION["inputs"]), step


def _steps(document: object) -> list[dict]:
    if isinstance(document, list):
        return [step for item in document for step in _steps(item)]
    if isinstance(document, dict):
        return ([document] if "uses" in document else []) + [s for value in document.values() for s in _steps(value)]
    return []


def _run_steps(workspace: Path, given: dict[str, str],
               skip: tuple[str, ...] = ("Install",)) -> list[tuple[str, int, str]]:
    """Run the action's `run` steps in order as the runner would; (name, status, output) of each."""
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()} | given
    output_file, path_file = workspace.parent / "github-output", workspace.parent / "github-path"
    outputs: dict[str, str] = {}
    results = []

    def value(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            scope, _, name = match.group(1).partition(".")
            if scope == "inputs":
                return str(inputs[name])
            if scope == "github" and name == "action_path":
                return str(ROOT)
            assert scope == "steps" and name == "check.outputs.exit-code", match.group()
            return outputs.get("exit-code", "")
        return _EXPRESSION.sub(one, str(text))

    for step in STEPS:
        if "run" not in step or step["name"].startswith(skip):
            continue
        env = {**os.environ, "GITHUB_OUTPUT": str(output_file), "GITHUB_PATH": str(path_file),
               "RUNNER_TEMP": str(workspace.parent),
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               "NO_COLOR": "1", **{key: value(text) for key, text in step.get("env", {}).items()}}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", value(step["run"])],
                              cwd=workspace, env=env, capture_output=True, text=True, timeout=300)
        results.append((step["name"], done.returncode, done.stdout + done.stderr))
        if output_file.exists():
            outputs.update(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
    return results


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    (folder / "src dir").mkdir(parents=True)
    (folder / "src dir" / "kernel.cu").write_text(FINDING)
    (folder / "clean.cu").write_text("int clean;\n")
    return folder


def test_findings_annotate_and_fail_the_job(workspace: Path) -> None:
    (check_name, check_status, log), (fail_name, fail_status, _) = _run_steps(workspace, {})
    assert check_status == 0 and fail_status == 1  # the check step records; the last one fails as check does
    assert "::error file=src dir/kernel.cu,line=1,col=1" in log and "title=HG101" in log


def test_arguments_are_split_as_a_shell_splits_them(workspace: Path) -> None:
    results = _run_steps(workspace, {"args": "--isolated clean.cu 'src dir/kernel.cu' --select HG102"})
    assert [status for _, status, _ in results] == [0, 0]
    assert _run_steps(workspace, {"args": "clean.cu", "output-format": "concise"})[1][1] == 0


def test_sarif_is_written_for_code_scanning(workspace: Path) -> None:
    (workspace / "out").mkdir()
    results = _run_steps(workspace, {"sarif": "true", "sarif-file": "out/guards.sarif", "args": "--isolated ."})
    assert "::error file=src dir/kernel.cu" in results[0][2]  # the log has the findings too
    assert results[1][1] == 1
    sarif = json.loads((workspace / "out" / "guards.sarif").read_text())
    [result] = sarif["runs"][0]["results"]
    assert result["ruleId"] == "HG101"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src%20dir/kernel.cu"


def test_a_usage_error_fails_with_status_two(workspace: Path) -> None:
    assert _run_steps(workspace, {"args": "--no-such-option"})[1][1] == 2
    (workspace / "pyproject.toml").write_text("[tool.hipify-guard]\nselekt = ['HG1']\n")
    results = _run_steps(workspace, {})
    assert results[1][1] == 2 and "selekt" in results[0][2]


@pytest.mark.slow
def test_the_install_step_installs_from_the_actions_checkout(tmp_path: Path) -> None:
    """The first step, for real: a venv in RUNNER_TEMP and pip install of the action's folder
    (a copy of the tracked files, as the runner checks the action out)."""
    checkout = tmp_path / "action"
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
    install = next(step for step in STEPS if step["name"].startswith("Install"))
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    env = {**os.environ, "RUNNER_TEMP": str(temp), "GITHUB_PATH": str(tmp_path / "github-path"),
           "HG_PYTHON": sys.executable, "HG_SOURCE": str(checkout)}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", install["run"]], env=env,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    added = (tmp_path / "github-path").read_text().strip()
    version = subprocess.run([str(Path(added) / "hipify-guard"), "--version"], capture_output=True, text=True,
                             timeout=120)
    assert version.returncode == 0 and "hipify-guard" in version.stdout
