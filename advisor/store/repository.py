"""The repository: the only code that talks to the database.

Every write commits before the call returns, so a crash after it loses nothing; a report job left
in `rendering` by a crashed worker stops getting heartbeats and is claimed again once it is stale.
A conversation's state is saved with compare-and-set against the text it was computed from
(`StateSnapshot`), so two turns of one session computed at once (two tabs, two workers, two hosts)
cannot overwrite each other: the later save raises `StateConflict` and its caller computes the turn
again on the newer state.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, delete, event, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from advisor.store.models import (
    Base,
    BriefRow,
    MessageRow,
    RateRow,
    ReportRow,
    SessionRow,
    SlackEventRow,
    utcnow,
)
from tools.errors import InputError

DEFAULT_DATA_DIR = "data"
REPORT_STALE_AFTER_S = 15.0
"""A rendering job whose heartbeat (claimed_at_epoch_s, beaten by its worker while it renders) is older
than this is assumed lost with its worker, and is claimed again."""


@dataclass(frozen=True)
class MessageRecord:
    """A stored message. `id` is the database's key (a counter: never shown to users); `public_id` is
    what the API shows (`public_message_id`)."""

    id: int
    role: str
    text: str
    payload: dict[str, Any]
    public_id: str = ""


def public_message_id(session_secret: str, message_id: int) -> str:
    """The id a user sees for a message: 16 URL-safe characters, an HMAC of the database key under the
    session's secret (its token's SHA-256, never sent to anyone). It reveals neither the counter (how many
    messages every user sent) nor the order, and is stable with no column to add or migrate."""
    digest = hmac.new(session_secret.encode(), f"message:{message_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


@dataclass(frozen=True)
class StateSnapshot:
    """A conversation's state as read, with the stored JSON text it came from: the token a save
    compares against (compare-and-set), so a save over a state another turn changed meanwhile fails."""

    state: dict[str, Any]
    stored_json: str


class StateConflict(RuntimeError):
    """Another turn saved the session's state after this one read it: nothing was written."""


TURN_ATTEMPTS = 4
"""How often a front end computes one turn when other turns of the same session keep saving first."""


class TurnConflict(RuntimeError):
    """Other turns of the session kept changing its state while this one was computed, TURN_ATTEMPTS
    times: the user's message is stored and unanswered, and sending it again answers it."""


@dataclass(frozen=True)
class ReportJob:
    id: str
    session_id: str
    status: str
    profile: dict[str, Any]
    path: str | None
    error: str | None
    attempts: int


def data_dir() -> Path:
    """The data directory (GPU_ADVISOR_DATA_DIR, default ./data), created if missing, owner-only (0700)
    when this process creates it; InputError naming the variable when it cannot be."""
    path = Path(os.environ.get("GPU_ADVISOR_DATA_DIR", DEFAULT_DATA_DIR))
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"GPU_ADVISOR_DATA_DIR={str(path)!r} cannot be created ({exc.strerror or exc}); "
            "point it at a writable folder"
        ) from exc
    return path


