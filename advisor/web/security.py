"""Security pieces of the web app: response headers, request size limit, rate limits, upload checks.

- Headers: a Content-Security-Policy without inline scripts (user text can never run as code even if
  an escaping bug slipped through), nosniff, no framing, no referrer.
- Request bodies over MAX_BODY_BYTES are refused with 413 before they are read (Content-Length) or as
  soon as they pass it (chunked bodies).
- Rate limits use the repository's fixed-window counters, so every worker and host shares them; a
  limited request gets 429 with Retry-After (seconds until the window ends).
- Uploads: `safe_filename` for the name; the text is read by advisor.ingest_capped.read_upload (size and
  page limits, then advisor.ingest.read_brief in a child process under a memory and a time cap).
"""

from __future__ import annotations

import json
import math
import re
import time
import unicodedata
from typing import TYPE_CHECKING

from fastapi import HTTPException

from advisor.ingest import MAX_BYTES

if TYPE_CHECKING:
    from fastapi import Request
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from advisor.store import Repository

MULTIPART_OVERHEAD_BYTES = 64 * 1024  # form fields and boundaries around an uploaded file


def max_body_bytes() -> int:
    return MAX_BYTES + MULTIPART_OVERHEAD_BYTES


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class _BodyTooLarge(Exception):
    pass


class SecurityMiddleware:
    """Pure ASGI middleware (streams pass through untouched): security headers and a body size limit."""

    def __init__(self, app: ASGIApp, max_body: int | None = None) -> None:
        self.app = app
        self.max_body = max_body if max_body is not None else max_body_bytes()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = CSP.encode()  # every response without its own (/api/docs sets a sandboxed one)
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for name, value in (*SECURITY_HEADERS, (b"content-security-policy", csp)):
                    if name not in names:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            await _too_large(send_with_headers, self.max_body)
            return
        seen = 0

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _BodyTooLarge()
            return message

        try:
            await self.app(scope, counting_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await _too_large(send_with_headers, self.max_body)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps(
        {"detail": f"request too large: the limit is {limit // (1024 * 1024)} MB; upload a smaller brief"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


# --- rate limits -----------------------------------------------------------------------------------------


def client_address(request: Request, trust_forwarded_for: bool = False) -> str:
    """The client's address: the socket peer, or the first X-Forwarded-For hop behind a trusted proxy."""
    if trust_forwarded_for:
        forwarded = request.headers.get("x-forwarded-for", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first[:64]
    return request.client.host if request.client else "unknown"


def retry_after_s(window_s: int, now: float | None = None) -> int:
    """Seconds until the current fixed window ends (at least 1)."""
    t = time.time() if now is None else now
    return max(1, math.ceil(window_s - (t % window_s)))


def enforce_rate_limit(repo: Repository, key: str, limit: int, window_s: int, what: str) -> None:
    """Count one request for `key`; raise HTTPException 429 with Retry-After when over `limit`."""
    if repo.hit_rate_limit(key, limit, window_s):
        wait = retry_after_s(window_s)
        raise HTTPException(
            status_code=429,
            detail=f"too many requests {what}: at most {limit} per {window_s} s; try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )


# --- uploads ---------------------------------------------------------------------------------------------

_UNSAFE_NAME = re.compile(r"[^\w.\- ()]+")


def safe_filename(name: str | None, default: str = "brief") -> str:
    """A display-safe file name: the last path part, no control characters, at most 100 characters."""
    raw = (name or "").replace("\\", "/").split("/")[-1]
    raw = "".join(ch for ch in unicodedata.normalize("NFC", raw) if unicodedata.category(ch)[0] != "C")
    cleaned = _UNSAFE_NAME.sub("_", raw).strip(" ._")
    return (cleaned or default)[:100]
