"""`gpu-advisor ask` (one turn, text or the design.md JSON) and `gpu-advisor chat` (a terminal conversation).

Heavy imports (LangChain, the recommender, rich) happen inside the commands.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from advisor.cli.app import app
from tools.errors import InputError

_BACKEND_HELP = "rules (offline, default) | openai (OPENAI_API_KEY / OPENAI_BASE_URL, GPU_ADVISOR_MODEL)"
_QUIT = ("quit", "exit", "bye", ":q")


@app.command()
def ask(
    text: str = typer.Argument(None, help='the workload in your words, e.g. "QLoRA Llama 3 70B, 1B tokens"'),
    brief: Path = typer.Option(None, "--brief", "-b", help="a brief to read: .pdf, .docx, .md, .txt, .html"),
    backend: str = typer.Option("rules", "--backend", help=_BACKEND_HELP),
    fmt: str = typer.Option("text", "--format", "-f", help="text | json"),
) -> None:
    """Answer one question about a workload: the profile understood, the pick, and what is still unknown."""
    from advisor.api import ask_turn, turn_json  # lazy: see ask_turn (the conversation's start-up cost)

    if fmt not in ("text", "json"):
        raise InputError(f"unknown --format {fmt!r}: use text or json")
    if fmt == "json":
        typer.echo(json.dumps(turn_json(ask_turn(text, brief, backend)), indent=2, default=str))
        return
    turn = ask_turn(text, brief, backend, explain=True)
    typer.echo(turn.reply)


def _chat_loop(conv: Any, console: Any, read: Any, first: tuple[str, str | None] | None) -> None:
    """Read lines until quit/EOF; 'report [FILE]' writes the report of the current profile."""
    pending = first
    while True:
        if pending is not None:
            line, brief_text = pending
            pending = None
        else:
            try:
                line = read()
            except (EOFError, KeyboardInterrupt):
                console.print()
                return
            brief_text = None
        line = (line or "").strip()
        if not line and brief_text is None:
            continue
        if line.lower() in _QUIT:
            return
        words = line.split()
        if words and words[0].lower() == "report":
            _write_report(conv, console, words[1] if len(words) > 1 else "report.pdf")
            continue
        _one_turn(conv, console, line, brief_text)


def _one_turn(conv: Any, console: Any, line: str, brief_text: str | None) -> None:
    shown: list[str] = []
    status = console.status("working out the numbers ...", spinner="dots")
    status.start()

    def on_text(chunk: str) -> None:
        if not shown:
            status.stop()
            console.print("[bold]advisor>[/bold] ", end="")
        shown.append(chunk)
        console.print(chunk, end="", markup=False, highlight=False)

    conv.stream = on_text if conv.chat_model is not None else None
    try:
        turn = conv.send(line, brief_text=brief_text)
    except InputError as exc:
        status.stop()
        console.print(f"[red]error:[/red] {exc}")
        return
    finally:
        status.stop()
    if shown:
        console.print("\n")
    else:
        console.print("[bold]advisor>[/bold] ", end="")
        console.print(turn.reply, markup=False, highlight=False)
        console.print()


def _write_report(conv: Any, console: Any, out: str) -> None:
    # lazy: the recommender and the renderer cost ~0.4 s of the CLI's start
    from advisor.service.reports import write_report

    if conv.last is None or conv.last.recommendation is None:
        console.print("Tell me about the workload first (which model, which method, how much data).")
        return
    with console.status("writing the report ...", spinner="dots"):
        try:
            path = write_report(conv.profile, out, input_account=conv.account)
        except InputError as exc:
            console.print(f"[red]error:[/red] {exc}")
            return
    console.print(f"wrote {path}")


@app.command()
def chat(
    brief: Path = typer.Option(None, "--brief", "-b", help="start from a brief (.pdf .docx .md .txt .html)"),
    backend: str = typer.Option("rules", "--backend", help=_BACKEND_HELP),
) -> None:
    """A conversation in the terminal: describe the workload, answer a few questions, ask for 'report'."""
    # lazy: rich, the conversation (extractors, recommender) and the brief readers cost ~0.4 s of CLI start
    from rich.console import Console

    from advisor.conversation import Conversation
    from advisor.service.profiles import brief_text, check_backend

    check_backend(backend)
    console = Console(highlight=False, soft_wrap=True)
    first: tuple[str, str | None] | None = None
    if brief is not None:
        first = ("", brief_text(brief))
    conv = Conversation(backend=backend)
    console.print(
        "Describe your workload (model, method, data, deadline, budget). "
        "Type 'report [FILE]' for the PDF, 'quit' to leave."
    )

    def read() -> str:
        if sys.stdin.isatty():
            return str(console.input("[bold]you>[/bold] "))
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    _chat_loop(conv, console, read, first)
