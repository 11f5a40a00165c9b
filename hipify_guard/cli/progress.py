"""A progress line on stderr for long runs: only on a terminal, only after a moment."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

DELAY = 0.5  # seconds before the first line: short runs print nothing
INTERVAL = 0.1  # seconds between redraws
WIDTH = 30


class Progress:
    """Counts finished files and redraws `[#####.....] done/total files` in place."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.done = 0
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.drawn = False

    def advance(self, *_: Any) -> None:
        """One more file done (accepts and ignores the file's report)."""
        self.done += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start >= DELAY and (now - self.last_draw >= INTERVAL or self.done == self.total):
            self.last_draw = now
            self._draw()

    def close(self) -> None:
        """Erase the progress line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _draw(self) -> None:
        filled = WIDTH * self.done // max(self.total, 1)
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} files")
        self.stream.flush()
        self.drawn = True


def wanted(stream: TextIO) -> bool:
    """Whether `stream` is a terminal (nothing is drawn on pipes and files)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress(total: int, enabled: bool = True, stream: TextIO | None = None) -> Iterator[Progress]:
    """A Progress on stderr, drawn only when `enabled` and stderr is a terminal; erased at the end."""
    target = stream or sys.stderr
    bar = Progress(total, target, enabled and wanted(target))
    try:
        yield bar
    finally:
        bar.close()
