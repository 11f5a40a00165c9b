"""CMake's command syntax: a file's text -> its command invocations, each argument with its line.

`name(arguments)` with unquoted, quoted (`"..."`, escapes kept as written but `\\"` unescaped) and
bracket (`[[...]]`, `[==[...]==]`) arguments; `#` line comments and `#[[...]]` bracket comments;
nested parentheses become "(" and ")" arguments, as `if()` reads them. Text that is not a command
is skipped up to the end of its line, so a broken file yields the commands that can be read.
"""

from __future__ import annotations

import re

from ..core.records import record

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\n]+)
  | (?P<comment>\#\[(?P<ceq>=*)\[.*?\](?P=ceq)\]|\#[^\n]*)
  | (?P<quoted>"(?:[^"\\]|\\.)*")
  | (?P<bracket>\[(?P<beq>=*)\[.*?\](?P=beq)\])
  | (?P<open>\()
  | (?P<close>\))
  | (?P<semi>;)
  | (?P<word>(?:[^\s()\#"\\;]|\\.)(?:[^\s()"\\;]|\\.|"(?:[^"\\]|\\.)*")*)
  | (?P<other>.)
""", re.DOTALL | re.VERBOSE)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@record(slots=True)
class Argument:
    """One argument as written: `quoted` for quoted and bracket arguments (never split at `;`)."""

    text: str
    quoted: bool
    line: int  # 1-based


@record(slots=True)
class Command:
    """One command invocation; `name` in lower case (CMake's names are case-insensitive)."""

    name: str
    arguments: tuple[Argument, ...]
    line: int


def commands(text: str) -> list[Command]:
    """Every command of a CMake file, in order."""
    result: list[Command] = []
    line, name, name_line, depth = 1, None, 0, -1  # depth -1: between commands
    arguments: list[Argument] = []
    for match in _TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind == "space" or kind == "comment":
            if depth < 0 and name is not None and "\n" in token:
                name = None
            line += token.count("\n")
            continue
        if depth < 0:
            if kind == "open" and name is not None:
                depth, arguments = 0, []
            elif kind == "word" and _NAME.fullmatch(token):
                name, name_line = token, line
            else:
                name = None
        elif kind == "close":
            if depth == 0:
                result.append(Command(name.lower(), tuple(arguments), name_line))
                depth, name = -1, None
            else:
                depth -= 1
                arguments.append(Argument(")", False, line))
        elif kind == "open":
            depth += 1
            arguments.append(Argument("(", False, line))
        elif kind == "word":
            arguments.append(Argument(token, False, line))
        elif kind == "quoted":
            arguments.append(Argument(token[1:-1].replace('\\"', '"'), True, line))
        elif kind == "bracket":
            opening = 2 + len(match.group("beq"))
            arguments.append(Argument(token[opening:-opening].removeprefix("\n"), True, line))
        if kind == "quoted" or kind == "bracket":
            line += token.count("\n")
    if depth >= 0 and name is not None:  # the file ends inside a command: keep what it has
        result.append(Command(name.lower(), tuple(arguments), name_line))
    return result
