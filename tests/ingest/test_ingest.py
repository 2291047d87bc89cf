"""Brief ingestion: formats, limits, and a clear one-line message for every file we refuse."""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from advisor.ingest import MAX_BYTES, html_to_text, read_brief
from tools.errors import InputError


def one_line(exc: pytest.ExceptionInfo[InputError]) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 240
    return msg


# --------------------------------------------------------------------------- formats
def test_pdf_text_layer(text_pdf: bytes, tmp_path: Path) -> None:
    path = tmp_path / "brief.pdf"
    path.write_bytes(text_pdf)
    text = read_brief(path)
    assert "Llama 3.1 8B with LoRA on 30M tokens" in text and "within two weeks" in text
    assert read_brief(text_pdf, "upload.pdf") == text


def test_pdf_with_only_an_owner_password_opens(text_pdf: bytes, encryptor: Callable[..., bytes]) -> None:
    text = read_brief(encryptor(text_pdf, user_password=""), "protected.pdf")
    assert "LoRA" in text


def test_docx_paragraphs_and_tables(docx_bytes: bytes) -> None:
    text = read_brief(docx_bytes, "brief.docx")
    assert "200 concurrent users" in text
    assert "Budget | $40,000" in text and "EU only" in text


def test_markdown_and_text_are_read_as_is(tmp_path: Path) -> None:
    md = tmp_path / "brief.md"
    md.write_text("# Brief\n\nLoRA on **Mistral 7B**, 3 epochs.\n", encoding="utf-8")
    assert read_brief(md) == "# Brief\n\nLoRA on **Mistral 7B**, 3 epochs."
    assert "café" in read_brief("Budget for the café chatbot: €2,000".encode("cp1252"), "notes.txt")
    assert "Mistral" in read_brief("\ufeffLoRA on Mistral 7B, 3 epochs".encode("utf-16"), "brief.txt")


def test_html_keeps_visible_text_only() -> None:
    page = (
        b"<!doctype html><html><head><title>Brief</title><style>p{color:red}</style></head><body>"
        b"<p>LoRA on <b>Mistral 7B</b> &amp; 50k examples</p><!-- budget is $1 --><script>var b=1</script>"
        b"<ul><li>3 epochs</li><li>S3 us-west-2</li></ul></body></html>"
    )
    text = read_brief(page, "brief.html")
    assert "LoRA on Mistral 7B & 50k examples" in text
    assert "- 3 epochs" in text and "Brief" in text
    assert "budget" not in text and "var b" not in text and "color" not in text


def test_html_without_suffix_is_detected() -> None:
    assert "Hello brief" in read_brief(b"<html><body><p>Hello brief, LoRA please</p></body></html>", "upload")


def test_html_to_text_block_structure() -> None:
    assert html_to_text("<h1>A</h1><p>b</p>").split() == ["A", "b"]


def test_the_ingested_brief_feeds_the_extractor(text_pdf: bytes) -> None:
    from advisor.extract.rules import RulesExtractor

    p = RulesExtractor().extract(read_brief(text_pdf, "brief.pdf"))
    assert (p.model_id, p.method, p.dataset_tokens, p.eu_only, p.budget_usd) == (
        "llama-3.1-8b", "lora", 3e7, True, 4000)  # fmt: skip


# --------------------------------------------------------------------------- refusals
def test_encrypted_pdf(text_pdf: bytes, encryptor: Callable[..., bytes]) -> None:
    with pytest.raises(InputError) as exc:
        read_brief(encryptor(text_pdf, user_password="secret"), "locked.pdf")
    assert "password" in one_line(exc)


def test_image_only_pdf(blank_pdf: bytes) -> None:
    with pytest.raises(InputError) as exc:
        read_brief(blank_pdf, "scan.pdf")
    assert "no text layer" in one_line(exc) and "OCR" in str(exc.value)


def test_broken_pdf() -> None:
    with pytest.raises(InputError) as exc:
        read_brief(b"%PDF-1.4\nthis is not really a pdf at all\n", "broken.pdf")
    one_line(exc)


@pytest.mark.parametrize("data", [b"", b"   \n\t  "])
def test_empty_file(data: bytes) -> None:
    with pytest.raises(InputError) as exc:
        read_brief(data, "empty.txt")
    assert "empty" in one_line(exc)


