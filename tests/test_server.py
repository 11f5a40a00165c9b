"""`hipify-guard server`, driven over stdio as an editor drives it (tests/lsp_client.py): the real
server process, JSON-RPC with Content-Length framing, files on disk where the test needs them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LanguageClient, apply_edits, code_units

from conftest import console_script, run_cli
from hipify_guard import __version__

GUARDS = (
    "#if CUDA_VERSION >= 11000\n"          # HG101: dropped on ROCm (safe fix: `&& !defined(USE_ROCM)`)
    "fast();\n"
    "#endif\n"
    "#ifdef USE_ROCM\n"
    "rocm();\n"
    "#elif CUDA_VERSION < 11000\n"          # explicit: ROCm never reaches this #elif
    "legacy();\n"
    "#endif\n"
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[LanguageClient]:
    started = LanguageClient(cwd=tmp_path)
    yield started
    started.kill()


def _listed(client: LanguageClient, uri: str, line: int, only: list[str] | None = None) -> list[dict]:
    """The code actions offered on a line (`codeAction`)."""
    context: dict = {"diagnostics": []}
    if only is not None:
        context["only"] = only
    response = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 0},
                                                "end": {"line": line, "character": 0}}, "context": context})
    assert "result" in response, response
    return response["result"] or []


def _actions(client: LanguageClient, uri: str, line: int, only: list[str] | None = None) -> list[dict]:
    """The actions on a line with their edits, resolved as an editor resolves the one it picks
    (`codeAction/resolve`); an action whose edit could not be proven is left out."""
    resolved = []
    for action in _listed(client, uri, line, only):
        if "edit" not in action:
            action = client.request("codeAction/resolve", action)["result"]
        if "edit" in action:
            resolved.append(action)
    return resolved


def _edits(action: dict) -> list[dict]:
    """The edits of an action's WorkspaceEdit (`documentChanges`, or `changes` for old clients)."""
    edit = action["edit"]
    if "documentChanges" in edit:
        return [e for change in edit["documentChanges"] for e in change["edits"]]
    return [e for edits in edit["changes"].values() for e in edits]


def _hover(client: LanguageClient, uri: str, line: int, character: int = 1) -> dict | None:
    response = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": {"line": line, "character": character}})
    assert "result" in response, response
    return response["result"]


