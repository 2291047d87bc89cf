"""The report as HTML: one self-contained document (CSS and SVG inline), or the page WeasyPrint turns
into the PDF with the stylesheet it has parsed once (reports.pdf)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from reports.jinja_env import environment
from reports.view import build_context
from tools.input_account import InputAccount
from tools.recommend.models import Recommendation

STYLES = Path(__file__).parent / "styles"
STYLESHEET = STYLES / "report.css"


def _css_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def footer_css(footer: str) -> str:
    """The @page rule that prints `footer` at the bottom left of every page."""
    return "@page { @bottom-left { content: " + _css_string(footer) + "; } }\n"


def footer_text(ctx: dict[str, Any]) -> str:
    """The running footer: generation time and catalog price dates (page numbers come from CSS)."""
    return f"Generated {ctx['generated']} · catalog prices as of {ctx['catalog_date']}"


def page_html(ctx: dict[str, Any], inline_css: bool) -> str:
    """The HTML page for a context from build_context; with `inline_css` it carries its stylesheet."""
    css = ""
    if inline_css:
        css = STYLESHEET.read_text(encoding="utf-8") + "\n" + footer_css(footer_text(ctx))
    return environment().get_template("report.html.j2").render(css=css, **ctx)


def render_html(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    input_account: InputAccount | None = None,
) -> str:
    """The report as one self-contained HTML document (CSS and SVG inline)."""
    return page_html(
        build_context(
            rec,
            catalog=catalog,
            generated=generated,
            title=title,
            description=description,
            appendix=appendix,
            input_account=input_account,
        ),
        inline_css=True,
    )
