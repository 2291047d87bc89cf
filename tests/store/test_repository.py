"""The repository on SQLite and on a real PostgreSQL server: same behaviour on both."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.store import Repository, open_repository


@pytest.fixture(params=["sqlite", "postgres"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Repository]:
    if request.param == "sqlite":
        r = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    else:
        url = request.getfixturevalue("postgres_url")
        r = open_repository(url)
        from advisor.store.models import Base

        with r.engine.begin() as conn:  # a clean schema per test
            for table in reversed(Base.metadata.sorted_tables):
                conn.execute(table.delete())
    yield r
    r.engine.dispose()


def test_session_token_is_required_and_unguessable(repo: Repository) -> None:
    sid, token = repo.create_session()
    other_sid, other_token = repo.create_session()
    assert repo.authorize(sid, token)
    assert not repo.authorize(sid, other_token)
    assert not repo.authorize("no-such-session", token)
    assert len(sid) >= 20 and len(token) >= 40 and sid != other_sid


def test_messages_and_state_survive_reopening(repo: Repository) -> None:
    sid, _ = repo.create_session()
    repo.add_message(sid, "user", "QLoRA Llama 3 70B <b>now</b>")
    repo.add_message(sid, "assistant", "ok", {"questions": ["epochs?"]})
    repo.save_state(sid, {"profile": {"epochs": 3}})
    reopened = Repository(repo.engine)  # a new process would see the same rows
    msgs = reopened.messages(sid)
    assert [(m.role, m.text) for m in msgs] == [("user", "QLoRA Llama 3 70B <b>now</b>"), ("assistant", "ok")]
    assert msgs[1].payload == {"questions": ["epochs?"]}
    assert reopened.load_state(sid) == {"profile": {"epochs": 3}}


def test_report_belongs_to_its_session_only(repo: Repository) -> None:
    sid, _ = repo.create_session()
    other, _ = repo.create_session()
    rid = repo.create_report_job(sid, {"model_id": "llama-3-70b"})
    assert repo.get_report(rid, sid) is not None
    assert repo.get_report(rid, other) is None


def test_report_job_claimed_once_and_reclaimed_when_stale(repo: Repository) -> None:
    sid, _ = repo.create_session()
    rid = repo.create_report_job(sid, {})
    job = repo.claim_report_job()
    assert job is not None and job.id == rid and job.status == "rendering" and job.attempts == 1
    assert repo.claim_report_job() is None  # fresh rendering job is not stolen
    again = repo.claim_report_job(stale_after_s=-1)  # worker crashed: job is stale
    assert again is not None and again.id == rid and again.attempts == 2
    repo.finish_report(rid, "/tmp/x.pdf")
    done = repo.get_report(rid, sid)
    assert done is not None and done.status == "done" and done.path == "/tmp/x.pdf"
    assert repo.claim_report_job(stale_after_s=-1) is None


def test_concurrent_claims_never_share_a_job(repo: Repository) -> None:
    sid, _ = repo.create_session()
    ids = {repo.create_report_job(sid, {"n": i}) for i in range(6)}
    claimed: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        while (job := repo.claim_report_job()) is not None:
            with lock:
                claimed.append(job.id)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claimed) == sorted(ids)


def test_rate_limit_counts_per_key_and_window(repo: Repository) -> None:
    hits = [repo.hit_rate_limit("client:1.2.3.4", limit=3, window_s=60, now=1000.0) for _ in range(5)]
    assert hits == [False, False, False, True, True]
    assert repo.hit_rate_limit("client:5.6.7.8", limit=3, window_s=60, now=1000.0) is False
    assert repo.hit_rate_limit("client:1.2.3.4", limit=3, window_s=60, now=1060.0) is False  # next window


def test_slack_thread_maps_to_one_session_and_events_dedupe(repo: Repository) -> None:
    a = repo.session_for_key("slack", "C1:1700000000.1")
    assert repo.session_for_key("slack", "C1:1700000000.1") == a
    assert repo.session_for_key("slack", "C1:1700000000.2") != a
    assert repo.first_time_event("Ev1") is True
    assert repo.first_time_event("Ev1") is False


def test_find_session_never_creates(repo: Repository) -> None:
    assert repo.find_session("slack", "C9:1.0") is None
    sid = repo.session_for_key("slack", "C9:1.0")
    assert repo.find_session("slack", "C9:1.0") == sid
    assert repo.find_session("web", "C9:1.0") is None


def test_user_message_stored_with_the_state_read_and_reply_saved_with_the_state(repo: Repository) -> None:
    sid, _ = repo.create_session()
    first, state = repo.add_user_message(sid, "LoRA Llama 3 8B", {"brief": "b.md"})
    assert state == {}
    reply = repo.save_reply(sid, {"turns": 1}, "ok", {"reply_to": first})
    second, state = repo.add_user_message(sid, "budget $2,000")
    assert state == {"turns": 1} and first < reply < second
    msgs = repo.messages(sid)
    assert [(m.role, m.text, m.payload) for m in msgs] == [
        ("user", "LoRA Llama 3 8B", {"brief": "b.md"}),
        ("assistant", "ok", {"reply_to": first}),
        ("user", "budget $2,000", {}),
    ]
    assert repo.load_state(sid) == {"turns": 1}


def test_rate_limit_upsert_counts_from_concurrent_threads(repo: Repository) -> None:
    results: list[bool] = []

    def hit() -> None:
        for _ in range(5):
            results.append(repo.hit_rate_limit("client:1.2.3.4", 20, 60, now=120.0))

    threads = [threading.Thread(target=hit) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count(True) == 10  # 30 hits against a limit of 20 in one window


def test_a_save_over_a_state_changed_meanwhile_conflicts_and_writes_nothing(repo: Repository) -> None:
    """Two turns of one session read the same state; the first save wins, the second raises
    StateConflict (its reply is not stored either) and succeeds once computed on the newer state."""
    from advisor.store import StateConflict

    sid, _ = repo.create_session()
    a_id, a_read = repo.add_user_message_snapshot(sid, "budget $2,000")
    b_id, b_read = repo.add_user_message_snapshot(sid, "deadline 48 hours")
    assert a_read == b_read and a_read.state == {}
    repo.save_reply(sid, {"said": ["budget"]}, "noted the budget", expected=a_read)
    with pytest.raises(StateConflict):
        repo.save_reply(sid, {"said": ["deadline"]}, "noted the deadline", expected=b_read)
    assert repo.load_state(sid) == {"said": ["budget"]}
    assert [m.text for m in repo.messages(sid) if m.role == "assistant"] == ["noted the budget"]
    fresh = repo.load_snapshot(sid)
    repo.save_reply(sid, {"said": [*fresh.state["said"], "deadline"]}, "noted the deadline", expected=fresh)
    assert repo.load_state(sid) == {"said": ["budget", "deadline"]}
    with pytest.raises(StateConflict):  # save_state compares the same way
        repo.save_state(sid, {"said": []}, expected=fresh)
    assert a_id < b_id


def test_compare_and_set_lets_exactly_one_of_many_racing_saves_win(repo: Repository) -> None:
    from advisor.store import StateConflict

    sid, _ = repo.create_session()
    read = repo.load_snapshot(sid)
    outcomes: list[str] = []
    start = threading.Barrier(6)

    def save(i: int) -> None:
        start.wait()
        try:
            repo.save_reply(sid, {"winner": i}, f"reply {i}", expected=read)
            outcomes.append("saved")
        except StateConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=save, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 5 + ["saved"]
    winner = repo.load_state(sid)["winner"]
    assert [m.text for m in repo.messages(sid)] == [f"reply {winner}"]


def test_sessions_with_payload_and_public_message_ids(repo: Repository) -> None:
    """Issue 17: the sessions a Slack user wrote in (for 'delete my data'), found on both databases, and
    the public message ids: opaque, per session, matching public_message_ids."""
    one = repo.session_for_key("slack", "C1:1.1")
    two = repo.session_for_key("slack", "C1:2.2")
    repo.add_user_message(one, "hi", {"slack_user": "U1"})
    repo.add_user_message(two, "hi", {"slack_user": "U12"})
    repo.add_user_message(two, "hi", {"slack_user": "U1", "brief_chars": 10})
    assert repo.sessions_with_payload("slack", "slack_user", "U1") == [one, two]
    assert repo.sessions_with_payload("slack", "slack_user", "U12") == [two]
    assert repo.sessions_with_payload("web", "slack_user", "U1") == []
    records = repo.messages(two)
    assert [r.public_id for r in records] == repo.public_message_ids(two, [r.id for r in records])
    assert all(len(r.public_id) == 16 and not r.public_id.isdigit() for r in records)
