"""Writing a report: a profile -> the recommendation -> a report file (pdf, html, md, json), the one step
every front end ends in (the report command, the chat's `report`, the MCP toolkit, Slack, the web's report
worker); and the folder reports go to, looked up here once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from advisor.extract.question_answers import answered_questions
from advisor.service.recommending import default_catalog, recommend_for
from reports.render import render_report
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile
from tools.recommend.models import RecommendSettings

FORMATS = ("pdf", "html", "md", "json")
_SUFFIX_FORMAT = {
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".json": "json",
}
REPORTS_DIR_ENV = "GPU_ADVISOR_REPORTS_DIR"
OTHER_DOCUMENT_SUFFIXES = (
    ".docx", ".doc", ".odt", ".rtf", ".pages", ".xlsx", ".xls", ".pptx", ".txt", ".png",
)  # fmt: skip
"""File types a reader would expect a report in that it cannot be written as: refused by name rather than a
PDF written under that name (other suffixes, '.out', '.report', read as pdf)."""


def resolve_format(fmt: str | None, out: Path) -> str:
    """--format if given, else from the output file's suffix, else pdf."""
    if fmt is not None:
        f = fmt.lower().strip()
        if f not in FORMATS:
            raise InputError(f"unknown --format {fmt!r}: use one of {', '.join(FORMATS)}")
        return f
    suffix = out.suffix.lower()
    if suffix in OTHER_DOCUMENT_SUFFIXES:
        raise InputError(
            f"{out.name}: a report cannot be written as {suffix}; name it {out.stem}.pdf "
            "(or .html, .md, .json)"
        )
    return _SUFFIX_FORMAT.get(suffix, "pdf")


def write_report(
    profile: WorkloadProfile | None,
    out: str | Path,
    *,
    fmt: str | None = None,
    prices: str | Path | None = None,
    settings: RecommendSettings | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    recommendation: Any = None,
    input_account: InputAccount | None = None,
) -> Path:
    """Profile -> recommendation -> report file; returns the path written. `description` is the user's
    own words (a profile file's description, the text of a request or brief), printed in the workload
    section. `recommendation`: one already computed (a conversation's, made on the bundled catalog),
    rendered as it is; otherwise the recommender runs on `profile` (+ `prices`, `settings`).
    `input_account`: what the request held that gave no fact, listed in the workload section."""
    out_path = Path(out)
    f = resolve_format(fmt, out_path)
    if recommendation is not None:
        catalog: Any = default_catalog()
    elif profile is None:
        raise InputError("nothing to report: give a workload profile")
    else:
        recommendation, catalog = recommend_for(profile, prices=prices, settings=settings)
    input_account = answered_questions(input_account, recommendation)
    return render_report(
        recommendation,
        f,
        out_path,
        catalog=catalog,
        title=title,
        description=description,
        appendix=appendix,
        input_account=input_account,
    )


def reports_folder() -> Path:
    """GPU_ADVISOR_REPORTS_DIR, else the data directory's reports/ (created if missing)."""
    raw = os.environ.get(REPORTS_DIR_ENV)
    if raw:
        folder = Path(raw)
    else:
        # lazy: advisor.store loads SQLAlchemy (~0.2 s), needed here only without GPU_ADVISOR_REPORTS_DIR
        from advisor.store.repository import data_dir

        folder = data_dir() / "reports"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # users' reports: owner-only
    except OSError as exc:
        setting = REPORTS_DIR_ENV if raw else "GPU_ADVISOR_DATA_DIR"
        raise InputError(
            f"{setting}: the reports folder {str(folder)!r} cannot be created ({exc.strerror or exc}); "
            "point it at a writable folder"
        ) from exc
    return folder
