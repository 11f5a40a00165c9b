"""A small LSP client for the tests: the real `hipify-guard server` in a subprocess, spoken to as
an editor does, with JSON-RPC messages framed by `Content-Length` headers on its standard input
and output. Requests the server sends (`client/registerCapability`) are answered with null."""

from __future__ import annotations

import itertools
import json
import os
import queue
import re
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import console_script

Message = dict[str, Any]
TIMEOUT = 60.0


class ServerEnded(AssertionError):
    """The server closed its output (it exited, or crashed) while a message was awaited."""


class LanguageClient:
    """One server process and what it said."""

    def __init__(self, cwd: Path | str | None = None, command: list[str] | None = None) -> None:
        """Start `command` (default: this environment's `hipify-guard server`) in `cwd`."""
        self.process = subprocess.Popen(command or [*console_script(), "server"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        self.ids = itertools.count(1)
        self.inbox: queue.Queue[Message | None] = queue.Queue()
        self.seen: list[Message] = []  # received but not yet taken by a wait
        self.log: list[Message] = []  # every message received, in order
        self.stderr = bytearray()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr.read()), daemon=True).start()

    # -- sending --------------------------------------------------------------------------------

    def send_bytes(self, body: bytes, header: bytes | None = None) -> None:
        """One framed message (`header` replaces the Content-Length line)."""
        head = header if header is not None else b"Content-Length: %d\r\n" % len(body)
        self.process.stdin.write(head + b"\r\n" + body)
        self.process.stdin.flush()

    def send(self, message: Message) -> None:
        self.send_bytes(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Message:
        """Send a request and return its response (the whole message: `result` or `error`)."""
        number = next(self.ids)
        self.send({"id": number, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == number and "method" not in m, timeout)

    # -- receiving ------------------------------------------------------------------------------

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None, "a message without Content-Length"
            self.inbox.put(json.loads(stream.read(length)))

    def wait(self, wanted: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """The first message (received or to come) for which `wanted` is true; it is taken."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.seen:
                if wanted(message):
                    self.seen.remove(message)
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message within {timeout} s; received: {self.seen}")
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise ServerEnded(f"the server ended (status {self.process.poll()}): {self.stderr.decode()[-3000:]}")
            self.log.append(message)
            if "method" in message and "id" in message:  # a request of the server's
                self.send({"id": message["id"], "result": None})
            self.seen.append(message)

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = TIMEOUT) -> list[Message]:
        """The next diagnostics published for `uri` (for its `version`, when given)."""
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri
                            and (version is None or m["params"].get("version") == version), timeout)
        return message["params"]["diagnostics"]

    def logs(self) -> list[str]:
        """The messages the server logged or showed so far."""
        self.drain()
        return [m["params"]["message"] for m in self.log if m.get("method") in ("window/logMessage",
                                                                                 "window/showMessage")]

    def drain(self, seconds: float = 0.2) -> None:
        """Take in what the server sends within `seconds`."""
        try:
            self.wait(lambda m: False, seconds)
        except AssertionError as error:
            if isinstance(error, ServerEnded):
                raise

    # -- the session ----------------------------------------------------------------------------

    def initialize(self, root: Path | None = None, options: Any = None, encodings: list[str] | None = None,
                   capabilities: Message | None = None) -> Message:
        """`initialize` (then `initialized`) as an editor sends it; returns the result."""
        given: Message = capabilities if capabilities is not None else {
            "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                             "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
                                 "quickfix", "source", "source.fixAll"]}}, "resolveSupport": {"properties": ["edit"]}},
                             "publishDiagnostics": {"versionSupport": True}},
            "workspace": {"workspaceEdit": {"documentChanges": True}, "configuration": True,
                          "didChangeWatchedFiles": {"dynamicRegistration": True}},
        }
        if encodings is not None:
            given = {**given, "general": {"positionEncodings": encodings}}
        response = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri() if root else None, "capabilities": given,
            "initializationOptions": options,
        })
        assert "result" in response, response
        self.notify("initialized", {})
        return response["result"]

    def open(self, path: Path, text: str, version: int = 1, language: str = "cuda-cpp") -> str:
        """`didOpen` of `path` with `text` (need not be on disk); returns its URI."""
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language,
                                                              "version": version, "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        """`didChange` with the whole new text."""
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def close(self, timeout: float = TIMEOUT) -> int:
        """`shutdown` and `exit`; returns the exit status."""
        response = self.request("shutdown")
        assert response.get("result", "missing") is None, response
        self.notify("exit")
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()


def apply_edits(text: str, edits: list[Message], encoding: str = "utf-16") -> str:
    """The text after LSP TextEdits, as an editor applies them: lines end at CR LF, LF or CR, and
    characters are code units of `encoding`."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text) or [""]
    starts = list(itertools.accumulate([0, *(len(line) for line in lines)]))

    def offset(position: Message) -> int:
        if position["line"] >= len(lines):
            return len(text)
        line = lines[position["line"]].rstrip("\r\n")
        units, index = 0, 0
        while index < len(line) and units < position["character"]:
            units += code_units(line[index], encoding)
            index += 1
        return starts[position["line"]] + index

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def code_units(text: str, encoding: str) -> int:
    """The length of `text` in code units of `encoding` (utf-8, utf-16 or utf-32)."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
