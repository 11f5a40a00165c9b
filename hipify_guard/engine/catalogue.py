"""The rule catalogue: code, name, summary, severity, fix availability and documentation.

It is read from the top-level `rules/` folder (installed as `hipify_guard._rules`): one
`HGxxx.md` page per rule that starts with a TOML front matter block between `+++` lines.
The engine, `hipify-guard rule`, the README table and the SARIF rule metadata all read it.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from ..core.records import record
from ..core.package_data import rules_folder

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options", "References")
_FRONT_MATTER = re.compile(r"\A\+\+\+\n(.*?)\n\+\+\+\n", re.S)
_SECTION = re.compile(r"^## (.+)$", re.M)


@record(slots=True)
class Rule:
    """One rule of the catalogue."""

    code: str
    name: str
    summary: str
    severity: str  # "error" or "warning"
    fix: str  # "safe", "unsafe", "display-only", "sometimes" or "none"
    documentation: str  # the Markdown page without its front matter
    scope: str = "any"  # "rocm": only about code ROCm compiles, so not run on files only CUDA builds
    off_by_default: bool = False  # runs only when selected by its code or a prefix (not by ALL)

    def section(self, title: str) -> str:
        """The text of one `## title` section of the documentation ("" if absent)."""
        parts = _SECTION.split(self.documentation)
        for heading, body in zip(parts[1::2], parts[2::2]):
            if heading.strip() == title:
                return body.strip()
        return ""


@lru_cache(maxsize=1)
def load_catalogue() -> dict[str, Rule]:
    """Every rule of the catalogue, by code, in code order."""
    rules = [_load_rule(page) for page in sorted(rules_folder().glob("HG[0-9][0-9][0-9].md"))]
    return {rule.code: rule for rule in rules}


def _load_rule(page: Path) -> Rule:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    text = page.read_text(encoding="utf-8")
    match = _FRONT_MATTER.match(text)
    if match is None:
        raise ValueError(f"{page}: missing +++ front matter")
    meta = tomllib.loads(match.group(1))
    return Rule(meta["code"], meta["name"], meta["summary"], meta["severity"], meta["fix"], text[match.end():],
                meta.get("scope", "any"), meta.get("off-by-default", False))


def off_by_default() -> frozenset[str]:
    """The codes of the rules that run only when selected by code or prefix."""
    return frozenset(code for code, rule in load_catalogue().items() if rule.off_by_default)
