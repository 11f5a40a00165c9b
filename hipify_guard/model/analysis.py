"""One file, analysed: its directives, group tree, parsed conditions and their platform facts.

Everything is computed once and on demand, so a rule that needs only the directive list never
pays for parsing, and a condition is parsed and swept at most once however many rules ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import NamedTuple, TypeVar

from ..core.languages import CPP
from ..core.recent import Recent
from ..core.source import LineIndex
from ..cpp.groups import Arm, GroupTree
from ..cpp.nodes import Defined, Node, Unary
from ..cpp.parser import ParseError, parse
from ..cpp.scanner import Directive, Scan, scan
from .compiler_identity import version_names
from .local_macros import FREE, LocalMacros, fixed_by
from .platforms import Outcome, Platform, Term, outcome, term
from .profile import FilePlatforms, file_platforms
from .reachability import key as reachable_key
from .reachability import reachable_arms, segment_key
from .rewrite_macros import RewriteMacros, rewrite_macros
from .settings import Settings

T = TypeVar("T")

Literal = tuple[Term, bool]
_MACRO_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_DEFINED_TESTS = {"ifdef": False, "ifndef": True, "elifdef": False, "elifndef": True}


class Condition(NamedTuple):
    """The parsed condition of an #if/#elif/#ifdef/#ifndef arm, or why it did not parse."""

    term: Term | None
    error: ParseError | None


_kept_sources: Recent[tuple[Scan, GroupTree, dict[int, Condition]]] = Recent(4 << 20)  # (`keep_source`)


