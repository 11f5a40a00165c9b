"""The rule catalogue rendered for people: `hipify-guard rule` pages, their JSON, the README table."""

from __future__ import annotations

from typing import Any

from ..engine.catalogue import Rule

FIX_TEXT = {
    "safe": "safe (applied by --fix)",
    "unsafe": "unsafe (applied with --fix --unsafe-fixes)",
    "display-only": "display-only (shown as a suggestion, never applied)",
    "sometimes": "sometimes available (see Fix safety)",
    "none": "none",
}
TABLE_START = "<!-- rules-table: generated from rules/*.md by scripts/gen_rules_table.py; do not edit -->"
TABLE_END = "<!-- end of rules-table -->"


def page(rule: Rule) -> str:
    """The text page of `hipify-guard rule CODE` (ruff's layout: title, summary, facts, documentation)."""
    head = (f"# {rule.name} ({rule.code})\n\n{rule.summary}.\n\nSeverity: {rule.severity}. Fix: {FIX_TEXT[rule.fix]}."
            f"{' Off by default: select it by code or prefix.' if rule.off_by_default else ''}\n\n")
    return head + rule.documentation.strip() + "\n"


def as_json(rule: Rule) -> dict[str, Any]:
    """One rule as `rule --output-format json` prints it."""
    return {"code": rule.code, "name": rule.name, "summary": rule.summary, "severity": rule.severity,
            "fix": rule.fix, "explanation": rule.documentation.strip() + "\n"}


def rules_table(rules: dict[str, Rule]) -> str:
    """The README's Markdown table of every rule, between its markers."""
    rows = [TABLE_START, "| code | name | fix | summary |", "|---|---|---|---|"]
    rows += [f"| {r.code} | {r.name} | {r.fix} | {r.summary.replace('|', chr(92) + '|')}{_off(r)} |"
             for r in rules.values()]
    return "\n".join([*rows, TABLE_END]) + "\n"


def _off(rule: Rule) -> str:
    return " (off by default: select it by code or prefix)" if rule.off_by_default else ""


def replace_table(readme: str, table: str) -> str:
    """`readme` with the text between the markers (markers included) replaced by `table`."""
    start = readme.index(TABLE_START)
    end = readme.index(TABLE_END, start) + len(TABLE_END) + 1
    return readme[:start] + table + readme[end:]
