"""Issue 17: an uploaded brief is parsed in a child process under a memory and a time cap, so one file
cannot hold the server's memory or CPU: a 68 KB PDF whose one content stream unpacks to 70 MB takes ~20 s
of pypdf's content parsing when read in the web process; under the caps it is refused in one line, fast,
and the web process does not grow."""

from __future__ import annotations

import time
import zlib
from pathlib import Path

import psutil
import pytest
from fastapi.testclient import TestClient

from advisor.ingest_capped import UploadLimits, read_upload
from advisor.store import open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings
from tests.web.conftest import new_api
from tools.errors import InputError

FONT = b"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"


def pdf_with_one_page(content: bytes) -> bytes:
    """A one-page PDF whose page content stream is `content`, Flate-compressed."""
    packed = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources " + FONT + b" >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


TEXT = b"BT /F1 12 Tf 72 712 Td (LoRA fine-tune Llama 3 8B on 20M tokens) Tj ET\n"
HOSTILE = pdf_with_one_page(TEXT + b" " * 70_000_000)  # 70 MB of content stream in ~68 KB


def test_a_small_pdf_reads_in_the_child() -> None:
    assert "Llama 3 8B" in read_upload(pdf_with_one_page(TEXT), "ok.pdf", 200)


def test_a_parse_over_the_memory_cap_is_refused_in_one_line() -> None:
    with pytest.raises(InputError) as refused:
        read_upload(HOSTILE, "hostile.pdf", 200, UploadLimits(memory_mib=32))
    assert str(refused.value).startswith("hostile.pdf needs more than 32 MiB of memory to read")
    assert "\n" not in str(refused.value)


def test_a_parse_over_the_time_cap_is_stopped(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    limits = UploadLimits(time_s=2.0)
    settings = WebSettings(render_in_subprocess=False, turn_processes=0, upload_limits=limits)
    server = psutil.Process()
    with TestClient(create_app(repo=repo, reports_dir=tmp_path / "reports", settings=settings)) as client:
        api = new_api(client)
        read_upload(pdf_with_one_page(TEXT), "warm.pdf", 200, limits)  # the fork server is up
        rss_before = server.memory_info().rss
        started, started_epoch = time.perf_counter(), time.time()
        r = api.post("/brief", files={"file": ("hostile.pdf", HOSTILE, "application/pdf")})
        took_s = time.perf_counter() - started
        grew_mb = (server.memory_info().rss - rss_before) / 1e6
        assert r.status_code == 422, r.text
        assert r.json()["detail"] == (
            "hostile.pdf took over 2 s to read and was stopped; upload a shorter or simpler document, "
            "or paste its text"
        )
        assert took_s < 5.0 and grew_mb < 50, (took_s, grew_mb)
        assert api.say("LoRA Llama 3 8B, 20M tokens").status_code == 200  # the server carries on
        time.sleep(0.5)  # the fork server reaps its killed child
        left = [
            p
            for p in server.children(recursive=True)
            if p.create_time() >= started_epoch - 0.01 and p.status() != psutil.STATUS_ZOMBIE
        ]
        assert left == []  # the parse's child was killed with its work