def test_an_editing_session_from_open_to_exit(client: LanguageClient, tmp_path: Path) -> None:
    """initialize, didOpen, diagnostics, the quick fix applied, didChange, no diagnostics, hover, exit."""
    result = client.initialize(tmp_path)
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "hipify-guard"
    assert capabilities["positionEncoding"] == "utf-16"  # the client offered nothing else
    assert capabilities["textDocumentSync"]["change"] == 1  # the whole text: lines as the checker counts them
    assert capabilities["codeActionProvider"]["codeActionKinds"] == ["quickfix", "source.fixAll.hipify-guard"]
    assert capabilities["hoverProvider"]

    source = tmp_path / "src" / "kernel.cu"
    uri = client.open(source, GUARDS)
    [finding] = client.diagnostics(uri, 1)
    assert finding["code"] == "HG101" and finding["source"] == "hipify-guard" and finding["severity"] == 1
    assert finding["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 25}}

    actions = _actions(client, uri, 0)
    titles = [action["title"] for action in actions]
    assert titles == ["hipify-guard (HG101): Exclude ROCm explicitly with `defined(USE_ROCM)`",
                      "hipify-guard (HG101): suppress with a comment", "hipify-guard: fix all (safe fixes)"]
    fix = actions[0]
    assert fix["kind"] == "quickfix" and fix["isPreferred"] and fix["diagnostics"][0]["code"] == "HG101"
    assert fix["edit"]["documentChanges"][0]["textDocument"] == {"uri": uri, "version": 1}
    fixed = apply_edits(GUARDS, _edits(fix))
    assert fixed.splitlines()[0] == "#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)"
    assert fixed.splitlines()[1:] == GUARDS.splitlines()[1:]

    client.change(uri, fixed, 2)
    assert client.diagnostics(uri, 2) == []
    assert _actions(client, uri, 0) == []

    shown = _hover(client, uri, 0)
    assert shown["contents"]["kind"] == "markdown"
    text = shown["contents"]["value"]
    assert "#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)" in text
    assert "| CUDA | depends on the build" in text
    assert "| ROCm, native HIP (hip) | false |" in text and "| ROCm, PyTorch's hipify (torch-hipify) | false |" in text
    assert shown["range"]["start"] == {"line": 0, "character": 0}
    elif_hover = _hover(client, uri, 5)["contents"]["value"]
    assert "#elif CUDA_VERSION < 11000" in elif_hover
    assert "not reached (an enclosing condition excludes it)" in elif_hover
    assert _hover(client, uri, 1) is None  # `fast();` is no directive

    assert client.close() == 0
    assert not source.exists()  # the server never writes: the editor applies the edits


def test_the_suppression_comment_is_one_check_accepts(client: LanguageClient, tmp_path: Path) -> None:
    client.initialize(tmp_path)
    text = ("#if CUDA_VERSION >= 11000  // old toolkits\nfast();\n#endif\n"
            "#if CUDART_VERSION >= 11000 && \\\n  X\n#endif\n")
    uri = client.open(tmp_path / "a.cu", text)
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101", "HG101"]
    suppress = [a for a in _actions(client, uri, 4) if "suppress" in a["title"]]
    assert len(suppress) == 1 and not suppress[0].get("isPreferred")
    once = apply_edits(text, _edits(suppress[0]))
    assert once.splitlines()[3:5] == ["#if CUDART_VERSION >= 11000 && \\", "  X  // hipify-guard: ignore[HG101]"]
    client.change(uri, once, 2)
    assert [d["range"]["start"]["line"] for d in client.diagnostics(uri, 2)] == [0]
    twice = apply_edits(once, _edits(next(a for a in _actions(client, uri, 0) if "suppress" in a["title"])))
    assert twice.splitlines()[0] == "#if CUDA_VERSION >= 11000  // old toolkits  // hipify-guard: ignore[HG101]"
    client.change(uri, twice, 3)
    assert client.diagnostics(uri, 3) == []
    (tmp_path / "a.cu").write_text(twice)
    assert run_cli("check", "--isolated", str(tmp_path / "a.cu")).code == 0  # `check` agrees


def test_actions_are_listed_at_once_and_proven_when_picked(client: LanguageClient, tmp_path: Path) -> None:
    """A client that resolves actions gets them without edits (no proof yet: cheap on every cursor
    move); the proof comes with `codeAction/resolve`, and a failed one says why."""
    assert client.initialize(tmp_path)["capabilities"]["codeActionProvider"]["resolveProvider"]
    text = "#if CUDA_VERSION >= 11000 // hipify-guard: ignore[HG102]\n#endif\n"
    uri = client.open(tmp_path / "a.cu", text)
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101", "HG902"]
    listed = _listed(client, uri, 0)
    assert [a["title"] for a in listed] == [
        "hipify-guard (HG101): Exclude ROCm explicitly with `defined(USE_ROCM)`",
        "hipify-guard (HG101): suppress with a comment",
        "hipify-guard (HG902): Remove the unused suppression",
        "hipify-guard (HG902): suppress with a comment",
        "hipify-guard: fix all (safe fixes)",
    ]
    assert not any("edit" in action for action in listed)
    proven = client.request("codeAction/resolve", listed[2])["result"]
    assert apply_edits(text, _edits(proven)) == "#if CUDA_VERSION >= 11000\n#endif\n"
    refused = client.request("codeAction/resolve", listed[3])["result"]
    assert "edit" not in refused
    shown = client.wait(lambda m: m.get("method") == "window/showMessage")["params"]
    assert shown["type"] == 2 and "no comment could be proven to suppress HG902 at line 1" in shown["message"]
    client.change(uri, text + "\n", 2)
    client.diagnostics(uri, 2)
    stale = client.request("codeAction/resolve", listed[0])["result"]
    assert "edit" not in stale
    shown = client.wait(lambda m: m.get("method") == "window/showMessage")["params"]
    assert "the document changed" in shown["message"]
    assert "error" not in client.request("codeAction/resolve", {"title": "not ours", "data": [1]})


def test_fix_all_gives_what_check_fix_writes(client: LanguageClient, tmp_path: Path) -> None:
    text = ("#if CUDA_VERSION >= 11000\n#endif\r\n#if CUDA_VERSION < 11000\n#endif\n"
            "// é 😀\n#if CUDA_VERSION >= 12000\n#endif\n")
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "all.cuh", text)
    assert len(client.diagnostics(uri, 1)) == 3
    [fix_all] = _actions(client, uri, 0, only=["source.fixAll"])
    assert fix_all["kind"] == "source.fixAll.hipify-guard"
    assert len(_edits(fix_all)) == 3  # one per changed line, not the whole buffer
    (tmp_path / "all.cuh").write_bytes(text.encode())
    assert run_cli("check", "--fix", "--isolated", str(tmp_path / "all.cuh")).code == 0
    assert apply_edits(text, _edits(fix_all)).encode() == (tmp_path / "all.cuh").read_bytes()
    assert _actions(client, uri, 0, only=["refactor"]) == []


