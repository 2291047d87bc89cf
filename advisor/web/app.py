"""The FastAPI application factory and the one function every front end uses to run a turn.

`create_app(...)` wires the repository, the conversation factory, the JSON API (advisor.web.api), the
chat page (advisor.web.pages), security middleware (advisor.web.security) and the report worker thread
(advisor.web.worker). Extra routers (Slack's /slack/events) are included as given.

`run_turn(...)` is the persistence discipline of a turn: the user's message is stored before anything
else happens, the conversation is resumed from the stored state (never from process memory), and the
new state and the reply are stored after. A crash in the middle loses no message: the user's text is
in the database, marked unanswered until a reply follows it, and can be retried.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from advisor.store.repository import TURN_ATTEMPTS, StateConflict, TurnConflict
from tools.errors import InputError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from fastapi import APIRouter, FastAPI

    from advisor.conversation import Conversation, Turn
    from advisor.store import Repository

log = logging.getLogger("gpu_advisor.web")

StreamCallback = Callable[[str], None]
# (stored conversation state, or None for a new conversation; stream callback or None) -> Conversation
ConversationFactory = Callable[[dict[str, Any] | None, StreamCallback | None], "Conversation"]

BACKENDS_THAT_STREAM = ("openai",)


def _env_int(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise InputError(f"{name}={raw!r} is not a whole number; set it to e.g. {default}") from exc
    if value <= 0:
        raise InputError(f"{name} must be positive (got {value})")
    return value


def _env_float(env: dict[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise InputError(f"{name}={raw!r} is not a number; set it to e.g. {default}") from exc
    if value <= 0:
        raise InputError(f"{name} must be positive (got {value})")
    return value


@dataclass(frozen=True)
class WebSettings:
    """Knobs of the web app; `from_env` reads them from GPU_ADVISOR_* variables (secrets never live here:
    the LLM key stays in OPENAI_API_KEY, read by advisor.llm.settings)."""

    backend: str = "rules"  # GPU_ADVISOR_BACKEND: extraction/explanation backend (rules | openai)
    session_requests_per_window: int = 60  # GPU_ADVISOR_RATE_SESSION: API calls per session per window
    client_requests_per_window: int = 600  # GPU_ADVISOR_RATE_CLIENT: API calls per client address per window
    sessions_per_client_per_window: int = 30  # GPU_ADVISOR_RATE_NEW_SESSIONS: new sessions per address
    rate_window_s: int = 60  # GPU_ADVISOR_RATE_WINDOW_S
    max_message_chars: int = 20_000
    max_brief_pages: int = 200  # GPU_ADVISOR_MAX_BRIEF_PAGES (PDF pages); size limit is advisor.ingest's
    report_poll_s: float = 0.5  # how often an idle worker looks for a pending report job
    report_stale_after_s: float = 300.0  # GPU_ADVISOR_REPORT_STALE_S: a rendering job older is taken over
    render_in_subprocess: bool = True  # render PDFs in a child process so a render never holds the GIL
    trust_forwarded_for: bool = False  # GPU_ADVISOR_TRUST_PROXY=1: client address from X-Forwarded-For
    # GPU_ADVISOR_TURN_CONCURRENCY: turns computed at once per process (0: automatic). The recommender is
    # CPU-bound Python: more threads than CPUs only interleave under the GIL, and starve the short database
    # transactions of the other requests (seen as "database is locked" on SQLite under load).
    turn_concurrency: int = 0
    # GPU_ADVISOR_TURN_PROCESSES: worker processes that compute the default conversation's turns when
    # replies do not stream (0: in the web process, under turn_concurrency). Turns are CPU-bound Python:
    # threads of one process share one interpreter lock, processes use every CPU. from_env's default is
    # one per CPU for the rules backend, 0 with a chat model.
    turn_processes: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> WebSettings:
        e = dict(os.environ) if env is None else env
        backend = (e.get("GPU_ADVISOR_BACKEND") or "rules").strip().lower()
        return cls(
            backend=backend,
            session_requests_per_window=_env_int(
                e, "GPU_ADVISOR_RATE_SESSION", cls.session_requests_per_window
            ),
            client_requests_per_window=_env_int(e, "GPU_ADVISOR_RATE_CLIENT", cls.client_requests_per_window),
            sessions_per_client_per_window=_env_int(
                e, "GPU_ADVISOR_RATE_NEW_SESSIONS", cls.sessions_per_client_per_window
            ),
            rate_window_s=_env_int(e, "GPU_ADVISOR_RATE_WINDOW_S", cls.rate_window_s),
            max_brief_pages=_env_int(e, "GPU_ADVISOR_MAX_BRIEF_PAGES", cls.max_brief_pages),
            report_stale_after_s=_env_float(e, "GPU_ADVISOR_REPORT_STALE_S", cls.report_stale_after_s),
            trust_forwarded_for=(e.get("GPU_ADVISOR_TRUST_PROXY") or "").strip() in ("1", "true", "yes"),
            turn_concurrency=int(e.get("GPU_ADVISOR_TURN_CONCURRENCY") or 0),
            turn_processes=_turn_processes(e, backend),
        )

    @property
    def turn_slots(self) -> int:
        """Concurrent turns per process: the setting, else one per CPU (rules backend: CPU-bound) or 32
        with a chat model (turns then mostly wait on the model's HTTP replies)."""
        if self.turn_concurrency > 0:
            return self.turn_concurrency
        return 32 if self.streams else (os.cpu_count() or 2)

    @property
    def streams(self) -> bool:
        """True when replies arrive in pieces (a chat model is configured): the page streams them."""
        return self.backend in BACKENDS_THAT_STREAM


def _turn_processes(env: dict[str, str], backend: str) -> int:
    """GPU_ADVISOR_TURN_PROCESSES (0 or more), default one per CPU unless replies stream."""
    raw = (env.get("GPU_ADVISOR_TURN_PROCESSES") or "").strip()
    if not raw:
        return 0 if backend in BACKENDS_THAT_STREAM else (os.cpu_count() or 1)
    try:
        value = int(raw)
    except ValueError as exc:
        raise InputError(
            f"GPU_ADVISOR_TURN_PROCESSES={raw!r} is not a whole number; set it to e.g. 2"
        ) from exc
    if value < 0:
        raise InputError(f"GPU_ADVISOR_TURN_PROCESSES must be 0 or more (got {value})")
    return value


def default_conversation_factory(backend: str = "rules") -> ConversationFactory:
    """Conversation.from_state for a stored state, a new Conversation(backend=...) otherwise."""

    def make(state: dict[str, Any] | None, stream: StreamCallback | None) -> Conversation:
        from advisor.conversation import Conversation

        if state:
            return Conversation.from_state(state, stream=stream)
        return Conversation(backend=backend, stream=stream)

    return make


def reports_dir_from_env() -> Path:
    """GPU_ADVISOR_REPORTS_DIR, else <data dir>/reports; created if missing."""
    raw = os.environ.get("GPU_ADVISOR_REPORTS_DIR")
    if raw:
        path = Path(raw)
    else:
        from advisor.store.repository import data_dir

        path = data_dir() / "reports"
    path.mkdir(parents=True, exist_ok=True)
    return path


# --- turn views ------------------------------------------------------------------------------------------


def profile_view(profile: Any) -> list[dict[str, Any]]:
    """The profile as the page shows it: one row per known field, with its status and the user's words."""
    from reports.render import FIELD_LABELS, field_value
    from tools.profile import PROFILE_FIELDS

    rows: list[dict[str, Any]] = []
    for name in PROFILE_FIELDS:
        value = getattr(profile, name, None)
        if value is None or value == []:
            continue
        prov = profile.provenance.get(name)
        rows.append(
            {
                "field": name,
                "label": FIELD_LABELS.get(name, name.replace("_", " ").capitalize()),
                "value": field_value(name, value),
                "status": prov.status if prov is not None else "stated",
                "evidence": prov.evidence if prov is not None else None,
            }
        )
    return rows


def _option_view(opt: Any) -> dict[str, Any]:
    from reports import format as fmt
    from reports.render import option_title, option_where

    per_month = opt.cost_basis == "per_month"
    return {
        "cost": fmt.usd_range(opt.cost_usd) + (" per month" if per_month else ""),
        "time": None if per_month else fmt.hours_range(opt.wall_hours),
        "rate": fmt.usd_rate(opt.usd_per_gpu_hour),
        "label": opt.label,
        "title": option_title(opt),
        "where": option_where(opt),
        "summary": opt.summary,
        "gpu": opt.gpu,
        "total_gpus": opt.total_gpus,
        "provider": opt.provider,
        "pricing": opt.pricing,
        "cost_basis": opt.cost_basis,
        "why": list(opt.why),
    }


def recommendation_view(rec: Any) -> dict[str, Any] | None:
    """The recommendation summary for the page and the API: primary, alternatives, advice."""
    if rec is None:
        return None
    return {
        "primary": _option_view(rec.primary) if rec.primary is not None else None,
        "alternatives": [_option_view(o) for o in rec.alternatives],
        "infeasible_advice": list(rec.infeasible_advice),
        "workload_class": rec.workload_class,
        "deployment_advice": rec.deployment_advice,
    }


def turn_view(turn: Turn) -> dict[str, Any]:
    """A Turn as JSON: reply, questions, the profile (resolved, with assumed defaults) and the summary."""
    rec = turn.recommendation
    resolved = getattr(rec, "profile", None) if rec is not None else None
    return {
        "reply": turn.reply,
        "questions": list(turn.questions),
        "question_fields": list(turn.question_fields),
        "assumptions": list(turn.assumptions),
        "report_ready": turn.report_ready,
        "error": turn.error,
        "source": turn.source,
        "profile": profile_view(resolved if resolved is not None else turn.profile),
        "recommendation": recommendation_view(rec),
    }


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
) -> dict[str, Any]:
    """Store the user's message, resume the conversation from the repository, answer, store the reply.

    Returns the turn view plus `message_id` (the reply) and `reply_to` (the user's message). With
    `retry_of` the user's message is already stored (an unanswered one) and is not stored again.
    `gate` (a semaphore) bounds how many turns compute at once; database writes stay outside it.
    `processes`: compute the turn in a worker process instead (the default conversation, no stream).
    The new state and the reply are stored in one transaction, and only over the state the turn was
    computed from: when another message of the same session was answered meanwhile (two tabs, two
    workers), the turn is computed again on that newer state (without streaming it a second time), so
    neither message's effect is lost. After TURN_ATTEMPTS such races it raises TurnConflict.
    Exceptions propagate after the user's message is safely stored.
    """
    if retry_of is None:
        payload: dict[str, Any] = {"brief": brief_name} if brief_name else {}
        user_id, snapshot = repo.add_user_message_snapshot(session_id, text, payload)
    else:
        user_id, snapshot = retry_of, repo.load_snapshot(session_id)
    for attempt in range(TURN_ATTEMPTS):
        state = snapshot.state or None
        if processes is not None and stream is None:
            done = processes.compute(session_id, state, text, brief_text)
        else:
            with gate if gate is not None else nullcontext():
                done = compute_turn(factory, state, text, brief_text, stream if attempt == 0 else None)
        view = done.view
        view["reply_to"] = user_id
        try:
            view["message_id"] = repo.save_reply(
                session_id,
                done.state,
                done.reply,
                {"turn": view, "recommendation": done.recommendation, "reply_to": user_id},
                expected=snapshot,
            )
        except StateConflict:
            log.info("session %s: its state changed during a turn; computing the turn again", session_id)
            snapshot = repo.load_snapshot(session_id)
            continue
        return view
    raise TurnConflict(
        f"session {session_id}: {TURN_ATTEMPTS} other answers were saved while this message was answered"
    )


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
    from advisor.conversation import Conversation
    from advisor.llm.tools import default_catalog

    default_catalog()
    Conversation(backend=backend)


