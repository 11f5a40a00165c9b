#!/usr/bin/env python3
"""Measure what HG203/HG204 add to the prefilter, and the mapped-API-name alternative.

Usage: python scripts/api_prefilter_cost.py DIR...

The files of DIR are read into memory once; then, best of 5 runs each, it times the prefilter
of all rules without HG203/HG204, with them (their triggers are the guard macro names), and a
prefilter on the ~12,000 mapped CUDA/HIP API names (one regex over the names' leading bytes
plus a set lookup) for comparison. For each it prints the time and how many files pass.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hipify_guard.checks import CHECKS  # noqa: E402
from hipify_guard.core.prefilter import Prefilter  # noqa: E402
from hipify_guard.engine.lint import trigger_names  # noqa: E402
from hipify_guard.model.mapping import load_table  # noqa: E402
from hipify_guard.model.settings import Settings  # noqa: E402
from hipify_guard.project.discovery import DEFAULT_EXTENSIONS  # noqa: E402

RUNS = 5


def api_name_test() -> Callable[[bytes], bool]:
    """Does the data hold a mapped API name as a whole identifier? (regex on 3-byte heads + set)."""
    names = load_table().api_facts
    heads = sorted({name[:3] for name in names}, key=len, reverse=True)
    pattern = re.compile(rb"\b(?:" + b"|".join(map(re.escape, heads)) + rb")\w*")
    return lambda data: any(match.group() in names for match in pattern.finditer(data))


def best(test: Callable[[bytes], bool], datas: list[bytes]) -> tuple[float, int]:
    """Best-of-RUNS seconds for testing every file, and how many pass."""
    times, passed = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        passed = sum(map(test, datas))
        times.append(time.perf_counter() - start)
    return min(times), passed


def main(folders: list[str]) -> None:
    paths = [p for folder in folders for p in Path(folder).rglob("*") if p.is_file() and p.suffix[1:] in DEFAULT_EXTENSIONS]
    datas = [p.read_bytes() for p in paths]
    settings = Settings()
    every = sorted(CHECKS)
    without = [code for code in every if code not in ("HG203", "HG204")]
    print(f"{len(datas)} files, {sum(map(len, datas)) / 1e6:.1f} MB")
    start = time.perf_counter()
    api_test = api_name_test()
    print(f"building the API-name test: {(time.perf_counter() - start) * 1000:.0f} ms (table load included)")
    for label, test in (
        ("all rules except HG203/HG204", Prefilter(trigger_names(settings, without))),
        ("all rules (HG203/HG204: guard macro names)", Prefilter(trigger_names(settings, every))),
        ("HG203/HG204 alone", Prefilter(trigger_names(settings, ["HG203", "HG204"]))),
        ("mapped API names (alternative, not used)", api_test),
    ):
        seconds, passed = best(test, datas)
        print(f"{label:45} {seconds * 1000:7.1f} ms  {passed:5} files pass")


if __name__ == "__main__":
    main(sys.argv[1:])
