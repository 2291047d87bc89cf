"""`gpu-advisor eval`: run the extraction eval cases (evals/) and print the harness report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from advisor.cli.app import app
from tools.errors import InputError


def _harness() -> Any:
    """evals.harness.run_eval; from a checkout, the repository root is put on the path (the console
    script does not add it, and evals/ is not an installed package)."""
    import importlib
    import sys

    try:
        return importlib.import_module("evals.harness").run_eval
    except ModuleNotFoundError as exc:
        if exc.name not in ("evals", "evals.harness"):
            raise
    root = Path(__file__).resolve().parents[2]
    if not (root / "evals" / "harness.py").is_file():
        raise InputError("the evals/ cases are not installed here: run gpu-advisor eval from the repository")
    sys.path.insert(0, str(root))
    return importlib.import_module("evals.harness").run_eval


@app.command("eval")
def evaluate(
    backend: str = typer.Option("rules", "--backend", help="rules | openai"),
    fmt: str = typer.Option("text", "--format", "-f", help="text | json"),
    cases: Path = typer.Option(None, "--cases", help="a directory of eval cases (default: evals/cases)"),
    strict: bool = typer.Option(False, "--strict", help="exit 1 when the field-accuracy goal is not met"),
) -> None:
    """Score an extraction backend: per-field accuracy, per-case results and failures."""
    from advisor.extract import BACKENDS

    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(sorted(BACKENDS))}")
    if fmt not in ("text", "json"):
        raise InputError(f"unknown --format {fmt!r}: use text or json")
    if cases is not None and not cases.is_dir():
        raise InputError(f"eval cases directory {cases} not found")
    run_eval = _harness()
    report = run_eval(backend, cases_dir=cases)
    typer.echo(json.dumps(report.to_dict(), indent=2) if fmt == "json" else report.summary())
    if strict and not report.meets_goal:
        raise typer.Exit(1)
