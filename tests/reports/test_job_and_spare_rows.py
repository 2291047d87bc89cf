"""Serving rows for a batch generation job (throughput, hours to finish, meets the deadline; no time to
first token or per-user latency; its concurrency is the plan's, not an assumption shown to the user)
and for an N+1 plan (the load is the survivors', with one replica down)."""

from __future__ import annotations

import pytest

from advisor.service.recommending import recommend_for
from advisor.web.views import recommendation_view
from reports.markdown import render_markdown
from reports.view import build_context
from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.models import Recommendation


@pytest.fixture(scope="module")
def batch_job() -> Recommendation:
    profile = WorkloadProfile(
        workload="inference", model_id="qwen2.5-72b", generation_tokens=2e9, deadline_hours=168
    )
    rec, _ = recommend_for(profile)
    return rec


def test_batch_job_rows_show_throughput_hours_and_deadline(batch_job: Recommendation) -> None:
    p = batch_job.primary
    assert p is not None and p.serving is not None and p.serving.batch_job
    rows = {r["label"]: r["value"] for r in build_context(batch_job)["primary"]["serving"]}
    assert {"Throughput", "Hours to finish", "Meets the deadline"} <= set(rows)
    assert not {"Time to first token", "Per user", "Headroom", "Load"} & set(rows)
    assert p.decode_tokens_per_s is not None
    assert rows["Throughput"] == present.tokens_per_s_range(p.decode_tokens_per_s)
    assert rows["Hours to finish"] == present.hours_range(p.wall_hours)
    assert p.deadline_status is not None
    assert rows["Meets the deadline"] == {"meets": "yes", "maybe": "only at the fast end", "misses": "no"}[
        p.deadline_status
    ]
    assert f"{p.serving.concurrency_per_replica:,} (the plan's" in rows["Requests per replica"]
    view = recommendation_view(batch_job)
    assert view is not None and view["primary"] is not None
    assert "Time to first token" not in [r["label"] for r in view["primary"]["serving"]]
    assert "Time to first token" not in render_markdown(batch_job)


def test_batch_job_concurrency_is_not_an_assumption(batch_job: Recommendation) -> None:
    assert batch_job.profile.status_of("concurrency") != "assumed"
    assert batch_job.profile.concurrency is None


def test_spare_replica_load_row_reads_with_one_down() -> None:
    profile = WorkloadProfile(workload="inference", model_id="llama-3.1-70b", concurrency=200, eu_only=True,
                              availability_target=0.999)  # fmt: skip
    rec, _ = recommend_for(profile)
    assert rec.primary is not None and rec.primary.serving is not None
    s = rec.primary.serving
    rows = {r["label"]: r["value"] for r in build_context(rec)["primary"]["serving"]}
    assert f"{s.replicas} replicas, 1 spare" in rows["Throughput per replica"]
    assert "with 1 replica down" in rows["Load"] and f"(200 over {s.replicas - 1})" in rows["Load"]
