"""Signed requests to the Bolt app, served through the FastAPI web app on uvicorn (127.0.0.1), with Slack's
Web API pointed at a local stub that records every call."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pypdf

from advisor.conversation import Conversation

QLORA_70B = "QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs, data in AWS"


def _expected_primary(text: str) -> Any:
    """The pick the conversation itself makes for `text` (the tools' answer, not a copy of it)."""
    turn = Conversation().send(text)
    assert turn.recommendation is not None and turn.recommendation.primary is not None
    return turn.recommendation.primary


def _blocks_text(call: Any) -> str:
    blocks = call.params.get("blocks")
    if isinstance(blocks, str):
        blocks = json.loads(blocks)
    return json.dumps(blocks or [])


def _in_thread(ts: str) -> Any:
    return lambda c: c.params.get("thread_ts") == ts


def test_mention_gets_block_kit_reply_in_thread_and_report_uploads_pdf(serve_slack: Any) -> None:
    srv = serve_slack()
    stub = srv.stub
    ts = "1700000000.000100"
    resp = srv.post_json(
        srv.event(
            {
                "type": "app_mention",
                "user": "U1",
                "channel": "C1",
                "ts": ts,
                "text": f"<@{srv.bot_user}> {QLORA_70B}",
            },
            "Ev1",
        )
    )
    assert resp.status_code == 200
    reply = stub.wait_for("chat.postMessage", where=_in_thread(ts))[0]
    expected = _expected_primary(QLORA_70B)
    assert reply.params["channel"] == "C1"
    assert reply.headers["authorization"] == f"Bearer {srv.bot_token}"
    blocks = _blocks_text(reply)
    assert "Primary pick" in blocks and expected.gpu_name in blocks
    assert (
        f"{expected.total_gpus}\\u00d7 {expected.gpu_name}" in blocks or f"{expected.total_gpus}× " in blocks
    )
    assert expected.gpu_name in str(reply.params["text"])  # the notification / screen-reader text
    assert stub.named("auth.test"), "the bot token is checked with auth.test"

    # "report" in the same thread: the PDF goes through files.getUploadURLExternal -> upload -> complete
    resp = srv.post_json(
        srv.event(
            {
                "type": "app_mention",
                "user": "U1",
                "channel": "C1",
                "ts": "1700000000.000200",
                "thread_ts": ts,
                "text": f"<@{srv.bot_user}> report",
            },
            "Ev2",
        )
    )
    assert resp.status_code == 200
    done = stub.wait_for("files.completeUploadExternal")[0]
    assert done.params["channel_id"] == "C1" and done.params["thread_ts"] == ts
    get_url = stub.named("files.getUploadURLExternal")[0]
    assert get_url.params["filename"] == "gpu-advisor-report.pdf"
    upload = [c for c in stub.calls if c.method.startswith("/upload/")][0]
    assert upload.body.startswith(b"%PDF")
    assert int(get_url.params["length"]) == len(upload.body)
    text = " ".join(p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(upload.body)).pages)
    assert expected.gpu_name in " ".join(text.split())
    assert "50M tokens for 3 epochs" in " ".join(text.split())  # the request, in the user's words
    # persisted: the thread's session holds both user messages and the replies
    session = srv.repo.session_for_key("slack", f"C1:{ts}")
    roles = [m.role for m in srv.repo.messages(session)]
    assert roles.count("user") == 2 and "assistant" in roles


