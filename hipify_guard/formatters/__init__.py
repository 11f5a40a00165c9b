"""Output formats. Each module renders the run's file reports as one string; nothing else prints."""

from __future__ import annotations

from collections.abc import Callable

from ..diagnostics import FileReport
from . import concise, full, github, gitlab, json_format, json_lines, junit, sarif
from .common import RenderOptions

Renderer = Callable[[list[FileReport], RenderOptions], str]

FORMATTERS: dict[str, Renderer] = {
    "concise": concise.render,
    "full": full.render,
    "json": json_format.render,
    "json-lines": json_lines.render,
    "sarif": sarif.render,
    "github": github.render,
    "gitlab": gitlab.render,
    "junit": junit.render,
}

__all__ = ["FORMATTERS", "RenderOptions", "Renderer"]
