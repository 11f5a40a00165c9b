#!/usr/bin/env python3
"""Print what a project's build files say about its platforms, each fact with its evidence.

Usage: python scripts/show_build_facts.py ROOT [--summary] [--all]

Lists the macros defined only for ROCm builds and only for CUDA builds, every definition the ROCm
build makes, and the source files only one platform's build compiles (the pattern, its evidence,
the files). `--all` also lists definitions made for every build; `--summary` prints one line of
counts and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hipify_guard.buildfiles.reader import read_build_files  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--summary", action="store_true", help="one line of counts")
    parser.add_argument("--all", action="store_true", help="also definitions made for every build")
    options = parser.parse_args()
    started = time.process_time()
    facts = read_build_files(options.root)
    elapsed = time.process_time() - started
    rocm, cuda = facts.rocm_macros, facts.cuda_macros
    if options.summary:
        print(f"{options.root}\tfiles {len(facts.files_read)}\trocm-macros {len(rocm)}\tcuda-macros {len(cuda)}"
              f"\trocm-defs {len(facts.rocm_definitions)}\tcuda-only-files {len(facts.cuda_only_files)}"
              f"\trocm-only-files {len(facts.rocm_only_files)}\tnotes {len(facts.notes)}\tcpu-ms {elapsed * 1000:.0f}")
        return 0
    print(f"# {options.root}: {len(facts.files_read)} build files read in {elapsed * 1000:.0f} ms (CPU)")
    _macros("Macros defined only for ROCm builds", rocm)
    _macros("Macros defined only for builds that are not ROCm (CUDA)", cuda)
    _macros("Every definition the ROCm build makes", facts.rocm_definitions)
    if options.all:
        _macros("Definitions for every build (or an unknown condition)", facts.defined_for(None))
    for platform in ("cuda", "rocm"):
        found = [fact for fact in facts.sources if fact.platform == platform]
        print(f"\n## Sources only the {platform.upper()} build compiles: {len(found)} facts, "
              f"{len(facts.only_files(platform))} files")
        for fact in found:
            shown = ", ".join(fact.files[:3]) + (f" ... ({len(fact.files)})" if len(fact.files) > 3 else "")
            print(f"- {fact.pattern}  [{fact.evidence}: {fact.evidence.text}]  when {fact.condition}\n    {shown}")
    for note in facts.notes:
        print(f"note: {note}")
    return 0


def _macros(title: str, macros: dict) -> None:
    print(f"\n## {title}: {len(macros)}")
    for name, definitions in sorted(macros.items()):
        for definition in definitions:
            value = "?" if definition.value is None else repr(definition.value)
            always = "always" if definition.always else "sometimes"
            print(f"- {name}={value} ({definition.platform}, {always})  [{definition.evidence}: "
                  f"{definition.evidence.text}]  when {definition.condition or 'every build'}")


if __name__ == "__main__":
    sys.exit(main())
