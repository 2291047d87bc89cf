"""Report rendering off the request path.

Each web process runs one `ReportWorker` thread. It claims report jobs from the repository (atomically,
so several processes or hosts never render the same job twice), renders the PDF and records the result.
A chat request never waits for a render: it only creates a job; the page polls the job's status.

By default the render itself runs in a child process (one per web process, kept warm, exiting with the
web process: advisor.web.lifeline), so WeasyPrint's pure-Python layout never holds the web process's GIL
while chat replies are being computed. While a job renders its worker beats a heartbeat into the job
every `stale_after_s / HEARTBEATS_PER_STALE` seconds; a job whose worker died (kill -9, a lost host)
misses its beats and is taken again after `stale_after_s` (15 s by default), by any process, a restarted
one included. A PDF the dead worker had already written is adopted, not rendered again: a crash loses
no report and costs at most one stale period.

The profile stored with a job is the conversation's profile (what the user said); the worker runs the
deterministic recommender on it again, so the PDF shows the same recommendation as the chat.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from advisor.service.reports import write_report
from advisor.store import Repository
from advisor.store.repository import REPORT_STALE_AFTER_S, ReportJob
from advisor.web.lifeline import die_with_parent
from tools.errors import InputError
from tools.profile import WorkloadProfile

log = logging.getLogger("gpu_advisor.web.worker")


def report_path(reports_dir: Path, report_id: str) -> Path:
    """Where a report's PDF lives: named by the job id (ids are URL-safe tokens made by the repository)."""
    return Path(reports_dir) / f"{report_id}.pdf"


PURGE_EVERY_S = 3600.0
"""How often the worker deletes conversations past the retention period (GPU_ADVISOR_RETENTION_DAYS)."""
HEARTBEATS_PER_STALE = 5
"""A rendering job's heartbeat is beaten this many times per stale period: a live worker never looks dead
after one slow database write."""


def delete_report_files(reports_dir: Path, report_ids: list[str]) -> int:
    """Delete the PDFs (and any half-written temporary files) of `report_ids`; returns how many."""
    removed = 0
    for report_id in report_ids:
        final = report_path(reports_dir, report_id)
        for path in (final, *Path(reports_dir).glob(f".{final.name}.*.tmp")):
            try:
                path.unlink()
                removed += 1
            except FileNotFoundError:
                pass
    return removed


def finished_pdf(path: Path) -> bool:
    """True when `path` is a complete PDF (renders write a temporary file and rename it, so a file under
    the final name was written whole; its header and end-of-file marker are checked anyway)."""
    try:
        with path.open("rb") as f:
            head = f.read(5)
            f.seek(max(0, path.stat().st_size - 1024))
            tail = f.read()
    except OSError:
        return False
    return head == b"%PDF-" and b"%%EOF" in tail


def _render_child_start(parent: int) -> None:
    """A render process's start: it exits when the web process does (no orphan after a kill -9); it is
    started by the report worker's thread, which lives as long as the web process, so the kernel's
    parent-death signal is safe to ask for (a render can hold the interpreter lock for seconds)."""
    die_with_parent(parent, kernel_signal=True)


def render_profile_pdf(profile: dict[str, Any], out_path: str) -> str:
    """Recommend for `profile` (a WorkloadProfile as JSON) and write the PDF to `out_path` atomically."""
    prof = WorkloadProfile.model_validate(profile)
    out = Path(out_path)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        write_report(prof, tmp, fmt="pdf")
        os.chmod(tmp, 0o600)  # a user's report: readable by the server's user only
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
        stale_after_s: float = REPORT_STALE_AFTER_S,
        in_subprocess: bool = True,
        retention_days: float | None = None,
    ) -> None:
        self.repo = repo
        self.retention_days = retention_days
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

    def purge(self) -> int:
        """Retention: delete conversations untouched for `retention_days`, with their report files."""
        if self.retention_days is None:
            return 0
        count, report_ids = self.repo.purge_older_than(self.retention_days)
        delete_report_files(self.reports_dir, report_ids)
        if count:
            log.info("retention: deleted %d conversations older than %g days", count, self.retention_days)
        return count

    def _loop(self) -> None:
        next_purge = 0.0
        while not self._stop.is_set():
            if self.retention_days is not None and time.monotonic() >= next_purge:
                next_purge = time.monotonic() + PURGE_EVERY_S
                try:
                    self.purge()
                except Exception:
                    log.exception("report worker: the retention purge failed")
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
        if finished_pdf(out):  # a worker that died after writing it: adopt, do not render again
            log.info("report %s: adopting the PDF its last worker wrote", job.id)
            self.repo.finish_report(job.id, str(out))
            return job
        try:
            with self._heartbeat(job.id):
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

    @contextmanager
    def _heartbeat(self, report_id: str) -> Iterator[None]:
        """Beat the job's heartbeat while the block runs (a thread: the render may hold this one)."""
        done = threading.Event()
        every_s = max(0.05, self.stale_after_s / HEARTBEATS_PER_STALE)

        def beat() -> None:
            while not done.wait(every_s):
                try:
                    self.repo.touch_report(report_id)
                except Exception:  # the database was unreachable: the next beat tries again
                    log.warning("report %s: heartbeat failed", report_id, exc_info=True)

        thread = threading.Thread(target=beat, name="gpu-advisor-report-heartbeat", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join(every_s + 1)

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
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_render_child_start,
                initargs=(os.getpid(),),
            )
        return self._pool
