"""Computing the web's turns: in the web process (compute_turn) or in worker processes (TurnProcesses),
and `run_turn`, the web's adapter over the stored turn of advisor.service.turns.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import OrderedDict, deque
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass
from typing import Any

from advisor.conversation import Conversation
from advisor.service import turns
from advisor.service.recommending import default_catalog
from advisor.service.turns import ConversationFactory, StreamCallback, default_conversation_factory
from advisor.store import Repository
from advisor.web.lifeline import die_with_parent
from advisor.web.views import turn_view
from tools.errors import InputError


def run_turn(
    repo: Repository,
    factory: ConversationFactory,
    session_id: str,
    text: str,
    *,
    brief_text: str | None = None,
    brief_name: str | None = None,
    stream: StreamCallback | None = None,
    retry_of: int | None = None,
    gate: AbstractContextManager[Any] | None = None,
    processes: TurnProcesses | None = None,
    time_limit_s: float | None = None,
) -> dict[str, Any]:
    """One web turn through advisor.service.turns.run_turn (store the message, compute, save by
    compare-and-set, retry on a race, TurnConflict after TURN_ATTEMPTS).

    Returns the turn view plus `message_id` (the reply) and `reply_to` (the user's message); the reply is
    stored with the view, the full recommendation JSON and `reply_to`. With `retry_of` the user's message
    is already stored (an unanswered one). `gate` (a semaphore) bounds how many turns compute at once;
    database writes stay outside it. `processes`: compute the turn in a worker process instead (the
    default conversation, no stream). A turn computed again after a race does not stream a second time.
    `time_limit_s`: a turn computed in this process is abandoned after it (compute_within), one in a
    worker process is stopped after the workers' own limit; either raises TurnTooLong.
    """

    def compute(state: dict[str, Any] | None, attempt: int, user_id: int) -> turns.Answer[dict[str, Any]]:
        if processes is not None and stream is None:
            done = processes.compute(session_id, state, text, brief_text)
        else:
            done = compute_within(
                time_limit_s, gate, factory, state, text, brief_text, stream if attempt == 0 else None
            )
        view = done.view
        view["reply_to"] = user_id
        payload = {"turn": view, "recommendation": done.recommendation, "reply_to": user_id}
        return turns.Answer(done.state, done.reply, payload, view)

    user_payload: dict[str, Any] = {"brief": brief_name} if brief_name else {}
    answered = turns.run_turn(repo, session_id, text, compute, user_payload=user_payload, retry_of=retry_of)
    view = answered.result
    view["message_id"] = answered.reply_message_id
    return view


@dataclass(frozen=True)
class TurnDone:
    """What a computed turn gives the web layer to store and return: the turn view, the full
    recommendation JSON (or None), the conversation's new state and the reply text."""

    view: dict[str, Any]
    recommendation: dict[str, Any] | None
    state: dict[str, Any]
    reply: str


def compute_turn(
    factory: ConversationFactory,
    state: dict[str, Any] | None,
    text: str,
    brief_text: str | None = None,
    stream: StreamCallback | None = None,
) -> TurnDone:
    """Resume the conversation from `state`, answer `text`: no database access (run_turn stores it)."""
    conv = factory(state, stream)
    turn = conv.send(text, brief_text=brief_text)
    return TurnDone(turn_view(turn), turn.recommendation_json(), conv.state, turn.reply)


TURN_TIME_LIMIT_S = 30.0
"""The most wall time one turn may take (GPU_ADVISOR_TURN_TIME_LIMIT_S; a turn takes ~0.05-0.5 s, a worker
process's first also loads the catalog, ~2 s): past it a worker process is killed, a turn in the web
process abandoned, and the message refused."""


class TurnTooLong(InputError):
    """A turn ran past its time limit: its worker process was stopped, or its thread abandoned."""


class TurnAbandoned(Exception):
    """Raised into an abandoned turn's stream callback: a streaming turn stops at its next piece."""


def compute_within(
    time_limit_s: float | None,
    gate: AbstractContextManager[Any] | None,
    factory: ConversationFactory,
    state: dict[str, Any] | None,
    text: str,
    brief_text: str | None = None,
    stream: StreamCallback | None = None,
) -> TurnDone:
    """compute_turn in this process under `gate`, abandoned after `time_limit_s` (None: no limit).

    The turn computes in a thread of its own while the caller waits at most `time_limit_s` (waiting for
    the gate included); past it the caller gets TurnTooLong (one line for the user; the message stays
    stored, unanswered) and the turn's result, if it ever comes, is dropped. Python cannot stop a thread
    safely, so a rules turn computes on to its end, keeping its gate slot: abandoned turns never hold
    more CPUs than the gate has slots. A streaming turn (a chat model) is stopped at its next piece: its
    stream callback raises TurnAbandoned."""
    if time_limit_s is None:
        with gate if gate is not None else nullcontext():
            return compute_turn(factory, state, text, brief_text, stream)
    abandoned, finished, started = threading.Event(), threading.Event(), threading.Event()
    outcome: list[TurnDone | BaseException] = []

    def guarded(piece: str) -> None:
        if abandoned.is_set():
            raise TurnAbandoned("the turn ran past its time limit")
        assert stream is not None
        stream(piece)

    def work() -> None:
        try:
            with gate if gate is not None else nullcontext():
                if abandoned.is_set():
                    return
                started.set()
                outcome.append(
                    compute_turn(factory, state, text, brief_text, guarded if stream is not None else None)
                )
        except BaseException as exc:  # handed to the waiting request thread
            outcome.append(exc)
        finally:
            finished.set()

    threading.Thread(target=work, name="gpu-advisor-turn", daemon=True).start()
    if not finished.wait(time_limit_s):
        abandoned.set()
        if not started.is_set():
            raise TurnTooLong(
                f"the advisor is busy with other messages and could not start this one within "
                f"{time_limit_s:g} s; send it again in a minute"
            )
        raise TurnTooLong(
            f"this message took over {time_limit_s:g} s to answer and was stopped; "
            "send a shorter message, or its parts one at a time"
        )
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result


_WORKER_FACTORY: tuple[str, ConversationFactory] | None = None


def _worker_compute(
    backend: str, state: dict[str, Any] | None, text: str, brief_text: str | None
) -> TurnDone:
    """compute_turn with the default conversation of `backend`, in a TurnProcesses worker."""
    global _WORKER_FACTORY
    if _WORKER_FACTORY is None or _WORKER_FACTORY[0] != backend:
        _WORKER_FACTORY = (backend, default_conversation_factory(backend))
    return compute_turn(_WORKER_FACTORY[1], state, text, brief_text)


def _worker_start(backend: str) -> None:
    """A TurnProcesses worker's start: import the conversation and load the bundled catalog, so the
    first turn it computes does not pay for them."""
    default_catalog()
    Conversation(backend=backend)


def _worker_main(conn: Any, backend: str, parent: int | None = None) -> None:
    """A TurnProcesses worker: turns in from the pipe, ("ok", TurnDone) or ("error", exception) out,
    until the pipe closes or None arrives; it exits with the web process (lifeline)."""
    die_with_parent(parent)
    _worker_start(backend)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        state, text, brief_text = task
        try:
            reply: tuple[str, Any] = ("ok", _worker_compute(backend, state, text, brief_text))
        except Exception as exc:  # the web process raises it (InputError -> 422, others -> 500)
            reply = ("error", exc)
        try:
            conn.send(reply)
        except Exception as exc:  # an exception that does not pickle
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


class _TurnWorker:
    """One worker process and its pipe; turns wait their turn in arrival order (FIFO hand-over)."""

    def __init__(self, backend: str) -> None:
        ctx = multiprocessing.get_context("spawn")  # the web process has threads: no fork
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker_main, args=(child, backend, os.getpid()), daemon=True, name="gpu-advisor-turns"
        )
        self.proc.start()
        child.close()
        self._lock = threading.Lock()
        self._busy = False
        self._waiting: deque[threading.Event] = deque()
        self.queued = 0  # turns sent or waiting

    def run(self, task: tuple[Any, ...], time_limit_s: float | None = None) -> tuple[str, Any]:
        """The worker's answer to `task`; past `time_limit_s` the worker is killed (it is started again
        for the next turn) and TurnTooLong raised: one message cannot hold a worker for ever."""
        with self._lock:
            self.queued += 1
            wait = None
            if self._busy:
                wait = threading.Event()
                self._waiting.append(wait)
            else:
                self._busy = True
        try:
            if wait is not None:
                wait.wait()
            self.conn.send(task)
            if time_limit_s is not None and not self.conn.poll(time_limit_s):
                self.proc.kill()
                raise TurnTooLong(
                    f"this message took over {time_limit_s:g} s to answer and was stopped; "
                    "send a shorter message, or its parts one at a time"
                )
            result: tuple[str, Any] = self.conn.recv()
            return result
        finally:
            with self._lock:
                self.queued -= 1
                if self._waiting:
                    self._waiting.popleft().set()  # still busy: handed to the next in line
                else:
                    self._busy = False

    def stop(self) -> None:
        with suppress(OSError, ValueError):
            self.conn.send(None)
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(2)
        self.conn.close()


