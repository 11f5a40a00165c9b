"""libclang as the C++ front end for code outside directives (spec §10).

`clang.cindex` is imported and its shared library loaded on first use only: a run that never
needs C++ code never pays for it. A file is parsed from its bytes as an unsaved file with its
includes unresolved, plus a small built-in stub header (`-include`) that declares the version
APIs, so that their calls are real CALL_EXPRs. Tokens come from the raw `clang_tokenize` array:
their offsets and lengths index the caller's bytes (Token.spelling decodes UTF-8 and raises on a
latin-1 file). Every offset handed out is a byte offset into the bytes that were parsed.
"""

from __future__ import annotations

import array
import atexit
import ctypes
import os
from bisect import bisect_left
from dataclasses import field
from typing import Any

from ..core.records import record
from .version_getters import VERSION_GETTERS

_DIRECTORY = "/__hipify_guard__"  # never exists: quoted includes stay unresolved
SOURCE_NAME = f"{_DIRECTORY}/source.cu"
STUB_NAME = f"{_DIRECTORY}/version_apis.h"
_CUDA_KEYWORDS = b"""\
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
struct dim3 { dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1); };
extern "C" int __cudaPushCallConfiguration(dim3, dim3, unsigned long = 0, void* = 0);
"""
# The status a getter returns is compared with these: undeclared, they make error recovery drop
# the whole comparison, getter call included (`if (cudaDriverGetVersion(&v) != cudaSuccess)`).
_STATUS = b"""typedef int cudaError_t; typedef int CUresult; typedef int hipError_t; typedef int nvrtcResult;
enum { cudaSuccess, CUDA_SUCCESS, hipSuccess, NVRTC_SUCCESS };
"""
# Variadic, so that any argument list (an unresolved handle type, say) still makes a call.
STUB = _CUDA_KEYWORDS + _STATUS + b"".join(b'extern "C" int %s(...);\n' % name.encode() for name in VERSION_GETTERS)
ARGUMENTS = (
    "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--no-cuda-version-check",
    "-nostdinc", "-nostdinc++", "-std=c++17", "-w", "-ferror-limit=0", "-include", STUB_NAME,
)
KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: a missing include does not stop the parse
SKIP_FUNCTION_BODIES = 0x40  # CXTranslationUnit_SkipFunctionBodies
IDENTIFIER, LITERAL, COMMENT = 2, 3, 4  # CXTokenKind
_MACRO_BIT = 1 << 31  # SourceLocation raw encoding: set for macro-expansion locations
_TOKEN_WORDS = ctypes.sizeof(ctypes.c_uint * 4) // 4 + ctypes.sizeof(ctypes.c_void_p) // 4


class Unavailable(Exception):
    """libclang could not be imported or loaded (the reason is remembered for the process)."""


class ParseFailure(Unavailable):
    """libclang is loaded but returned no translation unit for one file."""


@record(slots=True)
class Tokens:
    """The raw tokens of the parsed bytes, in order: kind, start offset, length."""

    kinds: array.array
    starts: list[int]
    lengths: array.array

    def index_at(self, offset: int) -> int:
        """Index of the first token that starts at or after `offset`."""
        return bisect_left(self.starts, offset)


@record(frozen=False, slots=True, eq=False)
class Node:
    """A cursor of the main file: its kind, byte span, children and the libclang cursor."""

    kind: int
    start: int
    end: int
    cursor: Any = field(repr=False)
    children: list[Node] = field(default_factory=list, repr=False)


_state: dict[str, Any] = {}


def load() -> Any:
    """`clang.cindex` with its shared library loaded and an index; raises Unavailable (cached)."""
    if "error" in _state:
        raise Unavailable(_state["error"])
    if "cindex" not in _state:
        try:
            from clang import cindex

            cindex.conf.lib  # noqa: B018 - loads the shared library now
            _state["index"] = cindex.Index.create()
            # Dispose of it before interpreter teardown, while clang.cindex can still do so
            # (otherwise Index.__del__ prints an AttributeError at exit).
            atexit.register(_state.pop, "index", None)
        except Exception as error:  # noqa: BLE001 - ImportError, LibclangError, OSError...
            _state["error"] = _describe(error)
            raise Unavailable(_state["error"]) from None
        _state["cindex"] = cindex
    return _state["cindex"]


def _describe(error: Exception) -> str:
    text = " ".join(str(error).split()).split(". To provide a path to libclang")[0] or type(error).__name__
    where = os.environ.get("LIBCLANG_LIBRARY_PATH")
    if isinstance(error, ImportError):
        text = "the Python package `libclang` is not installed"
    elif where:
        text += f" (LIBCLANG_LIBRARY_PATH={where})"
    return text


