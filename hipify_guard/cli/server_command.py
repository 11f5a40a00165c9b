"""`hipify-guard server`: the language server for editors, over standard input and output."""

from __future__ import annotations

import sys

import click


@click.command("server")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default; accepted for "
                                            "clients that pass it).")
def server_command(stdio: bool) -> None:
    """Run the language server (LSP) for editors: diagnostics, quick fixes, hovers."""
    from ..server.language_server import serve

    sys.exit(serve())
