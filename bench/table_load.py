#!/usr/bin/env python3
"""CPU time of loading the API knowledge (HIPIFY's, PyTorch's tables, HIP's headers) in fresh
processes, as a run without a cache pays it once (not a test).

Usage: python bench/table_load.py [--runs N]

Each run starts a new interpreter, loads HIPIFY's table facts first (every check needs them) and
times, with `time.process_time`, the rest: `knowledge()`, its names and one view.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("import time; from hipify_guard.model.api_knowledge import knowledge; "
        "from hipify_guard.model.mapping import load_table; load_table().api_facts; t = time.process_time(); "
        "k = knowledge(); k.names; k.view('cudaDataType', 'hip'); print(time.process_time() - t)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    times = [1000 * float(subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True,
                                         check=True).stdout) for _ in range(runs)]
    print(f"knowledge() in a fresh process, {runs} runs: best {min(times):.1f} ms, "
          f"median {statistics.median(times):.1f} ms CPU")


if __name__ == "__main__":
    main()
