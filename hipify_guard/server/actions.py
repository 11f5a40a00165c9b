"""Code actions: a finding's fix and a suppression comment as quick fixes, and every safe fix at
once (`source.fixAll.hipify-guard`). Each edit is one the API proved, as `check --fix` proves its
rewrites; the server only proposes it, and the editor applies it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol.types import (
    CodeAction, CodeActionKind, OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, WorkspaceEdit,
)

from .. import api
from .diagnostics import finding_diagnostic
from .documents import REPLACEMENT, Document
from .edits import text_edits
from .options import ServerOptions

QUICK_FIX = CodeActionKind.QuickFix.value
FIX_ALL = f"{CodeActionKind.SourceFixAll.value}.hipify-guard"
KINDS = [QUICK_FIX, FIX_ALL]
_UNSAFE = " (unsafe: changes ROCm's branch)"


def code_actions(document: Document, report: api.FileReport, span: Range, options: ServerOptions,
                 only: list[str] | None, versioned: bool) -> list[CodeAction]:
    """The actions for the findings on the lines of `span` (and fix-all, when `only` allows)."""
    allowed = {"safe", "unsafe"} if options.unsafe_fixes else {"safe"}
    kwargs = {**options.api_options(), "unsafe_fixes": options.unsafe_fixes}
    actions = []
    if _wanted(QUICK_FIX, only):
        for finding in report.diagnostics:
            if finding.end_location.row - 1 < span.start.line or finding.location.row - 1 > span.end.line:
                continue
            if finding.fix is not None and finding.fix.applicability in allowed:
                actions.append(_fix(document, finding, versioned, kwargs))
            actions.append(_suppression(document, finding, versioned, options.api_options()))
    if _wanted(FIX_ALL, only) and any(f.fix and f.fix.applicability in allowed for f in report.diagnostics):
        title = f"hipify-guard: fix all ({'safe and unsafe' if options.unsafe_fixes else 'safe'} fixes)"
        actions.append(_action(document, title, FIX_ALL, None, versioned,
                               lambda: api.fix_source(document.data, document.path, **kwargs)))
    return [action for action in actions if action is not None]


def _fix(document: Document, finding: api.Diagnostic, versioned: bool, kwargs: dict[str, Any]) -> CodeAction | None:
    assert finding.fix is not None
    safe = finding.fix.applicability == "safe"
    title = f"hipify-guard ({finding.code}): {finding.fix.message}{'' if safe else _UNSAFE}"
    action = _action(document, title, QUICK_FIX, finding, versioned,
                     lambda: api.fix_diagnostic(document.data, document.path, finding, **kwargs))
    if action is not None:
        action.is_preferred = safe
    return action


def _suppression(document: Document, finding: api.Diagnostic, versioned: bool,
                 kwargs: dict[str, Any]) -> CodeAction | None:
    return _action(document, f"hipify-guard ({finding.code}): suppress with a comment", QUICK_FIX, finding, versioned,
                   lambda: api.suppress_diagnostic(document.data, document.path, finding, **kwargs))


def _wanted(kind: str, only: list[str] | None) -> bool:
    """Whether the client asked for actions of `kind` (a kind asks for its sub-kinds too)."""
    return only is None or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def _action(document: Document, title: str, kind: str, finding: api.Diagnostic | None, versioned: bool,
            compute: Callable[[], api.FixedSource]) -> CodeAction | None:
    """The action whose edit `compute` proves (once per version), or None when it proves nothing."""
    edits = document.remember((title, finding), lambda: _proven_edits(document, compute()))
    if not edits:
        return None
    change: dict[str, Any]
    if versioned:
        identifier = OptionalVersionedTextDocumentIdentifier(document.uri, document.version)
        change = {"document_changes": [TextDocumentEdit(identifier, edits)]}
    else:
        change = {"changes": {document.uri: edits}}
    diagnostics = [finding_diagnostic(document, finding)] if finding else None
    return CodeAction(title, kind=kind, diagnostics=diagnostics, edit=WorkspaceEdit(**change))


def _proven_edits(document: Document, result: api.FixedSource) -> list[Any]:
    """The editor's edits for a result that changed the bytes (none for one that did not, or that
    would write U+FFFD where the editor's buffer has something UTF-8 cannot carry)."""
    if not result.report.fixed or result.data == document.data:
        return []
    edits = text_edits(document.lines, result.data.decode("utf-8", "replace"))
    if document.replaced and any(REPLACEMENT in edit.new_text for edit in edits):
        return []
    return edits
