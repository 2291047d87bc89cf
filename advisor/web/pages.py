"""The chat page (server-rendered HTML; light JavaScript in static/app.js, no build step) and /healthz."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from advisor.ingest import MAX_BYTES, SUPPORTED

router = APIRouter(include_in_schema=False)

_HERE = Path(__file__).parent
ASSET_VERSION = "3"  # bump when static files change, so browsers fetch them again


@lru_cache(maxsize=1)
def _environment() -> Any:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(_HERE / "templates"),
        autoescape=True,  # every value is HTML-escaped, attributes included
        undefined=jinja2.StrictUndefined,
    )


def render_page(name: str, **context: Any) -> str:
    """Render templates/<name> with autoescaping on."""
    return str(_environment().get_template(name).render(**context))


@router.get("/", response_class=HTMLResponse)
def chat_page(request: Request) -> HTMLResponse:
    settings = request.app.state.settings
    html = render_page(
        "index.html",
        streaming=settings.streams,
        max_upload_mb=MAX_BYTES // (1024 * 1024),
        max_pages=settings.max_brief_pages,
        supported=SUPPORTED,
        version=ASSET_VERSION,
    )
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


@router.get("/healthz")
def healthz(request: Request) -> dict[str, Any]:
    """Liveness plus whether the database answers (for load balancers)."""
    ok = True
    try:
        request.app.state.repo.exists("healthcheck")
    except Exception:
        ok = False
    return {"ok": ok}
