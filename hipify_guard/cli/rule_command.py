"""`hipify-guard rule CODE | --all`: the rule's documentation page, from the rule catalogue."""

from __future__ import annotations

import json

import click

from ..engine.catalogue import Rule, load_catalogue
from .rule_docs import as_json, page


@click.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print every rule's page.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule_command(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a rule (by code or name): what it finds, why it is bad, an example, fix safety."""
    if bool(code) == show_all:
        raise click.UsageError("give one rule CODE, or --all")
    rules = list(load_catalogue().values()) if show_all else [_find(code or "")]
    if output_format == "json":
        shown = [as_json(rule) for rule in rules]
        click.echo(json.dumps(shown if show_all else shown[0], indent=2))
    else:
        click.echo("\n".join(page(rule) for rule in rules), nl=False)


def _find(wanted: str) -> Rule:
    for rule in load_catalogue().values():
        if wanted.upper() == rule.code or wanted.lower() == rule.name:
            return rule
    raise click.BadParameter(f"no rule {wanted!r}; `hipify-guard rule --all` lists them", param_hint="CODE")
