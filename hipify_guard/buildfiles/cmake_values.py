"""CMake values as the build-file reader follows them: items with where they came from and when they hold.

An `Item` is one list element of a variable or argument: its text, the `Evidence` of the literal
it came from, the `Context` (conditions) under which it is there, and the folder relative paths
in it are taken from. `${VAR}` references are replaced by the items the reader has for VAR;
a reference it does not know makes the item `vague` (`\\0` stands for the unknown text).
Generator expressions of one language (`$<$<COMPILE_LANGUAGE:HIP>:X>`) hold on that platform.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..core.records import record
from .build_conditions import CUDA_ALL, EVERYWHERE, ROCM_ALL, UNKNOWN, Context, Holds
from .build_facts import Evidence
from .source_paths import GENERATED, UNKNOWN_TEXT

MAX_COMBINATIONS = 64
_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_.+/-]*)\}")
_LANGUAGE = re.compile(r"\$<COMPILE_LANGUAGE:([A-Za-z,]+)>|\$<COMPILE_LANG_AND_ID:([A-Za-z]+),")
_LANGUAGE_HOLDS = {"HIP": ROCM_ALL, "CUDA": CUDA_ALL}
BINARY_DIRS = frozenset({"CMAKE_CURRENT_BINARY_DIR", "CMAKE_BINARY_DIR", "PROJECT_BINARY_DIR"})




@record(slots=True)
class Item:
    """One list element the reader follows."""

    text: str
    evidence: Evidence
    context: Context
    base: str  # folder (relative to the root, "" for the root) that a relative path is taken from
    recursive: bool = False  # a file(GLOB_RECURSE) pattern
    vague: bool = False  # built from something the reader did not follow

    def moved(self, text: str, base: str) -> Item:
        """This item with another text and base (`dataclasses.replace` takes 2.2 times as long: a
        function body's items are moved at each call, 140,000 times in cccl's build)."""
        return Item(text, self.evidence, self.context, base, self.recursive, self.vague)


def expand(text: str, quoted: bool, evidence: Evidence, context: Context, base: str,
           variables: dict[str, tuple[Item, ...]], builtins: dict[str, str]) -> list[Item]:
    """The items an argument stands for: references replaced, unquoted ones split at `;`, quoted ones at spaces.
    The build tree's folders (`${CMAKE_CURRENT_BINARY_DIR}`) become GENERATED, through variables
    too: a path into them names a generated file, none of the source tree's (Kokkos' unit tests:
    `set(dir ${CMAKE_CURRENT_BINARY_DIR}/${dir})`, then `${dir}/Test${Tag}_${Name}.cpp`)."""
    if "$" not in text and not (quoted and " " in text):  # (most arguments: a plain word)
        return [Item(text, evidence, context, base)] if text else []
    pieces = text.split() if quoted else [text]
    result: list[Item] = []
    for piece in pieces:
        for item in _expand_piece(piece, evidence, context, base, variables, builtins):
            if quoted or ";" not in item.text:
                result.append(item)
            else:
                result.extend(replace(item, text=part) for part in item.text.split(";") if part)
    return [_unwrapped(item) for item in result if item.text]


def _expand_piece(piece: str, evidence: Evidence, context: Context, base: str,
                  variables: dict[str, tuple[Item, ...]], builtins: dict[str, str]) -> list[Item]:
    references = list(_REFERENCE.finditer(piece))
    if not references:
        return [Item(piece, evidence, context, base)]
    if len(references) == 1 and references[0].group() == piece and references[0].group(1) in variables:
        return list(variables[references[0].group(1)])  # `${LIST}`: its items as they are
    # (text so far, the literal the last reference's item came from, context, vague)
    combinations: list[tuple[str, Evidence | None, Context, bool]] = [("", None, context, False)]
    position = 0
    for reference in references:
        name = reference.group(1)
        literal = piece[position:reference.start()]
        position = reference.end()
        if name in BINARY_DIRS:
            values = [(GENERATED, None, EVERYWHERE, False)]
        elif name in builtins:
            values = [(builtins[name], None, EVERYWHERE, False)]
        elif name in variables and variables[name]:
            values = [(item.text, item.evidence, item.context, item.vague) for item in variables[name]]
        else:
            values = [(UNKNOWN_TEXT, None, EVERYWHERE, True)]
        combinations = [(text + literal + value, found, where_context.joined(value_context), vague or unknown)
                        for text, where, where_context, vague in combinations
                        for value, found, value_context, unknown in values]
        if len(combinations) > MAX_COMBINATIONS:
            return [Item(UNKNOWN_TEXT, evidence, context, base, vague=True)]
    tail = piece[position:]  # `${DIR}/x.cu`: the evidence is this literal; `${DIR}/${SRC}`: where SRC's item came from
    return [Item(text + tail, evidence if where is None or "/" in tail else where, where_context, base, vague=vague)
            for text, where, where_context, vague in combinations]


def _unwrapped(item: Item) -> Item:
    """`$<BUILD_INTERFACE:X>` -> X; `$<$<COMPILE_LANGUAGE:HIP>:X>` -> X on ROCm; `$<cond:X>` -> X where cond holds."""
    text = item.text
    if not text.startswith("$<") or not text.endswith(">"):
        return item
    colon = _top_level_colon(text)
    if colon < 0:
        return replace(item, text=UNKNOWN_TEXT, vague=True)
    head, inner = text[2:colon], text[colon + 1:-1]
    if head == "INSTALL_INTERFACE":
        return replace(item, text="")
    if head == "BUILD_INTERFACE":
        return _unwrapped(replace(item, text=inner))
    tests = list(_LANGUAGE.finditer(head))
    holds = _LANGUAGE_HOLDS.get(tests[0].group(1) or tests[0].group(2), UNKNOWN) if len(tests) == 1 else UNKNOWN
    if holds.known and head.count("$<") > 1:  # the language test and others
        holds = Holds(holds.platform, False)
    return _unwrapped(replace(item, text=inner, context=item.context.within(holds, f"$<{head}:...>")))


def _top_level_colon(text: str) -> int:
    """The `:` that ends the head of a generator expression `$<head:...>`, or -1."""
    depth = 0
    for index in range(2, len(text) - 1):
        char = text[index]
        if char == "<" and text[index - 1] == "$":
            depth += 1
        elif char == ">" and depth:
            depth -= 1
        elif char == ":" and depth == 0:
            return index
    return -1
