"""/api/docs: the API's reference in Swagger UI, served offline from the installed swagger-ui-bundle package.

- Offline: Swagger UI's script and style come from the swagger_ui_bundle package's folder (pinned in
  pyproject), never from a CDN; each is read once, at start-up (`docs_assets`), and served from memory
  with a Subresource Integrity hash (sha384 of exactly the bytes served) on its tag.
- No inline script: Swagger UI is started by static/docs-init.js, so the page's Content-Security-Policy
  (`DOCS_CSP`) keeps script-src 'self' with no 'unsafe-inline' or 'unsafe-eval'.
- No access to the chat page's token: the page is served with CSP `sandbox allow-scripts`, so it runs in
  an opaque origin that cannot read the app origin's sessionStorage (where the page keeps its token), even
  when opened in the chat's own tab. From that origin every request is cross-origin, so the docs' assets
  and schema copy carry `Access-Control-Allow-Origin: *` (they are public) and "Try it out" is off: the
  API itself answers no cross-origin calls.
- Swagger UI 4.15.5 (what swagger-ui-bundle 1.1.0 ships) reads OpenAPI 3.0, and FastAPI writes 3.1: the
  page reads `/api/docs/openapi.json`, the schema written as 3.0 (`openapi_30`). The 3.1 schema stays at
  /api/openapi.json for any client.
- Without script, the page shows a plain reference written on the server (`reference_html`).
"""

from __future__ import annotations

import base64
import copy
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

import swagger_ui_bundle
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from advisor.web.security import CSP

router = APIRouter(include_in_schema=False)
METHODS = ("get", "post", "put", "patch", "delete")

DOCS_CSP = "sandbox allow-scripts; " + CSP.replace("form-action 'self'", "form-action 'none'")
"""The docs page's policy: the site's (script-src 'self', no inline) in a sandbox without
allow-same-origin, so its scripts run in an opaque origin and cannot read the app origin's storage."""
PUBLIC_ASSET_HEADERS = {"Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=3600"}
ASSETS_URL = "/api/docs/assets"


@dataclass(frozen=True)
class DocsAsset:
    """A file the docs page loads: its bytes (read once), media type and SRI value."""

    body: bytes
    media_type: str
    integrity: str


def _asset(path: Path, media_type: str) -> DocsAsset:
    body = path.read_bytes()
    digest = base64.b64encode(hashlib.sha384(body).digest()).decode()
    return DocsAsset(body, media_type, f"sha384-{digest}")


@lru_cache(maxsize=1)
def docs_assets() -> dict[str, DocsAsset]:
    """Swagger UI's bundle and style from the swagger_ui_bundle package, and the page's initialiser, read
    and hashed once (create_app calls this at start-up, so a missing package fails the start)."""
    vendor = Path(str(swagger_ui_bundle.swagger_ui_path))
    return {
        "swagger-ui.css": _asset(vendor / "swagger-ui.css", "text/css"),
        "swagger-ui-bundle.js": _asset(vendor / "swagger-ui-bundle.js", "text/javascript"),
        "docs-init.js": _asset(Path(__file__).parent / "static" / "docs-init.js", "text/javascript"),
    }


def _null_free(schema: Any) -> Any:
    """One schema node written as OpenAPI 3.0: `anyOf: [X, {type: null}]` -> X with `nullable: true`
    (through allOf when X is a $ref, which 3.0 allows no siblings), `contentMediaType` -> format binary,
    `examples: [..]` -> `example`."""
    if isinstance(schema, list):
        return [_null_free(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    node = {key: _null_free(value) for key, value in schema.items()}
    variants = node.get("anyOf")
    if isinstance(variants, list) and {"type": "null"} in variants:
        others = [v for v in variants if v != {"type": "null"}]
        rest = {k: v for k, v in node.items() if k != "anyOf"}
        if len(others) == 1 and "$ref" in others[0]:
            node = {**rest, "allOf": others, "nullable": True}
        elif len(others) == 1:
            node = {**others[0], **rest, "nullable": True}
        else:
            node = {**rest, "anyOf": others, "nullable": True}
    if "contentMediaType" in node:
        node.pop("contentMediaType")
        node["format"] = "binary"
    if isinstance(node.get("examples"), list) and "type" in node:
        examples = node.pop("examples")
        if examples:
            node["example"] = examples[0]
    return node


def openapi_30(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as OpenAPI 3.0.3, for Swagger UI 4 (it refuses 3.1)."""
    out: dict[str, Any] = _null_free(copy.deepcopy(schema))
    out["openapi"] = "3.0.3"
    return out


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


def reference_html(schema: dict[str, Any]) -> str:
    """A plain reference of an OpenAPI schema (every value escaped): the page's content without script."""
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
        f"<h1>{escape(info.get('title', 'API'))} API {escape(info.get('version', ''))}</h1>"
        f"<p>{escape(info.get('summary', '') or '')}</p>"
        "<p>Every call except starting a session needs the session's token: "
        "<code>Authorization: Bearer TOKEN</code>. The machine-readable schema: "
        '<a href="/api/openapi.json">/api/openapi.json</a>.</p>'
        f"{''.join(ops)}<h2>Models</h2><ul>{models}</ul>"
    )


def _tag(name: str) -> str:
    asset = docs_assets()[name]
    if name.endswith(".css"):
        return (
            f'<link rel="stylesheet" href="{ASSETS_URL}/{name}" integrity="{asset.integrity}" '
            'crossorigin="anonymous">'
        )
    return (
        f'<script src="{ASSETS_URL}/{name}" integrity="{asset.integrity}" crossorigin="anonymous"></script>'
    )


def docs_html(schema: dict[str, Any]) -> str:
    """The docs page: Swagger UI's tags with their integrity hashes, the plain reference for no script."""
    title = escape(schema.get("info", {}).get("title", "API"))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}: API reference</title>{_tag('swagger-ui.css')}</head><body>"
        f'<div id="swagger-ui"></div><noscript>{reference_html(schema)}</noscript>'
        f"{_tag('swagger-ui-bundle.js')}{_tag('docs-init.js')}</body></html>"
    )


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    return HTMLResponse(
        docs_html(request.app.openapi()),
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": DOCS_CSP},
    )


@router.get("/api/docs/openapi.json")
def api_docs_schema(request: Request) -> JSONResponse:
    """The schema as OpenAPI 3.0, readable from the docs page's sandbox (a public document)."""
    return JSONResponse(openapi_30(request.app.openapi()), headers=PUBLIC_ASSET_HEADERS)


@router.get(ASSETS_URL + "/{name}")
def api_docs_asset(name: str) -> Response:
    """Swagger UI's files and the initialiser, from memory: only the names docs_assets lists."""
    asset = docs_assets().get(name)
    if asset is None:
        raise HTTPException(status_code=404, detail="no such docs file")
    return Response(asset.body, media_type=asset.media_type, headers=PUBLIC_ASSET_HEADERS)