def test_unsigned_and_badly_signed_requests_are_rejected(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    payload = srv.event(
        {"type": "app_mention", "user": "U1", "channel": "C1", "ts": "1.1", "text": QLORA_70B}, "EvU"
    )
    assert srv.post_json(payload, signed=False).status_code == 401
    body = json.dumps(payload)
    forged = {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": str(int(time.time())),
        "X-Slack-Signature": "v0=" + "0" * 64,
    }
    import httpx

    assert httpx.post(srv.url, content=body, headers=forged).status_code == 401
    assert srv.stub.named("chat.postMessage") == []


def test_stale_request_is_rejected(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    payload = srv.event(
        {"type": "app_mention", "user": "U1", "channel": "C1", "ts": "1.2", "text": QLORA_70B}, "EvS"
    )
    six_minutes_ago = int(time.time()) - 6 * 60
    assert srv.post_json(payload, timestamp=six_minutes_ago).status_code == 401
    assert srv.stub.named("chat.postMessage") == []


def test_retries_and_replays_are_deduplicated(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)  # listeners finish before the answer
    payload = srv.event(
        {"type": "app_mention", "user": "U1", "channel": "C1", "ts": "1.3", "text": QLORA_70B}, "EvR"
    )
    assert srv.post_json(payload).status_code == 200
    assert len(srv.stub.named("chat.postMessage")) == 1
    retry = srv.post_json(payload, extra={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    body = json.dumps(payload)
    headers = {"Content-Type": "application/json", **srv.sign(body)}
    replay = srv.post_raw(body, headers)  # byte-identical and validly signed (inside the 5-minute window)
    assert retry.status_code == 200 and replay.status_code == 200
    assert len(srv.stub.named("chat.postMessage")) == 1
    session = srv.repo.session_for_key("slack", "C1:1.3")
    assert [m.role for m in srv.repo.messages(session)] == ["user", "assistant"]


def test_slash_command_acks_and_replies_in_a_new_thread(serve_slack: Any) -> None:
    srv = serve_slack()
    resp = srv.post_form(
        {
            "command": "/gpu-advisor",
            "text": QLORA_70B,
            "channel_id": "C2",
            "user_id": "U9",
            "team_id": "T1",
            "trigger_id": "1.2.3",
            "response_url": srv.stub.base_url + "/respond",
        }
    )
    assert resp.status_code == 200
    parent = srv.stub.wait_for("chat.postMessage", where=lambda c: "thread_ts" not in c.params)[0]
    assert parent.params["channel"] == "C2" and "<@U9>" in parent.params["text"]
    parent_ts = srv.stub.named("chat.postMessage")[0]
    reply = srv.stub.wait_for("chat.postMessage", where=lambda c: c.params.get("thread_ts") is not None)[0]
    assert reply.params["channel"] == "C2"
    assert reply.params["thread_ts"].startswith("1800000000.")  # the stub's ts of the parent message
    assert parent_ts.method == "chat.postMessage"
    assert _expected_primary(QLORA_70B).gpu_name in _blocks_text(reply)


def test_slash_command_where_the_bot_is_not_a_member_answers_ephemerally(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    srv.stub.refuse_channels.add("CPRIV")
    resp = srv.post_form(
        {
            "command": "/gpu-advisor",
            "text": "llama 3 8b lora",
            "channel_id": "CPRIV",
            "user_id": "U9",
            "team_id": "T1",
            "response_url": srv.stub.base_url + "/respond",
        }
    )
    assert resp.status_code == 200
    said = srv.stub.wait_for("/respond")[0]
    answer = json.loads(said.body)
    assert answer["response_type"] == "ephemeral" and "/invite" in answer["text"]


def test_dm_with_a_brief_file_is_ingested(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    brief = (
        b"# Project brief\n\nWe will QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs.\n"
        b"The data is in AWS.\n"
    )
    info = srv.stub.add_file("FBRIEF", "brief.md", brief)
    msg = {
        "type": "message",
        "subtype": "file_share",
        "channel_type": "im",
        "channel": "D1",
        "user": "U1",
        "ts": "1700000001.000100",
        "text": "here is our brief",
        "files": [info],
    }
    assert srv.post_json(srv.event(msg, "EvF1")).status_code == 200
    downloads = srv.stub.named("/files-pri/T1-FBRIEF/brief.md")
    assert len(downloads) == 1 and downloads[0].headers["authorization"] == f"Bearer {srv.bot_token}"
    reply = srv.stub.wait_for("chat.postMessage", where=_in_thread("1700000001.000100"))[0]
    assert _expected_primary(QLORA_70B).gpu_name in _blocks_text(reply)
    session = srv.repo.session_for_key("slack", "D1:1700000001.000100")
    ((name, stored),) = srv.repo.briefs(session)
    assert name == "brief.md" and stored.startswith("# Project brief")
    # the file_shared event for the same file does not ingest it a second time
    srv.post_json(
        srv.event(
            {
                "type": "file_shared",
                "file_id": "FBRIEF",
                "channel_id": "D1",
                "user_id": "U1",
                "file": {"id": "FBRIEF"},
            },
            "EvF2",
        )
    )
    assert len(srv.stub.named("/files-pri/T1-FBRIEF/brief.md")) == 1
    assert len(srv.stub.named("chat.postMessage")) == 1


def test_file_shared_into_a_conversation_thread_is_a_brief_elsewhere_ignored(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    thread = "1700000002.000100"
    srv.post_json(
        srv.event(
            {
                "type": "app_mention",
                "user": "U1",
                "channel": "C3",
                "ts": thread,
                "text": f"<@{srv.bot_user}> we want to fine-tune a model",
            },
            "EvT1",
        )
    )
    assert len(srv.stub.named("chat.postMessage")) == 1
    brief = b"Model: Llama 3 8B. Method: LoRA. Dataset: 20M tokens, 2 epochs. Budget $500.\n"
    srv.stub.add_file(
        "FIN",
        "brief.txt",
        brief,
        "text/plain",
        shares={"public": {"C3": [{"ts": "1700000002.000300", "thread_ts": thread}]}},
    )
    srv.stub.add_file(
        "FOUT", "other.txt", brief, "text/plain", shares={"public": {"C3": [{"ts": "1700000009.000100"}]}}
    )
    srv.post_json(
        srv.event({"type": "file_shared", "file_id": "FIN", "channel_id": "C3", "user_id": "U1"}, "EvT2")
    )
    srv.post_json(
        srv.event({"type": "file_shared", "file_id": "FOUT", "channel_id": "C3", "user_id": "U1"}, "EvT3")
    )
    replies = srv.stub.named("chat.postMessage")
    assert len(replies) == 2 and replies[1].params["thread_ts"] == thread
    assert _expected_primary("LoRA fine-tune Llama 3 8B on 20M tokens, 2 epochs").gpu_name in _blocks_text(
        replies[1]
    )
    assert srv.stub.named("/files-pri/T1-FOUT/other.txt") == []  # a file outside our threads is not read


def test_bot_messages_and_edits_are_ignored(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    base = {"type": "message", "channel_type": "im", "channel": "D1", "ts": "1.5", "text": QLORA_70B}
    srv.post_json(srv.event({**base, "bot_id": "BOTHER", "user": "U2"}, "EvB1"))
    srv.post_json(srv.event({**base, "subtype": "message_changed", "user": "U2"}, "EvB2"))
    assert srv.stub.named("chat.postMessage") == []


def test_report_button_uploads_the_pdf(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    thread = "1700000003.000100"
    srv.post_json(
        srv.event(
            {
                "type": "app_mention",
                "user": "U1",
                "channel": "C4",
                "ts": thread,
                "text": f"<@{srv.bot_user}> {QLORA_70B}. use your defaults",
            },
            "EvA1",
        )
    )
    reply = srv.stub.named("chat.postMessage")[0]
    assert "gpu_advisor_report" in _blocks_text(reply)  # report_ready: the button is offered
    action = {
        "type": "block_actions",
        "user": {"id": "U1"},
        "team": {"id": "T1"},
        "api_app_id": "A1",
        "channel": {"id": "C4"},
        "container": {
            "type": "message",
            "channel_id": "C4",
            "message_ts": "1800000000.000001",
            "thread_ts": thread,
        },
        "message": {"ts": "1800000000.000001", "thread_ts": thread, "type": "message"},
        "actions": [
            {
                "action_id": "gpu_advisor_report",
                "type": "button",
                "value": "report",
                "block_id": "b",
                "action_ts": "1.1",
            }
        ],
        "response_url": srv.stub.base_url + "/respond",
        "trigger_id": "1.2",
    }
    resp = srv.post_form({"payload": json.dumps(action)})
    assert resp.status_code == 200
    done = srv.stub.wait_for("files.completeUploadExternal")[0]
    assert done.params["thread_ts"] == thread


def test_report_before_any_workload_explains_instead(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    srv.post_json(
        srv.event(
            {
                "type": "app_mention",
                "user": "U1",
                "channel": "C5",
                "ts": "1.6",
                "text": f"<@{srv.bot_user}> report",
            },
            "EvN1",
        )
    )
    said = srv.stub.named("chat.postMessage")
    assert len(said) == 1 and "describe the workload" in said[0].params["text"]
    assert srv.stub.named("files.getUploadURLExternal") == []


def test_oversized_body_is_refused_before_dispatch(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    big = {"type": "event_callback", "padding": "x" * (1024 * 1024 + 10)}
    assert srv.post_json(big).status_code == 413


def test_description_and_pdf_request_in_one_message(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    srv.post_json(
        srv.event(
            {
                "type": "message",
                "channel_type": "im",
                "channel": "D7",
                "user": "U1",
                "ts": "1.8",
                "text": f"{QLORA_70B}. Please send me the PDF report.",
            },
            "EvP1",
        )
    )
    reply = srv.stub.named("chat.postMessage")[0]
    assert "Primary pick" in _blocks_text(reply)
    done = srv.stub.named("files.completeUploadExternal")
    assert len(done) == 1 and done[0].params["thread_ts"] == "1.8"


def test_url_verification_challenge_is_answered_only_when_signed(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    challenge = {
        "token": "legacy",
        "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
        "type": "url_verification",
    }
    ok = srv.post_json(challenge)
    assert ok.status_code == 200 and ok.json()["challenge"] == challenge["challenge"]
    assert srv.post_json(challenge, signed=False).status_code == 401
