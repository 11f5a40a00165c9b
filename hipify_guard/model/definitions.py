"""Names the checked code defines itself: a ROCm shim's `cudaFoo` is the project's, not the CUDA API.

A *definition* is a `#define NAME`, or, in the code between directives (comments and literals
left out), one of these shapes of C/C++ declarations:

- `typedef ... NAME;` (also `NAME,`, `NAME[`, `(*NAME)(...)`, `typedef struct {...} NAME;`),
  `using NAME = ...`, `namespace NAME {` or `namespace NAME = ...`;
- `struct`, `class`, `union` or `enum [class]` `NAME` followed by `{`, `:`, `;` or `final`, and
  each enumerator of an `enum { ... }`;
- a function declared or defined: `TYPE... NAME(...)` followed by `{`, `;`, `:`, `=`, `->`, a
  qualifier..., where at least one type or specifier token (`int`, `__device__`, `T*`,
  `std::vector<T>`, `template <...>`) comes between NAME (with its `A::` qualifiers) and the
  start of the statement (`;`, `{`, `}`, `:`): `return f(x);`, `x = f(y);`, `CHECK(f(x));` and
  `obj.f(x);` are calls; a function pointer `TYPE (*NAME)(...)` too;
- a `const` or `constexpr` variable `TYPE... NAME =` (or `;`, `{`, `[`).

`Definitions.defines(name)` says whether the name is in the file's `Settings.header_definitions`
(what the project headers it includes define: the one place where names from outside the file
come in), or some definition of it lies in code that a ROCm model compiles. A definition line
of a branch that ROCm compiles is thus never a use of the API. Tokens are made once per file,
when first needed: the rules ask last, for what they would report.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from collections.abc import Iterator

from .analysis import FileAnalysis
from .code_tokens import tokens
from .rocm_code import reachable_on_rocm

_MACRO_NAME = re.compile(rb"[ \t\f\v]*([A-Za-z_][A-Za-z0-9_]*)")
_NAME_START = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DECLARATOR_NEXT = frozenset(b"(;,=[{}):")  # what may follow a declared name
_CLASS_KEYS = frozenset({b"struct", b"class", b"union", b"enum"})
_ELABORATED = frozenset({*_CLASS_KEYS, b"typename", b"::"})  # what may stand before an alias's one name
_CLASS_FOLLOWERS = frozenset({b"{", b":", b";", b"final"})
# Identifiers that end a declaration's specifiers: what comes before them is an expression.
_STATEMENT_WORDS = frozenset(
    b"return else do case goto throw new delete co_return co_await co_yield sizeof alignof typeid "
    b"if while for switch catch operator using namespace default and or not xor bitand bitor compl "
    b"and_eq or_eq xor_eq not_eq".split()
)
_BOUNDARIES = frozenset({b";", b"{", b"}", b":"})
_DECLARATOR_TAIL = frozenset({b";", b",", b"[", b")"})
_FUNCTION_TAIL = frozenset({b"{", b";", b":", b",", b"=", b"->", b"&", b"&&", b"["})
_VARIABLE_TAIL = frozenset({b"=", b";", b"{", b"["})
_ATTRIBUTE_CALLS = frozenset({b"__attribute__", b"__declspec", b"alignas", b"__launch_bounds__", b"__align__"})
_OPENERS = {b")": b"(", b"]": b"[", b"}": b"{"}
_LOOK_BACK = 512  # tokens a statement's start is searched for (unbalanced code across #if arms)


class CodeTokens:
    """The tokens of a file's code between directives, with bracket partners and name positions."""

    def __init__(self, file: FileAnalysis) -> None:
        data, directives = file.data, file.scan.directives
        stretches = [(previous.end if index else 0, directive.hash)
                     for index, (previous, directive) in enumerate(zip((None, *directives), directives))]
        stretches.append((directives[-1].end if directives else 0, len(data)))
        found = [token for start, end in stretches if start < end for token in tokens(data, start, end)]
        self.starts = [offset for offset, _ in found]
        self.texts = [text for _, text in found]
        self.partner = _partners(self.texts)
        self.where: dict[bytes, list[int]] = {}
        for index, text in enumerate(self.texts):
            if text[0] in _NAME_START:
                self.where.setdefault(text, []).append(index)

    def text(self, index: int) -> bytes:
        """The token at `index`, or b"" outside the stream."""
        return self.texts[index] if 0 <= index < len(self.texts) else b""