def test_unsafe_fixes_are_offered_only_when_configured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\npolicy = "exclude"\n')
    text = "#if CUDA_VERSION < 11000\n#endif\n"
    titles = {}
    for unsafe in (False, True):
        client = LanguageClient(cwd=tmp_path)
        try:
            client.initialize(tmp_path, options={"unsafeFixes": unsafe})
            uri = client.open(tmp_path / "a.cu", text)
            assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG102"]
            actions = _actions(client, uri, 0)
            titles[unsafe] = [a["title"] for a in actions]
            if unsafe:
                fixed = apply_edits(text, _edits(actions[0]))
                assert fixed.splitlines()[0] == "#if CUDA_VERSION < 11000 && !defined(USE_ROCM)"
                assert not actions[0].get("isPreferred")
        finally:
            client.kill()
    assert titles[False] == ["hipify-guard (HG102): suppress with a comment"]
    assert titles[True][0].endswith("(unsafe: changes ROCm's branch)")
    assert titles[True][-1] == "hipify-guard: fix all (safe and unsafe fixes)"


def test_configuration_is_looked_up_as_check_does(client: LanguageClient, tmp_path: Path) -> None:
    """The closest configuration file of the document's folder; edits to it count from the next
    check; a broken one is an error diagnostic that names it, not a dead server."""
    project = tmp_path / "project"
    (project / "lib").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.hipify-guard]\nignore = ["HG101"]\n')
    (project / "lib" / ".hipify-guard.toml").write_text('extend-select = ["HG101"]\nextensions = ["cu", "kernel"]\n')
    client.initialize(tmp_path)
    top = client.open(project / "top.cu", GUARDS)
    assert client.diagnostics(top, 1) == []
    nested = client.open(project / "lib" / "x.kernel", GUARDS)  # an extension only its configuration names
    assert [d["code"] for d in client.diagnostics(nested, 1)] == ["HG101"]
    other = client.open(project / "top.kernel", GUARDS)
    assert client.diagnostics(other, 1) == []  # not an extension of its configuration: not checked

    (project / "pyproject.toml").write_text('[tool.hipify-guard]\nignroe = ["HG101"]\n')
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (project / "pyproject.toml").as_uri(),
                                                                   "type": 2}]})
    [broken] = client.diagnostics(top, 1)
    assert broken["severity"] == 1 and "configuration error" in broken["message"] and "ignroe" in broken["message"]
    assert "pyproject.toml" in broken["message"]

    (project / "pyproject.toml").write_text("")
    client.notify("textDocument/didSave", {"textDocument": {"uri": top}})
    assert [d["code"] for d in client.diagnostics(top, 1)] == ["HG101"]
    assert client.close() == 0


