"""The language server over standard input and output, on pygls: documents in; diagnostics, code
actions and hovers out. Malformed input gets an error response or a log message, never an end."""

from __future__ import annotations

import logging
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from .. import __version__, api
from .actions import KINDS, code_actions, resolve
from .diagnostics import diagnostics
from .documents import Document
from .hover import hover
from .options import ServerOptions, from_settings, read_options
from .positions import UTF8, UTF16

NAME = "hipify-guard"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Unreadable:
    """A request whose parameters do not fit its method: it gets an error response."""

    id: Any
    error: JsonRpcException
    jsonrpc: str = "2.0"


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, preferring UTF-8 positions and answering every malformed request."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        general = params.capabilities.general
        if general is not None and general.position_encodings and UTF8 in general.position_encodings:
            general.position_encodings = [types.PositionEncodingKind.Utf8]
        return (yield from super().lsp_initialize(params))

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" in data and "method" in data:
                return _Unreadable(data["id"], error)
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Unreadable):
            self._send_response(message.id, error=message.error.to_response_error())
            return
        super().handle_message(message)

    def answer_unreadable(self, error: Exception) -> str:
        """The JSON-RPC answer (id null) to a message that is not JSON (-32700) or not a JSON-RPC
        message (-32600); returns what it said."""
        if isinstance(error, (ValueError, RecursionError)):  # (UnicodeDecodeError too: not UTF-8)
            code, text = types.ErrorCodes.ParseError, f"Parse error: not JSON in UTF-8: {error}"
        else:
            code, text = types.ErrorCodes.InvalidRequest, f"Invalid request: not a JSON-RPC message: {error}"
        self._send_data({"jsonrpc": self.VERSION, "id": None, "error": {"code": code.value, "message": text}})
        return text


class GuardServer(LanguageServer):
    """The open documents, the client's options, and how to tell the client about problems."""

    def __init__(self) -> None:
        super().__init__(NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full,
                         protocol_cls=_Protocol)
        self.documents: dict[str, Document] = {}
        self.options = ServerOptions()
        self.shut_down = False  # the client asked for `shutdown` (then `exit` is a success)
        self.root: str | None = None  # the workspace's folder, for a relative `config` option

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Malformed input is answered (a request) or logged; a failing handler is shown."""
        try:
            if source is JsonRpcException and isinstance(error, JsonRpcException):  # (as read: no id to answer)
                self.log(types.MessageType.Error, f"ignored a malformed notification: {error!r}")
            elif source is JsonRpcException:
                self.log(types.MessageType.Error, f"ignored a message: {self.protocol.answer_unreadable(error)}")
            elif source is not FeatureRequestError:  # (a request's error is in its response)
                super().report_server_error(error, source)
        except Exception:  # noqa: BLE001 - reporting must never stop the server
            logger.exception("could not report %r", error)

    @property
    def versioned_edits(self) -> bool:
        """Whether the client takes edits bound to a document version (`documentChanges`)."""
        return bool(get_capability(self.client_capabilities, "workspace.workspace_edit.document_changes", False))

    def log(self, kind: types.MessageType, text: str) -> None:
        """A line in the client's log of this server."""
        self.window_log_message(types.LogMessageParams(kind, f"{NAME}: {text}"))

    def use(self, options: ServerOptions) -> None:
        """Take new options: log what was wrong with them, check every open document again."""
        self.options = options
        for problem in options.problems:
            self.log(types.MessageType.Warning, problem)
        self.recheck()

    def recheck(self) -> None:
        """Forget every result (a configuration may have changed) and publish again."""
        for document in self.documents.values():
            document.computed.clear()
            self.publish(document)

    def open(self, uri: str, version: int | None) -> None:
        """Take the editor's text of a document (pygls keeps it) and publish its diagnostics."""
        text = self.workspace.get_text_document(uri).source
        encoding = self.workspace.position_encoding or UTF16
        self.documents[uri] = document = Document(uri, text, version, str(getattr(encoding, "value", encoding)))
        self.publish(document)

    def publish(self, document: Document) -> None:
        report = self.report(document)
        shown = diagnostics(document, report) if report is not None else []
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(document.uri, shown, document.version))

    def report(self, document: Document) -> api.FileReport | None:
        """The check of the document's current version (None: not a file `check` would check)."""
        return document.remember("report", lambda: self._check(document))

    def _check(self, document: Document) -> api.FileReport | None:
        if document.path is None:
            return None
        options = self.options.api_options()
        try:
            if not api.is_checked(document.path, **options):
                return None
            return api.check_source(document.data, document.path, **options)
        except api.ConfigError as error:
            report = api.FileReport(document.path)
            report.errors.append(api.ToolMessage(document.path, f"configuration error: {error}"))
            return report