class Definitions:
    """Which names the checked code defines for ROCm, and which occurrences are definitions."""

    def __init__(self, file: FileAnalysis) -> None:
        # Kept in the file's `derived`: no reference cycle (the file may come as a proxy already).
        self.file = file if isinstance(file, weakref.ProxyType) else weakref.proxy(file)
        self.external = frozenset(name.encode() for name in file.settings.header_definitions)
        self._code: CodeTokens | None = None
        self._macros: dict[bytes, list[int]] | None = None
        self._defines: dict[bytes, bool] = {}
        self._define_order: list[tuple[bytes, int]] | None = None  # (name, offset) of each `#define`
        self._rank: dict[bytes, int] = {}  # name -> its place among the code's names (`CodeTokens.where`)
        self._declares: dict[int, bool] = {}  # token index -> `is_definition`

    @property
    def code(self) -> CodeTokens:
        """The file's tokens, made on first use."""
        if self._code is None:
            self._code = CodeTokens(self.file)
        return self._code

    def within(self, start: int, end: int) -> list[tuple[bytes, int]]:
        """(name, offset) of the definitions whose offset is in [start, end): the `#define`s in
        file order, then the definitions in code, by name (in the order the names first occur)
        and offset. Only the tokens in the range are looked at, once (a group asks about its own
        lines: finding every definition of each file first made 518,000 `is_definition` calls
        over the real trees, most for lines no group holds)."""
        code = self.code
        if self._define_order is None:
            self._define_order = list(_macro_definitions(self.file))
            self._rank = {name: rank for rank, name in enumerate(code.where)}
        found = [(name, offset) for name, offset in self._define_order if start <= offset < end]
        declares, rank, texts = self._declares, self._rank, code.texts
        in_code = []
        for index in range(bisect_left(code.starts, start), bisect_left(code.starts, end)):
            if texts[index][0] in _NAME_START:
                known = declares.get(index)
                if known is None:
                    known = declares[index] = is_definition(code, index)
                if known:
                    in_code.append((rank[texts[index]], index))
        return found + [(texts[index], code.starts[index]) for _, index in sorted(in_code)]

    def defines(self, name: bytes) -> bool:
        """Whether a project header the file includes defines `name`, or the file does in code
        that some ROCm model compiles."""
        known = self._defines.get(name)
        if known is None:
            known = self._defines[name] = name in self.external or any(
                reachable_on_rocm(self.file, offset) for offset in self._sites(name))
        return known

    def aliases(self, name: bytes) -> tuple[tuple[str, str], ...]:
        """(the name it stands for, where) of each of the project's definitions of `name` for ROCm
        that makes it another name: the right side of `using NAME = ...;`, `typedef ... NAME;` or an
        object-like `#define NAME ...` in code some ROCm model compiles, in the project headers the
        file includes (`Settings.header_aliases`, where = "path:line") or here (where = "line N").
        FBGEMM's `using __nv_fp8_e4m3 = __hip_fp8_e4m3_fnuz;` under `USE_ROCM`."""
        text = name.decode("ascii")
        found = [(target, where) for defined, target, where in self.file.settings.header_aliases if defined == text]
        found += [(target, f"line {self.file.lines.line_of(offset)}") for target, offset in self.alias_sites(name)]
        return tuple(dict.fromkeys(found))

    def alias_sites(self, name: bytes) -> list[tuple[str, int]]:
        """(the name it stands for, offset) of each definition of `name` here that makes it another
        name, in code some ROCm model compiles (`aliases`)."""
        found = []
        for offset in self._sites(name):
            if reachable_on_rocm(self.file, offset):
                found += [(word.decode("ascii"), offset) for word in self._right_side(name, offset) if word != name]
        return found

    def _right_side(self, name: bytes, offset: int) -> list[bytes]:
        """The name a definition of `name` at `offset` makes it another name for: the right side
        of `using`, `typedef` or an object-like `#define` when that is one plain name (`struct X`
        included); [] for any other shape (a struct's body, a pointer, a cast, a value)."""
        data = self.file.data
        if data[offset:offset + 1] == b"#":
            (directive,) = self.file.scan.between(offset - 1, offset + 1)  # (the one whose `#` is at `offset`)
            start, end = directive.argument
            head = _MACRO_NAME.match(data, start, end)
            if head is None or data[head.end():head.end() + 1] == b"(":
                return []  # (a function-like macro: its parameters stand for the arguments)
            words = [token for _, token in tokens(data, head.end(), end)]
        else:
            code = self.code
            index = bisect_left(code.starts, offset)
            if code.text(index - 1) == b"using" and code.text(index + 1) == b"=":
                end = next((at for at in range(index + 2, min(len(code.texts), index + 8))
                            if code.texts[at] in (b";", b"{", b"}")), index + 2)
                words = code.texts[index + 2:end]
            elif code.text(index - 1) not in (b"*", b"&") and code.text(index - 3) == b"typedef":
                words = code.texts[index - 2:index]
            elif code.text(index - 2) == b"typedef":
                words = code.texts[index - 1:index]
            else:
                return []
        words = [word for word in words if word not in _ELABORATED]
        return words if len(words) == 1 and words[0][0] in _NAME_START else []

    def defines_macro(self, name: bytes) -> bool:
        """Whether a project header the file includes, or a `#define` of the file that some ROCm
        model reaches, defines the macro `name`."""
        return name in self.external or any(reachable_on_rocm(self.file, offset) for offset in self._macro_sites(name))

    def defines_macro_somewhere(self, name: bytes) -> bool:
        """Whether the file `#define`s the macro `name` at all (reached by some model or not)."""
        return bool(self._macro_sites(name))

    def _sites(self, name: bytes) -> Iterator[int]:
        yield from self._macro_sites(name)
        data = self.file.data
        candidates = [offset for offset in _occurrences(data, name) if _may_declare(data, offset, name)]
        if candidates:  # only then is the file tokenized: most uses are plain calls (`x = f(y)`)
            code = self.code
            yield from (code.starts[index] for index in code.where.get(name, ())
                        if code.starts[index] in candidates and is_definition(code, index))

    def _macro_sites(self, name: bytes) -> list[int]:
        if self._macros is None:
            self._macros = {}
            for found, offset in _macro_definitions(self.file):
                self._macros.setdefault(found, []).append(offset)
        return self._macros.get(name, [])


