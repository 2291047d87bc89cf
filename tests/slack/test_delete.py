"""Issue 17: a Slack user deletes their data: "delete my data" (a mention or a DM) or `/gpu-advisor delete`
removes every conversation they wrote in, with its briefs and report PDFs; other users' conversations
stay. Through the real app on uvicorn, Slack's Web API being the local stub."""

from __future__ import annotations

import json
from typing import Any

from advisor.slack.service import is_delete_request

WORKLOAD = "LoRA fine-tune Llama 3 8B on 20M tokens, data in AWS"


def _mention(srv: Any, user: str, channel: str, ts: str, text: str, event_id: str, thread: str = "") -> None:
    inner = {"type": "app_mention", "user": user, "channel": channel, "ts": ts, "text": text}
    if thread:
        inner["thread_ts"] = thread
    assert srv.post_json(srv.event(inner, event_id)).status_code == 200


def _dm(srv: Any, user: str, ts: str, text: str, event_id: str, files: list[Any] | None = None) -> None:
    inner: dict[str, Any] = {
        "type": "message", "channel_type": "im", "channel": "D1", "user": user, "ts": ts, "text": text,
    }  # fmt: skip
    if files:
        inner.update(subtype="file_share", files=files)
    assert srv.post_json(srv.event(inner, event_id)).status_code == 200


def test_the_delete_phrases() -> None:
    for said in ("delete my data", "Delete", "please erase all my conversations.", "forget my data please"):
        assert is_delete_request(said), said
    for said in ("delete the 70B option", "my data is 50M tokens", "report", "remove epochs"):
        assert not is_delete_request(said), said


def test_delete_my_data_removes_the_users_conversations_briefs_and_reports(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    thread = "1700000100.000100"
    _mention(srv, "U1", "C1", thread, f"<@{srv.bot_user}> {WORKLOAD}", "EvD1")
    _mention(srv, "U1", "C1", "1700000100.000200", f"<@{srv.bot_user}> report", "EvD2", thread=thread)
    srv.stub.wait_for("files.completeUploadExternal")
    brief = srv.stub.add_file("FNOTES", "notes.md", b"# Patient notes\nQLoRA Llama 3 70B on 50M tokens\n")
    _dm(srv, "U1", "1700000101.000100", "our brief", "EvD3", files=[brief])
    _mention(srv, "U2", "C1", "1700000102.000100", f"<@{srv.bot_user}> {WORKLOAD}", "EvD4")
    ones = [srv.repo.find_session("slack", key) for key in ("C1:1700000100.000100", "D1:1700000101.000100")]
    other = srv.repo.find_session("slack", "C1:1700000102.000100")
    assert all(ones) and other and srv.repo.briefs(ones[1])
    pdfs = list(srv.reports_dir.glob("slack-*.pdf"))
    assert len(pdfs) == 1

    _dm(srv, "U1", "1700000103.000100", "delete my data", "EvD5")
    in_dm = "1700000103.000100"
    answer = srv.stub.wait_for("chat.postMessage", where=lambda c: c.params.get("thread_ts") == in_dm)
    assert answer[0].params["text"] == (
        "Deleted 2 conversations you wrote in, with 1 brief and 1 report. "
        "Messages posted in Slack stay there: delete them in Slack."
    )
    assert [srv.repo.find_session("slack", k) for k in ("C1:1700000100.000100", "D1:1700000101.000100")] == [
        None,
        None,
    ]
    assert not any(p.exists() for p in pdfs)
    assert srv.repo.briefs(ones[1]) == [] and srv.repo.messages(ones[0]) == []
    assert srv.repo.find_session("slack", "D1:1700000103.000100") is None  # the request itself is not kept
    assert srv.repo.find_session("slack", "C1:1700000102.000100") == other  # U2's conversation stays
    assert [m.role for m in srv.repo.messages(other)] == ["user", "assistant"]


def test_slash_delete_answers_only_the_user(serve_slack: Any) -> None:
    srv = serve_slack(process_before_response=True)
    _mention(srv, "U7", "C3", "1700000200.000100", f"<@{srv.bot_user}> {WORKLOAD}", "EvS1")
    posted = len(srv.stub.named("chat.postMessage"))
    form = {
        "command": "/gpu-advisor", "text": "delete", "channel_id": "C3", "user_id": "U7", "team_id": "T1",
        "response_url": srv.stub.base_url + "/respond",
    }  # fmt: skip
    assert srv.post_form(form).status_code == 200
    said = json.loads(srv.stub.wait_for("/respond")[0].body)
    assert said["response_type"] == "ephemeral" and said["text"].startswith("Deleted 1 conversation you")
    assert len(srv.stub.named("chat.postMessage")) == posted  # no thread opened for it
    assert srv.repo.find_session("slack", "C3:1700000200.000100") is None
    assert srv.post_form(form).status_code == 200
    again = json.loads(srv.stub.wait_for("/respond", count=2)[1].body)
    assert again["text"] == "I hold no conversation of yours: there is nothing to delete."
