"""`gpu-advisor eval`: run the extraction eval cases (evals/, an installed package) and print the harness
report."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from advisor.cli.app import app
from tools.errors import InputError


@app.command("eval")
def evaluate(
    backend: str = typer.Option("rules", "--backend", help="rules | openai"),
    fmt: str = typer.Option("text", "--format", "-f", help="text | json"),
    cases: Path = typer.Option(None, "--cases", help="a directory of eval cases (default: evals/cases)"),
    strict: bool = typer.Option(False, "--strict", help="exit 1 when the field-accuracy goal is not met"),
) -> None:
    """Score an extraction backend: per-field accuracy, per-case results and failures."""
    # lazy: the extractors and the eval harness (pydantic, YAML cases) cost ~0.1 s of every command's start
    from advisor.extract import BACKENDS
    from evals.harness import run_eval

    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(sorted(BACKENDS))}")
    if fmt not in ("text", "json"):
        raise InputError(f"unknown --format {fmt!r}: use text or json")
    if cases is not None and not cases.is_dir():
        raise InputError(f"eval cases directory {cases} not found")
    # each case's line as soon as it is scored (stdout for text, stderr beside JSON): a slow model's run
    # shows its progress, and a stopped one what it did
    stream_err = fmt == "json"
    typer.echo(f"Running the eval cases with backend {backend} ...", err=stream_err)
    report = run_eval(backend, cases_dir=cases, on_case=lambda c: typer.echo(c.line(), err=stream_err))
    typer.echo("", err=stream_err)
    typer.echo(json.dumps(report.to_dict(), indent=2) if fmt == "json" else report.summary())
    if strict and not report.meets_goal:
        raise typer.Exit(1)
