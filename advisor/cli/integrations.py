"""`gpu-advisor slack` and `gpu-advisor mcp`: GPU Advisor inside other tools.

slack: Socket Mode when SLACK_APP_TOKEN is set (no public address needed), otherwise the web app with
Slack's events endpoint at /slack/events (HTTP mode: point the app's Request URLs there). Secrets come
only from the environment: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET (HTTP), SLACK_APP_TOKEN (Socket Mode).
mcp: the MCP server on stdio (size, recommend, generate_report), for Claude Desktop, IDEs and agents.
"""

from __future__ import annotations

import os

import typer

from advisor.cli.app import app
from tools.errors import InputError


@app.command()
def slack(
    host: str = typer.Option("127.0.0.1", "--host", help="HTTP mode: address to listen on (0.0.0.0 for all)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="HTTP mode: TCP port"),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="HTTP mode: worker processes"),
) -> None:
    """Run the Slack app: Socket Mode when SLACK_APP_TOKEN is set, else HTTP at /slack/events (with the
    web app). Set SLACK_BOT_TOKEN (and SLACK_SIGNING_SECRET for HTTP) first; see the README."""
    # lazy: Bolt, the store and the conversation cost ~0.4 s of every command's start
    from advisor.slack.app import SlackSettings, build_slack_app, start_socket_mode

    settings = SlackSettings.from_env()
    if settings.app_token is not None:
        if not settings.app_token.startswith("xapp-"):
            raise InputError("SLACK_APP_TOKEN must be an app-level token (xapp-...) with connections:write")
        bolt_app = build_slack_app(settings=settings, socket_mode=True)  # auth.test: a bad token fails now
        typer.echo("GPU Advisor on Slack (Socket Mode); Ctrl-C to stop", err=True)
        start_socket_mode(bolt_app, settings.app_token)
        return

    import uvicorn  # lazy: ~30 ms of every command's start; HTTP mode only

    build_slack_app(settings=settings, socket_mode=False)  # missing secrets or a bad token fail now
    typer.echo(
        f"GPU Advisor on Slack: events at http://{host}:{port}/slack/events (and the web app at /)", err=True
    )
    uvicorn.run(
        "advisor.web.app:app_from_env",  # mounts /slack/events from the same environment (advisor.slack.http)
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "info").lower(),
    )


@app.command("mcp")
def mcp_command() -> None:
    """Serve GPU Advisor's tools (size, recommend, generate_report) over MCP on stdio."""
    from advisor.mcp_server import main  # lazy: the MCP SDK costs ~0.45 s of every command's start

    main()
