"""A crash in the middle of a request loses nothing; reports left rendering are picked up again;
the same flow on a real PostgreSQL server."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from advisor.store import open_repository
from advisor.web.app import WebSettings, default_conversation_factory

ANSWER = "Llama 3 8B with LoRA on 50M tokens, 3 epochs"


class Boom(RuntimeError):
    pass


def crashing_factory(trigger: str) -> Any:
    """The real conversation, except that a message containing `trigger` raises inside send()."""
    real = default_conversation_factory()

    def make(state: dict[str, Any] | None, stream: Any) -> Any:
        conv = real(state, stream)
        send = conv.send

        def crashing_send(text: str, brief_text: str | None = None) -> Any:
            if trigger in text:
                raise Boom("simulated crash inside the conversation")
            return send(text, brief_text=brief_text)

        conv.send = crashing_send  # type: ignore[method-assign]
        return conv

    return make


def test_crash_mid_request_then_restart_loses_nothing(
    tmp_path: Path, reports_dir: Path, make_client: Any, open_session: Any
) -> None:
    url = f"sqlite:///{tmp_path / 'crash.sqlite'}"
    first_repo = open_repository(url)
    before = make_client(repo=first_repo, conversation_factory=crashing_factory("CRASH"))
    api = open_session(before)
    assert api.say("Llama 3 8B with LoRA").status_code == 200
    r = api.say("3 epochs please CRASH")
    assert r.status_code == 500 and "saved" in r.json()["detail"]
    first_repo.engine.dispose()

    # "Restart": a new app and a new engine on the same database file, with a healthy conversation.
    after = make_client(repo=open_repository(url))
    again = type(api)(after, api.session_id, api.token)
    messages = again.get("/messages").json()
    said = [m["text"] for m in messages if m["role"] == "user"]
    assert said == ["Llama 3 8B with LoRA", "3 epochs please CRASH"]
    lost = messages[-1]
    assert lost["role"] == "user" and lost["answered"] is False

    retried = again.post(f"/messages/{lost['id']}/retry")
    assert retried.status_code == 200, retried.text
    assert retried.json()["reply_to"] == lost["id"]
    statuses = {row["field"]: row["value"] for row in retried.json()["profile"]}
    assert statuses["epochs"] == "3"  # the retried message was understood
    assert again.post(f"/messages/{lost['id']}/retry").status_code == 409  # answered now

    turn = again.say("our budget is $2,000").json()  # and the conversation goes on
    fields = {row["field"] for row in turn["profile"] if row["status"] == "stated"}
    assert {"model_id", "epochs", "budget_usd"} <= fields
    assert all(m["answered"] for m in again.get("/messages").json() if m["role"] == "user")


def test_report_left_rendering_by_a_dead_worker_is_picked_up(
    tmp_path: Path, reports_dir: Path, make_client: Any, open_session: Any
) -> None:
    url = f"sqlite:///{tmp_path / 'jobs.sqlite'}"
    repo = open_repository(url)
    client = make_client(repo=repo, start_worker=False)
    api = open_session(client)
    api.say(ANSWER)
    report_id = api.post("/reports").json()["report_id"]
    claimed = repo.claim_report_job()  # a worker claims it ... and dies
    assert claimed is not None and claimed.id == report_id
    assert api.get(f"/reports/{report_id}").json()["status"] == "rendering"

    settings = WebSettings(render_in_subprocess=False, report_poll_s=0.05, report_stale_after_s=0.2)
    restarted = make_client(repo=open_repository(url), settings=settings)
    again = type(api)(restarted, api.session_id, api.token)
    job = again.wait_report(report_id)
    assert job["status"] == "done"
    assert again.get(f"/reports/{report_id}/pdf").content.startswith(b"%PDF")


def test_a_slow_render_does_not_block_chat_replies(
    make_client: Any, open_session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from advisor.web import worker

    release = threading.Event()
    real = worker.render_profile_pdf

    def slow(profile: dict[str, Any], out_path: str) -> str:
        release.wait(30)
        return real(profile, out_path)

    monkeypatch.setattr(worker, "render_profile_pdf", slow)
    client = make_client()
    api = open_session(client)
    api.say(ANSWER)
    report_id = api.post("/reports").json()["report_id"]
    deadline = time.monotonic() + 10
    while api.get(f"/reports/{report_id}").json()["status"] != "rendering":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    r = api.say("actually 2 epochs")  # answered while the render is stuck
    assert r.status_code == 200 and r.json()["recommendation"] is not None
    assert api.get(f"/reports/{report_id}").json()["status"] == "rendering"
    release.set()
    assert api.wait_report(report_id)["status"] == "done"


def test_render_in_a_child_process(make_client: Any, open_session: Any) -> None:
    """The default: PDFs are rendered in a spawned child process, not in the web process."""
    client = make_client(settings=WebSettings(report_poll_s=0.05))
    api = open_session(client)
    api.say(ANSWER)
    report_id = api.post("/reports").json()["report_id"]
    job = api.wait_report(report_id, timeout_s=180)
    assert job["status"] == "done", job
    text = PdfReader(io.BytesIO(api.get(f"/reports/{report_id}/pdf").content)).pages[0].extract_text()
    assert "llama" in text.lower() or "8B" in text


def test_api_flow_on_postgresql(
    postgres_url: str, reports_dir: Path, make_client: Any, open_session: Any
) -> None:
    repo = open_repository(postgres_url)
    try:
        client = make_client(repo=repo)
        api = open_session(client)
        other = open_session(client)
        assert api.say("We want to fine-tune a model").json()["questions"]
        turn = api.say(ANSWER).json()
        assert turn["recommendation"]["primary"] is not None
        report_id = api.post("/reports").json()["report_id"]
        assert api.wait_report(report_id)["status"] == "done"
        assert api.get(f"/reports/{report_id}/pdf").content.startswith(b"%PDF")
        assert other.get(f"/reports/{report_id}/pdf").status_code == 404
        # a second app instance (another worker) continues the same conversation from the database
        second = make_client(repo=open_repository(postgres_url))
        again = type(api)(second, api.session_id, api.token)
        assert again.say("actually 2 epochs").json()["recommendation"] is not None
        assert len(again.get("/messages").json()) == 6
    finally:
        repo.engine.dispose()
