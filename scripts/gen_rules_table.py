"""Regenerate the README's rules table from the rule catalogue (rules/*.md).

Usage: python scripts/gen_rules_table.py [--check]
With --check, exit 1 instead of writing when the README is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hipify_guard.cli.rule_docs import replace_table, rules_table
from hipify_guard.engine.catalogue import load_catalogue

README = Path(__file__).resolve().parent.parent / "README.md"


def main(argv: list[str]) -> int:
    current = README.read_text(encoding="utf-8")
    updated = replace_table(current, rules_table(load_catalogue()))
    if updated == current:
        return 0
    if "--check" in argv:
        print(f"{README} has an outdated rules table: run python scripts/gen_rules_table.py", file=sys.stderr)
        return 1
    README.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
