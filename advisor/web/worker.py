"""Report rendering off the request path.

Each web process runs one `ReportWorker` thread. It claims report jobs from the repository (atomically,
so several processes or hosts never render the same job twice), renders the PDF and records the result.
A chat request never waits for a render: it only creates a job; the page polls the job's status.

By default the render itself runs in a child process (one per web process, kept warm), so WeasyPrint's
pure-Python layout never holds the web process's GIL while chat replies are being computed. A job whose
worker died mid-render stays `rendering` until it is stale (`stale_after_s`), then another worker takes
it again: a crash loses no report.

The profile stored with a job is the conversation's profile (what the user said); the worker runs the
deterministic recommender on it again, so the PDF shows the same recommendation as the chat.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from advisor.service.reports import write_report
from advisor.store import Repository
from advisor.store.repository import ReportJob
from tools.errors import InputError
from tools.profile import WorkloadProfile

log = logging.getLogger("gpu_advisor.web.worker")


def report_path(reports_dir: Path, report_id: str) -> Path:
    """Where a report's PDF lives: named by the job id (ids are URL-safe tokens made by the repository)."""
    return Path(reports_dir) / f"{report_id}.pdf"


def render_profile_pdf(profile: dict[str, Any], out_path: str) -> str:
    """Recommend for `profile` (a WorkloadProfile as JSON) and write the PDF to `out_path` atomically."""
    prof = WorkloadProfile.model_validate(profile)
    out = Path(out_path)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        write_report(prof, tmp, fmt="pdf")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return str(out)


class ReportWorker:
    """A daemon thread that polls `repo.claim_report_job` and renders what it claims."""

    def __init__(
        self,
        repo: Repository,
        reports_dir: Path,
        *,
        poll_s: float = 0.5,
        stale_after_s: float = 300.0,
        in_subprocess: bool = True,
    ) -> None:
        self.repo = repo
        self.reports_dir = Path(reports_dir)
        self.poll_s = poll_s
        self.stale_after_s = stale_after_s
        self.in_subprocess = in_subprocess
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="gpu-advisor-report-worker", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                job = self.run_once()
            except Exception:  # the database was unreachable, say: keep the thread alive and retry
                log.exception("report worker: claiming a job failed")
                job = None
            if job is None:
                self._stop.wait(self.poll_s)

    def run_once(self) -> ReportJob | None:
        """Claim and render one job; returns it (as claimed), or None when there was nothing to do."""
        job = self.repo.claim_report_job(stale_after_s=self.stale_after_s)
        if job is None:
            return None
        out = report_path(self.reports_dir, job.id)
        try:
            path = self._render(job.profile, out)
        except InputError as exc:
            self.repo.fail_report(job.id, str(exc))
        except Exception as exc:
            log.exception("report %s failed", job.id)
            reason = f"the report could not be rendered ({type(exc).__name__}); try again"
            self.repo.fail_report(job.id, reason)
        else:
            self.repo.finish_report(job.id, path)
        return job

    def _render(self, profile: dict[str, Any], out: Path) -> str:
        self.reports_dir.mkdir(parents=True, exist_ok=True)
        if not self.in_subprocess:
            return render_profile_pdf(profile, str(out))
        for attempt in (1, 2):
            try:
                future = self._executor().submit(render_profile_pdf, profile, str(out))
            except RuntimeError:
                # spawn refused (a __main__ without the `if __name__ == "__main__"` guard, as in some
                # embedding scripts): render in this thread from now on rather than fail every report
                log.warning("report worker: cannot start a render process; rendering in-process")
                self.in_subprocess = False
                self._pool = None
                return render_profile_pdf(profile, str(out))
            try:
                return future.result()
            except BrokenProcessPool:  # the child died (killed, out of memory): start a fresh one once
                self._pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the web process has threads (and maybe database connections)
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool
