#!/usr/bin/env python3
"""Where the CPU time of a cold `check -j1` goes, per rule and per shared analysis step (not a test).

Usage: python bench/rule_time.py [--select CODES] PATH...

Runs `hipify-guard check -j1 --no-cache` in this process, with each rule and each step below
wrapped by a `time.process_time` timer (no profiler: the numbers stay near a plain run's). A
step's time excludes the wrapped steps it calls. A shared step (group tree, condition parse,
reachability table, libclang parse) is charged to the rule that first asks for it on a file,
which tells what a rule would cost alone and what computing a step once per file would save.
Steps are found by name; one that a refactoring renamed is listed as not measured.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CLOCK = time.process_time
# (module, attribute path, label, charged to the first asking rule)
STEPS = (
    ("hipify_guard.model.analysis", "FileAnalysis.scan", "directives (scanner)", True),
    ("hipify_guard.model.analysis", "FileAnalysis.tree", "group tree", True),
    ("hipify_guard.model.analysis", "FileAnalysis._parse", "condition parse", True),
    ("hipify_guard.model.analysis", "reachable_arms", "reachability table (file, platform)", True),
    ("hipify_guard.model.analysis", "outcome", "outcome (arm, platform)", True),
    ("hipify_guard.cpp.clang_front", "Parsed.__init__", "libclang parse", True),
    ("hipify_guard.checks.guard_outcome", "rocm_fate", "rocm_fate (HG101-HG103, per arm)", False),
    ("hipify_guard.model.branch_apis", "BranchApis.guarded", "BranchApis.guarded (HG203/HG204)", False),
    ("hipify_guard.model.branch_apis", "BranchApis.uses", "BranchApis.uses: branch tokens (HG203/HG204)", False),
    ("hipify_guard.model.branch_apis", "BranchApis.rocm_from", "BranchApis.rocm_from: release sweep (HG203/HG204)",
     False),
    ("hipify_guard.project.runner", "near_miss_defines", "every file: near_miss_defines (HG107)", False),
    ("hipify_guard.project.runner", "read_file", "every file: read", False),
    ("hipify_guard.project.runner", "settle", "analysed file: suppressions", False),
    ("hipify_guard.project.runner", "resolve", "file with findings: rows and columns", False),
)


class Timers:
    """Exclusive CPU seconds and calls per label; `asking` is the rule running now."""

    def __init__(self) -> None:
        self.seconds: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        self.asking = "no rule"
        self._stack: list[list[float]] = []

    def call(self, label: str, function: Callable, *args: object, **kwargs: object) -> object:
        self._stack.append([CLOCK(), 0.0])
        try:
            return function(*args, **kwargs)
        finally:
            start, inner = self._stack.pop()
            spent = CLOCK() - start
            self.seconds[label] += spent - inner
            self.calls[label] += 1
            if self._stack:
                self._stack[-1][1] += spent

    def wrapped(self, function: Callable, label: str, shared: bool) -> Callable:
        @functools.wraps(function)
        def timed(*args: object, **kwargs: object) -> object:
            name = f"{label} [first asked by {self.asking}]" if shared else label
            return self.call(name, function, *args, **kwargs)

        return timed


def instrument(timers: Timers) -> list[str]:
    """Wrap the rules and STEPS; returns the steps not found."""
    from hipify_guard.checks import CHECKS

    for code, registered in list(CHECKS.items()):
        CHECKS[code] = replace(registered, function=_timed_rule(timers, code, registered.function))
    missing = []
    for module_name, attribute, label, shared in STEPS:
        owner: object = importlib.import_module(module_name)
        *parents, name = attribute.split(".")
        for parent in parents:
            owner = getattr(owner, parent, None)
        target = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
        if target is None:
            missing.append(f"{module_name}.{attribute}")
        elif isinstance(target, functools.cached_property):
            target.func = timers.wrapped(target.func, label, shared)
        else:
            setattr(owner, name, timers.wrapped(target, label, shared))
    runner = importlib.import_module("hipify_guard.project.runner")
    rule_filter = runner.rule_filter

    def timed_filter(settings: object, codes: tuple[str, ...]) -> Callable[[bytes], object]:
        test = rule_filter(settings, codes)
        return lambda data: timers.call("every file: prefilter (trigger names, screens)", test, data)

    runner.rule_filter = timed_filter
    return missing


def _timed_rule(timers: Timers, code: str, function: Callable) -> Callable:
    def rule(file: object) -> list:
        timers.asking = code
        try:
            return timers.call(f"rule {code}: own work", lambda: list(function(file)))
        finally:
            timers.asking = "no rule"

    return rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", default="")
    parser.add_argument("paths", nargs="+")
    options = parser.parse_args()
    timers = Timers()
    missing = instrument(timers)
    from hipify_guard.cli.main import main as cli

    select = ["--select", options.select] if options.select else []
    sys.argv = ["hipify-guard", "check", "-j1", "--no-cache", "--exit-zero", "-q", *select,
                *map(os.path.abspath, options.paths)]
    start = CLOCK()
    try:
        with open(os.devnull, "w") as quiet:
            sys.stdout = quiet
            cli()
    except SystemExit:
        pass
    finally:
        sys.stdout = sys.__stdout__
    print(f"check -j1 --no-cache: {CLOCK() - start:.2f} s CPU (timers included)")
    for label, seconds in timers.seconds.most_common():
        print(f"{seconds:8.3f} s {timers.calls[label]:8d} calls  {label}")
    for step in missing:
        print(f"not measured (not found): {step}")


if __name__ == "__main__":
    main()
