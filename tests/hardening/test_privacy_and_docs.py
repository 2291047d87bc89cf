"""Issue 17: a user deletes their conversation (messages, briefs, reports and the PDF files); retention
purges old ones; report files are 0600; /api/docs works offline with no script under the strict CSP."""

from __future__ import annotations

import datetime as dt
import stat
from pathlib import Path

from fastapi.testclient import TestClient

from advisor.store import Repository, open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings
from advisor.web.worker import ReportWorker, render_profile_pdf, report_path
from tests.web.conftest import new_api


def _client(tmp_path: Path) -> tuple[TestClient, Repository]:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    settings = WebSettings(render_in_subprocess=False, report_poll_s=0.05, turn_processes=0)
    app = create_app(repo=repo, reports_dir=tmp_path / "reports", settings=settings)
    return TestClient(app), repo


def test_delete_removes_the_conversation_its_briefs_reports_and_pdf(tmp_path: Path) -> None:
    client, repo = _client(tmp_path)
    with client:
        api = new_api(client)
        assert api.say("LoRA Llama 3 8B, 50M tokens, 1 epoch").status_code == 200
        notes = ("notes.md", b"# Patient notes\nLoRA 8B, 20M tokens", "text/markdown")
        up = api.post("/brief", files={"file": notes})
        assert up.status_code == 200, up.text
        report_id = api.post("/reports").json()["report_id"]
        assert api.wait_report(report_id)["status"] == "done"
        pdf = report_path(tmp_path / "reports", report_id)
        assert pdf.is_file() and stat.S_IMODE(pdf.stat().st_mode) == 0o600
        gone = client.delete(api.base, headers=api.auth)
        assert gone.status_code == 200 and gone.json()["reports"] == 1, gone.text
        assert not pdf.exists()
        assert api.get().status_code == 404  # the session, token and all, is gone
        assert repo.messages(api.session_id) == [] and repo.briefs(api.session_id) == []
        assert repo.reports(api.session_id) == []


def test_delete_needs_the_sessions_token(tmp_path: Path) -> None:
    client, _repo = _client(tmp_path)
    with client:
        api = new_api(client)
        other = new_api(client)
        assert client.delete(api.base, headers=other.auth).status_code == 404
        assert api.get().status_code == 200


def test_retention_purges_conversations_untouched_for_longer(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    old, _t = repo.create_session()
    new, _t = repo.create_session()
    report_id = repo.create_report_job(old, {})
    (tmp_path / "reports").mkdir()
    report_path(tmp_path / "reports", report_id).write_bytes(b"%PDF-1.7\n%%EOF\n")
    assert repo.purge_older_than(30) == (0, [])  # both are new today
    count, ids = repo.purge_older_than(30, now=dt.datetime.now(dt.UTC) + dt.timedelta(days=31))
    assert (count, ids) == (2, [report_id]) and not repo.exists(old) and not repo.exists(new)
    worker = ReportWorker(repo, tmp_path / "reports", retention_days=30)
    assert worker.purge() == 0


def test_a_rendered_report_file_is_owner_only(tmp_path: Path) -> None:
    out = Path(render_profile_pdf({"model_id": "llama-3-8b", "method": "lora", "dataset_tokens": 5e7},
                                  str(tmp_path / "r.pdf")))  # fmt: skip
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_api_docs_are_offline_script_free_and_under_the_strict_csp(tmp_path: Path) -> None:
    client, _repo = _client(tmp_path)
    with client:
        r = client.get("/api/docs")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "script-src 'self'" in csp and "cdn" not in csp
    assert "<script" not in r.text and "http" not in r.text.replace("/api/openapi.json", "")
    assert "DELETE</span> <code>/api/sessions/{session_id}</code>" in r.text
    assert "/api/sessions/{session_id}/messages" in r.text


def test_the_docs_link_opens_apart_from_the_page(tmp_path: Path) -> None:
    client, _repo = _client(tmp_path)
    with client:
        page = client.get("/").text
    assert '<a href="/api/docs" target="_blank" rel="noopener noreferrer">' in page
