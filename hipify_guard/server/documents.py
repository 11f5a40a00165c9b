"""The documents the editor has open: the text it sent, the bytes the checker reads, the file
they stand for, and what was computed for their current version.

Editors send Unicode text, but JSON can carry lone UTF-16 surrogates (`"\\udc80"`), which UTF-8
cannot encode: each is checked as U+FFFD, one character for one, so every position still means
the same place in the editor's buffer, and the document says how many there were.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from pygls.uris import to_fs_path

from .positions import UTF16, Lines

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


class Document:
    """One open document at one version."""

    def __init__(self, uri: str, text: str, version: int | None, encoding: str = UTF16) -> None:
        self.uri = uri
        self.version = version
        self.path = to_fs_path(uri)  # None for what is not a file (an unsaved `untitled:` buffer)
        self.encoding = encoding
        self.text, self.replaced = _LONE_SURROGATE.subn(REPLACEMENT, text)
        self.first_replaced = _LONE_SURROGATE.search(text).start() if self.replaced else -1
        self.data = self.text.encode("utf-8")
        self.computed: dict[Any, Any] = {}  # results for this version (the report, code actions), by key

    @cached_property
    def lines(self) -> Lines:
        """The text's lines, in the editor's position encoding."""
        return Lines(self.text, self.encoding)

    def remember(self, key: Any, compute: Any) -> Any:
        """`compute()` once per version of the document and `key`."""
        if key not in self.computed:
            self.computed[key] = compute()
        return self.computed[key]
