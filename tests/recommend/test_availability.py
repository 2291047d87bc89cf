"""An uptime target of 99.9% or more (or 'high availability') runs N+1 replicas, each set of N able to
carry the load at the stated latency (tools.recommend.serving_plan.SPARE_REPLICAS); a lower target, no
target or a batch job keeps the fewest replicas the load needs."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.serving_plan import HA_AVAILABILITY, downtime_minutes_per_month, needs_spare

QUIET = RecommendSettings(sensitivity=False)
EU_70B: dict[str, Any] = dict(workload="inference", model_id="llama-3.1-70b", concurrency=200, eu_only=True)


def _rec(catalog: Catalog, **kw: Any) -> Recommendation:
    return recommend(profile=WorkloadProfile(**kw), catalog=catalog, settings=QUIET)


def test_three_nines_gets_a_spare_replica_that_the_survivors_do_not_need(catalog: Catalog) -> None:
    plain = _rec(catalog, **EU_70B).primary
    ha = _rec(catalog, **EU_70B, availability_target=0.999).primary
    assert plain is not None and ha is not None and plain.serving is not None and ha.serving is not None
    assert ha.serving.replicas >= 2 and ha.serving.spare_replicas == 1
    assert ha.total_gpus == ha.serving.replicas * ha.serving.tensor_parallel * ha.serving.pipeline_stages
    # the replicas left after one fails carry all 200 users within what their KV cache holds
    survivors = ha.serving.replicas - ha.serving.spare_replicas
    assert ha.serving.concurrency_per_replica * survivors >= 200
    assert ha.serving.concurrency_per_replica <= ha.serving.max_concurrency_per_replica
    # the spare costs one more replica's month: never less than the single-replica answer
    assert ha.cost_usd.low > plain.cost_usd.low
    note = next(w for w in ha.why if "N+1" in w)
    assert "99.9% uptime target" in note and "44 min of downtime a month" in note


def test_the_survivors_meet_a_stated_latency(catalog: Catalog) -> None:
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-8b", concurrency=50,
               latency_ms_per_token=30, availability_target=0.9995)  # fmt: skip
    assert rec.primary is not None and rec.primary.serving is not None
    s = rec.primary.serving
    assert s.spare_replicas == 1 and s.replicas >= 2
    assert s.ms_per_output_token.low <= 30  # figures are the survivors', with one replica down


@pytest.mark.parametrize("extra", [{}, {"availability_target": 0.99}])
def test_no_or_a_low_target_keeps_one_replica(catalog: Catalog, extra: dict[str, Any]) -> None:
    o = _rec(catalog, **EU_70B, **extra).primary
    assert o is not None and o.serving is not None
    assert o.serving.spare_replicas == 0 and not any("N+1" in w for w in o.why)


def test_a_batch_job_gets_no_spare() -> None:
    job = WorkloadProfile(workload="inference", model_id="qwen2.5-72b", generation_tokens=2e9,
                          availability_target=0.999)  # fmt: skip
    assert not needs_spare(job)
    assert needs_spare(WorkloadProfile(workload="inference", availability_target=HA_AVAILABILITY))
    assert not needs_spare(WorkloadProfile(workload="inference", availability_target=0.995))


def test_downtime_budget() -> None:
    # 99.9% of a 730 h month: 0.001 x 730 x 60 = 43.8 minutes
    assert downtime_minutes_per_month(0.999) == pytest.approx(43.8)
