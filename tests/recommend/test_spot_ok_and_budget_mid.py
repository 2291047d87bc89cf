"""Spot welcomed (spot_ok, expert review 8, R20) removes spot's preemption risk points, and an option whose
cost range straddles the budget with its middle over it ranks after one whose middle is under
(tools.recommend.risk.RISK_BUDGET_MID_OVER)."""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings
from tools.recommend.risk import RISK_BUDGET_MID_OVER


def test_a_user_fine_with_spot_pays_no_preemption_points(catalog: Catalog) -> None:
    settings = RecommendSettings(sensitivity=False)
    p = WorkloadProfile(model_id="llama-3-8b", method="lora", dataset_tokens=30e9)  # spot is cheapest here
    plain = recommend(profile=p, catalog=catalog, settings=settings)
    ok = recommend(profile=p.model_copy(update={"spot_ok": True}), catalog=catalog, settings=settings)
    before = {(o.gpu, o.provider, o.total_gpus): o.score for o in plain.options if o.pricing == "spot"}
    after = {(o.gpu, o.provider, o.total_gpus): o.score for o in ok.options if o.pricing == "spot"}
    shared = [k for k in before if k in after]
    assert shared, "the bundled catalog offers spot for this job"
    for k in shared:
        assert after[k] is not None and before[k] is not None and after[k] < before[k]


def test_the_mid_over_budget_penalty_is_named() -> None:
    assert RISK_BUDGET_MID_OVER > 0
