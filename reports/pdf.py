"""The report as PDF through WeasyPrint: the report's stylesheet parsed once per process, and
WeasyPrint's default (user-agent) stylesheet without the rules the report never uses.

WeasyPrint is imported inside the functions that need it: its import alone costs most of a second of
every CLI start that does not write a PDF.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from reports.html import STYLESHEET, footer_css, footer_text, page_html
from reports.view import build_context
from tools.input_account import InputAccount
from tools.recommend.models import Recommendation

BASE_URL = Path(__file__).parent
"""Where relative URLs in the page resolve (the reports package)."""

# WeasyPrint's default (user-agent) stylesheet gives every element five footnote and note
# pseudo-elements and a ::marker, so each element's style is computed seven times: 8,268 style
# computations for the 1,310 elements of seed 001's report. The report has no footnotes and markers
# only on <li>: the same stylesheet with those rules dropped, and ::marker scoped to li, renders the
# same pages 11-14% faster (1,166 -> 1,001 ms and 1,209 -> 1,072 ms; bench/report_speed.py prints both).
UA_PSEUDO_ELEMENTS_UNUSED = ("footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback")


def lean_ua_stylesheet_text(ua_css: str) -> str | None:
    """WeasyPrint's default stylesheet text without the rules the report never uses, or None when the
    text no longer has the rules this expects (another WeasyPrint: keep its default stylesheet)."""
    out = ua_css
    for name in UA_PSEUDO_ELEMENTS_UNUSED:
        out, n = re.subn(rf"^::{name} \{{[^}}]*\}}\n", "", out, flags=re.M)
        if n != 1:
            return None
    out, n = re.subn(r"^::marker \{", "li::marker {", out, flags=re.M)
    return out if n == 1 else None


@lru_cache(maxsize=1)
def weasyprint_setup() -> tuple[Any, Any, Any]:
    """WeasyPrint's font configuration, the parsed report stylesheet and the HTML class to render
    with (the lean default stylesheet when this WeasyPrint's matches what it expects), built once per
    process."""
    import weasyprint  # lazy: WeasyPrint's import costs most of a second of CLI start
    from weasyprint.text.fonts import FontConfiguration  # lazy: as above

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    fonts = FontConfiguration()
    css = weasyprint.CSS(string=STYLESHEET.read_text(encoding="utf-8"), font_config=fonts)
    return fonts, css, _report_html_class(weasyprint)


def _report_html_class(weasyprint: Any) -> Any:
    """weasyprint.HTML with the lean default stylesheet, through the `_ua_stylesheets` hook WeasyPrint's
    own tests override; plain weasyprint.HTML when the hook or the stylesheet is not as expected."""
    try:
        from weasyprint import html as wp_html  # lazy: part of WeasyPrint (see weasyprint_setup)

        lean = lean_ua_stylesheet_text(wp_html.UA)
        counter_style = wp_html.UA_COUNTER_STYLE
    except (ImportError, AttributeError):
        return weasyprint.HTML
    if lean is None or not callable(getattr(weasyprint.HTML, "_ua_stylesheets", None)):
        return weasyprint.HTML
    lean_sheet = weasyprint.CSS(string=lean, counter_style=counter_style)

    class ReportHTML(weasyprint.HTML):  # type: ignore[misc]
        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [lean_sheet, wp_html.UA_FORM_STYLESHEET] if forms else [lean_sheet]

    return ReportHTML


def html_to_pdf(html: str, out_path: Path, *, footer: str | None = None, lean_ua: bool = True) -> Path:
    """HTML -> PDF with WeasyPrint; fonts are embedded (subset). `html` from render_html carries its CSS
    inline; pass `footer` with html from page_html(..., inline_css=False) to use the cached stylesheet.
    `lean_ua=False` renders with WeasyPrint's own default stylesheet (for comparison)."""
    import weasyprint  # lazy: see weasyprint_setup

    fonts, css, report_html = weasyprint_setup()
    sheets = [css]
    if footer is not None:
        sheets.append(weasyprint.CSS(string=footer_css(footer), font_config=fonts))
    html_class = report_html if lean_ua else weasyprint.HTML
    doc = html_class(string=html, base_url=str(BASE_URL))
    doc.write_pdf(str(out_path), stylesheets=sheets if footer is not None else None, font_config=fonts)
    return out_path


def render_pdf(
    rec: Recommendation,
    out_path: str | Path,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    input_account: InputAccount | None = None,
) -> Path:
    """The report as PDF (the stylesheet is parsed once per process and reused)."""
    ctx = build_context(
        rec,
        catalog=catalog,
        generated=generated,
        title=title,
        description=description,
        appendix=appendix,
        input_account=input_account,
    )
    return html_to_pdf(page_html(ctx, inline_css=False), Path(out_path), footer=footer_text(ctx))
