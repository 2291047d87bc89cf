"""Brief uploads: type from content, size and page limits with clear messages, brief stored."""

from __future__ import annotations

import io
from typing import Any

import pytest

from advisor.web.security import safe_filename

BRIEF = b"""# Project brief

We want to fine-tune Llama 3 8B with LoRA on about 50M tokens of support tickets, 3 epochs.
Our budget is $2,000 and the data sits in us-east-1.
"""


def blank_pdf(pages: int) -> bytes:
    from pypdf import PdfWriter

    w = PdfWriter()
    for _ in range(pages):
        w.add_blank_page(width=612, height=792)
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def test_markdown_brief_feeds_the_conversation(api: Any, repo: Any) -> None:
    r = api.post("/brief", files={"file": ("brief.md", BRIEF, "text/markdown")}, data={"text": "size this"})
    assert r.status_code == 200, r.text
    turn = r.json()
    assert turn["brief"]["filename"] == "brief.md"
    stated = {row["field"]: row["value"] for row in turn["profile"] if row["status"] == "stated"}
    assert stated["model_id"] == "llama-3-8b" and "2,000" in stated["budget_usd"]
    assert turn["recommendation"]["primary"] is not None
    assert repo.briefs(api.session_id)[0][0] == "brief.md"
    user = api.get("/messages").json()[0]
    assert user["brief"] == "brief.md" and user["text"] == "size this"


def test_type_is_sniffed_from_content_not_name(api: Any) -> None:
    # a PDF name on text content: refused as mislabelled, with what to do
    r = api.post("/brief", files={"file": ("brief.pdf", BRIEF, "application/pdf")})
    assert r.status_code == 422
    assert "brief.pdf" in r.json()["detail"]
    # binary content with a text name
    r = api.post("/brief", files={"file": ("notes.txt", bytes(range(256)) * 40, "text/plain")})
    assert r.status_code == 422 and "binary" in r.json()["detail"]
    # a text brief named .exe-less random name still works by content
    r = api.post("/brief", files={"file": ("brief", BRIEF, "application/octet-stream")})
    assert r.status_code == 200


def test_page_limit_message(make_client: Any, open_session: Any) -> None:
    from advisor.web.settings import WebSettings

    client = make_client(settings=WebSettings(render_in_subprocess=False, max_brief_pages=5))
    api = open_session(client)
    r = api.post("/brief", files={"file": ("long.pdf", blank_pdf(6), "application/pdf")})
    assert r.status_code == 422
    assert "6 pages" in r.json()["detail"] and "5-page limit" in r.json()["detail"]
    r = api.post("/brief", files={"file": ("scan.pdf", blank_pdf(2), "application/pdf")})
    assert r.status_code == 422 and "text" in r.json()["detail"]  # within the limit but no text layer


def test_size_limit_message(api: Any) -> None:
    from advisor.ingest import MAX_BYTES

    r = api.post("/brief", files={"file": ("huge.md", b"a" * (MAX_BYTES + 10), "text/markdown")})
    assert r.status_code == 413
    assert "10 MB" in r.json()["detail"]


def test_empty_file_message(api: Any) -> None:
    r = api.post("/brief", files={"file": ("empty.md", b"", "text/markdown")})
    assert r.status_code == 422 and "empty" in r.json()["detail"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\brief.docx", "brief.docx"),
        ('<script>"x".md', "script_x_.md"),
        ("", "brief"),
        ("\x00\x1b.md", "md"),
    ],
)
def test_safe_filename(raw: str, expected: str) -> None:
    assert safe_filename(raw) == expected
