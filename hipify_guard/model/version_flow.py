"""Where a version read from a version getter reaches a CUDA-scale comparison (HG201's analysis).

Flow-insensitive, within one file: a getter's pointer argument `&v` marks the variable (or
member) `v`; a variable initialised or assigned from a marked value is marked; a function that
returns a marked value makes its calls marked values. A *use* is a comparison of a marked value
with a positive integer constant (`== -1`, `== 0`, `< 0` test a sentinel, not a version: spec
§11.7), or `/` or `%` of a marked value by 10, 100, 1000 or 10000.
A getter call that libclang's error recovery dropped is read from the tokens instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.records import record
from ..cpp.clang_front import COMMENT, IDENTIFIER, STUB_NAME, VERSION_GETTERS, Node, Parsed

# CXCursorKind values (stable in libclang's C API).
VAR_DECL, FIELD_DECL, PARM_DECL, FUNCTION_DECL, CXX_METHOD, FUNCTION_TEMPLATE = 9, 6, 10, 8, 21, 30
UNEXPOSED_EXPR, DECL_REF_EXPR, MEMBER_REF_EXPR, CALL_EXPR = 100, 101, 102, 103
PAREN_EXPR, UNARY_OPERATOR, BINARY_OPERATOR, INIT_LIST_EXPR = 111, 112, 114, 119
CASTS = frozenset({117, 124, 126, 127, 128})  # C-style, static, reinterpret, const, functional
RETURN_STMT = 214
FIRST_EXPRESSION, STATEMENT, TRANSLATION_UNIT = 100, 200, 350  # CXCursorKind ranges
FUNCTIONS = frozenset({FUNCTION_DECL, CXX_METHOD, FUNCTION_TEMPLATE})
COMPARISONS = frozenset({b"<", b">", b"<=", b">=", b"==", b"!="})
SCALE_DIVISORS = frozenset({10, 100, 1000, 10000})
HIP_SCALE = 10_000_000  # HIP 1.0 on HIP_VERSION's scale: larger constants are deliberate ROCm numbers
_GETTER_NAMES = frozenset(name.encode() for name in VERSION_GETTERS)
_GETTER_LENGTHS = frozenset(len(name) for name in VERSION_GETTERS)
RUNTIME_GETTERS = frozenset({
    "cudaRuntimeGetVersion", "cudaDriverGetVersion", "cuDriverGetVersion",
    "hipRuntimeGetVersion", "hipDriverGetVersion",
})


@record(slots=True)
class VersionUse:
    """A marked value compared with a constant, or split with CUDA-scale arithmetic."""

    start: int
    end: int
    getter: str  # the version API the value comes from
    operator: str  # the comparison or arithmetic operator
    constant: int


@record(frozen=False, slots=True)
class _Facts:
    """What one walk of the tree collects."""

    calls: list[Node]
    initialised: list[tuple[Node, Node]]  # (variable, initialiser)
    assigned: list[tuple[Node, Node]]  # (left side, right side) of `=`
    returned: list[tuple[Node, Node]]  # (function, returned expression)
    binaries: list[tuple[Node, bytes]]  # (binary operator, its operator token)
    declared: list[tuple[Node, Node | None]]  # (variable, parameter or member; enclosing function)


def version_uses(parsed: Parsed) -> Iterator[VersionUse]:
    """Every use of a getter's value in a comparison with a constant or CUDA-scale arithmetic."""
    if not _references_a_getter(parsed):
        return
    facts = _collect(parsed)
    marked = _sources(parsed, facts.calls)
    _dropped_sources(parsed, facts, marked)
    if not marked:
        return
    _propagate(parsed, facts, marked)
    for node, operator in facts.binaries:
        use = _use(parsed, node, operator, marked)
        if use is not None:
            yield use


def _references_a_getter(parsed: Parsed) -> bool:
    """Whether some getter name is used in code (a header only declaring them is not).

    Asking libclang for the cursor at each name is far cheaper than walking a large header. A
    statement rather than an expression there means a call that error recovery dropped.
    """
    return any(FIRST_EXPRESSION <= parsed.cursor_kind_at(start) < TRANSLATION_UNIT for start in _getter_tokens(parsed))