def test_too_little_text() -> None:
    with pytest.raises(InputError) as exc:
        read_brief(b"hi", "short.md")
    assert "almost no text" in one_line(exc)


def test_over_the_size_limit(tmp_path: Path) -> None:
    big = b"a" * (MAX_BYTES + 1)
    with pytest.raises(InputError) as exc:
        read_brief(big, "huge.txt")
    assert "10 MB limit" in one_line(exc)
    path = tmp_path / "huge.md"
    path.write_bytes(big)
    with pytest.raises(InputError, match="10 MB limit"):
        read_brief(path)


def test_text_named_pdf_is_mislabelled() -> None:
    with pytest.raises(InputError) as exc:
        read_brief(b"Just some text pretending to be a PDF file.", "brief.pdf")
    assert "named .pdf but contains plain text" in one_line(exc)


def test_pdf_named_docx_is_mislabelled(text_pdf: bytes) -> None:
    with pytest.raises(InputError) as exc:
        read_brief(text_pdf, "brief.docx")
    assert "named .docx but contains a PDF" in one_line(exc)


def test_zip_that_is_not_a_word_document() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("notes.txt", "LoRA on Mistral 7B")
    with pytest.raises(InputError, match="ZIP archive"):
        read_brief(buf.getvalue(), "brief.docx")
    with pytest.raises(InputError, match="ZIP archive"):
        read_brief(buf.getvalue(), "brief.zip")


def test_binary_and_image_files() -> None:
    with pytest.raises(InputError, match="binary"):
        read_brief(b"\x00\x01\x02\x03" * 100, "data.txt")
    with pytest.raises(InputError, match="image"):
        read_brief(b"plain text that claims to be a picture", "scan.png")


def test_old_word_format() -> None:
    with pytest.raises(InputError, match=r"\.docx"):
        read_brief(b"some text content of an old word file", "brief.doc")


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_brief(tmp_path / "nope.pdf")


def test_pdf_maker_round_trip(pdf_maker: Any) -> None:
    assert read_brief(pdf_maker(["x" * 30]), "a.pdf").startswith("xxx")


# --------------------------------------------------------------------------- zip bombs and limits (issue 17)
_DOCX_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
)


def _bomb_docx(paragraphs: int) -> bytes:
    """A .docx whose document part holds `paragraphs` empty paragraphs: ~100 KB packed for 8,000,000."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(_DOCX_HEAD.encode())
            chunk = b"<w:p/>" * 100_000
            for _ in range(paragraphs // 100_000):
                part.write(chunk)
            part.write(b"</w:body></w:document>")
    return buf.getvalue()


def test_a_docx_zip_bomb_is_refused_before_parsing() -> None:
    bomb = _bomb_docx(8_000_000)
    assert len(bomb) < 200_000  # the 104 KB file, give or take the compressor
    tracemalloc.start()
    with pytest.raises(InputError) as exc:
        read_brief(bomb, "notes.docx")
    _, peak_bytes = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert "would unpack to 46 MB" in one_line(exc)
    assert peak_bytes < 5 * 1024 * 1024  # only the archive's directory was read (parsing took 2.7 GB)


def test_a_docx_with_too_many_entries_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", _DOCX_HEAD + "</w:body></w:document>")
        for i in range(2_001):
            z.writestr(f"word/media/x{i}.bin", b"")
    with pytest.raises(InputError) as exc:
        read_brief(buf.getvalue(), "many.docx")
    assert "2,002 files inside" in one_line(exc)


def test_a_highly_compressed_large_part_is_refused_even_under_the_size_limits() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", _DOCX_HEAD + "</w:body></w:document>")
        z.writestr("word/media/pad.bin", b"\0" * (4 * 1024 * 1024))  # ~1000x: no real file does that
    with pytest.raises(InputError, match="would unpack to 4 MB"):
        read_brief(buf.getvalue(), "padded.docx")


def test_a_size_just_over_the_limit_does_not_read_as_the_limit() -> None:
    over = b"a" * (MAX_BYTES + 50 * 1024)  # 10.05 MB
    with pytest.raises(InputError) as exc:
        read_brief(over, "big.txt")
    assert "is 10.05 MB, over the 10 MB limit" in one_line(exc)
