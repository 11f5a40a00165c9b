"""Output formats. Each module renders the run's file reports as one string; nothing else prints."""

from __future__ import annotations

from collections.abc import Callable

from ..diagnostics import FileReport
from . import concise, json_format
from .common import RenderOptions

Renderer = Callable[[list[FileReport], RenderOptions], str]

FORMATTERS: dict[str, Renderer] = {
    "concise": concise.render,
    "json": json_format.render,
}

__all__ = ["FORMATTERS", "RenderOptions", "Renderer"]
