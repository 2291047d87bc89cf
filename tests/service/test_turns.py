"""advisor.service.turns.run_turn, the one stored turn the web app and Slack share: the user's message is
stored first, the reply is saved only over the state the turn was computed from, a turn that lost that
race is computed again on the newer state, and after TURN_ATTEMPTS lost races TurnConflict."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.service import turns
from advisor.store import TURN_ATTEMPTS, Repository, TurnConflict, open_repository


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    r = open_repository(f"sqlite:///{tmp_path / 'turns.sqlite'}")
    yield r
    r.engine.dispose()


def test_a_stale_save_is_computed_again_on_the_newer_state(repo: Repository) -> None:
    sid, _token = repo.create_session(channel="web")
    seen: list[tuple[dict[str, Any] | None, int]] = []

    def compute(state: dict[str, Any] | None, attempt: int, user_id: int) -> turns.Answer[int]:
        seen.append((state, attempt))
        if attempt == 0:  # another message of the session is answered while this one computes
            repo.save_state(sid, {"n": 1})
        n = (state or {}).get("n", 0)
        return turns.Answer({"n": n + 10}, f"reply {attempt}", {"reply_to": user_id}, attempt)

    answered = turns.run_turn(repo, sid, "hello", compute, user_payload={"brief": "b.pdf"})
    assert seen == [(None, 0), ({"n": 1}, 1)]
    assert answered.result == 1
    assert repo.load_state(sid) == {"n": 11}  # computed on the newer state: both effects kept
    messages = repo.messages(sid)
    assert [(m.role, m.text) for m in messages] == [("user", "hello"), ("assistant", "reply 1")]
    assert messages[0].payload == {"brief": "b.pdf"} and messages[0].id == answered.user_message_id
    assert messages[1].id == answered.reply_message_id
    assert messages[1].payload == {"reply_to": answered.user_message_id}


def test_turn_conflict_after_turn_attempts_lost_races(repo: Repository) -> None:
    sid, _token = repo.create_session(channel="web")
    attempts: list[int] = []

    def compute(state: dict[str, Any] | None, attempt: int, user_id: int) -> turns.Answer[None]:
        attempts.append(attempt)
        repo.save_state(sid, {"other": attempt})  # every time, another turn saves first
        return turns.Answer({"mine": True}, "never stored", {}, None)

    with pytest.raises(TurnConflict, match=f"{TURN_ATTEMPTS} other answers"):
        turns.run_turn(repo, sid, "hello", compute)
    assert attempts == list(range(TURN_ATTEMPTS))
    # the user's message is kept, unanswered; no reply and none of this turn's state was written
    assert [(m.role, m.text) for m in repo.messages(sid)] == [("user", "hello")]
    assert repo.load_state(sid) == {"other": TURN_ATTEMPTS - 1}


def test_a_retry_answers_the_stored_message_without_storing_it_again(repo: Repository) -> None:
    sid, _token = repo.create_session(channel="web")

    def fails(state: dict[str, Any] | None, attempt: int, user_id: int) -> turns.Answer[None]:
        raise RuntimeError("the advisor crashed")

    with pytest.raises(RuntimeError):
        turns.run_turn(repo, sid, "hello", fails)
    (stored,) = repo.messages(sid)  # the message survived the crash

    def answers(state: dict[str, Any] | None, attempt: int, user_id: int) -> turns.Answer[int]:
        return turns.Answer({"answered": user_id}, "hi", {}, user_id)

    answered = turns.run_turn(repo, sid, "hello", answers, retry_of=stored.id)
    assert answered.result == stored.id == answered.user_message_id
    assert [(m.role, m.text) for m in repo.messages(sid)] == [("user", "hello"), ("assistant", "hi")]
    assert repo.load_state(sid) == {"answered": stored.id}


def test_default_factory_starts_on_its_backend_and_resumes_a_stored_state() -> None:
    make = turns.default_conversation_factory("rules")
    fresh = make(None, None)
    assert fresh.backend == "rules" and fresh.turns == 0
    fresh.send("LoRA Mistral 7B, 3 epochs")
    resumed = make(fresh.state, None)
    assert resumed.turns == 1 and resumed.profile == fresh.profile
