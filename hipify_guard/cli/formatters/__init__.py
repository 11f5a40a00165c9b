"""Output formats. Each module renders the run's file reports as one string; nothing else prints."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from ...engine.diagnostics import FileReport
from .common import RenderOptions

Renderer = Callable[[list[FileReport], RenderOptions], str]


def _lazy(module: str) -> Renderer:
    """The `render` of a formatter module, imported on first use (a run needs one format)."""

    def render(reports: list[FileReport], options: RenderOptions) -> str:
        return import_module(f"{__name__}.{module}").render(reports, options)

    return render


FORMATTERS: dict[str, Renderer] = {
    "concise": _lazy("concise"),
    "full": _lazy("full"),
    "json": _lazy("json_format"),
    "json-lines": _lazy("json_lines"),
    "sarif": _lazy("sarif"),
    "github": _lazy("github"),
    "gitlab": _lazy("gitlab"),
    "junit": _lazy("junit"),
}

__all__ = ["FORMATTERS", "RenderOptions", "Renderer"]