def _worker_main(conn: Any, backend: str) -> None:
    """A TurnProcesses worker: turns in from the pipe, ("ok", TurnDone) or ("error", exception) out,
    until the pipe closes or None arrives."""
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
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")  # the web process has threads: no fork
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker_main, args=(child, backend), daemon=True, name="gpu-advisor-turns"
        )
        self.proc.start()
        child.close()
        self._lock = threading.Lock()
        self._busy = False
        self._waiting: deque[threading.Event] = deque()
        self.queued = 0  # turns sent or waiting

    def run(self, task: tuple[Any, ...]) -> tuple[str, Any]:
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
            status, value = w.run((state, text, brief_text))
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


def open_repository_retrying(url: str | None = None, attempts: int = 3) -> Repository:
    """open_repository, tolerating the race of several workers creating the tables at the same moment
    (SQLAlchemy's create_all checks, then creates: a second process can lose in between)."""
    import time

    from sqlalchemy.exc import OperationalError, ProgrammingError

    from advisor.store import open_repository

    for attempt in range(1, attempts + 1):
        try:
            return open_repository(url)
        except (OperationalError, ProgrammingError) as exc:
            if "already exists" not in str(exc) or attempt == attempts:
                raise
            time.sleep(0.2 * attempt)
    raise AssertionError("unreachable")


