"""The Jinja environment the HTML and Markdown templates render in, with the one filter they use."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).parent / "templates"


def md_cell(value: object) -> str:
    """Text safe inside a Markdown table cell: pipes escaped, newlines flattened, HTML-significant
    characters escaped so a renderer that allows inline HTML shows user text literally."""
    s = " ".join(str(value).split())
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The templates' environment (built once per process); values arrive formatted (reports.view)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md_cell
    return env
