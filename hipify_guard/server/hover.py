"""The hover of a conditional directive: its outcome on CUDA and on each ROCm model, what
`hipify-guard eval` prints for its condition (as Markdown, or plain text for clients without it)."""

from __future__ import annotations

import re

from lsprotocol.types import Hover, MarkupContent, MarkupKind, Position, Range

from .. import api
from .documents import Document

_NOT_REACHED = "not reached (an enclosing condition excludes it); the condition itself: "


def hover(document: Document, found: api.ConditionalOutcome, markdown: bool) -> Hover:
    """The hover over the lines of `found` in `document`."""
    lines = document.lines
    end = found.end_row - 1
    span = Range(Position(found.row - 1, 0), lines.at(found.end_row, len(lines.line(end)) + 1))
    text = _markdown(found) if markdown else _plain(found)
    return Hover(MarkupContent(MarkupKind.Markdown if markdown else MarkupKind.PlainText, text), span)


def _markdown(found: api.ConditionalOutcome) -> str:
    rows = [f"| {_cell(o.label)} | {_cell(_said(o))} |" for o in found.outcomes]
    error = [f"\nThe condition does not parse: {_cell(found.error)}"] if found.error else []
    fence = "`" * max([3, *(len(run) + 1 for run in re.findall("`+", found.directive))])
    return "\n".join([f"{fence}cpp", found.directive, fence, "", "| platform | outcome |", "|---|---|", *rows, *error])


def _plain(found: api.ConditionalOutcome) -> str:
    width = max(len(o.label) for o in found.outcomes) + 1
    lines = [found.directive, *(f"{o.label + ':':{width}}  {_said(o)}" for o in found.outcomes)]
    return "\n".join([*lines, *([f"the condition does not parse: {found.error}"] if found.error else [])])


def _said(outcome: api.PlatformOutcome) -> str:
    return outcome.description if outcome.reached else _NOT_REACHED + outcome.description


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")
