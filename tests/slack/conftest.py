"""Fixtures for the Slack tests: a local stub of Slack's Web API that records every call, and the Bolt app
served through the real FastAPI web app on a real uvicorn server on 127.0.0.1, with signed requests."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from slack_sdk.signature import SignatureVerifier

from advisor.slack.app import SlackSettings, build_slack_app
from advisor.slack.routes import slack_router
from advisor.store import Repository, open_repository

SECRET = "test-signing-secret-0123456789abcdef"
BOT_TOKEN = "xoxb-test-token"
BOT_USER = "UBOTUSER"
WAIT_S = 60.0  # an upper bound for background listeners on a loaded 2-core machine, not a speed check

LOGIN_PAGE = b"<!DOCTYPE html><html><body>Sign in to Slack</body></html>"


@dataclass
class Call:
    method: str  # Web API method ("chat.postMessage") or the HTTP path for non-API requests
    params: dict[str, Any]
    headers: dict[str, str]
    body: bytes


@dataclass
class SlackStub:
    """Records calls; answers auth.test, chat.postMessage, files.info, the file upload flow, file
    downloads (url_private: only with the bot token, else Slack's login page) and response_url posts."""

    base_url: str = ""
    calls: list[Call] = field(default_factory=list)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)  # file id -> files.info "file"
    contents: dict[str, bytes] = field(default_factory=dict)  # download path -> bytes
    refuse_channels: set[str] = field(default_factory=set)  # chat.postMessage -> not_in_channel
    lock: threading.Lock = field(default_factory=threading.Lock)
    _ts: int = 0

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def next_ts(self) -> str:
        with self.lock:
            self._ts += 1
            return f"1800000000.{self._ts:06d}"

    def record(self, call: Call) -> None:
        with self.lock:
            self.calls.append(call)

    def named(self, method: str) -> list[Call]:
        with self.lock:
            return [c for c in self.calls if c.method == method]

    def wait_for(
        self, method: str, count: int = 1, where: Callable[[Call], bool] | None = None
    ) -> list[Call]:
        """The calls to `method` (matching `where`) once there are `count` of them; fails after WAIT_S."""
        deadline = time.monotonic() + WAIT_S
        while True:
            found = [c for c in self.named(method) if where is None or where(c)]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                seen = [c.method for c in self.calls]
                raise AssertionError(f"no {count} x {method} within {WAIT_S}s; calls: {seen}")
            time.sleep(0.05)

    def add_file(
        self,
        file_id: str,
        name: str,
        data: bytes,
        mimetype: str = "text/markdown",
        shares: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        path = f"/files-pri/T1-{file_id}/{name}"
        self.contents[path] = data
        info = {
            "id": file_id,
            "name": name,
            "title": name,
            "mimetype": mimetype,
            "size": len(data),
            "url_private": self.base_url + path,
            "url_private_download": self.base_url + path + "?dl=1",
            "shares": shares or {},
        }
        self.files[file_id] = info
        return info


def _handler(stub: SlackStub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep pytest output clean
            pass

        def _reply(self, status: int, body: bytes, ctype: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: dict[str, Any]) -> None:
            self._reply(200, json.dumps(data).encode())

        def do_GET(self) -> None:
            self._handle(b"")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self._handle(self.rfile.read(length))

        def _handle(self, body: bytes) -> None:
            url = urllib.parse.urlsplit(self.path)
            params: dict[str, Any] = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
            ctype = self.headers.get("Content-Type") or ""
            if body and "json" in ctype:
                params.update(json.loads(body))
            elif body and "x-www-form-urlencoded" in ctype and url.path.startswith("/api/"):
                params.update({k: v[0] for k, v in urllib.parse.parse_qs(body.decode()).items()})
            headers = {k.lower(): v for k, v in self.headers.items()}
            method = url.path[len("/api/") :] if url.path.startswith("/api/") else url.path
            stub.record(Call(method, params, headers, body))
            if method == "auth.test":
                self._json(
                    {"ok": True, "user_id": BOT_USER, "bot_id": "BBOT", "team_id": "T1", "user": "gpu"}
                )
            elif method == "chat.postMessage":
                channel = str(params.get("channel"))
                if channel in stub.refuse_channels:
                    self._json({"ok": False, "error": "not_in_channel"})
                else:
                    self._json({"ok": True, "channel": channel, "ts": stub.next_ts()})
            elif method == "files.info":
                info = stub.files.get(str(params.get("file")))
                self._json({"ok": True, "file": info} if info else {"ok": False, "error": "file_not_found"})
            elif method == "files.getUploadURLExternal":
                fid = f"FUP{len(stub.named(method))}"
                self._json({"ok": True, "upload_url": f"{stub.base_url}/upload/{fid}", "file_id": fid})
            elif method.startswith("/upload/"):
                self._reply(200, b"OK - " + str(len(body)).encode(), "text/plain")
            elif method == "files.completeUploadExternal":
                raw = params.get("files") or []
                files: list[dict[str, Any]] = json.loads(raw) if isinstance(raw, str) else raw
                self._json({"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]})
            elif method.startswith("/files-pri/"):
                data = stub.contents.get(method)
                if data is None:
                    self._reply(404, b"not found", "text/plain")
                elif headers.get("authorization") != f"Bearer {BOT_TOKEN}":
                    self._reply(200, LOGIN_PAGE, "text/html; charset=utf-8")  # what Slack does
                else:
                    self._reply(200, data, "application/octet-stream")
            elif method.startswith("/respond"):
                self._json({"ok": True})
            else:
                self._json({"ok": False, "error": "unknown_method"})

    return Handler


@pytest.fixture
def slack_stub() -> Iterator[SlackStub]:
    stub = SlackStub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield stub
    server.shutdown()
    server.server_close()


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    r = open_repository(f"sqlite:///{tmp_path / 'slack.sqlite'}")
    yield r
    r.engine.dispose()


def sign(body: str, timestamp: int | None = None, secret: str = SECRET) -> dict[str, str]:
    ts = int(time.time()) if timestamp is None else timestamp
    signature = SignatureVerifier(secret).generate_signature(timestamp=str(ts), body=body)
    assert signature is not None
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": signature}


@dataclass
class SlackServer:
    url: str  # http://127.0.0.1:PORT/slack/events
    stub: SlackStub
    repo: Repository
    reports_dir: Path

    @staticmethod
    def sign(body: str, timestamp: int | None = None) -> dict[str, str]:
        return sign(body, timestamp)

    def post_raw(self, body: str, headers: dict[str, str]) -> httpx.Response:
        """The exact bytes and headers again (a replayed request)."""
        return httpx.post(self.url, content=body, headers=headers, timeout=WAIT_S)

    def post_json(
        self,
        payload: dict[str, Any],
        *,
        signed: bool = True,
        timestamp: int | None = None,
        extra: dict[str, str] | None = None,
    ) -> httpx.Response:
        body = json.dumps(payload)
        headers = {
            "Content-Type": "application/json",
            **(sign(body, timestamp) if signed else {}),
            **(extra or {}),
        }
        return httpx.post(self.url, content=body, headers=headers, timeout=WAIT_S)

    bot_user: str = BOT_USER
    bot_token: str = BOT_TOKEN

    @staticmethod
    def event(inner: dict[str, Any], event_id: str) -> dict[str, Any]:
        return event(inner, event_id)

    def post_form(self, form: dict[str, str], *, signed: bool = True) -> httpx.Response:
        body = urllib.parse.urlencode(form)
        headers = {"Content-Type": "application/x-www-form-urlencoded", **(sign(body) if signed else {})}
        return httpx.post(self.url, content=body, headers=headers, timeout=WAIT_S)


def event(inner: dict[str, Any], event_id: str) -> dict[str, Any]:
    """An Events API envelope around `inner`."""
    return {
        "token": "legacy",
        "team_id": "T1",
        "api_app_id": "A1",
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "event": inner,
        "authorizations": [{"team_id": "T1", "user_id": BOT_USER, "is_bot": True}],
    }


def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@pytest.fixture
def serve_slack(
    slack_stub: SlackStub, repo: Repository, tmp_path: Path
) -> Iterator[Callable[..., SlackServer]]:
    """Start the web app with Slack mounted on uvicorn (127.0.0.1, a free port); returns a SlackServer.
    process_before_response=True makes the listener finish before the HTTP answer (deterministic tests of
    what did not happen); the default False is the production mode (Bolt acknowledges first)."""
    import uvicorn

    from advisor.web.app import create_app
    from advisor.web.settings import WebSettings

    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(process_before_response: bool = False) -> SlackServer:
        reports = tmp_path / "reports"
        reports.mkdir(exist_ok=True)
        settings = SlackSettings(bot_token=BOT_TOKEN, signing_secret=SECRET, api_url=slack_stub.api_url)
        bolt = build_slack_app(
            settings=settings, repo=repo, reports_dir=reports, process_before_response=process_before_response
        )
        app = create_app(
            repo=repo,
            extra_routers=[slack_router(bolt)],
            reports_dir=reports,
            start_worker=False,
            settings=WebSettings(render_in_subprocess=False),
        )
        sock = _free_socket()
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + WAIT_S
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        servers.append((server, thread))
        port = sock.getsockname()[1]
        return SlackServer(f"http://127.0.0.1:{port}/slack/events", slack_stub, repo, reports)

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(timeout=10)
