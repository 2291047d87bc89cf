"""One stored conversation turn, written once for every front end that persists conversations (the web
app, Slack).

The persistence discipline: the user's message is stored before anything else happens, the conversation
is resumed from the stored state (never from process memory), and the new state and the reply are stored
after, in one transaction, and only over the state the turn was computed from (compare-and-set). When
another message of the same session was answered meanwhile (two tabs, two workers, two Slack processes),
the turn is computed again on that newer state, so neither message's effect is lost; after TURN_ATTEMPTS
such races it raises TurnConflict. A crash in the middle loses no message: the user's text is in the
database, unanswered until a reply follows it, and can be retried.

How a turn is computed (in the web process, in a worker process, streamed or not) and what is stored
with the reply are the front end's: it passes a `compute` function.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from advisor.conversation import Conversation
from advisor.store import Repository
from advisor.store.repository import TURN_ATTEMPTS, StateConflict, TurnConflict

log = logging.getLogger("gpu_advisor.turns")

StreamCallback = Callable[[str], None]
# (stored conversation state, or None for a new conversation; stream callback or None) -> Conversation
ConversationFactory = Callable[[dict[str, Any] | None, StreamCallback | None], Conversation]

T = TypeVar("T")


def resume_conversation(
    state: dict[str, Any] | None, stream: StreamCallback | None = None, *, backend: str = "rules"
) -> Conversation:
    """Conversation.from_state for a stored state, a new Conversation(backend=...) otherwise."""
    if state:
        return Conversation.from_state(state, stream=stream)
    return Conversation(backend=backend, stream=stream)


def default_conversation_factory(backend: str = "rules") -> ConversationFactory:
    """resume_conversation with new conversations on `backend`."""

    def make(state: dict[str, Any] | None, stream: StreamCallback | None) -> Conversation:
        return resume_conversation(state, stream, backend=backend)

    return make


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A computed turn, ready to store: the conversation's new state, the reply text, the payload stored
    with the reply, and `result`, what the front end returns (a turn view, a Turn)."""

    state: dict[str, Any]
    reply: str
    payload: dict[str, Any]
    result: T


@dataclass(frozen=True)
class Answered(Generic[T]):
    """A stored turn: the front end's result, the user's message id and the reply's message id."""

    result: T
    user_message_id: int
    reply_message_id: int


# (stored state or None, attempt number from 0, the user's message id) -> the answer to store
Compute = Callable[[dict[str, Any] | None, int, int], Answer[T]]


def run_turn(
    repo: Repository,
    session_id: str,
    text: str,
    compute: Compute[T],
    *,
    user_payload: dict[str, Any] | None = None,
    retry_of: int | None = None,
) -> Answered[T]:
    """Store the user's message (with `user_payload`), compute the turn on the stored state, store the
    new state and the reply by compare-and-set; on a race compute again on the newer state (`attempt`
    counts up, so a front end streams the first attempt only). With `retry_of` the user's message is
    already stored (an unanswered one) and is not stored again. After TURN_ATTEMPTS races: TurnConflict.
    Exceptions from `compute` propagate after the user's message is safely stored."""
    if retry_of is None:
        user_id, snapshot = repo.add_user_message_snapshot(session_id, text, user_payload or {})
    else:
        user_id, snapshot = retry_of, repo.load_snapshot(session_id)
    for attempt in range(TURN_ATTEMPTS):
        answer = compute(snapshot.state or None, attempt, user_id)
        try:
            reply_id = repo.save_reply(
                session_id, answer.state, answer.reply, answer.payload, expected=snapshot
            )
        except StateConflict:
            log.info("session %s: its state changed during a turn; computing the turn again", session_id)
            snapshot = repo.load_snapshot(session_id)
            continue
        return Answered(answer.result, user_id, reply_id)
    raise TurnConflict(
        f"session {session_id}: {TURN_ATTEMPTS} other answers were saved while this message was answered"
    )
