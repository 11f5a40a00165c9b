"""The shipped generated tables (rules/*.tsv): `#` comment lines, a header row, tab-separated rows."""

from __future__ import annotations

from ..core.package_data import rules_folder


def data_lines(name: str, text: str, columns: tuple[str, ...]) -> list[str]:
    """The data rows of a table's text, after checking its header row and every row's cell count."""
    lines = text.splitlines()
    start = next((n for n, line in enumerate(lines) if not line.startswith("#")), len(lines))
    if start == len(lines) or tuple(lines[start].split("\t")) != columns:
        raise ValueError(f"{name}:{start + 1}: the header row is not {columns}")
    data = lines[start + 1 :]
    for number, line in enumerate(data, start=start + 2):
        if (cells := line.count("\t") + 1) != len(columns):
            raise ValueError(f"{name}:{number}: {cells} cells, expected {len(columns)}")
    return data


def read_table(name: str, columns: tuple[str, ...]) -> list[str]:
    """The data rows of the shipped table `name`."""
    return data_lines(name, (rules_folder() / name).read_text(encoding="utf-8"), columns)


class KeyedRows:
    """A table's rows by their first cell (a key in several rows keeps its last row); each row is
    split only when asked for."""

    def __init__(self, lines: list[str]) -> None:
        self._rows = {line[: line.index("\t")]: line for line in lines}
        self.keys = frozenset(self._rows)

    @classmethod
    def from_rows(cls, rows: dict[str, str]) -> KeyedRows:
        """The table of `rows` (key -> whole row, as `rows` gives them), without splitting lines again."""
        table = cls.__new__(cls)
        table._rows, table.keys = rows, frozenset(rows)
        return table

    @property
    def rows(self) -> dict[str, str]:
        """Each key's row."""
        return self._rows

    def cells(self, key: str) -> list[str] | None:
        """The cells of the row of `key`, if there is one."""
        line = self._rows.get(key)
        return None if line is None else line.split("\t")
