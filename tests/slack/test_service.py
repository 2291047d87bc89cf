"""The Slack service without HTTP: a recording client stands in for slack_sdk's WebClient."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.conversation import Conversation
from advisor.llm.testing import fake_tool_chat_model
from advisor.slack.service import SlackAdvisor
from advisor.store import Repository

QLORA_70B = "QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs, data in AWS"


class RecordingClient:
    token = "xoxb-test"

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []

    def chat_postMessage(self, **kwargs: Any) -> dict[str, Any]:  # noqa: N802 (slack_sdk's name)
        self.posts.append(kwargs)
        return {"ok": True, "ts": f"2.{len(self.posts)}"}


def test_a_chat_models_explanation_is_shown_with_the_figures(repo: Repository, tmp_path: Path) -> None:
    said = "The primary pick keeps the whole run on **one node**, so no InfiniBand set-up is needed."

    def factory(state: dict[str, Any] | None, stream: Any) -> Conversation:
        model = fake_tool_chat_model([said])
        if state:
            return Conversation.from_state(state, chat_model=model)
        return Conversation(chat_model=model)

    service = SlackAdvisor(repo, conversation_factory=factory, reports_dir=tmp_path)
    client = RecordingClient()
    service.handle_message(client, channel="C1", thread_ts="1.1", text=QLORA_70B, user="U1")
    (post,) = client.posts
    blocks = json.dumps(post["blocks"], ensure_ascii=False)
    assert "keeps the whole run on *one node*" in blocks
    assert "Primary pick" in blocks  # the figures still come from the recommendation itself


def test_state_survives_between_messages_of_a_thread(repo: Repository, tmp_path: Path) -> None:
    service = SlackAdvisor(repo, reports_dir=tmp_path)
    client = RecordingClient()
    service.handle_message(
        client, channel="C1", thread_ts="9.9", text="we want to fine-tune a model", user="U1"
    )
    first = json.dumps(client.posts[0]["blocks"])
    assert "No recommendation yet" in first
    # a second service (another process) on the same store continues the same thread's conversation
    again = SlackAdvisor(repo, reports_dir=tmp_path)
    again.handle_message(client, channel="C1", thread_ts="9.9", text="Llama 3 8B with LoRA, 100M tokens")
    assert "Primary pick" in json.dumps(client.posts[1]["blocks"])
    # another thread starts from scratch
    again.handle_message(client, channel="C1", thread_ts="7.7", text="LoRA please")
    assert "Primary pick" not in json.dumps(client.posts[2]["blocks"])


def _answer_at_once(client: RecordingClient, thread_ts: str, calls: list[tuple[SlackAdvisor, str]]) -> None:
    """Each (service, text) handled in its own thread, all started together, in channel C1."""
    import threading

    workers = [
        threading.Thread(
            target=service.handle_message,
            args=(client,),
            kwargs={"channel": "C1", "thread_ts": thread_ts, "text": text},
        )
        for service, text in calls
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def test_two_messages_at_once_in_a_thread_both_count(repo: Repository, tmp_path: Path) -> None:
    service = SlackAdvisor(repo, reports_dir=tmp_path)
    client = RecordingClient()
    texts = ["Llama 3 8B with LoRA", "on 100M tokens for 4 epochs"]
    _answer_at_once(client, "5.5", [(service, t) for t in texts])
    state = repo.load_state(repo.session_for_key("slack", "C1:5.5"))
    assert state["turns"] == 2
    assert state["profile"]["method"] == "lora" and state["profile"]["epochs"] == 4


def test_a_user_flooding_the_bot_is_asked_to_wait(repo: Repository, tmp_path: Path) -> None:
    service = SlackAdvisor(repo, reports_dir=tmp_path, user_messages_per_minute=2, clock=lambda: 1_000_000.0)
    client = RecordingClient()
    for i in range(3):
        service.handle_message(client, channel="C1", thread_ts=f"3.{i}", text="Llama 3 8B LoRA", user="UFAST")
    assert "Primary pick" in json.dumps(client.posts[1]["blocks"])
    assert "wait a minute" in client.posts[2]["text"]
    service.handle_message(client, channel="C1", thread_ts="3.9", text="Llama 3 8B LoRA", user="UOTHER")
    assert "Primary pick" in json.dumps(client.posts[3]["blocks"])  # per user, not global


def test_two_processes_answering_one_thread_at_once_both_count(repo: Repository, tmp_path: Path) -> None:
    """Two app processes (two SlackAdvisor objects: no shared lock) answer two messages of one thread at
    the same instant, both reading the same state: the later save is computed again, nothing is lost."""
    import threading

    both_read = threading.Barrier(2, timeout=60)
    held: set[str] = set()

    def racing(state: dict[str, Any] | None, stream: Any) -> Conversation:
        conv = Conversation.from_state(state) if state else Conversation()
        send = conv.send

        def send_then_wait(text: str, brief_text: str | None = None) -> Any:
            turn = send(text, brief_text=brief_text)
            if text not in held:  # each message's first computation waits for the other's
                held.add(text)
                both_read.wait()
            return turn

        conv.send = send_then_wait  # type: ignore[method-assign]
        return conv

    client = RecordingClient()
    texts = ["Llama 3 8B with LoRA on 100M tokens", "our budget is $3,000"]
    # two services: two processes' worth of objects, no lock shared between them
    services = [SlackAdvisor(repo, conversation_factory=racing, reports_dir=tmp_path) for _ in texts]
    _answer_at_once(client, "6.6", list(zip(services, texts, strict=True)))
    state = repo.load_state(repo.session_for_key("slack", "C1:6.6"))
    assert state["profile"]["method"] == "lora" and state["profile"]["budget_usd"] == 3000
    assert len(client.posts) == 2


def test_a_turn_that_keeps_losing_the_race_gets_a_clear_notice() -> None:
    import logging

    from advisor.slack.listeners import BUSY_TEXT, _guarded
    from advisor.store import TurnConflict

    client = RecordingClient()

    def overtaken() -> None:
        raise TurnConflict("session s: 4 other answers were saved")

    _guarded(client, "C1", "1.1", logging.getLogger("test"), overtaken)
    assert [p["text"] for p in client.posts] == [BUSY_TEXT] and "send it again" in BUSY_TEXT


def test_a_two_workload_thread_names_the_serving_part_and_switches(repo: Repository, tmp_path: Path) -> None:
    service = SlackAdvisor(repo, reports_dir=tmp_path)
    client = RecordingClient()
    text = ("Training: LoRA on Llama 3.1 8B, 50M tokens of tickets, sequence length 2,048\n"
            "Serving: 40 agents at the same time, 8k context")  # fmt: skip
    service.handle_message(client, channel="C1", thread_ts="5.5", text=text, user="U1")
    first = json.dumps(client.posts[0]["blocks"])
    assert "Your brief also describes serving (40 users, 8,192-token context)" in first
    assert "size the serving part" in first
    service.handle_message(client, channel="C1", thread_ts="5.5", text="now the serving part", user="U1")
    second = json.dumps(client.posts[1]["blocks"])
    assert "Your brief also describes training (LoRA, 50M tokens)" in second and "Primary pick" in second