def test_the_client_registers_for_configuration_files(client: LanguageClient, tmp_path: Path) -> None:
    client.initialize(tmp_path)
    registration = client.wait(lambda m: m.get("method") == "client/registerCapability")
    [entry] = registration["params"]["registrations"]
    assert entry["method"] == "workspace/didChangeWatchedFiles"
    patterns = {watcher["globPattern"] for watcher in entry["registerOptions"]["watchers"]}
    assert patterns == {"**/pyproject.toml", "**/.hipify-guard.toml", "**/hipify-guard.toml"}


def test_settings_from_the_editor_apply_and_are_checked(client: LanguageClient, tmp_path: Path) -> None:
    root = tmp_path / "workspace"  # (the server runs in tmp_path)
    client.initialize(root, options={"unsafeFixes": "yes", "colour": 1})
    uri = client.open(root / "a.cu", GUARDS)
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101"]
    logged = " ".join(client.logs())
    assert "option 'unsafeFixes' must be a bool" in logged and "unknown option 'colour'" in logged

    client.notify("workspace/didChangeConfiguration", {"settings": {"hipify-guard": {"settings": {"ignore": ["HG1"]}}}})
    assert client.diagnostics(uri, 1) == []
    client.notify("workspace/didChangeConfiguration", {"settings": {"editor": {"tabSize": 4}}})  # not ours: no change
    client.notify("workspace/didChangeConfiguration", {"settings": {"hipify-guard": {"settings": {"selekt": ["HG1"]}}}})
    [error] = client.diagnostics(uri, 1)
    assert "configuration error" in error["message"] and "selekt" in error["message"]
    client.notify("workspace/didChangeConfiguration", {"settings": {"hipify-guard": {"isolated": True}}})
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101"]
    (root / "ci").mkdir(parents=True)
    (root / "ci" / "guards.toml").write_text('ignore = ["HG101"]\n')
    client.notify("workspace/didChangeConfiguration", {"settings": {"hipify-guard": {"config": "ci/guards.toml"}}})
    assert client.diagnostics(uri, 1) == []  # relative to the workspace's root, not to the server's folder
    client.notify("workspace/didChangeConfiguration", {"settings": {"hipify-guard": {"config": "ci/missing.toml"}}})
    [missing] = client.diagnostics(uri, 1)
    assert "configuration error" in missing["message"] and "missing.toml" in missing["message"]


def test_excluded_files_and_unsaved_buffers(client: LanguageClient, tmp_path: Path) -> None:
    """Exclusions apply as in `check`; the text checked is the editor's, not the file on disk."""
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\nextend-exclude = ["third_party/"]\n')
    client.initialize(tmp_path)
    vendored = client.open(tmp_path / "third_party" / "k.cu", GUARDS)
    assert client.diagnostics(vendored, 1) == []
    on_disk = tmp_path / "clean.cu"
    on_disk.write_text("int clean;\n")
    uri = client.open(on_disk, GUARDS)
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101"]
    untitled = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": untitled, "languageId": "cuda-cpp", "version": 1,
                                                            "text": GUARDS}})
    assert client.diagnostics(untitled, 1) == []  # no file name: nothing says it is a source `check` takes
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []
    assert on_disk.read_text() == "int clean;\n"


