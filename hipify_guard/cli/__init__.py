"""The `hipify-guard` command line: click commands, inputs (paths, @files, stdin), progress,
output and its formats (`formatters`). It only wires the stages below together.

The only package that imports click.
"""

import gc

# The command line's process keeps most of what it loads (modules, API tables, analyses) to its end,
# and at Python's default thresholds (700, 10, 10) a 10-file pre-commit run made 80 collections that
# freed almost nothing (218 ms -> 210 without them), and a cold check of the 63 real trees spent 15%
# of its time in them (72 -> 62 s, one process). Collect after 50,000 new objects: peak memory there
# 335 -> 367 MB, of which some 20 MB were analyses kept at the time (200,000, as mypy does: no
# faster, 393 MB).
gc.set_threshold(50_000, 10, 10)