def definitions_of(file: FileAnalysis) -> Definitions:
    """The definitions of `file`, computed once and kept in (and dropped with) the file."""
    return file.kept(Definitions, lambda: Definitions(file))


def _occurrences(data: bytes, name: bytes) -> Iterator[int]:
    """Offsets of `name` as a whole word in `data` (comments and literals included)."""
    at = data.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or data[at - 1] not in _WORD) and (end == len(data) or data[end] not in _WORD):
            yield at
        at = data.find(name, end)


def _may_declare(data: bytes, offset: int, name: bytes) -> bool:
    """A byte-level screen: whether the bytes around an occurrence allow a definition (`= f(`,
    `(f(`, `.f(`, `f x;` never are), so that only such files are tokenized."""
    before = data[max(0, offset - 64) : offset].rstrip()
    after = data[offset + len(name) : offset + len(name) + 64].lstrip()
    previous, following = before[-1:], after[:1]
    if not following or following[0] not in _DECLARATOR_NEXT:
        return False
    if following == b"(":
        return previous == b"" or previous[0] in _WORD or previous in (b"*", b"&", b">", b":", b")", b"]")
    return previous == b"" or previous[0] in _WORD or previous in (b"*", b"&", b"{", b",", b"}", b">", b"]")


def _macro_definitions(file: FileAnalysis) -> Iterator[tuple[bytes, int]]:
    for directive in file.scan.directives:
        if directive.kind == "define":
            name = _MACRO_NAME.match(file.data, directive.keyword[1], directive.argument[1])
            if name is not None:
                yield name.group(1), directive.hash


def is_definition(code: CodeTokens, index: int) -> bool:
    """Whether the identifier token at `index` is the name a declaration declares (module doc)."""
    text = code.text
    before, after = text(index - 1), text(index + 1)
    if before == b"using" or before == b"namespace":
        return after == b"=" or (before == b"namespace" and after == b"{")
    if before in _CLASS_KEYS or (before in (b"class", b"struct") and text(index - 2) == b"enum"):
        return after in _CLASS_FOLLOWERS
    if after in _DECLARATOR_TAIL and _statement_head(code, index) == b"typedef":
        return True
    if before in (b"{", b",") and after in (b"=", b",", b"}") and _enumerator(code, index):
        return True
    if after == b"(":
        return _function(code, index)
    if after == b")" and before in (b"*", b"&") and text(index - 2) == b"(":
        return text(index + 2) == b"("  # a function pointer: TYPE (*NAME)(...)
    if after in _VARIABLE_TAIL:
        specifiers = _specifiers(code, index)
        return specifiers is not None and (b"const" in specifiers or b"constexpr" in specifiers)
    return False


def _function(code: CodeTokens, index: int) -> bool:
    close = code.partner.get(index + 1)
    if close is None:
        return False
    tail = code.text(close + 1)
    if tail not in _FUNCTION_TAIL and not _is_name(tail):
        return False
    return bool(_specifiers(code, index))