def create_server() -> GuardServer:
    """A server with every feature registered."""
    server = GuardServer()
    server.feature(types.INITIALIZE)(_initialize)
    server.feature(types.INITIALIZED)(_initialized)
    server.feature(types.SHUTDOWN)(_shutdown)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(_did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(_did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(_did_save)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(_did_close)
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(_did_change_configuration)
    server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(_did_change_watched_files)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=KINDS,
                                                                             resolve_provider=True))(_code_action)
    server.feature(types.CODE_ACTION_RESOLVE)(_resolve_code_action)
    server.feature(types.TEXT_DOCUMENT_HOVER)(_hover)
    return server


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Run the server until the client says `exit` or closes its end; the exit status is 0 after
    a `shutdown` request, else 1 (as the protocol says)."""
    server = create_server()
    server.start_io(stdin, stdout)
    return 0 if server.shut_down else 1


def _initialize(ls: GuardServer, params: types.InitializeParams) -> None:
    ls.root = (to_fs_path(params.root_uri) if params.root_uri else None) or params.root_path
    ls.options = read_options(params.initialization_options, ls.root)


def _initialized(ls: GuardServer, params: types.InitializedParams) -> None:
    for problem in ls.options.problems:
        ls.log(types.MessageType.Warning, problem)
    if get_capability(ls.client_capabilities, "workspace.did_change_watched_files.dynamic_registration", False):
        watchers = [types.FileSystemWatcher(f"**/{name}") for name in api.CONFIG_FILES]
        registration = types.Registration(f"{NAME}-configuration-files", types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          types.DidChangeWatchedFilesRegistrationOptions(watchers))
        ls.client_register_capability(types.RegistrationParams([registration]))


def _shutdown(ls: GuardServer, params: None) -> None:
    ls.shut_down = True


def _did_open(ls: GuardServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.open(params.text_document.uri, params.text_document.version)


def _did_change(ls: GuardServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.open(params.text_document.uri, params.text_document.version)


def _did_save(ls: GuardServer, params: types.DidSaveTextDocumentParams) -> None:
    document = ls.documents.get(params.text_document.uri)
    if document is not None:
        document.computed.clear()  # (a configuration file may have changed meanwhile)
        ls.publish(document)


def _did_close(ls: GuardServer, params: types.DidCloseTextDocumentParams) -> None:
    if ls.documents.pop(params.text_document.uri, None) is not None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))


def _did_change_configuration(ls: GuardServer, params: types.DidChangeConfigurationParams) -> None:
    options = from_settings(params.settings, ls.root)
    if options is not None:
        ls.use(options)


def _did_change_watched_files(ls: GuardServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.recheck()


def _code_action(ls: GuardServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    document = ls.documents.get(params.text_document.uri)
    report = ls.report(document) if document is not None else None
    if document is None or report is None:
        return None
    resolvable = get_capability(ls.client_capabilities, "text_document.code_action.resolve_support.properties", [])
    return code_actions(document, report, params.range, ls.options, params.context.only, versioned=ls.versioned_edits,
                        lazy="edit" in (resolvable or [])) or None


def _resolve_code_action(ls: GuardServer, action: types.CodeAction) -> types.CodeAction:
    uri = action.data.get("uri") if isinstance(action.data, dict) else None
    document = ls.documents.get(uri) if isinstance(uri, str) else None
    report = ls.report(document) if document is not None else None
    if document is None or report is None:
        reason = "the document is not open, or not one the server checks"
    else:
        reason = resolve(document, report, action, ls.options, versioned=ls.versioned_edits)
    if reason:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"{action.title}: {reason}"))
    return action


def _hover(ls: GuardServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.documents.get(params.text_document.uri)
    if document is None or ls.report(document) is None:
        return None
    row = document.lines.row(params.position)
    try:
        found = api.conditional_at(document.data, document.path, row, **ls.options.api_options())
    except api.ConfigError:
        return None
    formats = get_capability(ls.client_capabilities, "text_document.hover.content_format", None) or []
    return hover(document, found, types.MarkupKind.Markdown in formats) if found else None
