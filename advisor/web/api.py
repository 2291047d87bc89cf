"""The JSON API under /api (OpenAPI docs at /api/docs).

Every call except creating a session needs the session id (in the path) and its token, sent as
`Authorization: Bearer TOKEN` or `X-Session-Token: TOKEN`. A wrong token and an unknown session look
the same (404), so ids cannot be probed; another session's report is a 404 too. Reports are served by
id from the repository, never from a path the user gives.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path as FsPath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Header, HTTPException, Path, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from advisor.ingest import MAX_BYTES
from advisor.ingest_capped import read_upload
from advisor.store import TurnConflict
from advisor.web.security import client_address, enforce_rate_limit, safe_filename
from advisor.web.settings import WebSettings
from advisor.web.turn_workers import run_turn
from advisor.web.worker import delete_report_files
from tools.errors import InputError

log = logging.getLogger("gpu_advisor.web.api")

ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="the session id from POST /api/sessions")]
ReportId = Annotated[str, Path(pattern=ID_PATTERN, description="a report id from POST .../reports")]
MessageId = Annotated[str, Path(pattern=ID_PATTERN, description="a message id from GET .../messages")]

_REPORT_WORDS = re.compile(
    r"^\s*(please\s+)?((make|create|generate|get|send|give)\s+(me\s+)?)?(the\s+|a\s+|my\s+)?"
    r"(pdf|report|pdf report|full report)(\s+please)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
CRASH_DETAIL = (
    "the advisor failed on this message; it is saved and marked unanswered: retry it or send another"
)

BUSY_DETAIL = (
    "other messages of this conversation were being answered at the same time; this one is saved and "
    "unanswered: send it again"
)


def _repo(request: Request) -> Any:
    return request.app.state.repo


def _settings(request: Request) -> WebSettings:
    settings: WebSettings = request.app.state.settings
    return settings


def limit_client(request: Request) -> None:
    """Per client address: every API call counts."""
    s = _settings(request)
    addr = client_address(request, s.trust_forwarded_for)
    enforce_rate_limit(
        _repo(request), f"client:{addr}", s.client_requests_per_window, s.rate_window_s, "from this address"
    )


router = APIRouter(prefix="/api", tags=["api"], dependencies=[Depends(limit_client)])


def session_auth(
    request: Request,
    session_id: SessionId,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
    x_session_token: Annotated[str | None, Header(description="the session token")] = None,
) -> str:
    """The session id once its token is checked (and its rate limit counted)."""
    token = x_session_token
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
    if not token:
        raise HTTPException(
            status_code=401,
            detail="missing session token: send 'Authorization: Bearer TOKEN' or 'X-Session-Token: TOKEN'",
            headers={"WWW-Authenticate": "Bearer"},
        )
    repo = _repo(request)
    if not repo.authorize(session_id, token):
        raise HTTPException(status_code=404, detail="session not found (or the token does not match it)")
    s = _settings(request)
    enforce_rate_limit(
        repo, f"session:{session_id}", s.session_requests_per_window, s.rate_window_s, "in this session"
    )
    return session_id


Authed = Annotated[str, Depends(session_auth)]


# --- models (for the OpenAPI docs) -----------------------------------------------------------------------


class SessionCreated(BaseModel):
    session_id: str
    token: str = Field(description="keep it: only its SHA-256 is stored; every later call needs it")
    streaming: bool = Field(description="replies stream (a chat model is configured)")


class MessageIn(BaseModel):
    text: str = Field(min_length=1, description="what the user says")


class ReportCreated(BaseModel):
    report_id: str
    status: str


# --- helpers ---------------------------------------------------------------------------------------------


def _check_text(text: str, settings: WebSettings) -> str:
    text = text.strip()
    if not text:
        raise HTTPException(status_code=422, detail="the message is empty: type what you need")
    if len(text) > settings.max_message_chars:
        raise HTTPException(
            status_code=413,
            detail=f"the message has {len(text)} characters, over the {settings.max_message_chars} limit; "
            "upload long text as a brief instead",
        )
    return text


def _public(records: list[Any], message_id: Any) -> str | None:
    """The public id (advisor.store.repository.public_message_id) of a stored key, None if not there."""
    return next((r.public_id for r in records if r.id == message_id), None)


def _messages(repo: Any, session_id: str, records: list[Any] | None = None) -> list[dict[str, Any]]:
    """Messages as JSON; a user message is `answered` once an assistant reply points at it. Ids are the
    public ones: the database's counter is never shown."""
    records = repo.messages(session_id) if records is None else records
    answered = {
        int(r.payload["reply_to"]) for r in records if r.role == "assistant" and r.payload.get("reply_to")
    }
    public = {r.id: r.public_id for r in records}
    out = []
    for r in records:
        item: dict[str, Any] = {"id": r.public_id, "role": r.role, "text": r.text}
        if r.role == "user":
            item["answered"] = r.id in answered
            if r.payload.get("brief"):
                item["brief"] = r.payload["brief"]
        elif r.role == "assistant":
            turn = r.payload.get("turn") or {}
            item["questions"] = turn.get("questions", [])
            item["reply_to"] = public.get(r.payload.get("reply_to"))
        out.append(item)
    return out


