"""Time the include graph of a generated compile_commands.json (issue 9: 10,000 TUs in under 10 s).

Usage: python bench/include_graph.py [--units 10000] [--folder DIR] [--runs 3]

Generates (once per folder) a project of UNITS translation units in 100 folders, each unit
including its folder's header, a chain of 30 shared headers with conditional includes and an
include cycle, a missing header and a system header; every folder is one configuration (its own
-I, -iquote and -DROCM_VERSION). Then runs `hipify-guard files --output-format json` RUNS times
and prints the wall time of each run (the whole command: database, walk, stat and output).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FOLDERS = 100
SHARED = 30


def generate(root: Path, units: int) -> Path:
    """The project under `root` and its database (kept when already there)."""
    database = root / "build" / "compile_commands.json"
    if database.exists() and len(json.loads(database.read_text())) == units:
        return database
    (root / "include" / "lib").mkdir(parents=True, exist_ok=True)
    (root / "build").mkdir(exist_ok=True)
    for index in range(SHARED):
        following = f'#include "lib/h{index + 1}.h"\n' if index + 1 < SHARED else '#include "lib/h0.h"\n'  # a cycle
        (root / "include" / "lib" / f"h{index}.h").write_text(
            f"#pragma once\n{following}#if defined(USE_ROCM) && ROCM_VERSION >= {50000 + index * 100}\n"
            f'#include "lib/new{index}.h"\n#else\n#include "lib/old{index}.h"\n#endif\n'
            f"#if CUDA_VERSION >= 11000\nint f{index}();\n#endif\n")
        (root / "include" / "lib" / f"new{index}.h").write_text(f"int new{index}();\n")
        (root / "include" / "lib" / f"old{index}.h").write_text(f"int old{index}();\n")
    entries = []
    for unit in range(units):
        folder = root / "src" / f"d{unit % FOLDERS}"
        if unit < FOLDERS:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "local.h").write_text('#include "lib/h0.h"\n#include <vector>\n#include "missing.h"\n')
        source = folder / f"u{unit}.cpp"
        source.write_text(f'#include "local.h"\n#ifdef USE_ROCM\n#include <lib/h{unit % SHARED}.h>\n#endif\n'
                          f"int u{unit}() {{ return {unit}; }}\n")
        version = 50000 + (unit % FOLDERS) * 30
        entries.append({"directory": str(root / "build"), "file": str(source),
                        "command": f"c++ -DUSE_ROCM=1 -DROCM_VERSION={version} -I../include -iquote {folder} "
                                   f"-c {source} -o u{unit}.o"})
    database.write_text(json.dumps(entries))
    return database


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--folder", default=os.path.join(tempfile.gettempdir(), "hipify-guard-include-bench"))
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args(argv)
    root = Path(arguments.folder)
    database = generate(root, arguments.units)
    tool = Path(sys.executable).with_name("hipify-guard")
    print(f"load: {os.getloadavg()[0]:.2f}; {arguments.units} units in {root}")
    for _ in range(arguments.runs):
        start = time.perf_counter()
        done = subprocess.run([str(tool), "files", "--isolated", "--compile-commands", str(database),
                               "--output-format", "json"], cwd=root, capture_output=True, check=True)
        elapsed = time.perf_counter() - start
        report = json.loads(done.stdout)[0]
        print(f"{elapsed:.2f} s: {len(report['files'])} files, {report['translation_units']} units, "
              f"{len(report['missing'])} missing, {len(report['unreachable'])} unreachable includes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
