"""The report worker: failures are recorded with a message, and rendering falls back to the worker's
thread when no render process can be started."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.web.worker import ReportWorker, report_path


def test_a_profile_the_recommender_refuses_fails_with_its_message(repo: Any, reports_dir: Path) -> None:
    sid, _ = repo.create_session()
    report_id = repo.create_report_job(sid, {})  # no model: the recommender cannot size anything
    worker = ReportWorker(repo, reports_dir, in_subprocess=False)
    assert worker.run_once() is not None
    job = repo.get_report(report_id, sid)
    assert job.status == "failed" and "model" in (job.error or "").lower()
    assert not report_path(reports_dir, report_id).exists()
    assert worker.run_once() is None  # nothing left to do


def test_unexpected_errors_are_recorded_without_internals(repo: Any, reports_dir: Path) -> None:
    sid, _ = repo.create_session()
    report_id = repo.create_report_job(sid, {"params_b": -5})  # invalid: a validation error, not InputError
    ReportWorker(repo, reports_dir, in_subprocess=False).run_once()
    job = repo.get_report(report_id, sid)
    assert job.status == "failed" and "could not be rendered" in (job.error or "")
    assert "Traceback" not in (job.error or "")


def test_falls_back_to_in_thread_render_when_spawn_is_refused(repo: Any, reports_dir: Path) -> None:
    class Refusing:
        def submit(self, *_a: Any, **_k: Any) -> Any:
            raise RuntimeError("An attempt has been made to start a new process before ...")

    sid, _ = repo.create_session()
    profile = {"model_id": "llama-3-8b", "method": "lora", "dataset_tokens": 5e7}
    report_id = repo.create_report_job(sid, profile)
    worker = ReportWorker(repo, reports_dir, in_subprocess=True)
    worker._executor = lambda: Refusing()  # type: ignore[method-assign,assignment,return-value]
    worker.run_once()
    job = repo.get_report(report_id, sid)
    assert job.status == "done", job.error
    assert Path(job.path).read_bytes().startswith(b"%PDF")
    assert worker.in_subprocess is False
