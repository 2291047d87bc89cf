"""A crash in the middle of a request loses nothing; reports left rendering are picked up again;
the same flow on a real PostgreSQL server."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from advisor.service.turns import default_conversation_factory
from advisor.store import open_repository
from advisor.web.settings import WebSettings

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


def test_two_messages_answered_at_once_both_count(repo: Any) -> None:
    """Two tabs send a message to one session at the same instant: both turns read the same state.
    The later save must not overwrite the earlier one; it is computed again on top of it, so the
    profile ends with the budget and the deadline and each message has its own reply."""
    import threading

    from advisor.web.turn_workers import run_turn

    real = default_conversation_factory()
    both_computed = threading.Barrier(2, timeout=60)
    first_pass = {"budget": True, "deadline": True}

    def racing(state: dict[str, Any] | None, stream: Any) -> Any:
        conv = real(state, stream)
        send = conv.send

        def send_then_wait(text: str, brief_text: str | None = None) -> Any:
            turn = send(text, brief_text=brief_text)
            key = "budget" if "budget" in text else "deadline"
            if first_pass[key]:  # hold both first computations until each has read the old state
                first_pass[key] = False
                both_computed.wait()
            return turn

        conv.send = send_then_wait  # type: ignore[method-assign]
        return conv

    sid, _ = repo.create_session()
    run_turn(repo, real, sid, ANSWER)
    views: dict[str, dict[str, Any]] = {}

    def say(text: str) -> None:
        views[text] = run_turn(repo, racing, sid, text)

    texts = ("our budget is $2,000", "the deadline is 48 hours")
    threads = [threading.Thread(target=say, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    profile = repo.load_state(sid)["profile"]
    assert profile["budget_usd"] == 2000 and profile["deadline_hours"] == 48
    assert profile["model_id"] == "llama-3-8b"  # the first message's effect is kept too
    replies = [m for m in repo.messages(sid) if m.role == "assistant"]
    assert len(replies) == 3
    assert {v["reply_to"] for v in views.values()} == {
        m.id for m in repo.messages(sid) if m.role == "user" and m.text != ANSWER
    }
    # one of the two was computed again on the other's state: its view already shows both
    later = max(views.values(), key=lambda v: v["message_id"])
    assert {"budget_usd", "deadline_hours"} <= {row["field"] for row in later["profile"]}


def test_a_message_that_keeps_losing_the_race_is_saved_and_answered_409(
    repo: Any, make_client: Any, open_session: Any
) -> None:
    """Another writer changes the session's state during every computation of this turn: after
    TURN_ATTEMPTS tries the API answers 409 with a clear message, and the user's message is kept."""
    from advisor.store import TURN_ATTEMPTS

    real = default_conversation_factory()
    computed: list[str] = []
    holder: dict[str, str] = {}

    def always_overtaken(state: dict[str, Any] | None, stream: Any) -> Any:
        conv = real(state, stream)
        send = conv.send

        def send_and_be_overtaken(text: str, brief_text: str | None = None) -> Any:
            turn = send(text, brief_text=brief_text)
            computed.append(text)
            # a racing turn saves first: a valid state that differs from the one this turn read
            repo.save_state(holder["sid"], {**conv.state, "overtaken": len(computed)})
            return turn

        conv.send = send_and_be_overtaken  # type: ignore[method-assign]
        return conv

    api = open_session(make_client(conversation_factory=always_overtaken))
    holder["sid"] = api.session_id
    r = api.say(ANSWER)
    assert r.status_code == 409 and "send it again" in r.json()["detail"], r.json()
    assert computed == [ANSWER] * TURN_ATTEMPTS
    said = [m["text"] for m in api.get("/messages").json()]
    assert said == [ANSWER]  # stored, unanswered
