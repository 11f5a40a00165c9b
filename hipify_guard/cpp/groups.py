"""Build the tree of conditional groups (#if/#elif/#else/#endif) from a directive list."""

from __future__ import annotations

import bisect
from dataclasses import field
from typing import NamedTuple

from ..core.records import record
from .scanner import Directive

OPENING = frozenset({"if", "ifdef", "ifndef"})
CONTINUING = frozenset({"elif", "elifdef", "elifndef"})


@record(frozen=False, slots=True, eq=False)
class Arm:
    """One arm of a conditional: the group after an #if, #elif or #else line."""

    directive: Directive
    conditional: Conditional = field(repr=False)
    index: int = 0  # 0 for the #if arm

    @property
    def earlier(self) -> list[Arm]:
        """The arms before this one in the same conditional."""
        return self.conditional.arms[: self.index]

    @property
    def following_else(self) -> Arm | None:
        """The `#else` right after this arm: what a build that skips this arm compiles instead."""
        arms = self.conditional.arms
        following = arms[self.index + 1] if self.index + 1 < len(arms) else None
        return following if following is not None and following.directive.kind == "else" else None


@record(frozen=False, slots=True, eq=False)
class Conditional:
    """An #if ... #endif construct and the arm that encloses it (None at file level)."""

    parent: Arm | None
    arms: list[Arm] = field(default_factory=list)
    endif: Directive | None = None


def group_end(arm: Arm, size: int) -> int:
    """Where the arm's group ends: at the next `#elif`/`#else`/`#endif` of its conditional, or at
    `size` (the end of the file) for an unterminated one."""
    arms = arm.conditional.arms
    if arm.index + 1 < len(arms):
        return arms[arm.index + 1].directive.hash
    endif = arm.conditional.endif
    return endif.hash if endif is not None else size


class StructureProblem(NamedTuple):
    """An unbalanced or misplaced conditional directive."""

    directive: Directive
    message: str


class GroupTree:
    """The conditional groups of one file, which arm encloses each position, and where the
    `#error` directives stand.

    A *segment* is a stretch of one group that nothing inside it can stop: it starts at an arm's
    directive, after an `#error` (the rest of the group is compiled only where the `#error` is
    not) or after the `#endif` of a nested conditional (which may hold one).
    """

    def __init__(self, directives: tuple[Directive, ...]) -> None:
        self.conditionals: list[Conditional] = []
        self.problems: list[StructureProblem] = []
        self.arm_of: dict[int, Arm] = {}  # hash offset of an #if/#elif/#else -> its arm
        self.errors: list[tuple[Directive, Arm | None]] = []  # each #error and the arm it is in
        self._hashes: list[int] = []
        self._inside: list[Arm | None] = []  # innermost arm in force just after each directive
        self._segment: list[Directive | None] = []  # the directive that starts the segment after each
        self._build(directives)

    def enclosing(self, offset: int) -> Arm | None:
        """The innermost arm whose group contains `offset` (None at file level)."""
        index = bisect.bisect_left(self._hashes, offset) - 1
        return self._inside[index] if index >= 0 else None

    def segment_start(self, offset: int) -> Directive | None:
        """The arm directive, `#error` or `#endif` that starts the segment holding `offset` (None:
        the file's first segment)."""
        index = bisect.bisect_left(self._hashes, offset) - 1
        return self._segment[index] if index >= 0 else None

    def _build(self, directives: tuple[Directive, ...]) -> None:
        stack: list[Conditional] = []
        segment: Directive | None = None
        for directive in directives:
            kind = directive.kind
            starts = True
            if kind in OPENING:
                conditional = Conditional(stack[-1].arms[-1] if stack else None)
                self.conditionals.append(conditional)
                stack.append(conditional)
                self._add_arm(conditional, directive)
            elif kind in CONTINUING or kind == "else":
                starts = self._continue(stack, directive)
            elif kind == "endif":
                if stack:
                    stack.pop().endif = directive
                else:
                    self.problems.append(StructureProblem(directive, "#endif without #if"))
                    starts = False
            elif kind == "error":
                self.errors.append((directive, stack[-1].arms[-1] if stack else None))
            else:
                starts = False
            segment = directive if starts else segment
            self._hashes.append(directive.hash)
            self._inside.append(stack[-1].arms[-1] if stack else None)
            self._segment.append(segment)
        for conditional in stack:
            opening = conditional.arms[0].directive
            self.problems.append(StructureProblem(opening, f"#{opening.kind} without #endif"))

    def _continue(self, stack: list[Conditional], directive: Directive) -> bool:
        """Add an #elif or #else arm; False when it is misplaced."""
        if not stack:
            self.problems.append(StructureProblem(directive, f"#{directive.kind} without #if"))
            return False
        conditional = stack[-1]
        if conditional.arms[-1].directive.kind == "else":
            self.problems.append(StructureProblem(directive, f"#{directive.kind} after #else"))
            return False
        self._add_arm(conditional, directive)
        return True

    def _add_arm(self, conditional: Conditional, directive: Directive) -> None:
        arm = Arm(directive, conditional, len(conditional.arms))
        conditional.arms.append(arm)
        self.arm_of[directive.hash] = arm