class FileAnalysis:
    """The facts the rules read about one C/C++/CUDA/HIP file."""

    language = CPP

    def __init__(self, filename: str, data: bytes, settings: Settings) -> None:
        self.filename = filename
        self.data = data
        self.settings = settings
        self._conditions: dict[int, Condition] = {}
        kept = _kept_sources.get(data)
        if kept is not None:  # the same bytes analysed before in this run (`keep_source`)
            self.__dict__["scan"], self.__dict__["tree"], self._conditions = kept
        self._reachable: dict[str, dict[int, bool]] = {}  # platform name -> `reachable_arms`
        self._outcomes: dict[tuple[int, str], Outcome] = {}
        self._relevant: dict[frozenset[str], list[str]] = {}  # platform's fixed names -> local names that matter
        # Facts other modules derive from this file (`kept`): they die with it. They must not
        # refer back to the file strongly (a cycle outlives the file until a GC).
        self.derived: dict[object, object] = {}

    def kept(self, key: object, make: Callable[[], T]) -> T:
        """What `make()` derives from this file, made on the first call for `key` and kept."""
        if key not in self.derived:
            self.derived[key] = make()
        return self.derived[key]  # type: ignore[return-value]

    def keep_source(self) -> None:
        """Keep what the bytes alone decide (directives, groups, parsed conditions) for the next
        analysis of the same bytes in this process (`core.recent`)."""
        _kept_sources.keep(self.data, (self.scan, self.tree, self._conditions))

    @cached_property
    def scan(self) -> Scan:
        """The directives of the file."""
        return scan(self.data)

    @property
    def comments(self) -> tuple[tuple[int, int], ...]:
        """(start, end) of every comment the scanner saw."""
        return self.scan.comments

    @cached_property
    def tree(self) -> GroupTree:
        """The conditional groups of the file."""
        return GroupTree(self.scan.directives)

    @cached_property
    def local_macros(self) -> LocalMacros:
        """This file's own `#define`s and `#undef`s, and where its conditions first read each name."""
        first_use: dict[str, int] = {}
        for arm in self.arms:
            condition = self.condition(arm).term
            for name in condition.names if condition is not None else ():
                first_use[name] = min(first_use.get(name, arm.directive.hash), arm.directive.hash)
        return LocalMacros(self.data, self.scan.directives, self.tree, first_use, dict(self.settings.header_defines))

    @cached_property
    def name_counts(self) -> dict[str, int]:
        """How many of the file's conditions read each name."""
        counts: dict[str, int] = {}
        for arm in self.arms:
            condition = self.condition(arm).term
            for name in condition.names if condition is not None else ():
                counts[name] = counts.get(name, 0) + 1
        return counts

    def rewrite_macros(self, offset: int) -> RewriteMacros:
        """The macros a rewrite of the guard at `offset` tests for ROCm and its version (spec §13.2)."""
        return rewrite_macros(self, offset)

    @cached_property
    def free_names(self) -> frozenset[str]:
        """Names that a CUDA version guard, or the conditions around it, test, and that neither
        this file nor the models define: a project header it includes may define them (a
        threshold, spec §11.3; a macro it defines only for CUDA builds, Kokkos' KOKKOS_COMPILER_NVCC)."""
        cuda = self.settings.macros.cuda_version_macros
        fixed = frozenset().union(*(model.fixed for model in self.rocm_models))
        found: set[str] = set()
        around: set[int] = set()  # arms whose conditions (and earlier arms) enclose such a guard
        for arm in self.arms:
            condition = self.condition(arm).term
            if condition is not None and condition.names & cuda:
                found |= condition.names
                enclosing = arm.conditional.parent
                while enclosing is not None and id(enclosing) not in around:  # each arm marked once
                    around.add(id(enclosing))
                    for member in (*enclosing.earlier, enclosing):
                        term = self.condition(member).term
                        found |= term.names if term is not None else set()
                    enclosing = enclosing.conditional.parent
        return frozenset(found - cuda - fixed - self.local_macros.events.keys())

    def seen_at(self, platform: Platform, offset: int | None) -> Platform:
        """`platform` as the file sees it just before `offset` (None: at every directive).

        A project threshold `#define CUDART_HMAX 11070` has that value after it (`local_macros`).
        A model fixes CUDA_VERSION undefined on ROCm, but after the file's own `#define
        CUDA_VERSION 0` it is the file's choice, not the platform's: free.
        """
        local = self.local_macros
        key = frozenset(platform.fixed)
        names = self._relevant.get(key)
        if names is None:  # (a generated header with 100,000 #defines: only names that matter)
            wanted = key | local.first_use.keys()
            names = self._relevant[key] = [name for name in wanted if name in local.events]
        if not names:
            return platform
        facts = local.facts(platform, offset, names, self.path_below_guard)
        for name in self.settings.macros.cuda_version_macros & facts.keys():
            if facts[name] != platform.fixed.get(platform.renames.get(name, name), FREE):
                facts[name] = FREE
        return fixed_by(facts, platform)

    def path_below_guard(self, arm: Arm | None) -> list[Literal]:
        """`path` without the include guard's own condition (every first inclusion passes it)."""
        return self.path(arm, stop=self.local_macros.guard)

    @cached_property
    def platforms(self) -> FilePlatforms:
        """The CUDA platform and ROCm models this file is judged under (`profile`)."""
        return file_platforms(self)

    @property
    def cuda(self) -> Platform:
        """Every CUDA configuration of this file."""
        return self.platforms.cuda

    @property
    def rocm_models(self) -> tuple[Platform, ...]:
        """The ROCm models of this file."""
        return self.platforms.rocm_models

    @cached_property
    def lines(self) -> LineIndex:
        """Offsets to lines and columns."""
        return LineIndex(self.data)

    @property
    def arms(self) -> list[Arm]:
        """Every arm with a condition (#if, #elif, #ifdef, #ifndef, #elifdef, #elifndef)."""
        return [arm for c in self.tree.conditionals for arm in c.arms if arm.directive.kind != "else"]

    def text(self, start: int, end: int) -> str:
        """Bytes of the file as text (undecodable bytes escaped)."""
        return self.data[start:end].decode("utf-8", "backslashreplace")

    # -- conditions -----------------------------------------------------------------------------

    def condition(self, arm: Arm) -> Condition:
        """The parsed condition of an arm (an #else arm has none: Condition(None, None))."""
        key = arm.directive.hash
        if key not in self._conditions:
            self._conditions[key] = self._parse(arm.directive)
        return self._conditions[key]

    def _parse(self, directive: Directive) -> Condition:
        if directive.kind == "else":
            return Condition(None, None)
        start, end = directive.argument
        if directive.kind in _DEFINED_TESTS:
            return _defined_test(self.data, directive, _DEFINED_TESTS[directive.kind])
        try:
            return Condition(term(parse(self.data, start, end)), None)
        except ParseError as error:
            return Condition(None, error)

    def unjudged(self) -> list[tuple[int, str]]:
        """(offset, why) of each condition some platform evaluates that does not parse but may be
        valid all the same (`ParseError.unjudged`: `#if 1 _CCCL_PP_FOR_EACH(...)`, a Jinja tag):
        not judged, and no HG901."""
        found = []
        for arm in self.arms:
            error = self.condition(arm).error
            if error is not None and error.unjudged is not None and self.reachable_anywhere(arm):
                found.append((arm.directive.hash, f"#{arm.directive.kind} not judged: its condition {error.unjudged}"))
        return found

    # -- reachability ---------------------------------------------------------------------------

    def context(self, arm: Arm, nearest: int | None = None) -> list[Literal]:
        """What must hold for the arm's own directive line to be evaluated (with `nearest`: only
        what the nearest that many enclosing arms and earlier arms say, a part of it that costs
        no more in a file that nests 10,000 deep)."""
        literals = self.path(arm.conditional.parent, nearest=nearest)
        for earlier in arm.earlier if nearest is None else arm.earlier[-nearest:]:
            known = self.condition(earlier).term
            if known is not None:
                literals.append((known, False))
        return literals

    def path(self, arm: Arm | None, stop: Arm | None = None, nearest: int | None = None) -> list[Literal]:
        """What must hold for code inside `arm`'s group to be compiled (below `stop`, if given;
        from the `nearest` enclosing arms and their nearest earlier arms only, if given)."""
        chain: list[Arm] = []
        while arm is not None and arm is not stop and (nearest is None or len(chain) < nearest):
            chain.append(arm)
            arm = arm.conditional.parent
        literals: list[Literal] = []
        for member in reversed(chain):
            for earlier in member.earlier if nearest is None else member.earlier[-nearest:]:
                known = self.condition(earlier).term
                if known is not None:
                    literals.append((known, False))
            own = self.condition(member).term
            if own is not None:
                literals.append((own, True))
        return literals

    def reachable(self, arm: Arm | None, platform: Platform, *, inside: bool) -> bool:
        """Whether the arm's directive (inside=False) or its group (inside=True) can be reached."""
        if arm is None:
            return True
        return self._reachable_table(platform)[reachable_key(arm, inside)]

    def reachable_at(self, offset: int, platform: Platform) -> bool:
        """Whether the code at `offset` is compiled on `platform`: its group is reached, and no
        `#error` before it in the group stops every configuration that reaches it."""
        start = self.tree.segment_start(offset)
        return start is None or self._reachable_table(platform).get(segment_key(start), True)

    def _reachable_table(self, platform: Platform) -> dict[int, bool]:
        table = self._reachable.get(platform.name)
        if table is None:  # every arm at once: one walk of the tree (`reachability`)
            seen = self.seen_at(platform, None)
            table = self._reachable[platform.name] = reachable_arms(self.tree, self._term, seen, self._stops)
        return table

    def _term(self, arm: Arm) -> Term | None:
        return self.condition(arm).term

    def _stops(self, condition: Term) -> bool:
        """Whether an `#error` under `condition` stops the compile for what follows. Not when the
        condition asks a CUDA version question (on ROCm, that `#error` is reached by accident:
        HG102 reports it, and a port that fixes the guard compiles what follows), nor when it
        tests a name that PyTorch's hipify or HIPIFY renames (`#ifndef __CUDACC__` becomes
        `#ifndef __HIPCC__`, false in the hipcc compile of the translated file)."""
        if version_names(condition.node, self.settings.macros.cuda_version_macros):
            return False
        from .api_tables import api_tables  # (files with an #error only)

        tables = api_tables()
        return not any(tables.torch.get(name) is not None or (fact := tables.facts.get(name.encode())) is not None
                       and fact.hip not in (None, name) for name in condition.names)

    def reachable_on_rocm(self, arm: Arm | None, *, inside: bool = False) -> list[Platform]:
        """The ROCm models under which the arm's directive (or group) is reached."""
        return [m for m in self.rocm_models if self.reachable(arm, m, inside=inside)]

    def rocm_models_at(self, offset: int) -> list[Platform]:
        """The ROCm models that compile the code at `offset`."""
        return [m for m in self.rocm_models if self.reachable_at(offset, m)]

    def reachable_anywhere(self, arm: Arm | None, *, inside: bool = False) -> bool:
        """Whether any CUDA configuration or ROCm model reaches the arm."""
        return bool(self.reachable_on_rocm(arm, inside=inside)) or self.reachable(arm, self.cuda, inside=inside)

    def outcome(self, arm: Arm, platform: Platform) -> Outcome:
        """The value of the arm's condition under `platform`, other macros free."""
        key = (arm.directive.hash, platform.name)
        if key not in self._outcomes:
            known = self.condition(arm).term
            seen = self.seen_at(platform, arm.directive.hash)
            self._outcomes[key] = Outcome.UNKNOWN if known is None else outcome(known, seen)
        return self._outcomes[key]


def _defined_test(data: bytes, directive: Directive, negate: bool) -> Condition:
    """`#ifdef X` as `defined(X)` and `#ifndef X` as `!defined(X)` (extra tokens are ignored)."""
    start, end = directive.argument
    name = _MACRO_NAME.match(data, start, end)
    if name is None:
        return Condition(None, ParseError(f"#{directive.kind} needs a macro name", start))
    span = name.span()
    test: Node = Defined(span, name.group().decode("ascii"))
    return Condition(term(Unary(span, "!", test) if negate else test), None)
