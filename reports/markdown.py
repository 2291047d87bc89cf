"""The report as Markdown: the same sections and the same formatted numbers as the PDF, no charts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from reports.jinja_env import environment
from reports.view import build_context
from tools.input_account import InputAccount
from tools.recommend.models import Recommendation


def render_markdown(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    input_account: InputAccount | None = None,
) -> str:
    """The report as Markdown: same sections and the same formatted numbers, no charts."""
    ctx = build_context(
        rec,
        catalog=catalog,
        generated=generated,
        title=title,
        description=description,
        appendix=appendix,
        input_account=input_account,
    )
    return environment().get_template("report.md.j2").render(**ctx)
