"""The server's positions and edits against an independent model of the editor's buffer
(tests/lsp_client.py `apply_edits`): any text, any change, every position encoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_client import apply_edits, code_units

from hipify_guard.core.source import LineIndex
from hipify_guard.server.edits import text_edits
from hipify_guard.server.positions import Lines

ENCODINGS = ("utf-8", "utf-16", "utf-32")
PIECES = st.sampled_from(["a", "#if X", " ", "é", "😀", "\u2028", "\x0c", "\r\n", "\n", "\r", "\\\n", "\ufeff", ""])
TEXTS = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(old=TEXTS, new=TEXTS, encoding=st.sampled_from(ENCODINGS))
def test_the_edits_turn_the_old_text_into_the_new(old: str, new: str, encoding: str) -> None:
    edits = [{"range": {"start": _plain(e.range.start), "end": _plain(e.range.end)}, "newText": e.new_text}
             for e in text_edits(Lines(old, encoding), new)]
    assert apply_edits(old, edits, encoding) == new
    assert (edits == []) == (old == new)


@settings(max_examples=400, deadline=None)
@given(text=TEXTS, encoding=st.sampled_from(ENCODINGS), data=st.data())
def test_the_checkers_columns_land_on_the_same_character(text: str, encoding: str, data: st.DataObject) -> None:
    """A row and column of the API (LineIndex on the UTF-8 bytes) is the editor's position of the
    same character, counted in `encoding`, on lines ended as LSP ends them."""
    index = data.draw(st.integers(0, len(text)))
    if text[index - 1 : index + 1] == "\r\n" or (index == 0 and text.startswith("\ufeff")):
        return  # not a place a finding starts: inside a line break, or the BOM
    row, column = LineIndex(text.encode("utf-8")).position(len(text[:index].encode("utf-8")))
    position = Lines(text, encoding).at(row, column)
    line_start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    breaks = [i for i, c in enumerate(text[:index]) if c == "\n" or (c == "\r" and text[i + 1 : i + 2] != "\n")]
    assert position.line == len(breaks)
    assert position.character == code_units(text[line_start:index], encoding)
    assert Lines(text, encoding).offset(position) == index


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_positions_past_the_end_are_clamped(encoding: str) -> None:
    lines = Lines("ab😀\ncd", encoding)
    assert lines.at(9, 1).line == 1 and lines.at(1, 99).character == code_units("ab😀", encoding)
    assert lines.offset(lines.at(1, 99)) == 3
    assert lines.row(lines.at(9, 1)) == 2


def _plain(position: object) -> dict[str, int]:
    return {"line": position.line, "character": position.character}
