"""Stable identities of findings that survive unrelated edits (conventions §5).

A fingerprint hashes the rule code, the repo-relative path, the finding's anchor (its normalised
directive text) and the occurrence index of that triple in the file. No line numbers: a finding
keeps its fingerprint when lines are added or removed above it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable

from ..core.records import record
from ..engine.diagnostics import Diagnostic
from ..walk.paths import repo_relative

VERSION = "hipify-guard/v1"


@record(slots=True)
class Identity:
    """What a fingerprint is made of, and the fingerprint itself."""

    code: str
    path: str
    anchor: str
    occurrence: int

    @property
    def fingerprint(self) -> str:
        """32 hex digits of SHA-256 over the parts."""
        text = "\0".join((VERSION, self.code, self.path, self.anchor, str(self.occurrence)))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def identities(items: Iterable[Diagnostic]) -> list[Identity]:
    """The identity of each diagnostic, in order; occurrences count per (code, path, anchor)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    result = []
    for item in items:
        key = (item.code, repo_relative(item.filename), " ".join(item.anchor.split()))
        result.append(Identity(*key, seen[key]))
        seen[key] += 1
    return result


def fingerprints(items: Iterable[Diagnostic]) -> list[str]:
    """The fingerprint of each diagnostic, in order."""
    return [identity.fingerprint for identity in identities(items)]
