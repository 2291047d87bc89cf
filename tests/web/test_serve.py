"""`gpu-advisor serve`: options, one-line errors for bad settings, and a real start on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from advisor.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_serve_help_lists_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--workers"):
        assert option in out


def test_bad_setting_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GPU_ADVISOR_RATE_SESSION", "lots")
    assert main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "GPU_ADVISOR_RATE_SESSION" in err and len(err.strip().splitlines()) == 1


def test_serve_starts_with_two_workers_and_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(GPU_ADVISOR_DATA_DIR=str(tmp_path / "data"), GPU_ADVISOR_LOG_LEVEL="warning")
    env["GPU_ADVISOR_TURN_TIME_LIMIT_S"] = "55"  # not under test; a loaded CI machine hit 30 s
    for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            try:
                if httpx.get(url + "/healthz", timeout=1).json() == {"ok": True}:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        s = httpx.post(url + "/api/sessions").json()
        r = httpx.post(
            f"{url}/api/sessions/{s['session_id']}/messages",
            json={"text": "LoRA on Llama 3 8B, 50M tokens"},
            headers={"Authorization": f"Bearer {s['token']}"},
            timeout=60,
        )
        assert r.status_code == 200 and r.json()["recommendation"] is not None
        assert (tmp_path / "data" / "gpu-advisor.db").exists()
        assert (tmp_path / "data" / "reports").is_dir()
    finally:
        proc.terminate()
        proc.wait(20)
