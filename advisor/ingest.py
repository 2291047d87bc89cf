"""Brief ingestion: an uploaded file (PDF, DOCX, Markdown, plain text, HTML) -> plain text.

Limits and checks, each failing with a one-line InputError that says what to do:
- size: at most MAX_BYTES (10 MB); empty files are refused;
- type: chosen by content, not by name: %PDF for PDF, a ZIP with word/document.xml for DOCX; a file whose
  name says one type and whose bytes say another is refused (mislabelled), as is an unknown binary;
- DOCX (a ZIP): refused before parsing when its entries would unpack to more than MAX_UNPACKED_BYTES,
  its document part to more than MAX_DOCUMENT_XML_BYTES, it holds more than MAX_ZIP_ENTRIES entries, or a
  large entry is compressed more than MAX_COMPRESSION_RATIO times (a zip bomb). The sizes are the ones the
  archive declares, and zipfile never unpacks past a declared size, so the check bounds the real work;
- PDF: encrypted files and scans without a text layer are refused (we do not OCR); at most MAX_PDF_PAGES
  pages are read and at most MAX_TEXT_CHARS characters kept;
- text: decoded as UTF-8 (with or without BOM), falling back to UTF-16 when it carries a BOM, then cp1252.

Then normalised (`normalise`), as text extracted from a PDF or DOCX needs before the extractor reads it:
lines repeated at the top or bottom of every PDF page (headers, footers, "Page 1 of 2") are removed and a
sentence running across a page break is joined again; a word hyphenated across a line break is joined
("se-/quence" -> "sequence"; "fine-/tuned" keeps its hyphen); a number split from its unit by a line break
is joined ("20/B tokens"); bullet glyphs left alone on a line are dropped.

The text is data for the extractor; nothing in it is ever treated as an instruction.
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

from advisor.extract.brief_text import normalise as normalise_text
from tools.errors import InputError

MAX_BYTES = 10 * 1024 * 1024
# Zip-bomb limits, checked on the archive's directory before anything is unpacked. A 10 MB brief with
# photos unpacks to about its own size (images do not compress); its text XML to a few MB at ~5-10x.
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_DOCUMENT_XML_BYTES = 16 * 1024 * 1024  # word/document.xml: ~2,000 pages of dense text
MAX_ZIP_ENTRIES = 2_000
MAX_COMPRESSION_RATIO = 100  # text XML reaches ~10-20x; 8,000,000 empty paragraphs reach ~460x
RATIO_CHECKED_BYTES = 1024 * 1024  # entries smaller than this unpack harmlessly whatever their ratio
MAX_PDF_PAGES = 500
MAX_TEXT_CHARS = 2_000_000  # far beyond any brief; the extractor reads the first part that matters
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
    text = normalise(_tidy(text))
    if len(text) < MIN_TEXT_CHARS:
        raise InputError(
            f"{name} has almost no text ({len(text)} characters); "
            "paste the brief as text or attach the full document"
        )  # noqa: E501
    return text


def _too_big(name: str, size: int) -> str:
    return (
        f"{name} is {_megabytes(size, MAX_BYTES)}, over the {MAX_BYTES // 1024 // 1024} MB limit; "
        "send the text of the brief or a shorter document"
    )


def _megabytes(size: int, limit: int) -> str:
    """A size in MB with as many decimals as it takes not to read as the limit itself
    (10.05 MB against 10 MB, not '10.0 MB')."""
    for decimals in (1, 2, 3):
        text = f"{size / 1024 / 1024:.{decimals}f}"
        if float(text) != limit / 1024 / 1024:
            return f"{text} MB"
    return f"{size:,} bytes"


def _check_zip_limits(z: zipfile.ZipFile, name: str) -> None:
    """Refuse an archive whose directory says it would unpack into far more than a brief."""
    entries = z.infolist()
    if len(entries) > MAX_ZIP_ENTRIES:
        raise InputError(
            f"{name} holds {len(entries):,} files inside, over the {MAX_ZIP_ENTRIES:,} a Word document "
            "needs; save it again as .docx or PDF"
        )
    unpacked = sum(e.file_size for e in entries)
    document = next((e.file_size for e in entries if e.filename == "word/document.xml"), 0)
    bomb = any(
        e.file_size > RATIO_CHECKED_BYTES and e.file_size > MAX_COMPRESSION_RATIO * max(e.compress_size, 1)
        for e in entries
    )
    if unpacked > MAX_UNPACKED_BYTES or document > MAX_DOCUMENT_XML_BYTES or bomb:
        raise InputError(
            f"{name} would unpack to {unpacked / 1024 / 1024:,.0f} MB, far more than a brief's text; "
            "save it again as .docx or PDF, or paste the text"
        )


def _sniff(data: bytes) -> str:
    """pdf | docx | zip | binary | text, from the first bytes."""
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = {e.filename for e in z.infolist()[: MAX_ZIP_ENTRIES + 1]}
                return "docx" if "word/document.xml" in names else "zip"
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
    # lazy: pypdf costs ~50 ms of every `ask`/`report` start (this module loads with the extractors)
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
        pages: list[str] = []
        chars = 0
        for page in reader.pages[:MAX_PDF_PAGES]:
            pages.append(page.extract_text() or "")
            chars += len(pages[-1])
            if chars > MAX_TEXT_CHARS:
                break
    except InputError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InputError(
            f"{name} could not be read as a PDF ({type(exc).__name__}); export it again or paste the text"
        ) from exc  # noqa: E501
    text = join_pages(strip_page_furniture(pages))[:MAX_TEXT_CHARS]
    if len(text.strip()) < MIN_TEXT_CHARS:
        raise InputError(
            f"{name} has no text layer (a scan or images only); run OCR on it or paste the brief as text"
        )
    return text


def _docx_text(data: bytes, name: str) -> str:
    import docx  # lazy: python-docx costs ~25 ms of every `ask`/`report` start; .docx briefs only

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            _check_zip_limits(z, name)
        document = docx.Document(io.BytesIO(data))
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - python-docx raises several types for broken files
        raise InputError(
            f"{name} could not be read as a Word document; save it again as .docx or PDF"
        ) from exc
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.append(" | ".join(cell.text.strip() for cell in row.cells))
    return "\n".join(parts)[:MAX_TEXT_CHARS]


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


# --------------------------------------------------------------------------- normalisation
FURNITURE_EDGE_LINES = 3  # a header or footer sits within this many lines of a page's top or bottom
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^-\s*\d{1,4}\s*-$", re.I)
_UNIT_AFTER = (
    r"(?:[kKMBT]|bn|mn|thousand|million|billion|trillion|tokens?|parameters|params|GB|TB|GiB|MB|%|hours?|"
    r"days?|weeks?|months?|epochs?|users)\b(?!\s*:)"  # not a "key: value" line's key
)
_NUMBER_BREAK = re.compile(rf"(\d)[ \t]*\n[ \t]*(?={_UNIT_AFTER})")
_MULT_BREAK = re.compile(
    r"(\d[ \t]?(?:[kKMBT]|bn|mn|thousand|million|billion|trillion))[ \t]*\n[ \t]*"
    r"(?=(?:tokens?|parameters|params|words|rows|examples|samples)\b)"
)
_ENDS_SENTENCE = re.compile(r"[.!?:;)\]]\s*$")


def strip_page_furniture(pages: list[str]) -> list[str]:
    """Pages without their headers and footers: a line (whitespace collapsed) near the top or bottom of
    two or more pages, and page numbers ("Page 1 of 2", "- 3 -") near either edge."""
    split = [[" ".join(line.split()) for line in page.splitlines()] for page in pages]
    seen: dict[str, int] = {}
    for lines in split:
        kept = [x for x in lines if x]
        for line in set(kept[:FURNITURE_EDGE_LINES] + kept[-FURNITURE_EDGE_LINES:]):
            seen[line] = seen.get(line, 0) + 1
    repeated = {line for line, n in seen.items() if n >= 2} if len(pages) >= 2 else set()
    out = []
    for lines in split:
        body = [x for x in lines if x]
        edge = set(body[:FURNITURE_EDGE_LINES] + body[-FURNITURE_EDGE_LINES:])
        out.append("\n".join(x for x in body if not (x in edge and (x in repeated or _PAGE_NUMBER.match(x)))))
    return out


def join_pages(pages: list[str]) -> str:
    """Pages joined by a blank line, except where a sentence runs on across the break (the page ends
    without closing punctuation and the next starts in lower case or with a number's unit)."""
    text = ""
    for page in pages:
        page = page.strip()
        if not page:
            continue
        runs_on = text and not _ENDS_SENTENCE.search(text) and re.match(rf"[a-z]|{_UNIT_AFTER}", page)
        text = f"{text}\n{page}" if runs_on else (f"{text}\n\n{page}" if text else page)
    return text


def normalise(text: str) -> str:
    """Brief text as the extractor should read it (see the module docstring): words hyphenated across a
    line break joined, numbers kept with their unit, lone bullet glyphs dropped."""
    text = normalise_text(text)  # hyphenation and bullets: the one rule set the extractor also uses
    text = _MULT_BREAK.sub(r"\1 ", text)
    return _NUMBER_BREAK.sub(r"\1 ", text)