def database_url() -> str:
    """DATABASE_URL when set (PostgreSQL: postgresql+psycopg://...), else SQLite in the data dir."""
    url = os.environ.get("DATABASE_URL")
    if url:
        if url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url[len("postgres://") :]
        elif url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        return url
    return f"sqlite:///{data_dir() / 'gpu-advisor.db'}"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer; safe across processes
        cur.execute("PRAGMA busy_timeout=10000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()


def _snapshot(raw: str | None) -> StateSnapshot:
    # a missing session reads as {} and compares against "{}": its save then updates no row and
    # conflicts instead of creating state out of nothing
    return StateSnapshot(state=json.loads(raw) if raw else {}, stored_json=raw if raw is not None else "{}")


def open_repository(url: str | None = None) -> Repository:
    """Open (and create the tables of) the database at `url` or `database_url()`. A URL that does not
    parse, an unknown database, a missing driver, an unreachable server or an unwritable SQLite file
    raise InputError: one line naming the setting to fix (DATABASE_URL or GPU_ADVISOR_DATA_DIR), with
    no password in it."""
    from_env = url is None
    url = url or database_url()
    setting = "DATABASE_URL" if not from_env or os.environ.get("DATABASE_URL") else "GPU_ADVISOR_DATA_DIR"
    try:
        if url.startswith("sqlite"):
            _owner_only_sqlite_files(url)  # created 0600 before SQLite opens it (its -wal/-shm copy that)
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
            _configure_sqlite(engine)
        else:
            engine = create_engine(url, pool_pre_ping=True, connect_args=_connect_timeout(url))
        Base.metadata.create_all(engine)
    except (ArgumentError, NoSuchModuleError, ImportError, DBAPIError) as exc:
        if "already exists" in str(exc):  # two workers creating the tables at once: the caller retries
            raise
        raise InputError(_open_error(setting, url, exc)) from exc
    return Repository(engine)


DB_CONNECT_TIMEOUT_S = 10
"""A server that does not answer fails the start within this, rather than the driver's default (none)."""


def _connect_timeout(url: str) -> dict[str, Any]:
    return {"connect_timeout": DB_CONNECT_TIMEOUT_S} if url.startswith("postgresql") else {}


def _open_error(setting: str, url: str, exc: Exception) -> str:
    """One line for a database that cannot be opened: what is wrong and what to set (no password)."""
    example = "postgresql://USER:PASSWORD@HOST:5432/DB or sqlite:////path/to/file.db"
    if isinstance(exc, ArgumentError) and not isinstance(exc, NoSuchModuleError):
        return f"{setting} is not a database URL; set it to e.g. {example}"
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        shown = "(unreadable URL)"
    if isinstance(exc, NoSuchModuleError):
        return f"{setting} names a database this app does not know ({shown.split(':', 1)[0]}); use {example}"
    if isinstance(exc, ImportError):
        return (
            f"{setting} needs the database driver {exc.name or 'for it'}, which is not installed "
            "(PostgreSQL: pip install 'psycopg[binary]')"
        )
    detail = str(getattr(exc, "orig", exc)).strip().splitlines()[0][:200] if str(exc).strip() else ""
    password = make_url(url).password if "@" in url else None
    if password:
        detail = detail.replace(str(password), "***")
    if url.startswith("sqlite"):
        return f"{setting}: cannot open the SQLite file {shown} ({detail}); point it at a writable folder"
    return f"{setting}: cannot connect to {shown} ({detail}); check the host, port, user and password"


def _owner_only_sqlite_files(url: str) -> None:
    """The SQLite database (and its WAL and shared-memory files) readable by its owner only (0600): it
    holds users' messages and briefs. A new file is created 0600 (SQLite gives its -wal and -shm files
    the database file's mode); files of an older install are narrowed."""
    try:
        database = make_url(url).database
    except ArgumentError:
        return
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    with contextlib.suppress(OSError):
        os.close(os.open(database, os.O_CREAT | os.O_WRONLY, 0o600))
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.chmod(database + suffix, 0o600)


class Repository:
    """Sessions, messages, briefs, report jobs, rate counters and Slack event ids."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def _db(self) -> Session:
        return self._sessions()

    # --- sessions --------------------------------------------------------------------------
    def create_session(self, channel: str = "web", external_key: str | None = None) -> tuple[str, str]:
        """A new session: returns (id, token). Only the token's SHA-256 is stored."""
        session_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                insert(SessionRow).values(
                    id=session_id, token_sha256=_sha256(token), channel=channel, external_key=external_key
                )
            )
        return session_id, token

    def find_session(self, channel: str, external_key: str) -> str | None:
        """The session bound to an external key, or None (never creates one)."""
        with self._db() as db:
            return db.scalar(
                select(SessionRow.id).where(SessionRow.external_key == f"{channel}:{external_key}")
            )

    def session_for_key(self, channel: str, external_key: str) -> str:
        """The session bound to an external key (a Slack thread), created on first use."""
        key = f"{channel}:{external_key}"
        with self._db() as db:
            found = db.scalar(select(SessionRow.id).where(SessionRow.external_key == key))
        if found:
            return found
        try:
            return self.create_session(channel=channel, external_key=key)[0]
        except IntegrityError:  # another worker created it first
            with self._db() as db:
                found = db.scalar(select(SessionRow.id).where(SessionRow.external_key == key))
            assert found is not None
            return found

    def authorize(self, session_id: str, token: str) -> bool:
        """True when the token belongs to the session (constant-time comparison)."""
        with self.engine.connect() as conn:
            digest = conn.execute(select(SessionRow.token_sha256).where(SessionRow.id == session_id)).scalar()
        return digest is not None and hmac.compare_digest(digest, _sha256(token))

    def exists(self, session_id: str) -> bool:
        with self._db() as db:
            return db.scalar(select(func.count()).where(SessionRow.id == session_id)) == 1

    def load_state(self, session_id: str) -> dict[str, Any]:
        return self.load_snapshot(session_id).state

    def load_snapshot(self, session_id: str) -> StateSnapshot:
        """The session's state and its stored text (the compare-and-set token for a later save)."""
        with self.engine.connect() as conn:
            raw = conn.execute(select(SessionRow.state_json).where(SessionRow.id == session_id)).scalar()
        return _snapshot(raw)

    def _write_state(
        self, conn: Any, session_id: str, state: dict[str, Any], expected: StateSnapshot | None
    ) -> None:
        """Update the state; with `expected`, only if the stored text is still the one read, else
        raise StateConflict (the caller's transaction then rolls back)."""
        stmt = update(SessionRow).where(SessionRow.id == session_id)
        if expected is not None:
            stmt = stmt.where(SessionRow.state_json == expected.stored_json)
        result = conn.execute(stmt.values(state_json=json.dumps(state), updated_at=utcnow()))
        if expected is not None and result.rowcount != 1:
            raise StateConflict(f"session {session_id}: its state changed since it was read")

    def save_state(
        self, session_id: str, state: dict[str, Any], *, expected: StateSnapshot | None = None
    ) -> None:
        """Store the conversation's state; `expected` makes it a compare-and-set (StateConflict)."""
        with self.engine.begin() as conn:
            self._write_state(conn, session_id, state, expected)

    def save_reply(
        self,
        session_id: str,
        state: dict[str, Any],
        text: str,
        payload: dict[str, Any] | None = None,
        *,
        expected: StateSnapshot | None = None,
    ) -> int:
        """Store a turn's outcome in one transaction: the conversation's new state and the assistant's
        message. Returns the message id. With `expected` (the snapshot the turn was computed from) the
        state is saved only over that same state; otherwise StateConflict is raised and nothing is
        written."""
        with self.engine.begin() as conn:
            self._write_state(conn, session_id, state, expected)
            return self._insert_message(conn, session_id, "assistant", text, payload)

    @staticmethod
    def _insert_message(
        conn: Any, session_id: str, role: str, text: str, payload: dict[str, Any] | None
    ) -> int:
        result = conn.execute(
            insert(MessageRow).values(
                session_id=session_id, role=role, text=text, payload_json=json.dumps(payload or {})
            )
        )
        return int(result.inserted_primary_key[0])

    # --- messages and briefs ---------------------------------------------------------------
    def add_message(
        self, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None
    ) -> int:
        with self.engine.begin() as conn:
            return self._insert_message(conn, session_id, role, text, payload)

    def add_user_message(
        self, session_id: str, text: str, payload: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Store a user's message (committed before this returns) and read the conversation's state in
        the same transaction: (message id, state or {})."""
        message_id, snapshot = self.add_user_message_snapshot(session_id, text, payload)
        return message_id, snapshot.state

    def add_user_message_snapshot(
        self, session_id: str, text: str, payload: dict[str, Any] | None = None
    ) -> tuple[int, StateSnapshot]:
        """add_user_message, with the state as a StateSnapshot for a compare-and-set save."""
        with self.engine.begin() as conn:
            message_id = self._insert_message(conn, session_id, "user", text, payload)
            raw = conn.execute(select(SessionRow.state_json).where(SessionRow.id == session_id)).scalar()
        return message_id, _snapshot(raw)

    def messages(self, session_id: str) -> list[MessageRecord]:
        with self._db() as db:
            secret = db.scalar(select(SessionRow.token_sha256).where(SessionRow.id == session_id)) or ""
            rows = db.scalars(
                select(MessageRow).where(MessageRow.session_id == session_id).order_by(MessageRow.id)
            ).all()
        return [
            MessageRecord(r.id, r.role, r.text, json.loads(r.payload_json), public_message_id(secret, r.id))
            for r in rows
        ]

    def public_message_ids(self, session_id: str, message_ids: list[int]) -> list[str]:
        """The ids users see (public_message_id) for these messages of the session."""
        with self.engine.connect() as conn:
            secret = conn.execute(select(SessionRow.token_sha256).where(SessionRow.id == session_id)).scalar()
        return [public_message_id(secret or "", m) for m in message_ids]

    def add_brief(self, session_id: str, filename: str, text: str) -> int:
        with self._db() as db, db.begin():
            row = BriefRow(session_id=session_id, filename=filename, text=text)
            db.add(row)
            db.flush()
            return row.id

    def briefs(self, session_id: str) -> list[tuple[str, str]]:
        """(filename, text) of each brief uploaded to the session, oldest first."""
        with self._db() as db:
            rows = db.scalars(select(BriefRow).where(BriefRow.session_id == session_id).order_by(BriefRow.id))
            return [(r.filename, r.text) for r in rows]

    # --- report jobs -----------------------------------------------------------------------
    def create_report_job(self, session_id: str, profile: dict[str, Any]) -> str:
        report_id = secrets.token_urlsafe(16)
        with self._db() as db, db.begin():
            db.add(ReportRow(id=report_id, session_id=session_id, profile_json=json.dumps(profile)))
        return report_id

    def claim_report_job(self, stale_after_s: float = REPORT_STALE_AFTER_S) -> ReportJob | None:
        """Atomically take the oldest pending job (or a stale rendering one); None when there is none.

        Optimistic: the UPDATE only succeeds if the row is still in the state we read, so two workers
        never claim the same job, on SQLite or PostgreSQL.
        """
        now = time.time()
        with self._db() as db:
            candidates = db.execute(
                select(ReportRow.id, ReportRow.status, ReportRow.claimed_at_epoch_s)
                .where(
                    (ReportRow.status == "pending")
                    | (
                        (ReportRow.status == "rendering")
                        & (ReportRow.claimed_at_epoch_s < now - stale_after_s)
                    )
                )
                .order_by(ReportRow.created_at)
                .limit(5)
            ).all()
        for report_id, status, claimed in candidates:
            with self._db() as db, db.begin():
                cond = (ReportRow.id == report_id) & (ReportRow.status == status)
                cond = cond & (
                    ReportRow.claimed_at_epoch_s.is_(None)
                    if claimed is None
                    else ReportRow.claimed_at_epoch_s == claimed
                )
                result = db.execute(
                    update(ReportRow)
                    .where(cond)
                    .values(status="rendering", claimed_at_epoch_s=now, attempts=ReportRow.attempts + 1)
                )
                if getattr(result, "rowcount", 0) == 1:
                    row = db.get(ReportRow, report_id)
                    assert row is not None
                    return self._job(row)
        return None

    def touch_report(self, report_id: str) -> None:
        """A rendering job's heartbeat: its claim time moves to now, so it does not look abandoned."""
        with self._db() as db, db.begin():
            db.execute(
                update(ReportRow)
                .where((ReportRow.id == report_id) & (ReportRow.status == "rendering"))
                .values(claimed_at_epoch_s=time.time())
            )

    def finish_report(self, report_id: str, path: str) -> None:
        with self._db() as db, db.begin():
            db.execute(
                update(ReportRow)
                .where(ReportRow.id == report_id)
                .values(status="done", path=path, error=None, finished_at=utcnow())
            )

    def fail_report(self, report_id: str, error: str) -> None:
        with self._db() as db, db.begin():
            db.execute(
                update(ReportRow)
                .where(ReportRow.id == report_id)
                .values(status="failed", error=error[:2000], finished_at=utcnow())
            )

    def get_report(self, report_id: str, session_id: str) -> ReportJob | None:
        """The job, only if it belongs to `session_id` (else None: callers answer 404)."""
        with self._db() as db:
            row = db.get(ReportRow, report_id)
            return self._job(row) if row is not None and row.session_id == session_id else None

    def reports(self, session_id: str) -> list[ReportJob]:
        with self._db() as db:
            rows = db.scalars(
                select(ReportRow).where(ReportRow.session_id == session_id).order_by(ReportRow.created_at)
            ).all()
            return [self._job(r) for r in rows]

    @staticmethod
    def _job(row: ReportRow) -> ReportJob:
        return ReportJob(
            id=row.id,
            session_id=row.session_id,
            status=row.status,
            profile=json.loads(row.profile_json),
            path=row.path,
            error=row.error,
            attempts=row.attempts,
        )

    # --- privacy: deleting a conversation, retention ---------------------------------------
    def delete_session(self, session_id: str) -> list[str]:
        """Delete a conversation: its messages, uploaded briefs, report jobs and the session itself, in
        one transaction. Returns the ids of its report jobs (the caller deletes their files)."""
        return self._delete_sessions([session_id])

    def sessions_with_payload(self, channel: str, key: str, value: str) -> list[str]:
        """Sessions of `channel` with a message whose payload holds `key`: `value` (the Slack user a
        message came from), oldest first. A text match on the stored JSON: callers confirm on the
        messages."""
        needle = json.dumps({key: value})[1:-1]  # '"slack_user": "U123"', as json.dumps stored it
        holds = MessageRow.payload_json.contains(needle, autoescape=True)
        with self._db() as db:
            rows = db.execute(
                select(MessageRow.session_id)
                .join(SessionRow, SessionRow.id == MessageRow.session_id)
                .where(SessionRow.channel == channel, holds)
                .group_by(MessageRow.session_id)
                .order_by(func.min(MessageRow.id))
            )
            return [str(r[0]) for r in rows]

    def purge_older_than(self, days: float, now: dt.datetime | None = None) -> tuple[int, list[str]]:
        """Delete every conversation untouched for `days` (retention): (how many, their report ids)."""
        cutoff = (now or utcnow()) - dt.timedelta(days=days)
        with self._db() as db:
            old = list(db.scalars(select(SessionRow.id).where(SessionRow.updated_at < cutoff)))
        return len(old), self._delete_sessions(old)

    def _delete_sessions(self, session_ids: list[str]) -> list[str]:
        if not session_ids:
            return []
        with self.engine.begin() as conn:
            report_ids = list(
                conn.execute(select(ReportRow.id).where(ReportRow.session_id.in_(session_ids))).scalars()
            )
            for table in (MessageRow, BriefRow, ReportRow):  # explicit: not every database cascades
                conn.execute(delete(table).where(table.session_id.in_(session_ids)))
            conn.execute(delete(SessionRow).where(SessionRow.id.in_(session_ids)))
        return report_ids

    # --- rate limiting and Slack dedup -----------------------------------------------------
    def hit_rate_limit(self, key: str, limit: int, window_s: int, now: float | None = None) -> bool:
        """Count one request for `key`; True when it exceeds `limit` in the current fixed window."""
        window = int((now if now is not None else time.time()) // window_s)
        dialect = self.engine.dialect.name
        if dialect in ("sqlite", "postgresql"):  # one statement: insert the counter or add one to it
            upsert: Any = sqlite.insert if dialect == "sqlite" else postgresql.insert
            stmt = (
                upsert(RateRow)
                .values(key=key, window_start=window, count=1)
                .on_conflict_do_update(
                    index_elements=["key", "window_start"], set_={"count": RateRow.count + 1}
                )
                .returning(RateRow.count)
            )
            with self.engine.begin() as conn:
                counted = int(conn.execute(stmt).scalar_one())
            return counted > limit
        for _ in range(3):
            try:
                with self._db() as db, db.begin():
                    result = db.execute(
                        update(RateRow)
                        .where((RateRow.key == key) & (RateRow.window_start == window))
                        .values(count=RateRow.count + 1)
                    )
                    if getattr(result, "rowcount", 0) == 0:
                        db.add(RateRow(key=key, window_start=window, count=1))
                        db.flush()
                    count = db.scalar(
                        select(RateRow.count).where((RateRow.key == key) & (RateRow.window_start == window))
                    )
                return (count or 0) > limit
            except IntegrityError:  # a concurrent first insert: retry as an update
                continue
        return False

    def first_time_event(self, event_id: str) -> bool:
        """Record a Slack event id; True only the first time it is seen."""
        try:
            with self._db() as db, db.begin():
                db.add(SlackEventRow(event_id=event_id))
            return True
        except IntegrityError:
            return False
