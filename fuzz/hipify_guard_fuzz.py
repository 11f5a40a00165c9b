"""Fuzz targets for the scanner and the `#if` expression parser (atheris / libFuzzer).

    python fuzz/hipify_guard_fuzz.py [libFuzzer flags] [CORPUS_DIR...]

The first input byte picks the target: the scanner (with the group tree built on its result),
the expression parser (with the evaluator under a few configurations), or the whole check of
a file (every rule but the libclang ones; slower, so picked less often). A target fails on any exception it does not document
(ParseError, EvalError) and on a broken invariant (spans outside the input, a directive out of
order). See fuzz/README.md for the runs maintainers do; tests/test_fuzz.py does a short one.
"""

from __future__ import annotations

import sys

CONFIGURATIONS = ({}, {"CUDA_VERSION": 11080, "FOO": 0}, {"CUDA_VERSION": "<empty>", "FOO": -1, "X": 2**63})


def scanner_target(data: bytes) -> None:
    """Scan any bytes: spans inside the input, in file order; the group tree builds."""
    from hipify_guard.cpp.groups import GroupTree
    from hipify_guard.cpp.scanner import scan

    result = scan(data)
    previous_end = 0
    for directive in result.directives:
        assert previous_end <= directive.hash < directive.keyword[1] <= directive.argument[0], directive
        assert directive.argument[0] <= directive.argument[1] <= directive.end <= len(data), directive
        assert data[directive.hash] == 0x23, directive  # '#'
        previous_end = directive.end
    for start, end in result.comments:
        assert 0 <= start < end <= len(data), (start, end)
    for problem in result.problems:
        assert 0 <= problem.offset <= len(data), problem
    GroupTree(result.directives)


def expression_target(data: bytes) -> None:
    """Parse any bytes as an `#if` condition: a tree with spans inside the input, or ParseError;
    evaluating the tree gives a value or EvalError."""
    from hipify_guard.cpp.evaluator import EvalError, evaluate
    from hipify_guard.cpp.nodes import walk
    from hipify_guard.cpp.parser import ParseError, parse
    from hipify_guard.model.platforms import term

    try:
        node = parse(data, 0, len(data))
    except ParseError as error:
        assert 0 <= error.offset <= len(data), error.offset
        return
    for item in walk(node):
        assert 0 <= item.span[0] <= item.span[1] <= len(data), item
    term(node)
    for config in CONFIGURATIONS:
        try:
            evaluate(node, config)
        except EvalError:
            pass


def check_target(data: bytes) -> None:
    """The whole check of a file's bytes never raises."""
    from hipify_guard.checks import CHECKS
    from hipify_guard.engine.lint import check
    from hipify_guard.model.analysis import FileAnalysis
    from hipify_guard.model.settings import Settings

    codes = tuple(code for code in sorted(CHECKS) if code not in ("HG201", "HG202", "HG905"))
    check(FileAnalysis("fuzz.cu", data, Settings()), codes)


def one_input(data: bytes) -> None:
    """libFuzzer's entry: the first byte picks the target (scanner 4/8, expression 3/8, the slow
    whole check 1/8), the rest is its input."""
    if not data:
        return
    choice = data[0] % 8
    target = scanner_target if choice < 4 else expression_target if choice < 7 else check_target
    target(data[1:])


def main() -> None:
    import atheris

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))  # as the command line does (cli.main)
    with atheris.instrument_imports(include=["hipify_guard"]):
        import hipify_guard.checks  # noqa: F401
        import hipify_guard.engine.lint  # noqa: F401
        import hipify_guard.model.analysis  # noqa: F401 - instrumented for coverage guidance
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
