"""`gpu-advisor serve`: the web app (chat page + JSON API) on uvicorn.

Configuration comes from the environment (secrets never on the command line): DATABASE_URL or
GPU_ADVISOR_DATA_DIR (SQLite file), GPU_ADVISOR_REPORTS_DIR (PDFs), GPU_ADVISOR_BACKEND (rules|openai)
with OPENAI_API_KEY / OPENAI_BASE_URL / GPU_ADVISOR_MODEL, rate limits GPU_ADVISOR_RATE_*.
"""

from __future__ import annotations

import os

import typer

from advisor.cli.app import app
from advisor.web.settings import WebSettings


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0 for all)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port"),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64, help="worker processes (state is in the database, so any number works)"
    ),
    proxy_headers: bool = typer.Option(
        False, "--proxy-headers", help="behind a reverse proxy: take the client address from X-Forwarded-For"
    ),
) -> None:
    """Serve the chat page at / and the JSON API at /api (docs at /api/docs)."""
    # lazy: uvicorn, FastAPI and SQLAlchemy load only for this command (the CLI's start must not pay for them)
    import uvicorn

    from advisor.web.app import open_repository_retrying

    WebSettings.from_env()  # fail now, with one line, on a bad GPU_ADVISOR_* setting
    open_repository_retrying().engine.dispose()  # tables created once, before the workers start
    if proxy_headers:
        os.environ["GPU_ADVISOR_TRUST_PROXY"] = "1"
    typer.echo(f"GPU Advisor on http://{host}:{port}/  (API docs: http://{host}:{port}/api/docs)", err=True)
    uvicorn.run(
        "advisor.web.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        proxy_headers=proxy_headers,
        log_level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "info").lower(),
    )
