"""The web app's settings: WebSettings, read from GPU_ADVISOR_* environment variables."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from advisor.ingest_capped import UPLOAD_MEMORY_MIB, UPLOAD_TIME_S, UploadLimits
from advisor.web.turn_workers import TURN_TIME_LIMIT_S
from tools.errors import InputError

BACKENDS = ("rules", "openai")
BACKENDS_THAT_STREAM = ("openai",)
CHAT_MODEL_TURN_FACTOR = 4  # a chat model's turn: extraction and explanation calls, each seconds long

N = TypeVar("N", int, float)


def _env_positive(env: dict[str, str], name: str, default: N, parse: Callable[[str], N], kind: str) -> N:
    """`name` parsed from `env` (`kind` names what it must be in the error), else `default`; InputError
    unless positive."""
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = parse(raw)
    except ValueError as exc:
        raise InputError(f"{name}={raw!r} is not {kind}; set it to e.g. {default}") from exc
    if value <= 0:
        raise InputError(f"{name} must be positive (got {value})")
    return value


def _env_int(env: dict[str, str], name: str, default: int) -> int:
    return _env_positive(env, name, default, int, "a whole number")


def _env_float(env: dict[str, str], name: str, default: float) -> float:
    return _env_positive(env, name, default, float, "a number")


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
    # GPU_ADVISOR_REPORT_STALE_S: a rendering job whose heartbeat is older is taken over (its worker died)
    report_stale_after_s: float = 15.0
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
    # GPU_ADVISOR_TURN_TIME_LIMIT_S: a turn still computing after this long is stopped (a worker process)
    # or abandoned (in the web process) and the user told in one line; from_env's default is 4x longer
    # with a chat model, whose turns wait on several HTTP replies
    turn_time_limit_s: float = TURN_TIME_LIMIT_S
    # GPU_ADVISOR_RETENTION_DAYS: conversations (messages, briefs, reports) untouched this long are
    # deleted, hourly (None: kept until their user deletes them)
    retention_days: float | None = None
    # GPU_ADVISOR_UPLOAD_MEMORY_MIB / GPU_ADVISOR_UPLOAD_TIME_S: an upload is parsed in a child process whose
    # memory may grow this much and which is stopped after this long (advisor.ingest_capped)
    upload_limits: UploadLimits = field(default_factory=UploadLimits)
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> WebSettings:
        e = dict(os.environ) if env is None else env
        backend = (e.get("GPU_ADVISOR_BACKEND") or "rules").strip().lower()
        if backend not in BACKENDS:
            raise InputError(
                f"GPU_ADVISOR_BACKEND={backend!r} is not a backend; set it to one of {', '.join(BACKENDS)}"
            )
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
            turn_concurrency=_env_zero_or_more(e, "GPU_ADVISOR_TURN_CONCURRENCY"),
            turn_processes=_turn_processes(e, backend),
            turn_time_limit_s=_env_float(
                e,
                "GPU_ADVISOR_TURN_TIME_LIMIT_S",
                TURN_TIME_LIMIT_S * (CHAT_MODEL_TURN_FACTOR if backend in BACKENDS_THAT_STREAM else 1),
            ),
            retention_days=_env_float(e, "GPU_ADVISOR_RETENTION_DAYS", 0.0) or None,
            upload_limits=UploadLimits(
                memory_mib=_env_int(e, "GPU_ADVISOR_UPLOAD_MEMORY_MIB", UPLOAD_MEMORY_MIB),
                time_s=_env_float(e, "GPU_ADVISOR_UPLOAD_TIME_S", UPLOAD_TIME_S),
            ),
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


def _env_zero_or_more(env: dict[str, str], name: str, default: int = 0) -> int:
    """`name` as a whole number 0 or more (0: automatic), else `default`; InputError naming it."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise InputError(f"{name}={raw!r} is not a whole number; set it to e.g. 2") from exc
    if value < 0:
        raise InputError(f"{name} must be 0 or more (got {value})")
    return value


def _turn_processes(env: dict[str, str], backend: str) -> int:
    """GPU_ADVISOR_TURN_PROCESSES (0 or more), default one per CPU unless replies stream."""
    default = 0 if backend in BACKENDS_THAT_STREAM else (os.cpu_count() or 1)
    return _env_zero_or_more(env, "GPU_ADVISOR_TURN_PROCESSES", default)
