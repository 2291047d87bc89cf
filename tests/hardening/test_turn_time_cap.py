"""Issue 17: a turn computed inside the web process (no worker processes, or a streaming chat model) is
abandoned after GPU_ADVISOR_TURN_TIME_LIMIT_S with one line to the user; the message stays stored and
unanswered; a streaming turn stops at its next piece; the server answers the next message."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from advisor.service.turns import default_conversation_factory
from advisor.store import open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings
from tests.web.conftest import new_api

SLOW = "SLOW"
STUCK_STREAM = "STREAM FOREVER"


def slow_factory(stopped: threading.Event) -> Any:
    """The real conversation, except: a message with SLOW computes for 3 s; one with STUCK_STREAM streams
    a piece every 20 ms until its stream callback raises (then `stopped` is set)."""
    real = default_conversation_factory()

    def make(state: dict[str, Any] | None, stream: Any) -> Any:
        conv = real(state, stream)
        send = conv.send

        def slow_send(text: str, brief_text: str | None = None) -> Any:
            if SLOW in text:
                time.sleep(3.0)
            if STUCK_STREAM in text:
                try:
                    while True:
                        stream("more ")
                        time.sleep(0.02)
                finally:
                    stopped.set()
            return send(text, brief_text=brief_text)

        conv.send = slow_send  # type: ignore[method-assign]
        return conv

    return make


def _client(tmp_path: Path, stopped: threading.Event) -> TestClient:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    settings = WebSettings(render_in_subprocess=False, turn_processes=0, turn_time_limit_s=0.5)
    app = create_app(
        repo=repo, reports_dir=tmp_path / "reports", settings=settings,
        conversation_factory=slow_factory(stopped),
    )  # fmt: skip
    return TestClient(app)


def test_a_turn_past_the_limit_is_abandoned_with_one_line(tmp_path: Path) -> None:
    with _client(tmp_path, threading.Event()) as client:
        api = new_api(client)
        started = time.perf_counter()
        r = api.say(f"{SLOW}: LoRA Llama 3 8B on 20M tokens")
        took_s = time.perf_counter() - started
        assert r.status_code == 422 and took_s < 2.0, (r.status_code, took_s)
        assert r.json()["detail"] == (
            "this message took over 0.5 s to answer and was stopped; "
            "send a shorter message, or its parts one at a time"
        )
        messages = api.get("/messages").json()
        assert [(m["role"], m["answered"]) for m in messages] == [("user", False)]  # kept, unanswered
        time.sleep(3.0)  # the abandoned turn ends; its result is dropped, not stored
        assert len(api.get("/messages").json()) == 1
        ok = api.say("LoRA Llama 3 8B on 20M tokens")
        assert ok.status_code == 200 and ok.json()["recommendation"] is not None


def test_a_streaming_turn_past_the_limit_stops_streaming(tmp_path: Path) -> None:
    stopped = threading.Event()
    with _client(tmp_path, stopped) as client:
        api = new_api(client)
        body = {"text": f"{STUCK_STREAM}: LoRA Llama 3 8B"}
        with client.stream("POST", api.base + "/messages/stream", json=body, headers=api.auth) as r:
            raw = "".join(r.iter_text())
        events = [b.split("\n", 1) for b in raw.strip().split("\n\n")]
        name, data = events[-1][0], json.loads(events[-1][1].split("data: ", 1)[1])
        assert name == "event: error" and data["status"] == 422
        assert data["detail"].startswith("this message took over 0.5 s to answer and was stopped")
        assert stopped.wait(1.0)  # the conversation's stream raised: the turn stopped computing