def _getter_tokens(parsed: Parsed) -> Iterator[int]:
    """Offsets of identifier tokens that are getter names."""
    tokens = parsed.tokens
    for kind, start, length in zip(tokens.kinds, tokens.starts, tokens.lengths):
        if kind == IDENTIFIER and length in _GETTER_LENGTHS and parsed.text(start, start + length) in _GETTER_NAMES:
            yield start


def _collect(parsed: Parsed) -> _Facts:
    facts = _Facts([], [], [], [], [], [])
    stack: list[tuple[Node, Node | None]] = [(root, None) for root in reversed(parsed.tree())]
    while stack:
        node, function = stack.pop()
        kind = node.kind
        if kind in FUNCTIONS:
            function = node
        elif kind == CALL_EXPR:
            facts.calls.append(node)
        elif kind in (VAR_DECL, FIELD_DECL, PARM_DECL):
            facts.declared.append((node, function))
            if node.children and kind != PARM_DECL:
                facts.initialised.append((node, node.children[-1]))
        elif kind == RETURN_STMT and node.children and function is not None:
            facts.returned.append((function, node.children[0]))
        elif kind == BINARY_OPERATOR and len(node.children) == 2:
            operator = parsed.token_after(node.children[0].end)
            if operator == b"=":
                facts.assigned.append((node.children[0], node.children[1]))
            else:
                facts.binaries.append((node, operator))
        stack.extend((child, function) for child in reversed(node.children))
    return facts


def _sources(parsed: Parsed, calls: list[Node]) -> dict[int, str]:
    """Declarations whose address is passed to a version getter -> the getter's name."""
    marked: dict[int, str] = {}
    for call in calls:
        getter = _getter(parsed, call)
        if getter is None:
            continue
        for argument in call.children[1:]:
            argument = _strip(argument)
            if argument.kind == UNARY_OPERATOR and parsed.token_after(argument.start) == b"&" and argument.children:
                target = _declaration(parsed, _strip(argument.children[0]))
                if target is not None:
                    marked.setdefault(target, getter)
    return marked


def _getter(parsed: Parsed, call: Node) -> str | None:
    """The version API a call calls, or None.

    The stub header's declaration when the call resolved to it (also through a renaming macro);
    otherwise the callee's own name, for a call that stayed unresolved because an argument's
    type comes from a missing header.
    """
    callee = call.cursor.referenced
    if callee is not None and callee.location.file is not None and callee.location.file.name == STUB_NAME:
        return callee.spelling  # the stub's own ASCII name
    if not call.children or _strip(call.children[0]).kind != DECL_REF_EXPR:
        return None
    name = parsed.text(call.children[0].start, call.children[0].end).removeprefix(b"::")
    return name.decode("ascii") if name in _GETTER_NAMES else None


def _dropped_sources(parsed: Parsed, facts: _Facts, marked: dict[int, str]) -> None:
    """Mark `&name` arguments of getter calls that libclang dropped, by name and scope.

    Error recovery drops a whole call when an argument names something from a missing header,
    as in `cusparseGetVersion(at::cuda::getCurrentCUDASparseHandle(), &version)`.
    """
    seen = {call.children[0].start for call in facts.calls if call.children and _getter(parsed, call)}
    for start in _getter_tokens(parsed):
        if start in seen or not STATEMENT <= parsed.cursor_kind_at(start) < TRANSLATION_UNIT:
            continue
        getter = _token(parsed, parsed.tokens.index_at(start)).decode("ascii")
        for name, offset in _address_arguments(parsed, start):
            target = _by_name(parsed, facts.declared, name, offset)
            if target is not None:
                marked.setdefault(target, getter)


def _token(parsed: Parsed, index: int) -> bytes:
    tokens = parsed.tokens
    return parsed.text(tokens.starts[index], tokens.starts[index] + tokens.lengths[index])


