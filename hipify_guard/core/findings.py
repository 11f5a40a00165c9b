"""What a rule reports: a finding at a byte span, maybe with a fix made of byte edits, and how
edits are applied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

SAFE = "safe"
UNSAFE = "unsafe"
DISPLAY_ONLY = "display-only"


class Edit(NamedTuple):
    """Replace data[start:end] by `content`."""

    start: int
    end: int
    content: bytes


class Expectation(NamedTuple):
    """What the verifier must prove about one rewritten condition (spec §7).

    The new condition must equal the old one in every CUDA configuration. On ROCm it must be
    `rocm` ("false", "true", "same" as the old one, "any", "min" meaning `RV >= rocm_min`, or
    "and-min" meaning the old condition and `RV >= rocm_min`), RV being `version_macro`.
    """

    directive: int  # hash offset of the rewritten directive in the original file
    rocm: str
    rocm_min: int | None = None  # on the version macro's scale
    rocm_macro: str = ""  # the macro the new clauses test for ROCm (spec §13.2), and for its version
    version_macro: str = ""


class Fix(NamedTuple):
    """A change that resolves a finding."""

    applicability: str  # SAFE, UNSAFE or DISPLAY_ONLY
    message: str
    edits: tuple[Edit, ...]
    expectation: Expectation | None = None


class Finding(NamedTuple):
    """One rule violation in one file."""

    code: str
    message: str
    start: int
    end: int
    fix: Fix | None = None
    anchor: str = ""  # normalised directive text, for baseline fingerprints


def apply_edits(data: bytes, edits: Sequence[Edit]) -> bytes:
    """Splice non-overlapping edits into `data`, last first so offsets stay valid."""
    pieces = []
    position = len(data)
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        pieces.append(data[edit.end : position])
        pieces.append(edit.content)
        position = edit.start
    pieces.append(data[:position])
    return b"".join(reversed(pieces))


def original_offset(edits: Sequence[Edit], offset: int) -> int:
    """Where an offset of `apply_edits(data, edits)` was in `data` (inside a replacement: its start)."""
    shift = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        start = edit.start + shift
        if offset < start:
            break
        if offset < start + len(edit.content):
            return edit.start
        shift += len(edit.content) - (edit.end - edit.start)
    return offset - shift
