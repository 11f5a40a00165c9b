"""What the table generators share: the TSV text, and a main that writes it or checks it is current."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path


def render(notice: Iterable[str], columns: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    """The TSV text: `# ` comment lines, the header row, then the rows."""
    lines = [f"# {line}".rstrip() for line in notice]
    lines.append("\t".join(columns))
    lines += ("\t".join(row) for row in rows)
    return "\n".join(lines) + "\n"


def generator_main(argv: list[str] | None, description: str, *, tool: str, source: Path, source_help: str,
                   output: Path, make: Callable[[argparse.Namespace], tuple[str, str]],
                   errors: tuple[type[Exception], ...],
                   options: Callable[[argparse.ArgumentParser], None] | None = None) -> int:
    """Parse --source, --output, --check (and `options`), then write `make(args)`'s text (or with
    --check, verify the file): 0 written or current, 1 out of date, 2 bad input (`errors`)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--source", type=Path, default=source, help=source_help)
    if options is not None:
        options(parser)
    parser.add_argument("--output", type=Path, default=output, help="TSV file to write")
    parser.add_argument("--check", action="store_true", help="exit 1 if --output is not up to date")
    args = parser.parse_args(argv)
    try:
        text, what = make(args)
    except (*errors, OSError) as error:
        print(f"{tool}: error: {error}", file=sys.stderr)
        return 2
    return write_or_check(tool, args.output, text, args.check, what)


def write_or_check(tool: str, output: Path, text: str, check: bool, what: str) -> int:
    """0 written or up to date, 1 out of date (`check`); `what` names what was written."""
    if check:
        current = output.read_text(encoding="utf-8") if output.exists() else None
        if current != text:
            print(f"{tool}: {output} is out of date; run scripts/{tool}.py", file=sys.stderr)
            return 1
        return 0
    output.write_text(text, encoding="utf-8", newline="\n")
    print(f"{tool}: wrote {what} to {output}")
    return 0