class TurnProcesses:
    """Worker processes computing the default conversation's turns (GPU_ADVISOR_TURN_PROCESSES).

    Why: a turn is CPU-bound Python, and threads of one process share one interpreter lock, so a web
    process computes one turn at a time whatever its thread count; worker processes use every CPU while
    the web process stores messages and answers requests. Each worker keeps its own caches (the
    recommender's calculator results and enumerations), so a session's turns go to the worker its last
    turn went to (the least busy for a first turn; remembered for the last HOMES_KEPT sessions, a hint
    that is harmless to lose) unless that worker has `REBALANCE_AFTER` more turns queued than the least
    busy, which then becomes the session's worker.
    A worker takes one turn at a time over a pipe, in arrival order. The results are those of computing
    the turn in the web process (compute_turn). A worker that dies fails the turns it had (the user's
    message stays stored, marked unanswered) and is started again for the next."""

    REBALANCE_AFTER = 3
    HOMES_KEPT = 10_000
    time_limit_s: float = TURN_TIME_LIMIT_S

    def __init__(self, count: int, backend: str) -> None:
        self.backend = backend
        self._workers: list[_TurnWorker | None] = [None] * max(1, count)
        self._lock = threading.Lock()
        self._homes: OrderedDict[str, int] = OrderedDict()  # a routing hint for the caches, not state
        self._rotation = 0

    def _worker(self, i: int) -> _TurnWorker:
        w = self._workers[i]
        if w is None or not w.proc.is_alive():
            w = self._workers[i] = _TurnWorker(self.backend)
        return w

    def start(self) -> None:
        """Start every worker now (each loads the catalog in the background)."""
        with self._lock:
            for i in range(len(self._workers)):
                self._worker(i)

    def _queued(self, i: int) -> int:
        w = self._workers[i]
        return w.queued if w is not None else 0

    def _pick(self, key: str) -> int:
        """The session's worker: the one its last turn went to (for a first turn the least busy, in
        rotation on a tie), unless that one has REBALANCE_AFTER more turns queued than the least busy:
        then the least busy, which becomes its worker (called under the lock)."""
        n = len(self._workers)
        self._rotation = (self._rotation + 1) % n
        order = [(self._rotation + k) % n for k in range(n)]
        least = min(order, key=self._queued)
        home = self._homes.get(key)
        if home is None or home >= n:
            home = self._homes[key] = least
            while len(self._homes) > self.HOMES_KEPT:
                self._homes.popitem(last=False)
        else:
            self._homes.move_to_end(key)
        if self._queued(home) - self._queued(least) >= self.REBALANCE_AFTER:
            home = self._homes[key] = least  # its next turn re-uses what this one computes there
        return home

    def compute(self, key: str, state: dict[str, Any] | None, text: str, brief_text: str | None) -> TurnDone:
        """The turn computed by a worker (exceptions, InputError included, are raised here)."""
        with self._lock:
            w = self._worker(self._pick(key))
        try:
            status, value = w.run((state, text, brief_text), self.time_limit_s)
        except (EOFError, OSError) as exc:
            raise RuntimeError(
                "the turn worker process exited; it is started again for the next turn"
            ) from exc
        if status == "error":
            raise value
        result: TurnDone = value
        return result

    def stop(self) -> None:
        """Stop the workers (a turn still computing is abandoned: its user message stays stored)."""
        with self._lock:
            workers, self._workers = self._workers, [None] * len(self._workers)
        for w in workers:
            if w is not None:
                w.stop()
