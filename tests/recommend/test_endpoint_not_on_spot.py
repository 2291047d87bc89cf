"""Rule 2 (tools/recommend/buyer_rules.py): an endpoint serving around the clock is not primaried on spot
capacity (a preempted replica is an outage). Before: "8B chatbot for 30 users ... cheapest reliable
option" -> 4x L4 at gcp (spot)."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.options import SPOT_ENDPOINT_RISK

QUIET = RecommendSettings(sensitivity=False)


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    profile = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=profile, catalog=catalog, settings=QUIET)


def test_a_cheapest_chatbot_endpoint_is_not_on_spot(catalog: Catalog) -> None:
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-8b", concurrency=30, context_len=8192,
               objective="cheapest")  # fmt: skip
    assert rec.primary is not None
    assert rec.primary.pricing != "spot"
    assert rec.primary.cost_basis == "per_month"
    # spot stays on the table, as the cheapest alternative the buyer can weigh, with its outage risk said
    spot = [a for a in rec.alternatives if a.pricing == "spot" and a.label == "cheapest"]
    assert spot and all(SPOT_ENDPOINT_RISK in a.risks for a in spot)
    assert SPOT_ENDPOINT_RISK not in rec.primary.risks


def test_a_batch_job_on_spot_carries_no_endpoint_outage_note(catalog: Catalog) -> None:
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-8b", generation_tokens=2e9,
               prompt_tokens=500, output_tokens=400, deadline_hours=72.0, objective="cheapest")  # fmt: skip
    options = [o for o in (rec.primary, *rec.alternatives) if o is not None]
    assert any(o.pricing == "spot" for o in options)  # a restart, not an outage: spot is offered plainly
    assert all(SPOT_ENDPOINT_RISK not in o.risks for o in options)
