"""The API tables' plain form kept in the user's cache folder, sealed like the results cache.

One file per tool build, `api-tables-<tool key>` beside the user's key (`cache.key_file`): the
tables are the tool's own data, so every project shares it, and `--no-cache` (which concerns a
project's results) still reads it. The file carries the HMAC of its name and content under the
user's key, so a file someone else wrote is never loaded; the files of the `KEPT_BUILDS` most
recent builds are kept (a pre-commit hook's installation and a development one take turns).
Where no key can be read or made, the tables are made from the TSVs.
"""

from __future__ import annotations

from pathlib import Path

from ..model import api_tables
from .cache import KEPT_BUILDS, key_file, read_entries, tool_key, user_key, write_entries

_PREFIX = "api-tables-"


class UserTables:
    """A `model.api_tables.TableStore` in the user's cache folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def path(self) -> Path:
        return self.folder / f"{_PREFIX}{tool_key()}"

    def load(self) -> object | None:
        key = user_key()
        return read_entries(self.path, key).get("tables") if key is not None else None

    def keep(self, plain: object) -> None:
        key = user_key()
        if key is None:
            return
        path = self.path
        try:
            write_entries(path, {"tables": plain}, key)
            kept = sorted(self.folder.glob(f"{_PREFIX}*"), key=lambda old: old.stat().st_mtime, reverse=True)
            for old in kept[KEPT_BUILDS:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass


def use_user_tables() -> None:
    """Load the API tables through the user's cache folder from now on."""
    api_tables.use_store(UserTables(key_file().parent))
