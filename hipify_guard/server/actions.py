"""Code actions: a finding's fix and a suppression comment as quick fixes, and every safe fix at
once (`source.fixAll.hipify-guard`). Each edit is one the API proved, as `check --fix` proves its
rewrites; the server only proposes it, and the editor applies it.

Proving costs a check or more of the whole file, so a client that can resolve actions gets them
listed at once and proven when it picks one (`codeAction/resolve`); another gets only the
actions already proven.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol.types import (
    CodeAction, CodeActionKind, OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, TextEdit,
    WorkspaceEdit,
)

from .. import api
from .diagnostics import finding_diagnostic
from .documents import REPLACEMENT, Document
from .edits import text_edits
from .options import ServerOptions

QUICK_FIX = CodeActionKind.QuickFix.value
FIX_ALL = f"{CodeActionKind.SourceFixAll.value}.hipify-guard"
KINDS = [QUICK_FIX, FIX_ALL]
FIX, SUPPRESS, FIX_EVERYTHING = "fix", "suppress", "fix-all"
_UNSAFE = " (unsafe: changes ROCm's branch)"


@dataclass(frozen=True)
class _Plan:
    """An action before its proof: what it does, to which finding (an index in the report)."""

    what: str
    title: str
    kind: str
    finding: int | None = None
    preferred: bool = False


def code_actions(document: Document, report: api.FileReport, span: Range, options: ServerOptions,
                 only: list[str] | None, *, versioned: bool, lazy: bool) -> list[CodeAction]:
    """The actions for the findings on the lines of `span` (and fix-all, when `only` allows): all
    of them, without edits, when `lazy`; else only those with a proven edit."""
    listed = [_listed(document, report, plan) for plan in _plans(report, span, options, only)]
    if lazy:
        return listed
    return [action for action in listed if not resolve(document, report, action, options, versioned=versioned)]


def resolve(document: Document, report: api.FileReport, action: CodeAction, options: ServerOptions, *,
            versioned: bool) -> str:
    """Give an action that `code_actions` listed its proven edit; the reason, when there is none."""
    data = action.data if isinstance(action.data, dict) else {}
    what, index = data.get("what"), data.get("finding")
    if data.get("version") != document.version:
        return "the document changed since this action was offered; ask for the actions again"
    finding = report.diagnostics[index] if isinstance(index, int) and 0 <= index < len(report.diagnostics) else None
    compute = _computations(document, finding, options).get(what) if finding or what == FIX_EVERYTHING else None
    if compute is None:
        return "not an action of this server"
    result: api.FixedSource = document.remember((what, index), compute)
    edits = _proven_edits(document, result)
    if not edits:
        return "; ".join(error.message for error in result.report.errors) or "nothing to change"
    action.edit = _workspace_edit(document, edits, versioned)
    return ""


def _plans(report: api.FileReport, span: Range, options: ServerOptions, only: list[str] | None) -> list[_Plan]:
    allowed = {"safe", "unsafe"} if options.unsafe_fixes else {"safe"}
    plans = []
    if _wanted(QUICK_FIX, only):
        for index, finding in enumerate(report.diagnostics):
            if finding.end_location.row - 1 < span.start.line or finding.location.row - 1 > span.end.line:
                continue
            if finding.fix is not None and finding.fix.applicability in allowed:
                safe = finding.fix.applicability == "safe"
                title = f"hipify-guard ({finding.code}): {finding.fix.message}{'' if safe else _UNSAFE}"
                plans.append(_Plan(FIX, title, QUICK_FIX, index, preferred=safe))
            plans.append(_Plan(SUPPRESS, f"hipify-guard ({finding.code}): suppress with a comment", QUICK_FIX, index))
    if _wanted(FIX_ALL, only) and any(f.fix and f.fix.applicability in allowed for f in report.diagnostics):
        which = "safe and unsafe" if options.unsafe_fixes else "safe"
        plans.append(_Plan(FIX_EVERYTHING, f"hipify-guard: fix all ({which} fixes)", FIX_ALL))
    return plans


def _wanted(kind: str, only: list[str] | None) -> bool:
    """Whether the client asked for actions of `kind` (a kind asks for its sub-kinds too)."""
    return only is None or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def _listed(document: Document, report: api.FileReport, plan: _Plan) -> CodeAction:
    diagnostics = None if plan.finding is None else [finding_diagnostic(document, report.diagnostics[plan.finding])]
    data = {"uri": document.uri, "version": document.version, "what": plan.what, "finding": plan.finding}
    return CodeAction(plan.title, kind=plan.kind, diagnostics=diagnostics, is_preferred=plan.preferred or None,
                      data=data)


def _computations(document: Document, finding: api.Diagnostic | None,
                  options: ServerOptions) -> dict[str, Callable[[], api.FixedSource]]:
    data, path, settings = document.data, document.path, options.api_options()
    unsafe = options.unsafe_fixes
    return {
        FIX: lambda: api.fix_diagnostic(data, path, finding, unsafe_fixes=unsafe, **settings),
        SUPPRESS: lambda: api.suppress_diagnostic(data, path, finding, **settings),
        FIX_EVERYTHING: lambda: api.fix_source(data, path, unsafe_fixes=unsafe, **settings),
    }


def _proven_edits(document: Document, result: api.FixedSource) -> list[TextEdit]:
    """The editor's edits for a result that changed the bytes (none for one that did not, or that
    would write U+FFFD where the editor's buffer has something UTF-8 cannot carry)."""
    if not result.report.fixed or result.data == document.data:
        return []
    edits = text_edits(document.lines, result.data.decode("utf-8", "replace"))
    if document.replaced and any(REPLACEMENT in edit.new_text for edit in edits):
        return []
    return edits


def _workspace_edit(document: Document, edits: list[TextEdit], versioned: bool) -> WorkspaceEdit:
    if versioned:
        identifier = OptionalVersionedTextDocumentIdentifier(document.uri, document.version)
        return WorkspaceEdit(document_changes=[TextDocumentEdit(identifier, edits)])
    return WorkspaceEdit(changes={document.uri: edits})
