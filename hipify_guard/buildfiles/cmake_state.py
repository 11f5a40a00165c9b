"""What the CMake reader keeps for a whole project while it runs the files: scopes, functions, facts.

`ProjectState` is shared by every file and function body that runs (`cmake_run.Run`); the reader
(`cmake_reader`) adds how files are run and what is made of the facts at the end.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import field

from ..core.records import record
from .build_conditions import TOP, Context, Holds, both, either
from .build_facts import Definition, Evidence, Flows, Mention
from .cmake_syntax import Command, commands
from .cmake_values import Item
from .starlark_lists import StarlarkLists
from .source_paths import relative_path, source_pattern

CALLER = "\0caller"  # the folder a function's body runs in: the caller's, known where it is called
MAX_COMMANDS = 400_000  # commands run per project, past which the rest is left out (with a note)
_TRUE = re.compile(r"(?i)on|yes|y|true|[1-9][0-9]*")
Reader = Callable[[str], "str | None"]  # root-relative path -> its text (None when it cannot be read)


@record(frozen=False)
class Function:
    """A user `function()` or `macro()`: its body and, per keyword, where the body uses it."""

    name: str
    body: tuple[Command, ...]
    path: str
    parameters: frozenset[str] = frozenset()
    prefix: str | None = None
    keywords: frozenset[str] = frozenset()
    # keyword (None: the positional arguments) -> (where used, the function it is passed to, under which keyword)
    uses: dict[str | None, list[tuple[Holds, str | None, str | None]]] = field(default_factory=dict)
    # What the body names itself (not through its arguments), recorded where the function is called.
    mentions: list[PendingMention] = field(default_factory=list)
    called: bool = False
    home: str = ""  # the folder it is defined from, where the body's relative paths are taken when never called


@record(slots=True)
class PendingMention:
    """A path a function's body names, waiting for the contexts the function is called in."""

    item: Item
    context: Context
    supports: bool
    stored: bool
    folder: str

    def called_from(self, marker: str, base: str, absolute: str) -> tuple[Item, str]:
        """The item, and the folder of the command that compiles it, as a call from the folder
        `base` (`absolute`: its absolute path) names them: the body's relative paths and
        `${CMAKE_CURRENT_SOURCE_DIR}` (`marker`, the root joined with `CALLER`) are the caller's
        (ginkgo's `file(GLOB_RECURSE ... "*.cuh")` in `ginkgo_check_headers()`, called from
        `cuda/` and from `hip/`)."""
        item = self.item
        folder = base if self.folder == CALLER else self.folder
        if item.base == CALLER:
            return item.moved(item.text.replace(marker, absolute), base), folder
        if marker in item.text:
            return item.moved(item.text.replace(marker, absolute), item.base), folder
        return item, folder


@record(frozen=False)
class Scope:
    """The variables of one directory or function scope, and CMake's own path variables in it."""

    variables: dict[str, tuple[Item, ...]]
    builtins: dict[str, str]
    parent: Scope | None = None
    function: Function | None = None  # the function whose body runs in this scope


