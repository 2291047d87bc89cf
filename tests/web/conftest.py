"""Fixtures for the web tests: an app on a throwaway SQLite database, an authenticated API helper,
a real uvicorn server on 127.0.0.1, and (re-exported from tests/store) a real PostgreSQL server."""

from __future__ import annotations

import importlib.util
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from advisor.store import Repository, open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings


def _load_store_conftest() -> Any:
    path = Path(__file__).resolve().parents[1] / "store" / "conftest.py"
    spec = importlib.util.spec_from_file_location("_store_conftest_for_web", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The store's fixture (a PostgreSQL server started from Debian's binaries), reused rather than copied.
postgres_url = _load_store_conftest().postgres_url

FAST = WebSettings(render_in_subprocess=False, report_poll_s=0.05)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    r = open_repository(f"sqlite:///{tmp_path / 'web.sqlite'}")
    yield r
    r.engine.dispose()


@pytest.fixture
def reports_dir(tmp_path: Path) -> Path:
    d = tmp_path / "reports"
    d.mkdir()
    return d


@dataclass
class Api:
    """A TestClient bound to one session's id and token."""

    client: Any
    session_id: str
    token: str

    @property
    def base(self) -> str:
        return f"/api/sessions/{self.session_id}"

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str = "", **kw: Any) -> Any:
        return self.client.get(self.base + path, headers=self.auth, **kw)

    def post(self, path: str = "", **kw: Any) -> Any:
        return self.client.post(self.base + path, headers=self.auth, **kw)

    def say(self, text: str) -> Any:
        return self.post("/messages", json={"text": text})

    def wait_report(self, report_id: str, timeout_s: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            response = self.get(f"/reports/{report_id}")
            if response.status_code == 429:  # the session's rate limit (60 a minute): poll slower
                time.sleep(1.0)
                continue
            job: dict[str, Any] = response.json()
            if job["status"] in ("done", "failed"):
                return job
            time.sleep(0.1)
        raise AssertionError(f"report {report_id} did not finish in {timeout_s} s")


def new_api(client: Any) -> Api:
    r = client.post("/api/sessions")
    assert r.status_code == 201, r.text
    return Api(client, r.json()["session_id"], r.json()["token"])


@pytest.fixture
def make_client(repo: Repository, reports_dir: Path) -> Iterator[Callable[..., Any]]:
    """make_client(settings=..., conversation_factory=..., repo=...) -> a started TestClient."""
    from fastapi.testclient import TestClient

    opened: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("repo", repo)
        kwargs.setdefault("reports_dir", reports_dir)
        kwargs.setdefault("settings", FAST)
        client = TestClient(create_app(**kwargs))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for c in opened:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., Any]) -> Any:
    return make_client()


@pytest.fixture
def api(client: Any) -> Api:
    return new_api(client)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    server: Any
    thread: threading.Thread


def start_server(app: Any) -> LiveServer:
    """A real uvicorn server on 127.0.0.1 in a thread; returns once it accepts connections."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    return LiveServer(f"http://127.0.0.1:{port}", server, thread)


def stop_server(live: LiveServer) -> None:
    live.server.should_exit = True
    live.thread.join(15)


@pytest.fixture
def open_session() -> Callable[[Any], Api]:
    """open_session(client) -> Api for a new session on that client."""
    return new_api


@pytest.fixture
def live_server() -> Iterator[Callable[[Any], LiveServer]]:
    """live_server(app) -> a running uvicorn server (stopped after the test)."""
    started: list[LiveServer] = []

    def start(app: Any) -> LiveServer:
        live = start_server(app)
        started.append(live)
        return live

    yield start
    for live in started:
        stop_server(live)
