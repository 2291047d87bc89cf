"""The FastAPI application factory.

`create_app(...)` wires the repository, the conversation factory, the JSON API (advisor.web.api), the
chat page (advisor.web.pages), security middleware (advisor.web.security), the report worker thread
(advisor.web.worker) and the turn worker processes (advisor.web.turn_workers). Extra routers (Slack's
/slack/events) are included as given. Settings: advisor.web.settings; a turn: advisor.service.turns.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError, ProgrammingError

from advisor.ingest_capped import start_fork_server
from advisor.service.reports import reports_folder
from advisor.service.turns import ConversationFactory, default_conversation_factory
from advisor.store import Repository, open_repository
from advisor.web import api, docs, pages
from advisor.web.security import SecurityMiddleware
from advisor.web.settings import WebSettings
from advisor.web.turn_workers import TurnProcesses
from advisor.web.worker import ReportWorker


def open_repository_retrying(url: str | None = None, attempts: int = 3) -> Repository:
    """open_repository, tolerating the race of several workers creating the tables at the same moment
    (SQLAlchemy's create_all checks, then creates: a second process can lose in between)."""
    for attempt in range(1, attempts + 1):
        try:
            return open_repository(url)
        except (OperationalError, ProgrammingError) as exc:
            if "already exists" not in str(exc) or attempt == attempts:
                raise
            time.sleep(0.2 * attempt)
    raise AssertionError("unreachable")


def create_app(
    *,
    repo: Repository | None = None,
    conversation_factory: ConversationFactory | None = None,
    extra_routers: Sequence[APIRouter] = (),
    reports_dir: Path | None = None,
    start_worker: bool = True,
    settings: WebSettings | None = None,
) -> FastAPI:
    """The web app. Defaults come from the environment: DATABASE_URL / GPU_ADVISOR_DATA_DIR for the
    repository, GPU_ADVISOR_REPORTS_DIR for PDFs, GPU_ADVISOR_BACKEND for the conversation."""
    settings = settings or WebSettings.from_env()
    if repo is None:
        repo = open_repository_retrying()
    factory = conversation_factory or default_conversation_factory(settings.backend)
    out_dir = Path(reports_dir) if reports_dir is not None else reports_folder()
    out_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    worker = ReportWorker(
        repo,
        out_dir,
        poll_s=settings.report_poll_s,
        stale_after_s=settings.report_stale_after_s,
        in_subprocess=settings.render_in_subprocess,
        retention_days=settings.retention_days,
    )

    processes = (
        TurnProcesses(settings.turn_processes, settings.backend)
        if conversation_factory is None and settings.turn_processes > 0 and not settings.streams
        else None
    )
    if processes is not None:
        processes.time_limit_s = settings.turn_time_limit_s

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if start_worker:
            worker.start()
        if settings.upload_limits.in_subprocess:  # uploads parse in its children: start it in the background
            threading.Thread(target=start_fork_server, name="gpu-advisor-fork-server", daemon=True).start()
        if processes is not None:
            processes.start()
        try:
            yield
        finally:
            worker.stop()
            if processes is not None:
                processes.stop()

    app = FastAPI(
        title="GPU Advisor",
        version="0.1.0",
        summary="Chat about an LLM workload, upload a brief, get a GPU recommendation and its PDF report.",
        docs_url=None,  # advisor.web.docs: Swagger UI from the installed package, sandboxed
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    app.state.repo = repo
    app.state.conversation_factory = factory
    app.state.reports_dir = out_dir
    app.state.settings = settings
    app.state.worker = worker
    app.state.turn_gate = threading.BoundedSemaphore(settings.turn_slots)
    app.state.turn_processes = processes
    app.add_middleware(SecurityMiddleware)
    app.include_router(api.router)
    app.include_router(pages.router)
    docs.docs_assets()  # read and hashed now: a missing swagger-ui-bundle fails the start, not a page
    app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")
    for extra in extra_routers:
        app.include_router(extra)
    return app


def app_from_env() -> FastAPI:
    """Factory for `uvicorn --factory advisor.web.app:app_from_env` (what `gpu-advisor serve` runs)."""
    logging.basicConfig(level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "INFO").upper())
    repo = open_repository_retrying()
    return create_app(repo=repo, extra_routers=integration_routers(repo))


def integration_routers(repo: Repository | None = None) -> list[APIRouter]:
    """Routers of optional integrations configured in the environment (Slack's HTTP events endpoint:
    `advisor.slack.http.router_from_env(repo=...)`, None when Slack is not configured for HTTP), sharing
    the web app's repository."""
    routers: list[APIRouter] = []
    try:
        module = importlib.import_module("advisor.slack.http")
    except ModuleNotFoundError as exc:
        if exc.name not in ("advisor.slack", "advisor.slack.http"):
            raise
        return routers
    router = module.router_from_env(repo=repo)
    if router is not None:
        routers.append(router)
    return routers
