"""The `gpu-advisor` command line. Each subcommand lives in its own module and registers on `app`.

User errors (tools.errors.InputError, a ValueError) print one line and exit 2; nothing else reaches
the user as a traceback unless GPU_ADVISOR_DEBUG is set.
"""

from __future__ import annotations

import os
import sys

from advisor.cli.app import app

# Importing a module registers its commands on `app`. Keep imports inside commands lazy.
COMMAND_MODULES = (
    "advisor.cli.size",
    "advisor.cli.catalog",
    "advisor.cli.report",
    "advisor.cli.ask",
    "advisor.cli.evaluate",
    "advisor.cli.serve",
)


def _register() -> None:
    import importlib

    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a command's own dependency is missing: a real failure
                raise


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    from tools.errors import InputError

    _register()
    try:
        app(args=argv, prog_name="gpu-advisor", standalone_mode=False)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # typer/click exit inside commands
        return int(exc.code or 0) if isinstance(exc.code, int) else 1
    except Exception as exc:  # click usage errors and internal failures
        import click

        if isinstance(exc, click.exceptions.Abort):
            print("aborted", file=sys.stderr)
            return 1
        if isinstance(exc, click.ClickException):
            msg = exc.format_message().replace("\n", " ")
            print(f"error: {msg} (see gpu-advisor --help)", file=sys.stderr)
            return 2
        if os.environ.get("GPU_ADVISOR_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (set GPU_ADVISOR_DEBUG=1 for details)", file=sys.stderr)
        return 1
    return 0


def run() -> None:
    sys.exit(main())
