"""Prove a Python rewrite before it is written (spec §12), like black's `--safe`: the new bytes
parse, every byte outside the edits is unchanged, and the new syntax tree differs from the old
one only where the edits are, and only in the forms the rules write:

- a test false on ROCm gained `and torch.version.hip is None`, or one true there `or
  torch.version.hip is not None` (HG302), where only its truth is used or its value is a bool
  (`python_rewrite`), with `torch` bound there;
- a device literal "hip[:N]" or "rocm[:N]" became "cuda[:N]" (HG307);
- nothing at all (HG902 removed a comment).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ..core.findings import Edit, Expectation
from ..model.python_analysis import PythonFile
from ..model.python_stand_ins import rocm_truth
from ..python.names import dotted
from ..python.source import PythonSource
from .python_rewrite import DEVICE_TYPE, bool_valued, hip_spelling, truth_only
from .verify import VerificationError, check_untouched_bytes


def verify(old: PythonFile, new: bytes, edits: Sequence[Edit], expectations: Sequence[Expectation] = ()) -> None:
    """Raise VerificationError unless `new` is `old` with exactly the promised changes."""
    check_untouched_bytes(old.data, new, edits)
    fresh = PythonSource(new)
    if old.tree is None or fresh.tree is None:
        problem = fresh.problem.message if fresh.problem else "the original does not parse"
        raise VerificationError(f"the rewritten file does not parse: {problem}")
    try:
        _compare(old, old.tree, fresh.tree, [(edit.start, edit.end) for edit in edits])
    except RecursionError:
        raise VerificationError("the code is nested too deeply to prove the rewrite") from None


def same_tree(old: bytes, new: bytes) -> bool:
    """Whether two Python files have the same syntax tree (comments and layout aside)."""
    before, after = PythonSource(old).tree, PythonSource(new).tree
    return before is not None and after is not None and ast.dump(before) == ast.dump(after)


def _compare(old: PythonFile, before: object, after: object, spans: list[tuple[int, int]]) -> None:
    if not isinstance(before, ast.AST):
        if before != after:
            raise _beyond(before)
        return
    if type(before) is type(after) and ast.dump(before) == ast.dump(after):
        return
    if _rewritten(old, before, after, spans):
        return
    if type(before) is not type(after):
        raise _beyond(before)
    for name in before._fields:
        first, second = getattr(before, name), getattr(after, name)
        if isinstance(first, list):
            if not isinstance(second, list) or len(first) != len(second):
                raise _beyond(before)
            for one, other in zip(first, second):
                _compare(old, one, other, spans)
        else:
            _compare(old, first, second, spans)


def _beyond(node: object) -> VerificationError:
    return VerificationError(f"line {getattr(node, 'lineno', '?')}: the rewrite changed the code beyond its edits")


def _rewritten(old: PythonFile, before: ast.AST, after: ast.AST, spans: list[tuple[int, int]]) -> bool:
    """Whether `after` is `before` in one of the written forms, at an edit."""
    if not isinstance(before, ast.expr) or not _at_edit(old, before, spans):
        return False
    if isinstance(before, ast.Constant) and isinstance(after, ast.Constant):
        return _device_renamed(before.value, after.value)
    if not isinstance(after, ast.BoolOp):
        return False
    include = isinstance(after.op, ast.Or)
    if not _is_clause(old, before, after.values[-1], include):
        return False
    kept = after.values[:-1]
    same = ast.dump(kept[0] if len(kept) == 1 else ast.BoolOp(after.op, kept)) == ast.dump(before)
    parents = old.source.parents
    return same and rocm_truth(old, before) is include and (truth_only(parents, before) or bool_valued(before))


def _device_renamed(before: object, after: object) -> bool:
    match = DEVICE_TYPE.fullmatch(before) if isinstance(before, str) else None
    return match is not None and after == "cuda" + match.group(2)


def _is_clause(old: PythonFile, at: ast.expr, clause: ast.expr, include: bool) -> bool:
    """`torch.version.hip is None` (`is not None` to `include` ROCm), spelled as code at `at` sees torch."""
    kind = ast.IsNot if include else ast.Is
    if not (isinstance(clause, ast.Compare) and len(clause.ops) == 1 and isinstance(clause.ops[0], kind)):
        return False
    right = clause.comparators[0]
    spelled = dotted(clause.left)
    return (isinstance(right, ast.Constant) and right.value is None and spelled is not None
            and ".".join(spelled) == hip_spelling(old, at))


def _at_edit(old: PythonFile, node: ast.expr, spans: list[tuple[int, int]]) -> bool:
    start, end = old.span(node)
    return any(low <= end and high >= start for low, high in spans)
