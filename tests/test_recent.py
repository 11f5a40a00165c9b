"""`core.recent.Recent`, the memo by file bytes that lets a second check take the first one's analysis."""

from __future__ import annotations

from hipify_guard.core.recent import Recent


def test_recent_keeps_files_within_its_budget_oldest_out_first() -> None:
    """`core.recent.Recent`: what was kept for some bytes, while the kept files' bytes fit the budget."""
    kept: Recent[str] = Recent(10)
    kept.keep(b"aaaa", "a")
    kept.keep(b"bbbb", "b")
    assert (kept.get(b"aaaa"), kept.get(b"bbbb")) == ("a", "b")
    kept.keep(b"cccc", "c")  # 12 bytes: the oldest goes
    assert (kept.get(b"aaaa"), kept.get(b"bbbb"), kept.get(b"cccc")) == (None, "b", "c")
    kept.keep(b"x" * 11, "too large")
    assert kept.get(b"x" * 11) is None and kept.get(b"cccc") == "c"


def test_recent_answers_by_length_first_and_forgets_dropped_lengths() -> None:
    """A length whose last file was dropped answers nothing, and comes back with a new file."""
    kept: Recent[str] = Recent(6)
    kept.keep(b"aaaa", "a")
    kept.keep(b"bb", "b")
    kept.keep(b"ccc", "c")  # 9 bytes: "aaaa" goes, and with it the only file of 4 bytes
    assert (kept.get(b"aaaa"), kept.get(b"bb"), kept.get(b"ccc")) == (None, "b", "c")
    kept.keep(b"dddd", "d")  # "bb" and "ccc" go
    assert (kept.get(b"dddd"), kept.get(b"bb"), kept.get(b"ccc"), kept.get(b"eeee")) == ("d", None, None, None)