def _last_turn(repo: Any, session_id: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(turn view, full recommendation JSON) of the latest reply, or (None, None)."""
    records = repo.messages(session_id)
    for r in reversed(records):
        if r.role == "assistant" and "turn" in r.payload:
            turn = dict(r.payload["turn"])
            if "reply_to" in turn:
                turn["reply_to"] = _public(records, turn["reply_to"])
            return turn, r.payload.get("recommendation")
    return None, None


def _report_json(job: Any, session_id: str) -> dict[str, Any]:
    data: dict[str, Any] = {"report_id": job.id, "status": job.status, "error": job.error}
    if job.status == "done":
        data["download_url"] = f"/api/sessions/{session_id}/reports/{job.id}/pdf"
    return data


def _turn(request: Request, session_id: str, text: str, **kwargs: Any) -> dict[str, Any]:
    try:
        view = run_turn(
            _repo(request),
            request.app.state.conversation_factory,
            session_id,
            text,
            gate=request.app.state.turn_gate,
            processes=getattr(request.app.state, "turn_processes", None),
            time_limit_s=_settings(request).turn_time_limit_s,
            **kwargs,
        )
    except InputError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from exc
    except TurnConflict as exc:
        log.warning("%s", exc)
        raise HTTPException(status_code=409, detail=BUSY_DETAIL) from exc
    except Exception as exc:
        log.exception("turn failed in session %s", session_id)
        raise HTTPException(status_code=500, detail=CRASH_DETAIL) from exc
    view["message_id"], view["reply_to"] = _repo(request).public_message_ids(
        session_id, [view["message_id"], view["reply_to"]]
    )
    if _REPORT_WORDS.match(text) and view.get("recommendation") is not None:
        view["report"] = _create_report(request, session_id)
    return view


def _create_report(request: Request, session_id: str) -> dict[str, Any]:
    repo = _repo(request)
    state = repo.load_state(session_id)
    turn, _rec = _last_turn(repo, session_id)
    if not state or turn is None or turn.get("recommendation") is None:
        raise HTTPException(
            status_code=409,
            detail="nothing to report yet: describe the workload first (model, method, data)",
        )
    report_id = repo.create_report_job(session_id, state.get("profile") or {})
    return {"report_id": report_id, "status": "pending"}


# --- routes ----------------------------------------------------------------------------------------------


@router.post("/sessions", status_code=201, response_model=SessionCreated, summary="Start a session")
def create_session(request: Request) -> dict[str, Any]:
    s = _settings(request)
    addr = client_address(request, s.trust_forwarded_for)
    enforce_rate_limit(
        _repo(request),
        f"new-session:{addr}",
        s.sessions_per_client_per_window,
        s.rate_window_s,
        "creating sessions from this address",
    )
    session_id, token = _repo(request).create_session(channel="web")
    return {"session_id": session_id, "token": token, "streaming": s.streams}


@router.get("/sessions/{session_id}", summary="Session overview: messages, profile, summary, reports")
def get_session(request: Request, session_id: Authed) -> dict[str, Any]:
    repo = _repo(request)
    turn, _rec = _last_turn(repo, session_id)
    return {
        "session_id": session_id,
        "messages": _messages(repo, session_id),
        "turn": turn,
        "reports": [_report_json(j, session_id) for j in repo.reports(session_id)],
        "streaming": _settings(request).streams,
    }


@router.delete(
    "/sessions/{session_id}",
    summary="Delete the conversation: its messages, uploaded briefs and reports (PDF files included)",
)
def delete_session(request: Request, session_id: Authed) -> dict[str, Any]:
    report_ids = _repo(request).delete_session(session_id)
    files = delete_report_files(FsPath(request.app.state.reports_dir), report_ids)
    return {"deleted": True, "reports": len(report_ids), "files": files}


@router.get("/sessions/{session_id}/messages", summary="All messages of the session, oldest first")
def list_messages(request: Request, session_id: Authed) -> list[dict[str, Any]]:
    return _messages(_repo(request), session_id)


@router.post(
    "/sessions/{session_id}/messages",
    summary="Send a message; returns the advisor's turn",
    response_model=dict[str, Any],
)
def post_message(request: Request, session_id: Authed, body: MessageIn) -> Any:
    text = _check_text(body.text, _settings(request))
    # the turn view is plain JSON already: rendered as it is, without FastAPI's re-validation and encoding
    return JSONResponse(_turn(request, session_id, text))


@router.post(
    "/sessions/{session_id}/messages/{message_id}/retry",
    summary="Answer a stored user message that got no reply (after a crash)",
)
def retry_message(request: Request, session_id: Authed, message_id: MessageId) -> dict[str, Any]:
    records = _repo(request).messages(session_id)
    for r, m in zip(records, _messages(_repo(request), session_id, records), strict=True):
        if m["id"] == message_id and m["role"] == "user":
            if m["answered"]:
                raise HTTPException(status_code=409, detail="this message already has a reply")
            if m.get("brief"):
                raise HTTPException(status_code=409, detail="upload the brief again to retry it")
            return _turn(request, session_id, m["text"], retry_of=r.id)
    raise HTTPException(status_code=404, detail="message not found in this session")


@router.post(
    "/sessions/{session_id}/messages/stream",
    summary="Send a message; the reply streams as server-sent events",
    response_description="text/event-stream: `delta` events carry reply text, then one `turn` (or `error`)",
)
async def stream_message(request: Request, session_id: Authed, body: MessageIn) -> StreamingResponse:
    text = _check_text(body.text, _settings(request))
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()

    def put(item: tuple[str, Any] | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    def work() -> None:
        try:
            view = _turn(request, session_id, text, stream=lambda chunk: put(("delta", {"text": chunk})))
            put(("turn", view))
        except HTTPException as exc:
            put(("error", {"detail": exc.detail, "status": exc.status_code}))
        except Exception:  # pragma: no cover - _turn maps every exception
            log.exception("stream failed")
            put(("error", {"detail": CRASH_DETAIL, "status": 500}))
        finally:
            put(None)

    # The turn runs to completion even if the client goes away: its reply is stored either way.
    task = loop.run_in_executor(None, work)

    async def events() -> AsyncIterator[bytes]:
        while True:
            item = await queue.get()
            if item is None:
                break
            name, data = item
            yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
        await task

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.post("/sessions/{session_id}/brief", summary="Upload a brief (PDF, DOCX, Markdown, text, HTML)")
def upload_brief(
    request: Request,
    session_id: Authed,
    file: Annotated[UploadFile, File(description="the brief; its type is read from its content")],
    text: Annotated[str, Form(description="an optional message to go with it")] = "",
) -> dict[str, Any]:
    s = _settings(request)
    name = safe_filename(file.filename)
    data = file.file.read(MAX_BYTES + 1)
    try:
        brief_text = read_upload(data, name, s.max_brief_pages, s.upload_limits)
    except InputError as exc:
        status = 413 if len(data) > MAX_BYTES else 422
        raise HTTPException(status_code=status, detail=str(exc)) from exc
    repo = _repo(request)
    repo.add_brief(session_id, name, brief_text)
    message = text.strip()[: s.max_message_chars] or f"Here is our brief: {name}"
    view = _turn(request, session_id, message, brief_text=brief_text, brief_name=name)
    view["brief"] = {"filename": name, "chars": len(brief_text)}
    return view


@router.get("/sessions/{session_id}/profile", summary="The workload profile as understood")
def get_profile(request: Request, session_id: Authed) -> dict[str, Any]:
    """Each known field with its status: stated (the user's words), inferred, or assumed (a default)."""
    repo = _repo(request)
    turn, _rec = _last_turn(repo, session_id)
    state = repo.load_state(session_id)
    return {"fields": (turn or {}).get("profile", []), "profile": state.get("profile") or {}}


@router.get("/sessions/{session_id}/recommendation", summary="The current recommendation")
def get_recommendation(request: Request, session_id: Authed) -> dict[str, Any]:
    turn, rec = _last_turn(_repo(request), session_id)
    if turn is None or rec is None:
        raise HTTPException(status_code=404, detail="no recommendation yet: describe the workload first")
    return {"summary": turn.get("recommendation"), "recommendation": rec}


@router.post(
    "/sessions/{session_id}/reports",
    status_code=202,
    response_model=ReportCreated,
    summary="Start rendering the PDF report (poll its status)",
)
def create_report(request: Request, session_id: Authed) -> dict[str, Any]:
    return _create_report(request, session_id)


@router.get("/sessions/{session_id}/reports", summary="Reports of the session")
def list_reports(request: Request, session_id: Authed) -> list[dict[str, Any]]:
    return [_report_json(j, session_id) for j in _repo(request).reports(session_id)]


@router.get("/sessions/{session_id}/reports/{report_id}", summary="A report's status")
def report_status(request: Request, session_id: Authed, report_id: ReportId) -> dict[str, Any]:
    job = _repo(request).get_report(report_id, session_id)
    if job is None:
        raise HTTPException(status_code=404, detail="report not found")
    return _report_json(job, session_id)


@router.get(
    "/sessions/{session_id}/reports/{report_id}/pdf",
    summary="Download the PDF",
    response_class=FileResponse,
    responses={200: {"content": {"application/pdf": {}}}, 409: {"description": "not rendered yet"}},
)
def download_report(request: Request, session_id: Authed, report_id: ReportId) -> Any:
    job = _repo(request).get_report(report_id, session_id)
    if job is None:
        raise HTTPException(status_code=404, detail="report not found")
    if job.status != "done" or not job.path:
        return JSONResponse(
            status_code=409,
            content={
                **_report_json(job, session_id),
                "detail": f"the report is {job.status}; poll its status until it is done",
            },
        )
    root = FsPath(request.app.state.reports_dir).resolve()
    path = FsPath(job.path).resolve()
    if not path.is_relative_to(root) or not path.is_file():  # the repository's path, still checked
        raise HTTPException(status_code=404, detail="report file missing: create the report again")
    return FileResponse(
        path,
        media_type="application/pdf",
        filename=f"gpu-advisor-report-{report_id[:8]}.pdf",
        headers={"Cache-Control": "private, no-store"},
    )
