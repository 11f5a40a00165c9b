"""The rule catalogue: complete pages, examples that really trigger their rule, one source for all views."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from hipify_guard.checks import CHECKS
from hipify_guard.cli.rule_docs import rules_table
from hipify_guard.core.package_data import rules_folder
from hipify_guard.engine.catalogue import SECTIONS, Rule, load_catalogue

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RULES = load_catalogue()
SOURCE_LANGUAGES = ("c", "cpp", "c++", "cuda", "cu", "hip", "", "python")
_FENCE = re.compile(r"^```([\w+-]*)\n(.*?)^```", re.M | re.S)


def example_source(rule: Rule) -> str | None:
    """The first source code block of the rule's Example section."""
    found = example_block(rule)
    return found[1] if found else None


def example_block(rule: Rule) -> tuple[str, str] | None:
    """(language, code) of the first source code block of the rule's Example section."""
    for language, body in _FENCE.findall(rule.section("Example")):
        if language.lower() in SOURCE_LANGUAGES:
            return language.lower(), body
    return None


def page_problems(rule: Rule) -> list[str]:
    """What a rule page lacks: empty or missing sections, or an Example without source code."""
    problems = [f"no `## {title}` section" for title in SECTIONS if not rule.section(title)]
    if example_source(rule) is None:
        problems.append("the Example section has no C/C++/CUDA/HIP or Python code block")
    return problems


def example_environment(rule: Rule) -> dict[str, str]:
    """Extra environment the example needs (`example-env` in the page's front matter)."""
    text = (rules_folder() / f"{rule.code}.md").read_text(encoding="utf-8")
    front = text.split("+++\n", 2)[1]
    return tomllib.loads(front).get("example-env", {})


@pytest.mark.parametrize("code", sorted(RULES))
def test_page_has_every_section_and_an_example(code: str) -> None:
    assert page_problems(RULES[code]) == []


def test_a_page_without_a_section_or_example_is_caught() -> None:
    rule = RULES["HG101"]
    gutted = Rule(rule.code, rule.name, rule.summary, rule.severity, rule.fix,
                  rule.documentation.replace("## Options", "## Settings").replace("```c\n", "```console\n"))
    assert page_problems(gutted) == ["no `## Options` section",
                                     "the Example section has no C/C++/CUDA/HIP or Python code block"]


@pytest.mark.parametrize("code", sorted(RULES))
def test_example_produces_its_rule(code: str, tmp_path: Path) -> None:
    rule = RULES[code]
    block = example_block(rule)
    assert block is not None
    name = "example.py" if block[0] == "python" else "example.cu"
    (tmp_path / name).write_text(block[1])
    result = run_cli("check", "--isolated", "--no-cache", "--extend-select", code, "--output-format", "json", name,
                     cwd=tmp_path, env=example_environment(rule))
    assert result.code in (0, 1), result.stderr
    assert code in {item["code"] for item in result.json()}, f"the {code} example does not produce {code}"


def test_catalogue_and_registered_rules_agree() -> None:
    assert sorted(RULES) == sorted(CHECKS)
    for rule in RULES.values():
        assert re.fullmatch(r"HG\d{3}", rule.code) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
        assert rule.severity in ("error", "warning") and rule.fix in ("safe", "unsafe", "display-only", "sometimes", "none")


def test_rule_command_prints_the_page() -> None:
    result = run_cli("rule", "HG104")
    assert result.code == 0
    assert result.stdout.startswith("# version-scale-mismatch (HG104)\n")
    assert all(f"## {title}" in result.stdout for title in SECTIONS)
    assert run_cli("rule", "hg104").stdout == result.stdout == run_cli("rule", "version-scale-mismatch").stdout


def test_rule_all_in_text_and_json() -> None:
    text = run_cli("rule", "--all")
    assert text.code == 0
    assert re.findall(r"^# [a-z0-9-]+ \((HG\d{3})\)$", text.stdout, re.M) == sorted(RULES)
    listed = run_cli("rule", "--all", "--output-format", "json").json()
    assert [item["code"] for item in listed] == sorted(RULES)
    one = run_cli("rule", "HG902", "--output-format", "json").json()
    assert one["name"] == "unused-suppression" and one["fix"] == "safe" and "## Fix safety" in one["explanation"]


@pytest.mark.parametrize("args", [("HG999",), (), ("HG101", "--all")])
def test_rule_command_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    result = run_cli("rule", *args)
    assert result.code == 2 and "Traceback" not in result.stderr


def test_readme_rules_table_is_what_the_catalogue_generates() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert rules_table(RULES) in readme, "outdated README rules table: run python scripts/gen_rules_table.py"


def test_every_rule_module_is_listed_under_its_language() -> None:
    """A run imports the rule modules of its files' languages (`checks.MODULES`): each registered
    rule's module is listed, under the language of its rule."""
    from hipify_guard.checks import MODULES

    listed = {f"hipify_guard.checks.{module}": language for language, modules in MODULES.items() for module in modules}
    assert {code: listed.get(rule.function.__module__) for code, rule in CHECKS.items()} == {
        code: rule.language for code, rule in CHECKS.items()}