def _address_arguments(parsed: Parsed, callee: int) -> Iterator[tuple[bytes, int]]:
    """(name, offset) of each `&name` argument of the call whose callee token is at `callee`."""
    tokens = parsed.tokens
    index = tokens.index_at(callee) + 1
    code = [i for i in range(index, min(index + 400, len(tokens.starts))) if tokens.kinds[i] != COMMENT]
    if not code or _token(parsed, code[0]) != b"(":
        return
    depth = 0
    for position, i in enumerate(code):
        text = _token(parsed, i)
        depth += {b"(": 1, b")": -1}.get(text, 0)
        if depth == 0:
            return
        following = code[position + 1 : position + 3]
        if depth == 1 and text == b"&" and len(following) == 2 and tokens.kinds[following[0]] == IDENTIFIER \
                and _token(parsed, following[1]) in (b",", b")"):
            yield _token(parsed, following[0]), tokens.starts[following[0]]


def _by_name(parsed: Parsed, declared: list[tuple[Node, Node | None]], name: bytes, offset: int) -> int | None:
    """The declaration `name` means at `offset`: the latest local one before it, else a member or global."""
    local, other = None, None
    for node, function in declared:
        if parsed.token_after(parsed.offset(node.cursor.location)) != name:
            continue
        if function is not None and function.start <= offset < function.end and node.start < offset:
            local = node if local is None or node.start > local.start else local
        elif function is None and other is None:
            other = node
    chosen = local or other
    return None if chosen is None else _own_declaration(parsed, chosen)


def _propagate(parsed: Parsed, facts: _Facts, marked: dict[int, str]) -> None:
    """Mark variables and functions that take a marked value, until nothing changes."""
    edges = [(_own_declaration(parsed, variable), value) for variable, value in facts.initialised]
    edges += [(_declaration(parsed, _strip(left)), value) for left, value in facts.assigned]
    edges += [(_own_declaration(parsed, function), value) for function, value in facts.returned]
    edges = [(target, value) for target, value in edges if target is not None]
    changed = True
    while changed:
        changed = False
        for target, value in edges:
            getter = _marked(parsed, value, marked)
            if getter is not None and target not in marked:
                marked[target] = getter
                changed = True


def _use(parsed: Parsed, node: Node, operator: bytes, marked: dict[int, str]) -> VersionUse | None:
    left, right = node.children
    text = operator.decode("ascii", "replace")
    if operator in COMPARISONS:
        for value, other in ((left, right), (right, left)):
            getter = _marked(parsed, value, marked)
            if getter is None:
                continue
            constant = parsed.integer(other)
            if constant is not None and 0 < constant and not (getter in RUNTIME_GETTERS and constant >= HIP_SCALE):
                return VersionUse(node.start, node.end, getter, text, constant)
    elif operator in (b"/", b"%"):
        getter = _marked(parsed, left, marked)
        constant = parsed.integer(right) if getter is not None else None
        if constant in SCALE_DIVISORS:
            return VersionUse(node.start, node.end, getter, text, constant)
    return None


def _marked(parsed: Parsed, node: Node, marked: dict[int, str]) -> str | None:
    """The getter a value comes from: a marked variable or member, or a call of a marked function."""
    node = _strip(node)
    if node.kind in (DECL_REF_EXPR, MEMBER_REF_EXPR, CALL_EXPR):
        return marked.get(_declaration(parsed, node))
    return None


def _strip(node: Node) -> Node:
    """Look through parentheses, casts, implicit conversions and one-element braces."""
    while node.children and (
        node.kind in (UNEXPOSED_EXPR, PAREN_EXPR) or node.kind in CASTS
        or (node.kind == INIT_LIST_EXPR and len(node.children) == 1)
    ):
        node = node.children[-1]
    return node


def _declaration(parsed: Parsed, node: Node) -> int | None:
    """Offset of the first declaration of what a reference or call names, if in this file."""
    if node.kind not in (DECL_REF_EXPR, MEMBER_REF_EXPR, CALL_EXPR):
        return None
    target = node.cursor.referenced
    return None if target is None else _located(parsed, target.canonical)


def _own_declaration(parsed: Parsed, node: Node) -> int | None:
    return _located(parsed, node.cursor.canonical)


def _located(parsed: Parsed, cursor: object) -> int | None:
    offset = parsed.offset(cursor.location)
    return offset if offset >= 0 else None
