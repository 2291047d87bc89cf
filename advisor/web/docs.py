"""/api/docs: the API's reference as one static HTML page, written on the server from the OpenAPI schema.

No script and nothing from outside: FastAPI's Swagger page loads its code from a CDN (blank offline, no
integrity check) and needs inline script, and no packaged, pinned Swagger UI or ReDoc bundle is
installed here. This page works offline, under the site's strict Content-Security-Policy (no script at
all), and, having no script, cannot read the chat page's session token. The machine-readable schema
stays at /api/openapi.json for any client or viewer.
"""

from __future__ import annotations

from html import escape
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)
METHODS = ("get", "post", "put", "patch", "delete")


def _schema_name(schema: dict[str, Any]) -> str:
    """A short type name for a parameter or body schema: 'string', 'integer', 'MessageIn', 'object'."""
    ref = schema.get("$ref")
    if ref:
        return str(ref).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(_schema_name(s) for s in schema["anyOf"])
    return str(schema.get("type", "object"))


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    rows = []
    for p in op.get("parameters", []):
        where, name = p.get("in", ""), p.get("name", "")
        kind = _schema_name(p.get("schema", {}))
        need = "required" if p.get("required") else "optional"
        rows.append(
            f"<tr><td><code>{escape(name)}</code></td><td>{escape(where)}</td><td>{escape(kind)}</td>"
            f"<td>{need}</td><td>{escape(p.get('description', ''))}</td></tr>"
        )
    body = op.get("requestBody", {}).get("content", {})
    for media, content in body.items():
        rows.append(
            f"<tr><td>body</td><td>{escape(media)}</td><td>{escape(_schema_name(content.get('schema', {})))}"
            "</td><td>required</td><td></td></tr>"
        )
    table = (
        "<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th></th><th>Description</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        if rows
        else ""
    )
    answers = ", ".join(
        f"{escape(code)} {escape(r.get('description', ''))}" for code, r in op.get("responses", {}).items()
    )
    return (
        f'<section class="op"><h3><span class="method">{method.upper()}</span> '
        f"<code>{escape(path)}</code></h3>"
        f"<p>{escape(op.get('summary', ''))}</p>"
        f'<p>{escape(op.get("description", "") or "")}</p>{table}<p class="answers">Answers: {answers}</p>'
        "</section>"
    )


def docs_html(schema: dict[str, Any]) -> str:
    """The reference page for an OpenAPI schema (every value escaped)."""
    info = schema.get("info", {})
    ops = [
        _operation(path, method, op)
        for path, item in schema.get("paths", {}).items()
        for method, op in item.items()
        if method in METHODS
    ]
    models = "".join(
        f"<li><code>{escape(name)}</code>: "
        + ", ".join(escape(f) for f in model.get("properties", {}))
        + "</li>"
        for name, model in schema.get("components", {}).get("schemas", {}).items()
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(info.get('title', 'API'))}: API reference</title>"
        '<link rel="stylesheet" href="/static/app.css"></head><body class="docs">'
        f"<h1>{escape(info.get('title', 'API'))} API {escape(info.get('version', ''))}</h1>"
        f"<p>{escape(info.get('summary', '') or '')}</p>"
        "<p>Every call except starting a session needs the session's token: "
        "<code>Authorization: Bearer TOKEN</code>. The machine-readable schema: "
        '<a href="/api/openapi.json">/api/openapi.json</a>.</p>'
        f"{''.join(ops)}<h2>Models</h2><ul>{models}</ul></body></html>"
    )


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    return HTMLResponse(docs_html(request.app.openapi()), headers={"Cache-Control": "no-cache"})
