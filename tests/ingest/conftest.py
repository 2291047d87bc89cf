"""Small documents made on the fly: PDFs (text, blank, encrypted), DOCX, HTML."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest


def make_pdf(lines: list[str]) -> bytes:
    """A minimal, valid one-page PDF whose text layer holds `lines` (Helvetica, WinAnsi)."""
    ops = ["BT", "/F1 11 Tf", "72 740 Td", "14 TL"]
    for line in lines:
        esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"({esc}) Tj T*")
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


BRIEF_LINES = [
    "Project brief: fine-tune Llama 3.1 8B with LoRA on 30M tokens.",
    "Data must stay in the EU. Budget: $4,000. We need it within two weeks.",
]


@pytest.fixture
def text_pdf() -> bytes:
    return make_pdf(BRIEF_LINES)


@pytest.fixture
def blank_pdf() -> bytes:
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_blank_page(width=612, height=792)
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def encrypt_pdf(data: bytes, user_password: str, owner_password: str = "owner") -> bytes:
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    w.encrypt(user_password=user_password, owner_password=owner_password, algorithm="RC4-128")
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


@pytest.fixture
def pdf_maker() -> Callable[[list[str]], bytes]:
    return make_pdf


@pytest.fixture
def encryptor() -> Callable[..., bytes]:
    return encrypt_pdf


@pytest.fixture
def docx_bytes() -> bytes:
    import docx

    d = docx.Document()
    d.add_heading("Serving brief", level=1)
    d.add_paragraph("We need to serve Qwen2.5 72B to 200 concurrent users with 8k context.")
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Budget"
    table.cell(0, 1).text = "$40,000"
    table.cell(1, 0).text = "Region"
    table.cell(1, 1).text = "EU only"
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()
