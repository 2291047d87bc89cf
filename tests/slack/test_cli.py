"""`gpu-advisor slack`: Socket Mode with SLACK_APP_TOKEN, else HTTP through the web app; secrets only
from the environment, missing ones a one-line exit 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import advisor.cli.integrations  # noqa: F401 (registers the commands until the CLI lists the module)
from advisor.cli import main

SLACK_VARS = ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "SLACK_API_URL")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in SLACK_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path))


def test_missing_token_is_a_one_line_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slack"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: set SLACK_BOT_TOKEN") and "\n" not in err


def test_http_mode_needs_the_signing_secret(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    assert main(["slack"]) == 2
    assert "SLACK_SIGNING_SECRET" in capsys.readouterr().err


def test_socket_mode_when_the_app_token_is_set(monkeypatch: pytest.MonkeyPatch, slack_stub: Any) -> None:
    started: list[tuple[Any, str]] = []
    monkeypatch.setattr(
        "advisor.slack.app.start_socket_mode", lambda app, token: started.append((app, token))
    )
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test-token")
    monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-1-test")
    monkeypatch.setenv("SLACK_API_URL", slack_stub.api_url)
    assert main(["slack"]) == 0
    assert len(started) == 1 and started[0][1] == "xapp-1-test"
    assert slack_stub.named("auth.test"), "a wrong bot token fails at start, not at the first message"


def test_socket_mode_refuses_a_bot_token_as_app_token(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("SLACK_APP_TOKEN", "xoxb-1")
    assert main(["slack"]) == 2
    assert "xapp-" in capsys.readouterr().err


def test_http_mode_serves_the_web_app_with_slack_mounted(
    monkeypatch: pytest.MonkeyPatch, slack_stub: Any
) -> None:
    import uvicorn

    runs: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: runs.append((a, kw)))
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test-token")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s3cret")
    monkeypatch.setenv("SLACK_API_URL", slack_stub.api_url)
    assert main(["slack", "--port", "8123"]) == 0
    ((args, kwargs),) = runs
    assert args == ("advisor.web.app:app_from_env",) and kwargs["factory"] and kwargs["port"] == 8123
    from fastapi.testclient import TestClient

    from advisor.web.app import app_from_env

    with TestClient(app_from_env()) as client:  # the same factory uvicorn runs: Slack is mounted
        assert client.post("/slack/events", content=b"{}").status_code == 401  # unsigned, not 404
