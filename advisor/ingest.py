"""Brief ingestion: an uploaded file (PDF, DOCX, Markdown, plain text, HTML) -> plain text.

Limits and checks, each failing with a one-line InputError that says what to do:
- size: at most MAX_BYTES (10 MB); empty files are refused;
- type: chosen by content, not by name: %PDF for PDF, a ZIP with word/document.xml for DOCX; a file whose
  name says one type and whose bytes say another is refused (mislabelled), as is an unknown binary;
- PDF: encrypted files and scans without a text layer are refused (we do not OCR);
- text: decoded as UTF-8 (with or without BOM), falling back to UTF-16 when it carries a BOM, then cp1252.

The text is data for the extractor; nothing in it is ever treated as an instruction.
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

from tools.errors import InputError

MAX_BYTES = 10 * 1024 * 1024
MIN_TEXT_CHARS = 20  # fewer extracted characters than this: treat the document as having no text
TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".text", "")
HTML_SUFFIXES = (".html", ".htm")
SUPPORTED = ".pdf, .docx, .md, .txt, .html"


def read_brief(source: str | Path | bytes, filename: str | None = None) -> str:
    """Plain text of a brief given as a path, or as bytes with their file name."""
    if isinstance(source, bytes):
        data, name = source, filename or "brief.txt"
    else:
        path = Path(source)
        name = filename or path.name
        if not path.is_file():
            raise InputError(f"brief file not found: {path}; check the path")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(_too_big(name, size))
        data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise InputError(_too_big(name, len(data)))
    if not data.strip():
        raise InputError(f"{name} is empty; attach a brief with some text in it")
    kind = _sniff(data)
    suffix = Path(name).suffix.lower()
    _check_label(name, suffix, kind)
    if kind == "pdf":
        text = _pdf_text(data, name)
    elif kind == "docx":
        text = _docx_text(data, name)
    elif kind == "zip":
        raise InputError(
            f"{name} is a ZIP archive, not a Word document; upload a .docx, .pdf, .md, .txt or .html file"
        )
    elif kind == "binary":
        raise InputError(f"{name} is not a text document (binary content); upload a {SUPPORTED} file")
    else:
        text = _decode(data, name)
        if suffix in HTML_SUFFIXES or (suffix not in (".md", ".markdown", ".txt") and _looks_html(text)):
            text = html_to_text(text)
    text = _tidy(text)
    if len(text) < MIN_TEXT_CHARS:
        raise InputError(
            f"{name} has almost no text ({len(text)} characters); "
            "paste the brief as text or attach the full document"
        )  # noqa: E501
    return text


def _too_big(name: str, size: int) -> str:
    return (
        f"{name} is {size / 1024 / 1024:.1f} MB, over the {MAX_BYTES // 1024 // 1024} MB limit; "
        "send the text of the brief or a shorter document"
    )


def _sniff(data: bytes) -> str:
    """pdf | docx | zip | binary | text, from the first bytes."""
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                return "docx" if "word/document.xml" in z.namelist() else "zip"
        except zipfile.BadZipFile:
            return "binary"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "text"  # UTF-16 with BOM
    sample = data[:4096]
    if b"\x00" in sample:
        return "binary"
    controls = sum(b < 9 or 13 < b < 32 for b in sample)
    return "binary" if controls > len(sample) * 0.05 else "text"


def _check_label(name: str, suffix: str, kind: str) -> None:
    expected = {".pdf": "pdf", ".docx": "docx"}.get(suffix)
    if expected and kind != expected:
        what = {"pdf": "a PDF", "docx": "a Word document", "zip": "a ZIP archive", "binary": "binary data",
                "text": "plain text"}[kind]  # fmt: skip
        raise InputError(
            f"{name} is named {suffix} but contains {what}; "
            f"save it again as a real {suffix} file or rename it"
        )
    if suffix == ".doc":
        raise InputError(f"{name} is an old Word .doc file; save it as .docx or PDF and upload it again")
    if suffix in (".png", ".jpg", ".jpeg", ".gif", ".tiff", ".bmp", ".webp"):
        raise InputError(
            f"{name} is an image; we do not read text from images, paste the brief as text instead"
        )


def _pdf_text(data: bytes, name: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            ok: bool
            try:
                ok = bool(reader.decrypt(""))  # owner-password-only PDFs open with an empty user password
            except Exception:  # noqa: BLE001 - missing crypto backend or unsupported scheme
                ok = False
            if not ok:
                raise InputError(
                    f"{name} is password-protected; remove the password (print to PDF) and upload it again"
                )
        pages = [page.extract_text() or "" for page in reader.pages]
    except InputError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InputError(
            f"{name} could not be read as a PDF ({type(exc).__name__}); export it again or paste the text"
        ) from exc  # noqa: E501
    text = "\n\n".join(pages)
    if len(text.strip()) < MIN_TEXT_CHARS:
        raise InputError(
            f"{name} has no text layer (a scan or images only); run OCR on it or paste the brief as text"
        )
    return text


def _docx_text(data: bytes, name: str) -> str:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - python-docx raises several types for broken files
        raise InputError(
            f"{name} could not be read as a Word document; save it again as .docx or PDF"
        ) from exc
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.append(" | ".join(cell.text.strip() for cell in row.cells))
    return "\n".join(parts)


def _decode(data: bytes, name: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _looks_html(text: str) -> bool:
    head = text[:2000].lower()
    return "<html" in head or "<!doctype html" in head or ("<body" in head and "</" in head)


class _TextParser(HTMLParser):
    """Visible text of an HTML document: scripts, styles, templates and comments are dropped."""

    BLOCKS = frozenset(
        {"p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article", "h1", "h2", "h3", "h4",
         "h5", "h6", "header", "footer", "blockquote", "pre", "hr", "title"}
    )  # fmt: skip
    HIDDEN = frozenset({"script", "style", "template", "noscript", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0
        self._title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._title = True
        elif tag in self.HIDDEN:
            self._hidden += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag == "li":
            self.parts.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._title = False
            self.parts.append("\n\n")
        elif tag in self.HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._title or not self._hidden:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Visible text of HTML, one block per line (stdlib html.parser)."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    return html.unescape("".join(parser.parts))


def _tidy(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = re.sub(r"[ \t\f\v]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