def _specifiers(code: CodeTokens, index: int) -> list[bytes] | None:
    """The type and specifier tokens before the (qualified) name at `index`, back to the start of
    its statement; None when something else (an operator, a statement keyword) comes first."""
    text = code.text
    at = index - 1
    while text(at) == b"::" and (_is_name(text(at - 1)) or text(at - 1) == b">"):
        at = _skip_template(code, at - 1) if text(at - 1) == b">" else at - 2
    found: list[bytes] = []
    limit = index - _LOOK_BACK
    while at >= 0 and at > limit:
        token = text(at)
        if token in _BOUNDARIES:
            break
        if token == b">":
            at = _skip_template(code, at)
            found.append(b">")
            continue
        if token in (b")", b"]"):
            opener = code.partner.get(at)
            if opener is None or not _attribute(code, opener, token):
                return None
            at = opener - 1 - (token == b")")
            continue
        if token in (b"*", b"&", b"&&", b"::") or (_is_name(token) and token not in _STATEMENT_WORDS):
            found.append(token)
            at -= 1
            continue
        return None
    return found


def _is_name(token: bytes) -> bool:
    return bool(token) and token[0] in _NAME_START


def _attribute(code: CodeTokens, opener: int, closer: bytes) -> bool:
    """Whether the group opened at `opener` is an attribute: `__attribute__((...))`, `[[...]]`."""
    if closer == b"]":
        return code.text(opener - 1) == b"[" or code.text(opener + 1) == b"["
    return code.text(opener - 1) in _ATTRIBUTE_CALLS


def _skip_template(code: CodeTokens, close: int) -> int:
    """The index before the `<` that matches the `>` at `close` (or before `close` if none)."""
    depth, at = 0, close
    while at >= 0 and at > close - _LOOK_BACK:
        token = code.texts[at]
        if token == b">":
            depth += 1
        elif token == b"<":
            depth -= 1
            if depth == 0:
                return at - 1
        elif token in (b";", b"{", b"}"):
            break
        at -= 1
    return close - 1


def _statement_head(code: CodeTokens, index: int) -> bytes:
    """The first token of the statement holding `index`, bracketed groups before it skipped (a
    brace group only when it is the body of a struct, class, union or enum: `typedef struct {}`)."""
    at = index - 1
    while at >= 0 and at > index - _LOOK_BACK:
        token = code.texts[at]
        if token in (b")", b"]") and at in code.partner:
            at = code.partner[at] - 1
        elif token == b"}" and at in code.partner and _class_body(code, code.partner[at]):
            at = code.partner[at] - 1
        elif token in (b";", b"{", b"}"):
            break
        else:
            at -= 1
    return code.text(at + 1)


def _class_body(code: CodeTokens, brace: int) -> bool:
    """Whether the `{` at `brace` opens the body of a struct, class, union or enum."""
    at = brace - 1
    while at >= 0 and at > brace - _LOOK_BACK and code.texts[at] not in (b";", b"{", b"}", b")"):
        if code.texts[at] in _CLASS_KEYS:
            return True
        at -= 1
    return False


def _enumerator(code: CodeTokens, index: int) -> bool:
    """Whether `index` is directly inside the braces of an `enum ... { }`."""
    at = index - 1
    while at >= 0 and at > index - _LOOK_BACK:
        token = code.texts[at]
        if token in (b")", b"]") and at in code.partner:
            at = code.partner[at] - 1
        elif token == b"{":
            return code.texts[at - 1] != b"=" and _class_body(code, at) and b"enum" in _head_tokens(code, at)
        elif token in (b";", b"}", b"(", b"["):
            return False
        else:
            at -= 1
    return False


def _head_tokens(code: CodeTokens, brace: int) -> list[bytes]:
    """The tokens between the start of the statement and the `{` at `brace`."""
    at = brace - 1
    while at >= 0 and at > brace - _LOOK_BACK and code.texts[at] not in (b";", b"{", b"}"):
        at -= 1
    return code.texts[at + 1 : brace]


def _partners(texts: list[bytes]) -> dict[int, int]:
    """Matching bracket indexes, both ways; a bracket without a partner (code split across #if
    arms) has none."""
    partner: dict[int, int] = {}
    stack: list[int] = []
    closers = {b"(": b")", b"[": b"]", b"{": b"}"}
    for index, text in enumerate(texts):
        if text in closers:
            stack.append(index)
        elif text in _OPENERS:
            if stack and texts[stack[-1]] == _OPENERS[text]:
                opener = stack.pop()
                partner[opener], partner[index] = index, opener
            elif _OPENERS[text] in (texts[i] for i in stack[-8:]):
                while texts[stack[-1]] != _OPENERS[text]:
                    stack.pop()  # the unclosed brackets in between belong to another #if arm
                opener = stack.pop()
                partner[opener], partner[index] = index, opener
    return partner
