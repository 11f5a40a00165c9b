"""Values of integer and character literals, with the rules of GCC's preprocessor (LP64)."""

from __future__ import annotations

import re

INT_BITS = 64
UINT_MAX = (1 << INT_BITS) - 1
INT_MAX = (1 << (INT_BITS - 1)) - 1

_INTEGER = re.compile(
    r"(?:0[xX](?P<hex>[0-9a-fA-F]+)|0[bB](?P<bin>[01]+)|(?P<dec>[0-9]+))"
    r"(?P<suffix>(?:[uU](?:ll|LL|[lLzZ])?|(?:ll|LL|[lLzZ])[uU]?)?)"
)
_SIMPLE_ESCAPES = {
    "n": 10, "t": 9, "v": 11, "b": 8, "r": 13, "f": 12, "a": 7, "e": 27,
    "\\": 92, "?": 63, "'": 39, '"': 34,
}
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))", re.S)
# u8 is a plain (signed) char for GCC in every mode and for Clang before C++20 (char8_t)
_WIDE_TYPES = {"L": (32, False), "u": (16, True), "U": (32, True), "u8": (8, False)}


class LiteralError(ValueError):
    """A literal that is not a valid integer constant in `#if`."""


def integer_value(text: str) -> tuple[int, bool]:
    """(value, is_unsigned) of an integer literal such as `0x1Fu`, `1'000`, `017`, `0b101LL`."""
    digits = text.replace("'", "")
    match = _INTEGER.fullmatch(digits)
    if match is None:
        if re.fullmatch(r"[0-9.]+(?:[eE][+-]?[0-9]+)?[fFlL]?|0[xX][0-9a-fA-F.]*[pP][+-]?[0-9]+[fFlL]?", digits):
            raise LiteralError(f"floating constant {text} in preprocessor expression")
        raise LiteralError(f"invalid integer constant {text}")
    if match["hex"]:
        value = int(match["hex"], 16)
    elif match["bin"]:
        value = int(match["bin"], 2)
    elif len(match["dec"]) > 1 and match["dec"].startswith("0"):
        if not set(match["dec"]) <= set("01234567"):
            raise LiteralError(f"invalid digit in octal constant {text}")
        value = int(match["dec"], 8)
    else:
        value = int(match["dec"])
    if value > UINT_MAX:
        raise LiteralError(f"integer constant {text} is too large for its type")
    return value, "u" in match["suffix"].lower() or value > INT_MAX


def char_value(text: str) -> tuple[int, bool]:
    """(value, is_unsigned) of a character literal such as `'a'`, `'\\n'`, `L'x'`, `'ab'`."""
    prefix, _, body = text.partition("'")
    chars = _code_units(body[:-1], wide=bool(prefix))
    if not chars:
        raise LiteralError("empty character constant")
    if prefix:
        width, unsigned = _WIDE_TYPES[prefix]
        return _truncate(chars[-1], width, unsigned), unsigned
    if len(chars) == 1:
        return _truncate(chars[0], 8, False), False
    combined = 0
    for char in chars[-4:]:
        combined = (combined << 8) | (char & 0xFF)
    return _truncate(combined, 32, False), False


def _code_units(body: str, wide: bool) -> list[int]:
    units: list[int] = []
    pos = 0
    while pos < len(body):
        escape = _ESCAPE.match(body, pos)
        if escape is None:
            char = body[pos]
            units.extend([ord(char)] if wide else char.encode("utf-8", "surrogateescape"))
            pos += 1
            continue
        octal, hexa, short, long, other = escape.groups()
        if other is not None and other not in _SIMPLE_ESCAPES:
            raise LiteralError(f"unknown escape sequence \\{other}")
        units.append(int(octal, 8) if octal else int(hexa or short or long, 16) if (hexa or short or long)
                     else _SIMPLE_ESCAPES[other])
        pos = escape.end()
    return units


def _truncate(value: int, width: int, unsigned: bool) -> int:
    value &= (1 << width) - 1
    if not unsigned and value >> (width - 1):
        value -= 1 << width
    return value
