"""Persistence: sessions, messages, briefs and report jobs behind one small repository interface.

SQLite (a file in the data directory) by default; `DATABASE_URL` switches to PostgreSQL. No state
lives only in a worker's memory, so several workers or hosts can share one database.
"""

from advisor.store.repository import (
    TURN_ATTEMPTS,
    Repository,
    StateConflict,
    StateSnapshot,
    TurnConflict,
    open_repository,
)

__all__ = ["TURN_ATTEMPTS", "Repository", "StateConflict", "StateSnapshot", "TurnConflict", "open_repository"]