class ProjectState:
    """The files, functions and facts of one project's CMake run."""

    def __init__(self, root: str, files: Sequence[str], read: Reader) -> None:
        self.root = root
        self.files = set(files)
        self.read = read
        self.parsed: dict[str, tuple[tuple[Command, ...], list[str]] | None] = {}
        self.visits: dict[str, int] = {}
        self.modules: dict[str, list[str]] = {}
        for path in files:
            if path.endswith(".cmake"):
                self.modules.setdefault(os.path.basename(path)[:-6].lower(), []).append(path)
        self.functions: dict[str, Function] = {}
        self.definitions: list[Definition] = []
        self.mentions = Flows()
        self.truths: dict[str, list[Context] | None] = {}  # variable -> contexts it is set true in (None: not literal)
        self.notes: list[str] = []
        self.hipify: list[Evidence] = []
        self.budget = MAX_COMMANDS
        self.evidences: dict[tuple[str, int], Evidence] = {}
        self.contrasted: frozenset[str] = frozenset()
        self.starlark: StarlarkLists | None = None  # the `.bzl` source lists the CMake files may read
        self.subdirectories: list[tuple[str, str | None, Evidence]] = []  # (folder, platform, where added)

    def run_file(self, path: str, scope: Scope, context: Context, depth: int) -> None:
        """Run one file's commands (`add_subdirectory`, `include`)."""
        raise NotImplementedError

    def file_scope(self, folder: str, parent: Scope | None) -> Scope:
        """The scope a CMakeLists.txt in `folder` runs in: a copy of its parent directory's."""
        absolute = os.path.join(self.root, folder) if folder else self.root
        builtins = dict(parent.builtins) if parent else {"CMAKE_SOURCE_DIR": absolute, "PROJECT_SOURCE_DIR": absolute,
                                                         "CMAKE_HOME_DIRECTORY": absolute}
        builtins.update(CMAKE_CURRENT_SOURCE_DIR=absolute, CMAKE_CURRENT_LIST_DIR=absolute)
        variables = dict(parent.variables) if parent else {}
        return Scope(variables, builtins, parent)

    def parsed_file(self, path: str) -> tuple[tuple[Command, ...], list[str]] | None:
        """A file's commands and lines (read and parsed once), None when it cannot be read."""
        if path not in self.parsed:
            text = self.read(path)
            self.parsed[path] = None if text is None else (tuple(commands(text)), text.splitlines())
        return self.parsed[path]

    def evidence(self, path: str, lines: list[str], line: int) -> Evidence:
        """The evidence of a line (one object per line)."""
        key = (path, line)
        found = self.evidences.get(key)
        if found is None:
            text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            found = self.evidences[key] = Evidence(path, line, text[:200])
        return found

    def relative(self, absolute: str) -> str | None:
        """`absolute` relative to the root with `/`, or None outside it."""
        return relative_path(self.root, absolute)

    def module(self, name: str, scope: Scope) -> str | None:
        """The file `include(name)` reads: a path, or a module in CMAKE_MODULE_PATH (or the tree's one of that name)."""
        if name.endswith(".cmake") or "/" in name:
            base = scope.builtins["CMAKE_CURRENT_SOURCE_DIR"]
            path = self.relative(name if os.path.isabs(name) else os.path.join(base, name))
            return path if path in self.files else None
        for item in scope.variables.get("CMAKE_MODULE_PATH", ()):
            if not item.vague:
                path = self.relative(os.path.join(item.text, name + ".cmake"))
                if path in self.files:
                    return path
        found = self.modules.get(name.lower(), [])
        return found[0] if len(found) == 1 else None

    def define(self, name: str, value: str | None, context: Context, evidence: Evidence, folder: str = "",
               header: bool = False) -> None:
        """Record a macro definition made where `context` holds, for the targets of `folder`."""
        holds = context.holds
        self.definitions.append(Definition(name, value, holds.platform, holds.always, context.condition, evidence,
                                           folder, header))

    def mention(self, item: Item, context: Context, supports: bool, stored: bool = False, folder: str = "") -> None:
        """Record a source path or glob the build names (anything else is ignored); `folder`: that
        of the build file whose command compiles it."""
        pattern = self._pattern(item)
        if pattern is None:
            return
        text, vague = pattern
        holds = context.holds
        mention = Mention(text, holds.platform, context.condition, item.evidence, supports and not vague, folder, stored)
        self.mentions.record((item.evidence, item.text), mention, stored, mention.supports)

    def uncalled_mentions(self) -> None:
        """What the bodies of functions nobody called name, under the bodies' own conditions."""
        marker = os.path.join(self.root, CALLER)
        for function in self.functions.values():
            if not function.called:
                absolute = os.path.join(self.root, function.home) if function.home else self.root
                for pending in function.mentions:
                    item, folder = pending.called_from(marker, function.home, absolute)
                    self.mention(item, pending.context, pending.supports, pending.stored, folder)

    def _pattern(self, item: Item) -> tuple[str, bool] | None:
        text = item.text
        if "$" in text or "<" in text or ">" in text:
            return None  # a reference or generator expression not followed
        found = source_pattern(self.root, item.base, text, item.recursive)
        return None if found is None else (found[0], found[1] or item.vague)

    def record_truth(self, name: str, items: Sequence[Item], context: Context) -> None:
        """Follow `set(NAME value)` for `#cmakedefine NAME`: true literals with their contexts."""
        if name in self.truths and self.truths[name] is None:
            return
        if len(items) != 1 or items[0].vague:
            self.truths[name] = None
        elif _TRUE.fullmatch(items[0].text):
            self.truths.setdefault(name, []).append(context)

    def set_true(self, name: str) -> Holds | None:
        """Where the variable `name` is true when the project sets it true only with literals, all
        under conditions of one platform (None: not known)."""
        contexts = self.truths.get(name)
        if not contexts:
            return None
        platforms = {context.holds.platform for context in contexts}
        return Holds(platforms.pop(), False) if len(platforms) == 1 and None not in platforms else None

    def keyword_holds(self, function: Function, keyword: str | None, seen: frozenset[str] = frozenset()) -> Holds:
        """Where a function's body uses a keyword's arguments (None: its positional ones); TOP when not known."""
        found = self._used_holds(function, keyword, seen)
        return TOP if found is None else found

    def _used_holds(self, function: Function, keyword: str | None, seen: frozenset[str]) -> Holds | None:
        """As keyword_holds, None when the body uses them in no command that may compile them (only prints them)."""
        if function.name in seen:
            return TOP
        result = None
        for holds, callee, callee_keyword in function.uses.get(keyword, ()):
            if callee is not None:
                forwarded = self._used_holds(self.functions[callee], callee_keyword, seen | {function.name})
                if forwarded is None:
                    continue
                holds = both(holds, forwarded)
            result = holds if result is None else either(result, holds)
        return result
