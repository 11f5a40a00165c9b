"""Parse the bytes of an `#if` condition into a syntax tree with byte spans.

The grammar is the C/C++ preprocessor's: ternary, `|| && | ^ &`, equality, relational, shifts,
`+ - * / %`, unary `! ~ - +`, `defined`, integer and character literals, and function-like
macro calls (such as `__has_include(<x.h>)`) as opaque terms. Comments and line continuations
inside the condition are skipped.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .nodes import Binary, Call, Defined, Identifier, Node, Number, Paren, Ternary, Unary, children, walk
from .numbers import LiteralError, char_value, integer_value

MAX_NESTING = 200  # parentheses and unary operators, which the parser recurses into
MAX_DEPTH = 1000  # levels of the syntax tree, which the evaluator recurses into

_TOKEN = re.compile(
    rb"(?P<skip>[ \t\f\v\r\n]+|\\(?:\r\n|\n|\r)|/\*[\s\S]*?\*/|//[^\r\n]*)"
    rb"|(?P<number>\.?[0-9](?:[eEpP][+-]|'?[0-9A-Za-z_.])*)"
    rb"|(?P<char>(?:u8|[uUL])?'(?:[^'\\\r\n]|\\[\s\S])*')"
    rb'|(?P<string>(?:u8|[uUL])?"(?:[^"\\\r\n]|\\[\s\S])*")'
    rb"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    rb"|(?P<punct>\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^?:(),])"
)
_ALTERNATIVE_TOKENS = {
    "and": "&&", "or": "||", "not": "!", "bitand": "&", "bitor": "|",
    "xor": "^", "compl": "~", "not_eq": "!=",
}
_BINARY_PRECEDENCE = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}
_UNARY = frozenset({"!", "~", "-", "+"})


class ParseError(Exception):
    """The condition is not a valid `#if` expression.

    `unjudged` says why it may be valid C/C++ all the same (None: it is invalid whatever its
    macros are): a name stands where an operator must be (`#if 1 _CCCL_PP_FOR_EACH(...)`), a
    macro that may expand to operators, which only the preprocessor can tell; or it holds a
    Jinja tag (`#if CUDA_VERSION >= {{ min_cuda }}`), text of a template not yet rendered.
    """

    def __init__(self, message: str, offset: int, unjudged: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.unjudged = unjudged


class _Token(NamedTuple):
    kind: str  # "number", "char", "string", "ident", "punct", "end"
    text: str
    start: int
    end: int


def parse(data: bytes, start: int, end: int) -> Node:
    """Parse `data[start:end]` as an `#if` expression. Raises ParseError."""
    parser = _Parser(data, start, end)
    node = parser.expression()
    token = parser.peek()
    if token.kind != "end":
        raise ParseError(f"unexpected {token.text!r} after the expression", token.start, _name(token))
    _check_depth(node)
    return node


def _name(token: _Token) -> str | None:
    """Why the condition may be valid once expanded, when the token (where an operator must be)
    is a name a macro may stand for (`defined` is none)."""
    if token.kind != "ident" or token.text == "defined":
        return None
    return (f"is an expression only once `{token.text}` is expanded (it stands where an operator must), "
            f"which only the preprocessor can do")


def _check_depth(root: Node) -> None:
    depth = {id(root): 1}
    for node in walk(root):
        level = depth[id(node)]
        if level > MAX_DEPTH:
            raise ParseError(f"expression has more than {MAX_DEPTH} levels of operators", node.span[0])
        for child in children(node):
            depth[id(child)] = level + 1


class _Parser:
    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.data = data
        self.pos = start
        self.limit = end
        self.start = start
        self.lookahead: _Token | None = None
        self.nesting = 0

    # -- tokens ---------------------------------------------------------------------------------

    def peek(self) -> _Token:
        if self.lookahead is None:
            self.lookahead = self._lex()
        return self.lookahead

    def take(self) -> _Token:
        token = self.peek()
        self.lookahead = None
        return token

    def expect(self, text: str, after_operand: bool = True) -> _Token:
        """The next token, which must be `text`; `after_operand`: it follows a complete operand,
        where a name may be a macro that expands to operators."""
        token = self.take()
        if token.text != text:
            found = "end of condition" if token.kind == "end" else repr(token.text)
            raise ParseError(f"expected {text!r}, found {found}", token.start, _name(token) if after_operand else None)
        return token

    def _lex(self) -> _Token:
        while self.pos < self.limit:
            match = _TOKEN.match(self.data, self.pos, self.limit)
            if match is None:
                bad = self.data[self.pos : self.pos + 1].decode("latin-1")
                tag = self.data[self.pos : self.pos + 2] in (b"{{", b"{%")
                raise ParseError(f"unexpected character {bad!r}", self.pos,
                                 "holds a Jinja tag, C/C++ only once the template is rendered" if tag else None)
            self.pos = match.end()
            kind = match.lastgroup
            if kind != "skip":
                text = match.group().decode("utf-8", "surrogateescape")
                if kind == "ident" and text in _ALTERNATIVE_TOKENS:
                    kind, text = "punct", _ALTERNATIVE_TOKENS[text]
                return _Token(kind, text, match.start(), match.end())
        return _Token("end", "", self.limit, self.limit)

    # -- grammar --------------------------------------------------------------------------------

    def expression(self) -> Node:
        cond = self.binary(1)
        if self.peek().text != "?":
            return cond
        self._enter(self.take())
        then = self.expression()
        self.expect(":")
        otherwise = self.expression()
        self.nesting -= 1
        return Ternary((cond.span[0], otherwise.span[1]), cond, then, otherwise)

    def binary(self, min_precedence: int) -> Node:
        left = self.unary()
        while True:
            token = self.peek()
            precedence = _BINARY_PRECEDENCE.get(token.text) if token.kind == "punct" else None
            if precedence is None or precedence < min_precedence:
                return left
            self.take()
            right = self.binary(precedence + 1)
            left = Binary((left.span[0], right.span[1]), token.text, left, right)

    def unary(self) -> Node:
        token = self.peek()
        if token.kind == "punct" and token.text in _UNARY:
            self.take()
            self._enter(token)
            operand = self.unary()
            self.nesting -= 1
            return Unary((token.start, operand.span[1]), token.text, operand)
        return self.primary()

    def _enter(self, token: _Token) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise ParseError(f"expression nested more than {MAX_NESTING} levels deep", token.start)

    def primary(self) -> Node:
        token = self.take()
        if token.kind == "number":
            return self._number(token)
        if token.kind == "char":
            return self._char(token)
        if token.kind == "ident":
            return self._name(token)
        if token.text == "(":
            return self._paren(token)
        if token.kind == "end":
            raise ParseError("expected an expression, found end of condition", token.start)
        if token.kind == "string":
            raise ParseError("a string literal cannot appear in an #if expression", token.start)
        raise ParseError(f"expected an expression, found {token.text!r}", token.start)

    def _number(self, token: _Token) -> Number:
        try:
            value, unsigned = integer_value(token.text)
        except LiteralError as error:
            raise ParseError(str(error), token.start) from None
        return Number((token.start, token.end), value, unsigned)

    def _char(self, token: _Token) -> Number:
        try:
            value, unsigned = char_value(token.text)
        except LiteralError as error:
            raise ParseError(str(error), token.start) from None
        return Number((token.start, token.end), value, unsigned)

    def _paren(self, token: _Token) -> Paren:
        self._enter(token)
        inner = self.expression()
        close = self.expect(")")
        self.nesting -= 1
        return Paren((token.start, close.end), inner)

    def _name(self, token: _Token) -> Node:
        if token.text == "defined":
            return self._defined(token)
        if self.peek().text == "(":
            return self._call(token)
        return Identifier((token.start, token.end), token.text)

    def _defined(self, token: _Token) -> Defined:
        after = self.take()
        if after.text == "(":
            name = self.take()
            close = self.expect(")", after_operand=False)  # (no macro is expanded inside `defined`)
            end = close.end
        else:
            name, end = after, after.end
        if name.kind != "ident":
            raise ParseError("'defined' must be followed by a macro name", name.start)
        return Defined((token.start, end), name.text)

    def _call(self, token: _Token) -> Call:
        """An opaque call: its arguments are kept as text, whatever they contain."""
        self.take()  # the '('
        depth, pos = 1, self.pos
        data, limit = self.data, self.limit
        while pos < limit and depth:
            byte = data[pos]
            depth += (byte == 0x28) - (byte == 0x29)
            pos += 1
        if depth:
            raise ParseError(f"unbalanced parentheses in call of {token.text}", token.start)
        self.pos = pos
        key = re.sub(rb"\s+|\\\r?\n", b"", data[token.start : pos]).decode("latin-1")
        return Call((token.start, pos), token.text, key)
