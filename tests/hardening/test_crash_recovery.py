"""Issue 17, crash recovery: a rendering job beats a heartbeat, so a job whose worker died is taken over
after a short stale period (not 5 minutes); a PDF the dead worker wrote is adopted; render and turn child
processes exit with the web process. The last test kill -9s a real server and restarts it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from advisor.store import open_repository
from advisor.web.turn_workers import TurnProcesses, TurnTooLong
from advisor.web.worker import ReportWorker, finished_pdf, report_path

ROOT = Path(__file__).resolve().parents[2]
PDF = b"%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def test_a_finished_pdf_of_a_dead_worker_is_adopted_not_rendered(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    session_id, _token = repo.create_session()
    report_id = repo.create_report_job(session_id, {})
    assert repo.claim_report_job() is not None  # the worker that then died
    report_path(tmp_path, report_id).write_bytes(PDF)
    worker = ReportWorker(repo, tmp_path, stale_after_s=0.0, in_subprocess=False)

    def never(*_a: Any) -> str:
        raise AssertionError("rendered again")

    worker._render = never  # type: ignore[method-assign,assignment]
    time.sleep(0.01)
    assert worker.run_once() is not None
    job = repo.get_report(report_id, session_id)
    assert job is not None and job.status == "done" and job.path == str(report_path(tmp_path, report_id))


def test_a_half_written_pdf_is_not_adopted(tmp_path: Path) -> None:
    path = tmp_path / "x.pdf"
    path.write_bytes(PDF[:20])
    assert not finished_pdf(path)
    path.write_bytes(PDF)
    assert finished_pdf(path)


def test_the_heartbeat_keeps_a_slow_render_from_being_taken_over(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    session_id, _token = repo.create_session()
    repo.create_report_job(session_id, {})
    worker = ReportWorker(repo, tmp_path, stale_after_s=0.5, in_subprocess=False)
    rendering = threading.Event()

    def slow(_profile: dict[str, Any], out: Path) -> str:
        rendering.set()
        time.sleep(1.6)  # three stale periods
        out.write_bytes(PDF)
        return str(out)

    worker._render = slow  # type: ignore[method-assign,assignment]
    thread = threading.Thread(target=worker.run_once)
    thread.start()
    assert rendering.wait(10)
    taken = []
    for _ in range(12):
        time.sleep(0.1)
        taken.append(repo.claim_report_job(stale_after_s=0.5))
    thread.join(10)
    assert taken == [None] * 12  # alive: never stale, though the render took 3x the stale period
    (job,) = repo.reports(session_id)
    assert job.status == "done" and job.attempts == 1


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("SLACK_")}
    env.update(
        PYTHONPATH=str(ROOT),
        GPU_ADVISOR_DATA_DIR=str(tmp_path / "data"),
        GPU_ADVISOR_LOG_LEVEL="warning",
        # the default stale period (not a shortened one): the 30 s bound holds as shipped
        GPU_ADVISOR_TURN_PROCESSES="1",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "serve", "--port", str(port)],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, "server exited"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).json() == {"ok": True}:
                return proc
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.2)


@pytest.mark.skipif(sys.platform != "linux", reason="process tree checks use Linux process ids")
def test_kill_9_while_rendering_children_exit_and_the_restart_finishes_the_report(tmp_path: Path) -> None:
    port = _port()
    url = f"http://127.0.0.1:{port}"
    proc = _start(tmp_path, port)
    try:
        s = httpx.post(url + "/api/sessions").json()
        auth = {"Authorization": f"Bearer {s['token']}"}
        base = f"{url}/api/sessions/{s['session_id']}"
        said = {"text": "LoRA Llama 3 8B, 50M tokens, 1 epoch"}
        r = httpx.post(base + "/messages", json=said, headers=auth, timeout=60)
        assert r.status_code == 200, r.text
        report_id = httpx.post(base + "/reports", headers=auth, timeout=30).json()["report_id"]
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/reports/{report_id}", headers=auth).json()["status"] == "pending":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        children = psutil.Process(proc.pid).children(recursive=True)
        assert children, "no render or turn process"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    # a child still importing (spawn) checks its parent once its imports finish: seconds on a loaded machine
    gone, alive = psutil.wait_procs(children, timeout=30)
    assert alive == [], f"orphans after kill -9: {[(p.pid, p.cmdline()) for p in alive]}"

    restarted_at = time.monotonic()
    proc = _start(tmp_path, port)
    try:
        while True:
            got = httpx.get(f"{base}/reports/{report_id}", headers=auth)
            job = got.json()
            assert "status" in job, (got.status_code, job)
            if job["status"] in ("done", "failed"):
                break
            # what is under test is that the restart finishes the report, not how fast: a CI machine at load 9
            # took over 30 s (server start, the stale period, the render)
            assert time.monotonic() - restarted_at < 90, f"still {job['status']} 90 s after the restart"
            time.sleep(1.5)  # within the session's rate limit (60 requests a minute) over the stale period
        assert job["status"] == "done", job
        print(f"report done {time.monotonic() - restarted_at:.1f} s after the restart")
        pdf = httpx.get(f"{base}/reports/{report_id}/pdf", headers=auth, timeout=30)
        assert pdf.content.startswith(b"%PDF")
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_turn_past_the_time_limit_stops_its_worker_and_the_next_turn_gets_a_fresh_one() -> None:
    processes = TurnProcesses(1, "rules")
    processes.start()
    try:
        first = processes._workers[0]
        assert first is not None
        processes.time_limit_s = 0.001  # nothing is answered this fast: stands in for a hostile message
        with pytest.raises(TurnTooLong, match=r"took over 0.001 s to answer and was stopped"):
            processes.compute("s", None, "QLoRA Llama 3 70B on 2B tokens", None)
        first.proc.join(5)
        assert not first.proc.is_alive()
        processes.time_limit_s = 60.0
        done = processes.compute("s", None, "QLoRA Llama 3 70B on 2B tokens", None)
        assert done.recommendation is not None and processes._workers[0] is not first
    finally:
        processes.stop()
