"""SARIF output: valid SARIF 2.1.0, and everything GitHub code scanning requires (conventions §5)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT, run_cli

SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture
def repo(examples_repo: Path) -> Path:
    """A git work tree holding a copy of examples/ (so the root of repo-relative URIs is known)."""
    return examples_repo


def _sarif(*args: str, cwd: Path) -> dict:
    result = run_cli("check", "--output-format", "sarif", *args, cwd=cwd)
    assert result.code == 1, result.stderr
    return result.json()


def test_sarif_of_examples_is_valid_against_the_schema(repo: Path) -> None:
    log = _sarif("examples", cwd=repo)
    errors = sorted(jsonschema.Draft4Validator(SCHEMA).iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    assert log["runs"][0]["results"], "examples/ should produce findings"


def test_sarif_of_examples_has_every_field_github_requires(repo: Path) -> None:
    log = _sarif("examples", cwd=repo)
    assert log["$schema"].startswith("https://") and log["version"] == "2.1.0"
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["name"] == "hipify-guard"
    for rule in rules:
        assert rule["id"].startswith("HG")
        for key in ("shortDescription", "fullDescription"):
            assert rule[key]["text"].strip(), (rule["id"], key)
        assert rule["help"]["text"].strip() and rule["help"]["markdown"].strip(), rule["id"]
    ids = [rule["id"] for rule in rules]
    fixes = 0
    for result in run["results"]:
        assert result["ruleId"] in ids and ids[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"].strip()
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        assert not uri.startswith(("/", "file:")) and (repo / uri).is_file(), uri
        region = location["region"]
        assert all(isinstance(region[key], int) and region[key] >= 1
                   for key in ("startLine", "startColumn", "endLine", "endColumn"))
        assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
        assert result["partialFingerprints"] and all(result["partialFingerprints"].values())
        for fix in result.get("fixes", []):
            fixes += 1
            assert fix["description"]["text"]
            for change in fix["artifactChanges"]:
                assert change["artifactLocation"]["uri"] == uri
                for replacement in change["replacements"]:
                    assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(replacement["deletedRegion"])
                    assert "text" in replacement["insertedContent"]
    assert fixes >= 1


def test_rule_metadata_comes_from_the_catalogue(repo: Path) -> None:
    from hipify_guard.engine.catalogue import load_catalogue

    catalogue = load_catalogue()
    rules = {rule["id"]: rule for rule in _sarif("examples", cwd=repo)["runs"][0]["tool"]["driver"]["rules"]}
    assert set(catalogue) <= set(rules)
    for code, page in catalogue.items():
        assert rules[code]["name"] == page.name
        assert rules[code]["shortDescription"]["text"] == page.summary
        assert "## What it does" in rules[code]["help"]["markdown"]


def test_uris_are_relative_to_the_work_tree_root_from_a_subfolder(repo: Path) -> None:
    log = _sarif("csrc", cwd=repo / "examples")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris and all(uri.startswith("examples/csrc/") for uri in uris), uris
    base = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")


def test_fingerprints_do_not_change_when_lines_move(repo: Path) -> None:
    def prints() -> list[tuple[str, str]]:
        results = _sarif("examples", cwd=repo)["runs"][0]["results"]
        return sorted((r["ruleId"], *r["partialFingerprints"].values()) for r in results)

    before = prints()
    source = repo / "examples" / "csrc" / "attention_kernel.cu"
    source.write_bytes(b"// a new first line\n\n" + source.read_bytes())
    assert prints() == before


def test_fixes_replay_to_the_fixed_file(repo: Path) -> None:
    """Applying the SARIF replacements gives exactly what `--fix` writes."""
    source = repo / "examples" / "csrc" / "attention_kernel.cu"
    log = _sarif(str(source.relative_to(repo)), cwd=repo)
    lines = source.read_text(encoding="utf-8").split("\n")
    replacements = [r for result in log["runs"][0]["results"] for fix in result.get("fixes", [])
                    for change in fix["artifactChanges"] for r in change["replacements"]]
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    text = "\n".join(lines)
    for replacement in sorted(replacements, key=lambda r: (r["deletedRegion"]["startLine"],
                                                           r["deletedRegion"]["startColumn"]), reverse=True):
        region = replacement["deletedRegion"]
        start = offsets[region["startLine"] - 1] + region["startColumn"] - 1
        end = offsets[region["endLine"] - 1] + region["endColumn"] - 1
        text = text[:start] + replacement["insertedContent"]["text"] + text[end:]
    assert run_cli("check", "--fix", str(source), cwd=repo).code == 0
    assert text == source.read_text(encoding="utf-8")


def test_a_clean_run_is_valid_sarif_with_no_results(tmp_path: Path) -> None:
    (tmp_path / "ok.cu").write_text("int x;\n")
    result = run_cli("check", "--output-format", "sarif", "ok.cu", cwd=tmp_path)
    assert result.code == 0
    log = result.json()
    assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
    assert log["runs"][0]["results"] == [] and log["runs"][0]["invocations"][0]["executionSuccessful"] is True
