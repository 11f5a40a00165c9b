"""`hipify-guard files`: which files the ROCm build compiles, and why (with a compilation
database); without one, what each given file is judged under, and why."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import click

from ..project.build_scope import BuildScope, BuildSources
from ..project.config import ConfigError
from ..project.include_graph import Graph, Member
from ..project.workspace import Project, command_line_overrides


class FilesFailed(click.ClickException):
    """A bad database or configuration: exit status 2."""

    exit_code = 2


@click.command("files")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--compile-commands", help="The ROCm build's compile_commands.json (default: the configuration's).")
@click.option("--cuda-compile-commands", help="Also list what the CUDA build's compile_commands.json compiles.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Use this configuration file.")
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def files_command(paths: Sequence[str], compile_commands: str | None, cuda_compile_commands: str | None,
                  config_file: str | None, isolated: bool, output_format: str) -> None:
    """List the files a build compiles (its translation units and the project files they include) and why.

    PATHS (default ".") only widen the project root, as the checked paths of `check` do. Without
    a compilation database: what each file of PATHS is judged under (its ROCm models, the macros
    the project's platforms decide for it, and whether the ROCm rules run on it), and why."""
    from ..checks import CHECKS

    if config_file and isolated:
        raise click.UsageError("--config and --isolated cannot be used together")
    try:
        overrides = command_line_overrides(policy=None, select=None, ignore=None, extend_select=None,
                                           per_file_ignores=(), exclude=(), extend_exclude=(),
                                           compile_commands=compile_commands,
                                           cuda_compile_commands=cuda_compile_commands)
        project = Project(CHECKS, overrides, config_file, isolated)
        options = project.options(os.path.join(os.getcwd(), "<files>"))
        sources = BuildSources.of(options)
        if not sources.compile_commands:
            _explain(project, paths, output_format)
            return
        scope = BuildScope(sources, project.settings(options), paths)
    except ConfigError as error:
        raise FilesFailed(str(error)) from None
    reports = [_report("rocm", sources.compile_commands, scope.rocm, scope)]
    if scope.cuda is not None:
        reports.append(_report("cuda", sources.cuda_compile_commands, scope.cuda, scope))
    if output_format == "json":
        click.echo(json.dumps(reports, indent=2))
    else:
        click.echo("\n".join(line for report in reports for line in _text(report)))


def _explain(project: Project, paths: Sequence[str], output_format: str) -> None:
    """Each file's platforms (`project.explain`)."""
    from ..project.discovery import discover
    from ..project.explain import explain
    from ..project.job import CHECK

    roots = list(paths) or ["."]
    missing = [path for path in roots if not os.path.lexists(path)]
    if missing:
        raise FilesFailed(f"no such file or folder: {', '.join(missing)}")
    targets = list(discover(roots, project.extensions(roots), exclude=project.excluded))
    judged = [explain(job) for job in project.jobs(targets, roots, CHECK, False)]
    if output_format == "json":
        click.echo(json.dumps([{"path": item.path, "rocm_rules": item.rocm_rules, "models": list(item.models),
                                "models_reason": item.models_reason, "error": item.error,
                                "cuda_only_why": item.cuda_only_why or None,
                                "macros": [{"name": n, "rocm": v, "why": w} for n, v, w in item.macros],
                                "rewrites": {role: {"macro": name or None, "why": why}
                                             for role, name, why in item.rewrites}}
                               for item in judged], indent=2))
        return
    for item in judged:
        unused = "the project does not run it on ROCm" if item.path.endswith(".py") else "only the CUDA build compiles it"
        why = f" ({item.cuda_only_why})" if item.cuda_only_why else ""
        scope = "" if item.rocm_rules else f"; {unused}{why}: the ROCm rules do not run"
        models = ", ".join(item.models) + (f" ({item.models_reason})" if item.models_reason else "")
        click.echo(f"{item.path}: {item.error}" if item.error else f"{item.path}: judged under {models}{scope}")
        for name, value, why in item.macros:
            click.echo(f"    {name}: {value} ({why})")
        for role, name, why in item.rewrites:
            click.echo(f"    rewrites' {role}: {name or 'none'} ({why})")


def _report(build: str, database: str, graph: Graph, scope: BuildScope) -> dict[str, Any]:
    members = sorted(graph.members.values(), key=lambda member: (bool(member.chain), member.path))
    return {
        "build": build,
        "database": _shown(database),
        "root": graph.root,
        "translation_units": graph.units,
        "files": [_file(member, scope if build == "rocm" else None) for member in members],
        "absent_units": [_shown(unit) for unit in graph.absent_units],
        "missing": [{"includer": _shown(path), "header": header} for path, header in sorted(graph.missing)],
        "unreachable": [{"path": _shown(path), "line": line} for path, line in sorted(graph.unreachable)],
        "computed": [{"path": _shown(path), "line": line} for path, line in sorted(graph.computed)],
        "outside": len(graph.outside),
    }


def _file(member: Member, scope: BuildScope | None) -> dict[str, Any]:
    return {
        "path": _shown(member.path),
        "translation_unit": not member.chain,
        "unit": _shown(member.unit),
        "chain": [{"path": _shown(path), "line": line} for path, line in member.chain],
        "facts": [build.label for build in scope.builds(member)] if scope is not None else [],
    }


def _text(report: dict[str, Any]) -> list[str]:
    title = "ROCm" if report["build"] == "rocm" else "CUDA"
    lines = [f"{title} build ({report['database']}): {_count(len(report['files']), 'file')}, "
             f"{_count(report['translation_units'], 'translation unit')}, project root {report['root']}"]
    for item in report["files"]:
        why = "translation unit" if item["translation_unit"] else "included by " + " -> ".join(
            f"{step['path']}:{step['line']}" for step in item["chain"])
        facts = f"  [{'; '.join(item['facts'])}]" if item["facts"] else ""
        lines.append(f"{item['path']}: {why}{facts}")
    lines.append(f"not followed: {_count(len(report['missing']), 'missing header')}, "
                 f"{_count(len(report['unreachable']), 'unreachable include')}, "
                 f"{_count(len(report['computed']), 'computed include')}, "
                 f"{_count(report['outside'], 'include')} of system or outside files; "
                 f"{_count(len(report['absent_units']), 'translation unit')} not on disk")
    return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _shown(path: str) -> str:
    """Relative to the current folder when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative
