"""`gpu-advisor report`: a workload profile -> the recommendation report (pdf, html, md, json).

The workload comes from exactly one of: `--profile FILE.yaml`, free text (`report "TEXT"`), a brief
(`--brief FILE`: pdf, docx, md, txt, html), or text and a brief together. Text, briefs and profile files
are read by advisor.service.profiles (rules extractor by default, `--backend openai` for the model; the
profile file format is described there); every input form ends in advisor.service.reports.write_report,
which runs the recommender and renders.
"""

from __future__ import annotations

from pathlib import Path

import typer

from advisor.cli.app import app
from tools.errors import InputError

_NO_INPUT = (
    'describe the workload: gpu-advisor report "TEXT" -o out.pdf, --brief FILE, or --profile FILE.yaml '
    "(examples in advisor/examples/)"
)


@app.command()
def report(
    text: str = typer.Argument(
        None, help='the workload in your words, e.g. "QLoRA Llama 3 70B on 1B tokens, 3 epochs"'
    ),
    profile: Path = typer.Option(
        None, "--profile", "-p", help="workload profile YAML (see advisor/examples/)"
    ),
    brief: Path = typer.Option(
        None, "--brief", "-b", help="a brief to read: .pdf, .docx, .md, .txt, .html (with or without TEXT)"
    ),
    backend: str = typer.Option(
        None, "--backend", help="extractor for TEXT / --brief: rules (offline, default) | openai"
    ),
    out: Path = typer.Option(..., "--out", "-o", help="output file (report.pdf, report.html, report.md ...)"),
    fmt: str = typer.Option(
        None, "--format", "-f", help="pdf | html | md | json (default: from -o's suffix)"
    ),
    prices: Path = typer.Option(
        None, "--prices", help="your own price file (YAML or CSV) overriding the catalog"
    ),
    appendix: bool = typer.Option(
        True, "--appendix/--no-appendix", help="include the calculation appendix (pdf, html, md)"
    ),
) -> None:
    """Write the recommendation report for a workload (PDF by default): from TEXT, --brief or --profile."""
    # lazy: the extractors, the recommender and the renderer cost ~0.4 s of every command's start
    from advisor.service.profiles import read_profile_file, read_request
    from advisor.service.reports import resolve_format, write_report

    has_text = text is not None and bool(text.strip())
    if text is not None and not has_text and brief is None and profile is None:
        raise InputError('TEXT is empty: describe the workload, e.g. "QLoRA Llama 3 70B, 1B tokens"')
    if profile is not None and (has_text or brief is not None):
        raise InputError("give one workload: --profile FILE.yaml, or TEXT and/or --brief FILE, not both")
    if profile is None and not has_text and brief is None:
        raise InputError(_NO_INPUT)
    resolve_format(fmt, out)  # a bad --format fails before any extraction work
    if profile is not None:
        if backend is not None:
            raise InputError("--backend reads TEXT or --brief; a --profile file needs no extractor")
        prof, settings, title, description = read_profile_file(profile)
        account = None
    else:
        prof, description, account = read_request(text if has_text else None, brief, backend or "rules")
        settings, title = None, None
    path = write_report(
        prof,
        out,
        fmt=fmt,
        prices=prices,
        settings=settings,
        title=title,
        description=description,
        appendix=appendix,
        input_account=account,
    )
    typer.echo(f"wrote {path}")
