"""The report's front door: `render_report` writes a Recommendation as the buyer's report in one of four
formats. The pieces: reports.view (the view model, every number through tools.present),
reports.html, reports.markdown, reports.json_report and reports.pdf (WeasyPrint set-up)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Literal

from reports.html import render_html
from reports.json_report import report_json
from reports.markdown import render_markdown
from reports.pdf import render_pdf
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.recommend.models import Recommendation

Format = Literal["pdf", "html", "md", "json"]
FORMATS: tuple[str, ...] = ("pdf", "html", "md", "json")


def render_report(
    rec: Recommendation,
    fmt: str = "pdf",
    out_path: str | Path = "report.pdf",
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    input_account: InputAccount | None = None,
) -> Path:
    """Write the report for `rec` in `fmt` (pdf, html, md, json) to `out_path`; returns the path.
    `catalog` (tools.catalog.load.Catalog, the one the recommendation was made from) names GPUs and
    models and lists their spec sources. `appendix=False` leaves the calculation appendix out of
    pdf/html/md (a shorter, faster document; the JSON always carries the full trace)."""
    if fmt not in FORMATS:
        raise InputError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        raise InputError(f"output folder {out.parent} does not exist: create it or choose another -o path")
    if fmt == "json":
        document = report_json(
            rec, generated=generated, title=title, description=description, input_account=input_account
        )
        out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        return out
    if fmt == "pdf":
        return render_pdf(
            rec,
            out,
            catalog=catalog,
            generated=generated,
            title=title,
            description=description,
            appendix=appendix,
            input_account=input_account,
        )
    render = render_markdown if fmt == "md" else render_html
    text = render(
        rec,
        catalog=catalog,
        generated=generated,
        title=title,
        description=description,
        appendix=appendix,
        input_account=input_account,
    )
    out.write_text(text, encoding="utf-8")
    return out
