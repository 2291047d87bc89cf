"""Issue 17: a user deletes their conversation (messages, briefs, reports and the PDF files); retention
purges old ones; report files are 0600; /api/docs is Swagger UI from the installed package, offline,
integrity-checked and sandboxed."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import re
import stat
from pathlib import Path

import swagger_ui_bundle
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


def test_api_docs_are_bundled_integrity_checked_sandboxed_and_without_inline_script(tmp_path: Path) -> None:
    client, _repo = _client(tmp_path)
    with client:
        r = client.get("/api/docs")
        assets = {
            src: client.get(src)
            for src in re.findall(r'(?:src|href)="(/api/docs/assets/[^"]+)"', r.text)
        }
        schema = client.get("/api/docs/openapi.json")
        missing = client.get("/api/docs/assets/..%2Fsettings.py")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert csp.startswith("sandbox allow-scripts;") and "allow-same-origin" not in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "script-src 'self'" in csp
    tags = re.findall(r"<(?:script|link)\b[^>]*>", r.text)
    assert len(tags) == 3 and all('integrity="sha384-' in t and 'crossorigin="anonymous"' in t for t in tags)
    assert re.search(r"<script>|<script [^>]*>[^<]", r.text) is None  # no inline script
    assert "http" not in re.sub(r'href="/api/openapi.json"', "", r.text.split("<noscript>")[0])
    bundle = Path(str(swagger_ui_bundle.swagger_ui_path)) / "swagger-ui-bundle.js"
    served = assets["/api/docs/assets/swagger-ui-bundle.js"]
    assert served.content == bundle.read_bytes()  # from the installed package, not a copy
    for src, asset in assets.items():
        digest = base64.b64encode(hashlib.sha384(asset.content).digest()).decode()
        assert f'"{src}" integrity="sha384-{digest}"' in r.text
        assert asset.headers["access-control-allow-origin"] == "*"  # readable from the sandbox
    assert missing.status_code == 404
    # Swagger UI 4 reads OpenAPI 3.0: the docs' copy is written as 3.0, every 3.1 null type rewritten
    assert schema.json()["openapi"] == "3.0.3" and '"type": "null"' not in json.dumps(schema.json())
    assert '"contentMediaType"' not in json.dumps(schema.json())
    # without script, the page still shows the reference
    assert "DELETE</span> <code>/api/sessions/{session_id}</code>" in r.text.split("<noscript>")[1]


def test_the_docs_link_opens_apart_from_the_page(tmp_path: Path) -> None:
    client, _repo = _client(tmp_path)
    with client:
        page = client.get("/").text
    assert '<a href="/api/docs" target="_blank" rel="noopener noreferrer">' in page
