"""Where the package's data lives: the rule pages and tables of the top-level `rules/` folder."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

_PAGE = re.compile(r"HG[0-9]{3}\.md")


@lru_cache(maxsize=1)
def rules_folder() -> Path:
    """The installed package data (`hipify_guard._rules`), or `rules/` of a source checkout."""
    try:
        from .. import _rules  # (its folder, not importlib.resources: that import costs 20 ms)

        path = Path(_rules.__file__).parent
        if path.is_dir():
            return path
    except ImportError:
        pass
    return Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=1)
def rule_codes() -> tuple[str, ...]:
    """Every rule's code, from the names of the rule pages (one `HGxxx.md` per registered rule):
    what a suppression comment may name, known without importing any rule."""
    return tuple(sorted(entry.name[:-3] for entry in os.scandir(rules_folder()) if _PAGE.fullmatch(entry.name)))