@pytest.mark.parametrize(("offered", "chosen"), [
    (None, "utf-16"), (["utf-16", "utf-8"], "utf-8"), (["utf-32"], "utf-32"), (["utf-32", "utf-16"], "utf-32"),
])
def test_positions_on_lines_with_non_ascii_text(tmp_path: Path, offered: list[str] | None, chosen: str) -> None:
    """Columns are the negotiated code units (UTF-16 by default): after `é` (2 bytes, 1 unit) and
    `😀` (4 bytes, 2 UTF-16 units), ranges and edits still land on the directive's bytes."""
    prefix = "/* é 😀 */ "
    text = f"int café = 1; // 😀\n{prefix}#if CUDA_VERSION >= 11000 // ü\nfast();\n#endif\n"
    client = LanguageClient(cwd=tmp_path)
    try:
        assert client.initialize(tmp_path, encodings=offered)["capabilities"]["positionEncoding"] == chosen
        uri = client.open(tmp_path / "a.cu", text)
        [finding] = client.diagnostics(uri, 1)
        start = code_units(prefix, chosen)
        assert finding["range"] == {"start": {"line": 1, "character": start},
                                    "end": {"line": 1, "character": start + len("#if CUDA_VERSION >= 11000")}}
        fix, suppress, _ = _actions(client, uri, 1)
        assert apply_edits(text, _edits(fix), chosen).splitlines()[1] == (
            f"{prefix}#if CUDA_VERSION >= 11000 && !defined(USE_ROCM) // ü")
        assert apply_edits(text, _edits(suppress), chosen).splitlines()[1] == (
            f"{prefix}#if CUDA_VERSION >= 11000 // ü  // hipify-guard: ignore[HG101]")
        assert "#if CUDA_VERSION >= 11000" in _hover(client, uri, 1, start + 2)["contents"]["value"]
    finally:
        client.kill()


def test_hover_is_plain_text_for_clients_without_markdown(client: LanguageClient, tmp_path: Path) -> None:
    client.initialize(tmp_path, capabilities={})
    text = "#if defined(CUDA_VERSION) && \\\n    CUDA_VERSION >= 11000\n#endif\n#if FOO(\n#endif\n"
    uri = client.open(tmp_path / "a.cu", text)
    client.diagnostics(uri, 1)
    shown = _hover(client, uri, 1)  # on the continuation line
    assert shown["contents"]["kind"] == "plaintext"
    evaluated = run_cli("eval", "--isolated", "defined(CUDA_VERSION) && CUDA_VERSION >= 11000", cwd=tmp_path)
    outcomes = [line for line in evaluated.stdout.splitlines() if line.startswith(("CUDA:", "ROCm, "))]
    assert len(outcomes) == 3
    assert shown["contents"]["value"].splitlines() == ["#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000", *outcomes]
    assert shown["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 25}}
    broken = _hover(client, uri, 3)["contents"]["value"]
    assert "the condition does not parse" in broken and "unknown" in broken
    assert client.request("textDocument/codeAction", {  # `changes`, for a client without documentChanges
        "textDocument": {"uri": uri}, "context": {"diagnostics": []},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}})["result"][0]["edit"]["changes"][uri]


def test_malformed_messages_get_answers_and_the_server_goes_on(client: LanguageClient, tmp_path: Path) -> None:
    client.initialize(tmp_path)
    client.send_bytes(b"{this is not json")
    parse_error = client.wait(lambda m: "error" in m and m.get("id", 0) is None)
    assert parse_error["error"]["code"] == -32700
    client.send_bytes(b'{"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {"textDocument": 3}}')
    assert client.wait(lambda m: m.get("id") == 5)["error"]["code"] == -32602  # bad params
    assert client.request("hipify-guard/noSuchMethod", {})["error"]["code"] == -32601
    client.send_bytes(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": 1}}}')
    client.send_bytes(b"[" * 100_000 + b"]" * 100_000)  # deeper than any JSON parser recurses
    assert client.wait(lambda m: "error" in m and m.get("id", 0) is None)["error"]["code"] == -32700
    for not_a_message in (b"[1, 2]", b'"text"', b'{"id": 9, "method": "shutdown"}'):  # (no "jsonrpc")
        client.send_bytes(not_a_message)
        assert client.wait(lambda m: "error" in m and m.get("id", 0) is None)["error"]["code"] == -32600
    wrong = (None, [], 7, "x", {"textDocument": {"uri": "file:///nowhere.cu"}, "position": {"line": -1}},
             {"textDocument": {"uri": "file:///nowhere.cu", "version": 2}, "contentChanges": [{"text": 1}]})
    for method in ("textDocument/hover", "textDocument/codeAction"):
        for params in wrong:
            assert "error" in client.request(method, params) or params == wrong[4], (method, params)
    for method in ("textDocument/didChange", "textDocument/didSave", "workspace/didChangeConfiguration",
                   "textDocument/didClose", "workspace/didChangeWatchedFiles"):
        for params in wrong:
            client.notify(method, params)
    client.drain(1.0)
    assert any("malformed notification" in line for line in client.logs())
    uri = client.open(tmp_path / "after.cu", GUARDS)  # and it still works
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["HG101"]
    assert _hover(client, uri, 0) is not None
    assert client.close() == 0


def test_text_that_is_not_unicode(client: LanguageClient, tmp_path: Path) -> None:
    """Invalid UTF-8 in a message makes it unreadable (a parse error, logged); lone surrogates in
    JSON are checked as U+FFFD with a warning, positions unchanged, and never written back."""
    client.initialize(tmp_path)
    broken = tmp_path / "latin1.cu"
    client.send_bytes(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "%s", '
                      b'"languageId": "cuda", "version": 1, "text": "#if X \xff\xfe"}}}' % broken.as_uri().encode())
    assert client.wait(lambda m: "error" in m and m.get("id", 0) is None)["error"]["code"] == -32700
    assert any("not JSON in UTF-8" in line for line in client.logs())

    uri = (tmp_path / "surrogate.cu").as_uri()
    body = ('{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "%s", '
            '"languageId": "cuda", "version": 1, "text": "/* \\udc80 */ #if CUDA_VERSION >= 11000 // hipify-guard: '
            'ignore[HG102] \\ud800\\n#endif\\n"}}}' % uri)
    client.send_bytes(body.encode("ascii"))
    found = {d.get("code"): d for d in client.diagnostics(uri, 1)}
    assert found["HG101"]["range"]["start"] == {"line": 0, "character": len("/* \udc80 */ ")}
    assert "2 characters are not valid Unicode" in found[None]["message"]
    assert found[None]["range"]["start"] == {"line": 0, "character": 3}
    actions = {a["title"]: a for a in _actions(client, uri, 0)}
    fixed = apply_edits("/* \udc80 */ #if CUDA_VERSION >= 11000 // hipify-guard: ignore[HG102] \ud800\n#endif\n",
                        _edits(actions["hipify-guard (HG101): Exclude ROCm explicitly with `defined(USE_ROCM)`"]))
    assert fixed.startswith("/* \udc80 */ #if CUDA_VERSION >= 11000 && !defined(USE_ROCM) //")
    assert "\ufffd" not in "".join(e["newText"] for a in actions.values() for e in _edits(a))
    assert client.close() == 0


def test_other_commands_do_not_import_the_server(tmp_path: Path) -> None:
    """pygls and lsprotocol cost start-up time: only `hipify-guard server` imports them."""
    (tmp_path / "a.cu").write_text(GUARDS)
    for args in (["--version"], ["--help"], ["check", "--help"], ["check", "--exit-zero", "--no-cache", str(tmp_path)]):
        imports = subprocess.run([sys.executable, "-X", "importtime", "-m", "hipify_guard", *args],
                                 capture_output=True, text=True, timeout=120).stderr
        assert "hipify_guard" in imports
        assert not [line for line in imports.splitlines() if "pygls" in line or "lsprotocol" in line], args


def test_the_server_command_accepts_stdio_and_documents_itself() -> None:
    result = run_cli("server", "--help")
    assert result.code == 0 and "--stdio" in result.stdout and "language server" in result.stdout
    client = LanguageClient(command=[*console_script(), "server", "--stdio"])
    try:
        response = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert response["result"]["serverInfo"] == {"name": "hipify-guard", "version": __version__}
        client.notify("exit")  # without shutdown: status 1, as the protocol says
        assert client.process.wait(60) == 1
    finally:
        client.kill()