class Parsed:
    """One parsed buffer: its tokens, and on demand the tree of its cursors."""

    def __init__(self, data: bytes, *, bodies: bool = True) -> None:
        cindex = load()
        options = KEEP_GOING if bodies else KEEP_GOING | SKIP_FUNCTION_BODIES
        try:
            self.unit = cindex.TranslationUnit.from_source(
                SOURCE_NAME, list(ARGUMENTS), unsaved_files=[(SOURCE_NAME, data), (STUB_NAME, STUB)],
                options=options, index=_state["index"],
            )
        except cindex.TranslationUnitLoadError as error:
            raise ParseFailure(f"libclang could not parse this file: {error}") from None
        self.data = data
        lib = cindex.conf.lib
        self._file = self.unit.get_file(SOURCE_NAME)
        self._base = lib.clang_getLocationForOffset(self.unit, self._file, 0).int_data
        self.tokens = self._tokenize(lib, cindex)

    def _tokenize(self, lib: Any, cindex: Any) -> Tokens:
        start = lib.clang_getLocationForOffset(self.unit, self._file, 0)
        end = lib.clang_getLocationForOffset(self.unit, self._file, len(self.data))
        memory, count = ctypes.POINTER(cindex.Token)(), ctypes.c_uint()
        lib.clang_tokenize(self.unit, lib.clang_getRange(start, end), ctypes.byref(memory), ctypes.byref(count))
        try:
            words = array.array("I", ctypes.string_at(memory, count.value * _TOKEN_WORDS * 4))
        finally:
            lib.clang_disposeTokens(self.unit, memory, count)
        base = self._base
        starts = [location - base for location in words[1::_TOKEN_WORDS]]
        return Tokens(words[0::_TOKEN_WORDS], starts, words[2::_TOKEN_WORDS])

    def text(self, start: int, end: int) -> bytes:
        """The parsed bytes of a span."""
        return self.data[start:end]

    def token_after(self, offset: int) -> bytes:
        """The first token (comments skipped) that starts at or after `offset` (b"" if none)."""
        tokens = self.tokens
        for index in range(tokens.index_at(offset), len(tokens.starts)):
            if tokens.kinds[index] != COMMENT:
                start = tokens.starts[index]
                return self.data[start : start + tokens.lengths[index]]
        return b""

    def cursor_kind_at(self, offset: int) -> int:
        """The kind of the innermost cursor at a byte offset (CXCursorKind)."""
        lib = _state["cindex"].conf.lib
        location = lib.clang_getLocationForOffset(self.unit, self._file, offset)
        return lib.clang_getCursor(self.unit, location)._kind_id

    def integer(self, node: Node) -> int | None:
        """The value of an integer constant expression (`11000`, `11 * 1000`, a constexpr name)."""
        lib = _state["cindex"].conf.lib
        result = _evaluate(lib)(node.cursor)
        if not result:
            return None
        try:
            return lib.clang_EvalResult_getAsLongLong(result) if lib.clang_EvalResult_getKind(result) == 1 else None
        finally:
            lib.clang_EvalResult_dispose(result)

    def offset(self, location: Any) -> int:
        """Byte offset of a SourceLocation in the parsed bytes, or -1 if it is in another file."""
        raw = location.int_data
        if raw & _MACRO_BIT:  # inside a macro expansion: where the macro was used
            file = location.file
            return location.offset if file is not None and file.name == SOURCE_NAME else -1
        offset = raw - self._base
        return offset if 0 <= offset <= len(self.data) else -1

    def tree(self) -> list[Node]:
        """The top-level cursors of the main file, each with its subtree."""
        if not hasattr(self, "_tree"):
            self._tree = _build_tree(self)
        return self._tree


def _evaluate(lib: Any) -> Any:
    """`clang_Cursor_Evaluate`, which the Python bindings do not declare."""
    function = lib.clang_Cursor_Evaluate
    if function.restype is not ctypes.c_void_p:
        function.argtypes = [_state["cindex"].Cursor]
        function.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    return function


def _build_tree(parsed: Parsed) -> list[Node]:
    """Every cursor of the main file, in one libclang-driven walk (no Python recursion).

    Raises ParseFailure if reading a cursor fails (a ctypes callback must not raise).
    """
    cindex = _state["cindex"]
    lib = cindex.conf.lib
    roots: list[Node] = []
    stack: list[tuple[Any, Node | None]] = [(parsed.unit.cursor, None)]
    failures: list[Exception] = []

    def visit(child: Any, parent: Any, _data: Any) -> int:
        try:
            return _visit(parsed, lib, stack, roots, child, parent)
        except Exception as error:  # noqa: BLE001 - reported after the walk
            failures.append(error)
            return 0  # CXChildVisit_Break

    lib.clang_visitChildren(parsed.unit.cursor, cindex.callbacks["cursor_visit"](visit), None)
    if failures:
        raise ParseFailure(f"libclang's syntax tree could not be read: {failures[0]}")
    return roots


def _visit(parsed: Parsed, lib: Any, stack: list[tuple[Any, Node | None]], roots: list[Node],
           child: Any, parent: Any) -> int:
    while stack[-1][1] is not None and not lib.clang_equalCursors(stack[-1][0], parent):
        stack.pop()
    extent = lib.clang_getCursorExtent(child)
    start = parsed.offset(lib.clang_getRangeStart(extent))
    end = parsed.offset(lib.clang_getRangeEnd(extent))
    if start < 0 or end < 0:
        return 1  # CXChildVisit_Continue: the stub header or the predefines, with its subtree
    child._tu = parsed.unit
    node = Node(child._kind_id, start, end, child)
    owner = stack[-1][1]
    (roots if owner is None else owner.children).append(node)
    stack.append((child, node))
    return 2  # CXChildVisit_Recurse
