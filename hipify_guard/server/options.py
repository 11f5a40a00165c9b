"""The server's options, from the client's `initializationOptions` or its workspace settings
(`workspace/didChangeConfiguration`, under the section `hipify-guard` or at the top level).

    {"unsafeFixes": false,          offer the fixes that change ROCm's branch as quick fixes too
     "config": "ci/guards.toml",    one configuration file for every document (as `check --config`;
                                    a relative path is relative to the workspace's root folder)
     "isolated": false,             no configuration file at all (as `check --isolated`)
     "settings": {"select": ["HG1"], "policy": "exclude"}}
                                    configuration keys on top of the files (as `check`'s options)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

SECTION = "hipify-guard"
_KINDS = {"unsafeFixes": bool, "config": str, "isolated": bool, "settings": dict}


@dataclass(frozen=True)
class ServerOptions:
    """What the client configured; `problems` says what of it was ignored, and why."""

    unsafe_fixes: bool = False
    config: str | None = None
    isolated: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def api_options(self) -> dict[str, Any]:
        """The keyword arguments of the API's functions that these options stand for."""
        keys = {key.replace("-", "_"): value for key, value in self.settings.items()}
        return {**keys, "config": self.config or None, "isolated": self.isolated}


def from_settings(settings: Any, root: str | None = None) -> ServerOptions | None:
    """The options in workspace settings: their `hipify-guard` section, or the settings themselves
    when they name an option; None when they say nothing about this server."""
    if isinstance(settings, dict) and SECTION in settings:
        return read_options(settings[SECTION], root)
    if isinstance(settings, dict) and settings.keys() & _KINDS.keys():
        return read_options(settings, root)
    return None


def read_options(given: Any, root: str | None = None) -> ServerOptions:
    """The options in `given` (None or a table; unknown keys and wrong types are problems); a
    relative `config` is taken relative to `root`, the workspace's folder."""
    if isinstance(given, dict) and SECTION in given:
        given = given[SECTION]
    if given is None:
        return ServerOptions()
    if not isinstance(given, dict):
        return ServerOptions(problems=(f"options must be a table, got {type(given).__name__}; ignored",))
    values: dict[str, Any] = {}
    problems = []
    for key, value in given.items():
        kind = _KINDS.get(key)
        if kind is None:
            problems.append(f"unknown option {key!r} (known: {', '.join(_KINDS)}); ignored")
        elif not isinstance(value, kind):
            problems.append(f"option {key!r} must be a {kind.__name__}, got {type(value).__name__}; ignored")
        else:
            values[key] = value
    config = values.get("config")
    if config and root:
        config = os.path.join(root, config)
    return ServerOptions(values.get("unsafeFixes", False), config, values.get("isolated", False),
                         values.get("settings", {}), tuple(problems))
