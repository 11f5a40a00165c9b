"""`hipify-guard init [ROOT]`: write the project's inferred platforms as a configuration file."""

from __future__ import annotations

import os

import click

from ..project.config import CONFIG_NAMES, ConfigError, has_config, read_file
from ..project.init_config import CONFIG_NAME, render


class InitFailed(click.ClickException):
    """An existing configuration, or a file that cannot be written: exit status 2."""

    exit_code = 2


@click.command("init")
@click.argument("root", default=".", type=click.Path(file_okay=False, exists=True))
@click.option("--stdout", "to_stdout", is_flag=True, help="Print the configuration instead of writing it.")
@click.option("--force", is_flag=True, help=f"Overwrite an existing {CONFIG_NAME}.")
def init_command(root: str, to_stdout: bool, force: bool) -> None:
    """Write ROOT/.hipify-guard.toml with what the project's build files and sources say about its
    ROCm and CUDA builds (build macros, definitions, CUDA-only files, PyTorch's hipify), each
    entry with its evidence as a comment, for review."""
    from ..checks import CHECKS

    folder = os.path.abspath(root)
    target = os.path.join(folder, CONFIG_NAME)
    existing = [name for name in CONFIG_NAMES if has_config(os.path.join(folder, name))]
    if existing and not to_stdout and not (force and existing == [CONFIG_NAME]):
        raise InitFailed(f"{os.path.join(root, existing[0])} already configures hipify-guard here "
                         f"(--stdout prints what init would write{'; --force overwrites it' if existing == [CONFIG_NAME] else ''})")
    text = render(folder)
    if to_stdout:
        click.echo(text, nl=False)
        return
    temporary = target + ".init-tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write(text)
        read_file(temporary, frozenset(CHECKS))  # what init writes must be a valid configuration
        os.replace(temporary, target)
    except ConfigError as error:
        os.unlink(temporary)
        raise InitFailed(f"internal error: the configuration init made is not valid: {error}") from None
    except OSError as error:
        raise InitFailed(f"{target}: cannot write: {error.strerror or error}") from None
    click.echo(f"wrote {os.path.join(root, CONFIG_NAME)}: review it, then `hipify-guard check {root}`")
