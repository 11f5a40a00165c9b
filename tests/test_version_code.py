"""HG201/HG202's libclang front end: lazy loading, byte offsets, the ROCm view, HG905."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_guard.cpp.scanner import scan
from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.rocm_code import code_mentions, rocm_view
from hipify_guard.model.settings import Settings

LOADED_PROBE = textwrap.dedent("""
    import sys
    from hipify_guard.cli.main import main
    sys.argv = ["hipify-guard", "check", "--no-cache", *sys.argv[1:]]  # the cache may answer without libclang
    try:
        main()
    except SystemExit:
        pass
    maps = open("/proc/self/maps").read()
    print("cindex" if "clang.cindex" in sys.modules else "-", "libclang.so" if "libclang.so" in maps else "-")
""")


def _loaded(path: Path) -> str:
    completed = subprocess.run([sys.executable, "-c", LOADED_PROBE, str(path)], capture_output=True, text=True,
                               timeout=120)
    return completed.stdout.strip().splitlines()[-1]


def test_file_without_version_api_never_loads_libclang(tmp_path: Path) -> None:
    quiet = tmp_path / "guards.cu"
    quiet.write_text("#if CUDA_VERSION >= 11000\nint cudaRuntime = 1;\n#endif\n#define V CUDART_VERSION\n")
    assert _loaded(quiet) == "- -"
    needs = tmp_path / "code.cu"
    needs.write_text("int f() { return CUDART_VERSION; }\n")
    assert _loaded(needs) == "cindex libclang.so"


def test_code_unreachable_on_rocm_never_loads_libclang(tmp_path: Path) -> None:
    path = tmp_path / "cuda_only.cu"
    path.write_text("#ifndef USE_ROCM\nint f() { int v; cudaRuntimeGetVersion(&v); return CUDART_VERSION; }\n#endif\n")
    assert _loaded(path) == "- -"


def _broken_libclang(tmp_path: Path) -> dict[str, str]:
    """A folder whose `libclang.so` is not a shared library: loading it really fails."""
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "libclang.so").write_bytes(b"not an ELF file\n")
    return {"LIBCLANG_LIBRARY_PATH": str(folder)}


def test_unloadable_libclang_is_reported_once_and_other_rules_work(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text("#if CUDA_VERSION >= 11000\n#endif\nint f() { return CUDART_VERSION; }\n")
    (tmp_path / "b.cu").write_text("int g() { int v; cudaRuntimeGetVersion(&v); return v >= 11000; }\n")
    result = run_cli("check", "--output-format", "json", str(tmp_path / "a.cu"), str(tmp_path / "b.cu"),
                     env=_broken_libclang(tmp_path))
    assert result.code == 1, result.stderr
    codes = [(Path(item["filename"]).name, item["code"]) for item in result.json()]
    assert ("a.cu", "HG101") in codes
    assert [c for c in codes if c[1] == "HG905"] == [("a.cu", "HG905")]
    assert not [c for c in codes if c[1] in ("HG201", "HG202")]
    message = next(item["message"] for item in result.json() if item["code"] == "HG905")
    assert "LIBCLANG_LIBRARY_PATH" in message and "Traceback" not in result.stderr


def test_unloadable_libclang_is_silent_when_not_needed(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text("#if CUDA_VERSION >= 11000\n#endif\n")
    result = run_cli("check", "--output-format", "json", str(tmp_path / "a.cu"), env=_broken_libclang(tmp_path))
    assert [item["code"] for item in result.json()] == ["HG101"]


def _analysis(data: bytes) -> FileAnalysis:
    return FileAnalysis("t.cu", data, Settings())


def test_rocm_view_keeps_offsets_and_blanks_what_rocm_never_compiles() -> None:
    data = (b"\xef\xbb\xbfint a;\r\n#ifndef USE_ROCM\r\nint cuda_only;\r\n#else\r\nint rocm;\r\n#endif\r\n"
            b"#if 0\r\nint never;\r\n#endif\r\n#define K 1\r\n")
    view = rocm_view(_analysis(data))
    assert len(view) == len(data)
    assert [i for i, byte in enumerate(view) if byte in b"\r\n"] == [i for i, byte in enumerate(data) if byte in b"\r\n"]
    assert view.split() == [b"\xef\xbb\xbfint", b"a;", b"int", b"rocm;", b"#define", b"K", b"1"]


def test_code_mentions_skip_directives_and_continuations() -> None:
    data = b"#define A \\\n  CUDA_VERSION\nint x = CUDA_VERSION + MY_CUDA_VERSION;\n#if CUDA_VERSION\n#endif\n"
    assert code_mentions(_analysis(data), ["CUDA_VERSION"]) == [data.index(b"= CUDA") + 2]


@pytest.fixture(scope="module")
def front():
    from hipify_guard.cpp import clang_front

    try:
        clang_front.load()
    except clang_front.Unavailable as error:
        pytest.skip(f"libclang cannot be loaded: {error}")
    return clang_front


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_token_offsets_are_the_scanners_byte_offsets(front, newline: bytes, bom: bytes) -> None:
    lines = [b"#include <x.h>", b"/* caf\xe9 \xff */ int v\xe9 = 1;", b'const char* s = "\xe9t\xe9";',
             b"#if A \\", b"  && B", b"int cuda = CUDA_VERSION;", b"#endif"]
    data = bom + newline.join(lines) + newline
    tokens = front.Parsed(data).tokens
    spans = [data[s : s + n] for s, n in zip(tokens.starts, tokens.lengths)]
    assert b"CUDA_VERSION" in spans and b'"\xe9t\xe9"' in spans and b"/* caf\xe9 \xff */" in spans
    hashes = {s for s, n in zip(tokens.starts, tokens.lengths) if data[s : s + n] == b"#"}
    assert hashes == {directive.hash for directive in scan(data).directives}
    assert tokens.starts == sorted(tokens.starts) and tokens.starts[0] == len(bom)


def test_cursor_offsets_are_byte_offsets(front) -> None:
    data = b"\xef\xbb\xbf// \xe9\r\nint f() {\r\n  int w\xe9 = 0;\r\n  int v = 0;\r\n  return v >= 11000;\r\n}\r\n"
    parsed = front.Parsed(data)
    found = []
    stack = list(parsed.tree())
    while stack:
        node = stack.pop()
        found.append(data[node.start : node.end])
        stack.extend(node.children)
    assert b"v >= 11000" in found and b"int v = 0" in found


def test_hg201_trigger_substrings_cover_every_getter() -> None:
    from hipify_guard.checks.version_code import GETTER_TRIGGERS
    from hipify_guard.cpp.clang_front import VERSION_GETTERS

    assert all(any(part in name for part in GETTER_TRIGGERS) for name in VERSION_GETTERS)


def test_cursor_kind_numbers_match_the_bindings(front) -> None:
    from clang.cindex import CursorKind

    from hipify_guard.model import version_flow as flow

    for name in ("VAR_DECL", "FIELD_DECL", "FUNCTION_DECL", "CXX_METHOD", "FUNCTION_TEMPLATE", "UNEXPOSED_EXPR",
                 "DECL_REF_EXPR", "MEMBER_REF_EXPR", "CALL_EXPR", "PAREN_EXPR", "UNARY_OPERATOR",
                 "BINARY_OPERATOR", "INIT_LIST_EXPR", "RETURN_STMT"):
        assert getattr(flow, name) == getattr(CursorKind, name).value, name
