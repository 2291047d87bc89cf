"""POST /slack/events for the FastAPI app (HTTP mode), with the request and response conversion of
slack_bolt.adapter.fastapi (whose SlackRequestHandler is the Starlette one).

Bolt's sync App does blocking work before it answers (signature check, the store's event-id insert, the
first auth.test), so dispatch runs in the thread pool rather than on the event loop: a slow database
never stalls the web app's other requests. Bodies over MAX_BODY_BYTES are refused before anything else
(Slack's payloads are a few kB; a large body is not from Slack).
"""

from fastapi import APIRouter, Request, Response
from slack_bolt import App
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.concurrency import run_in_threadpool

EVENTS_PATH = "/slack/events"
MAX_BODY_BYTES = 1024 * 1024


def slack_router(bolt_app: App, path: str = EVENTS_PATH) -> APIRouter:
    """An APIRouter with the Slack events endpoint (events, slash commands and interactivity all go to
    this one Request URL); mount it with create_app(extra_routers=[...]) or app.include_router(...)."""
    router = APIRouter(tags=["slack"])

    # No `from __future__ import annotations` in this module: FastAPI must see the real Request class
    # to inject the request instead of reading a query parameter.

    @router.post(path, include_in_schema=False)
    async def slack_events(request: Request) -> Response:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return Response(status_code=413, content="payload too large")
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            return Response(status_code=413, content="payload too large")
        bolt_request = to_bolt_request(request, body)
        bolt_response = await run_in_threadpool(bolt_app.dispatch, bolt_request)
        return to_starlette_response(bolt_response)

    return router
