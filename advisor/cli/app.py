"""The Typer application object that command modules register on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="gpu-advisor",
    help="Size LLM workloads and recommend GPU configurations with traceable costs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Size LLM workloads and recommend GPU configurations with traceable costs."""
    # A callback keeps subcommand names required even if only one command were registered.
