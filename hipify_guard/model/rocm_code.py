"""The C++ code (not directives) that some ROCm model compiles, located with the scanner alone.

`code_mentions` is the cheap gate in front of libclang: where names occur outside directives in
code reachable on ROCm. `MacroExpansions` says whether a macro is expanded only in code no ROCm
model compiles. `rocm_view` is what libclang parses: the file's bytes with every
conditional directive and all code no ROCm model compiles blanked (bytes become spaces, line
breaks stay), so offsets are unchanged and the parser sees exactly the ROCm-reachable code.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator

from ..cpp.scanner import Directive
from .analysis import FileAnalysis
from .code_tokens import define_head

_IDENTIFIER = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BLANK = bytes(byte if byte in b"\r\n" else 0x20 for byte in range(256))


class DirectiveLines:
    """Which offsets lie on a directive's logical line (continuation lines included)."""

    def __init__(self, directives: tuple[Directive, ...]) -> None:
        self.directives = directives
        self.hashes = [d.hash for d in directives]

    def __contains__(self, offset: int) -> bool:
        index = bisect_right(self.hashes, offset) - 1
        return index >= 0 and offset < self.directives[index].end


def reachable_on_rocm(file: FileAnalysis, offset: int) -> bool:
    """Whether some ROCm model compiles the code at `offset` (its directive path condition, and
    no `#error` before it that stops ROCm)."""
    return bool(file.rocm_models_at(offset))


class Comments:
    """Which offsets lie inside a comment the scanner found."""

    def __init__(self, spans: tuple[tuple[int, int], ...]) -> None:
        self.spans = spans
        self.starts = [start for start, _ in spans]

    def __contains__(self, offset: int) -> bool:
        index = bisect_right(self.starts, offset) - 1
        return index >= 0 and offset < self.spans[index][1]


def _whole_words(data: bytes, word: bytes) -> Iterator[int]:
    """Offsets of `word` in `data` where it is a whole identifier."""
    position = data.find(word)
    while position >= 0:
        end = position + len(word)
        before, after = data[position - 1 : position], data[end : end + 1]
        if not (before and before[0] in _IDENTIFIER) and not (after and after[0] in _IDENTIFIER):
            yield position
        position = data.find(word, end)


def code_mentions(file: FileAnalysis, names: Iterable[str]) -> list[int]:
    """Offsets of whole-word `names` outside directives and comments, in code reachable on ROCm,
    in order. (A name in a comment is no use: a 100 MB file that says CUDA_VERSION in one comment
    cost a 3.4 GB libclang parse.)"""
    directives = DirectiveLines(file.scan.directives)
    comments = Comments(file.scan.comments)
    return sorted(position for name in names for position in _whole_words(file.data, name.encode())
                  if position not in directives and position not in comments and reachable_on_rocm(file, position))


class MacroExpansions:
    """Where one file expands its macros, judged once per macro."""

    def __init__(self, file: FileAnalysis) -> None:
        self.file = file
        self.lines = DirectiveLines(file.scan.directives)
        self.comments = Comments(file.scan.comments)
        self._off_rocm: dict[bytes, bool] = {}

    def only_off_rocm(self, name: bytes) -> bool:
        """Whether the file expands the macro `name`, and only in code no ROCm model compiles: then
        what its replacement list names is never compiled on ROCm (cutlass's
        `CUTLASS_CUDA_DRIVER_WRAPPER_DECL`, expanded only under `__CUDACC_VER_MAJOR__ >= 12`). A
        macro the file never expands (it is for the files that include it), or that another
        `#define` names, may be expanded anywhere."""
        if name not in self._off_rocm:
            self._off_rocm[name] = self._judge(name)
        return self._off_rocm[name]

    def _judge(self, name: bytes) -> bool:
        file, directives = self.file, self.file.scan.directives
        expanded = False
        for position in _whole_words(file.data, name):
            if position in self.comments:
                continue
            if position in self.lines:
                directive = directives[bisect_right(self.lines.hashes, position) - 1]
                head = define_head(file.data, directive) if directive.kind == "define" else None
                if head is not None and position >= head[1]:
                    return False  # another macro's replacement list names it
            elif reachable_on_rocm(file, position):
                return False
            else:
                expanded = True
        return expanded


def rocm_view(file: FileAnalysis) -> bytes:
    """The bytes libclang parses: conditional directives and ROCm-unreachable code blanked."""
    view = bytearray(file.data)

    def blank(start: int, end: int) -> None:
        view[start:end] = file.data[start:end].translate(_BLANK)

    previous_end = 0
    for directive in file.scan.directives:
        if previous_end < directive.hash and not reachable_on_rocm(file, previous_end):
            blank(previous_end, directive.hash)
        if directive.is_conditional or not reachable_on_rocm(file, directive.hash):
            blank(directive.hash, directive.end)
        previous_end = directive.end
    if previous_end < len(view) and not reachable_on_rocm(file, previous_end):
        blank(previous_end, len(view))
    return bytes(view)