def create_app(
    *,
    repo: Repository | None = None,
    conversation_factory: ConversationFactory | None = None,
    extra_routers: Sequence[APIRouter] = (),
    reports_dir: Path | None = None,
    start_worker: bool = True,
    settings: WebSettings | None = None,
) -> FastAPI:
    """The web app. Defaults come from the environment: DATABASE_URL / GPU_ADVISOR_DATA_DIR for the
    repository, GPU_ADVISOR_REPORTS_DIR for PDFs, GPU_ADVISOR_BACKEND for the conversation."""
    from fastapi import FastAPI
    from fastapi.staticfiles import StaticFiles

    from advisor.web import api, pages
    from advisor.web.security import SecurityMiddleware
    from advisor.web.worker import ReportWorker

    settings = settings or WebSettings.from_env()
    if repo is None:
        repo = open_repository_retrying()
    factory = conversation_factory or default_conversation_factory(settings.backend)
    out_dir = Path(reports_dir) if reports_dir is not None else reports_dir_from_env()
    out_dir.mkdir(parents=True, exist_ok=True)
    worker = ReportWorker(
        repo,
        out_dir,
        poll_s=settings.report_poll_s,
        stale_after_s=settings.report_stale_after_s,
        in_subprocess=settings.render_in_subprocess,
    )

    processes = (
        TurnProcesses(settings.turn_processes, settings.backend)
        if conversation_factory is None and settings.turn_processes > 0 and not settings.streams
        else None
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if start_worker:
            worker.start()
        if processes is not None:
            processes.start()
        try:
            yield
        finally:
            worker.stop()
            if processes is not None:
                processes.stop()

    app = FastAPI(
        title="GPU Advisor",
        version="0.1.0",
        summary="Chat about an LLM workload, upload a brief, get a GPU recommendation and its PDF report.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    app.state.repo = repo
    app.state.conversation_factory = factory
    app.state.reports_dir = out_dir
    app.state.settings = settings
    app.state.worker = worker
    app.state.turn_gate = threading.BoundedSemaphore(settings.turn_slots)
    app.state.turn_processes = processes
    app.add_middleware(SecurityMiddleware)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")
    for extra in extra_routers:
        app.include_router(extra)
    return app


def app_from_env() -> FastAPI:
    """Factory for `uvicorn --factory advisor.web.app:app_from_env` (what `gpu-advisor serve` runs)."""
    logging.basicConfig(level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "INFO").upper())
    repo = open_repository_retrying()
    return create_app(repo=repo, extra_routers=integration_routers(repo))


def integration_routers(repo: Repository | None = None) -> list[APIRouter]:
    """Routers of optional integrations configured in the environment (Slack's HTTP events endpoint:
    `advisor.slack.http.router_from_env(repo=...)`, None when Slack is not configured for HTTP), sharing
    the web app's repository."""
    import importlib

    routers: list[APIRouter] = []
    try:
        module = importlib.import_module("advisor.slack.http")
    except ModuleNotFoundError as exc:
        if exc.name not in ("advisor.slack", "advisor.slack.http"):
            raise
        return routers
    router = module.router_from_env(repo=repo)
    if router is not None:
        routers.append(router)
    return routers
