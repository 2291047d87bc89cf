"""The `gpu-advisor` command line. Each subcommand lives in its own module and registers on `app`.

User errors (tools.errors.InputError, a ValueError) print one line and exit 2; nothing else reaches
the user as a traceback unless GPU_ADVISOR_DEBUG is set.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer
from typer._click import exceptions as typer_click

from advisor.cli.app import app
from tools.errors import InputError

# Importing a module registers its commands on `app`, so every command module loads at every start: what
# one command alone needs is imported inside it, marked `# lazy:` with what it would cost.
COMMAND_MODULES = (
    "advisor.cli.size",
    "advisor.cli.timing",
    "advisor.cli.catalog",
    "advisor.cli.report",
    "advisor.cli.ask",
    "advisor.cli.evaluate",
    "advisor.cli.serve",
    "advisor.cli.integrations",
)


def _register() -> None:
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a command's own dependency is missing: a real failure
                raise


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    _register()
    try:
        app(args=argv, prog_name="gpu-advisor", standalone_mode=False)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception as exc:
        return _exit_code_for(exc)
    return 0


def _exit_code_for(exc: Exception) -> int:
    """Typer (which vendors its own click) and click exceptions -> exit codes; others are internal."""
    # lazy: the standalone click (typer uses its own copy) costs ~5 ms of every start; errors only
    import click

    if isinstance(exc, typer.Exit):
        return int(exc.exit_code)
    if isinstance(exc, typer.Abort | click.exceptions.Abort):
        print("aborted", file=sys.stderr)
        return 1
    if isinstance(exc, typer_click.NoArgsIsHelpError):
        print(exc.ctx.get_help() if exc.ctx else "see gpu-advisor --help")
        return 0
    if isinstance(exc, typer_click.ClickException | click.ClickException):
        msg = " ".join(exc.format_message().split())
        print(f"error: {msg} (see gpu-advisor --help)", file=sys.stderr)
        return 2
    if os.environ.get("GPU_ADVISOR_DEBUG"):
        raise exc
    print(
        f"internal error: {type(exc).__name__}: {exc} (set GPU_ADVISOR_DEBUG=1 for details)", file=sys.stderr
    )
    return 1


def run() -> None:
    sys.exit(main())
