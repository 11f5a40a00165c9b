"""Where the package's data lives: the rule pages and tables of the top-level `rules/` folder."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


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
