"""Spot welcomed (spot_ok, expert review 8, R20) removes spot's preemption risk points, and an option whose
cost range straddles the budget with its middle over it ranks after one whose middle is under
(tools.recommend.risk.RISK_BUDGET_MID_OVER)."""

from __future__ import annotations

import pytest

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


def test_a_budget_under_the_middle_of_the_cost_ranks_the_option_one_step_lower(catalog: Catalog) -> None:
    """The same option scores RISK_BUDGET_MID_OVER higher with a budget between its low end and its middle
    than with one between its middle and its high end (both 'within budget only at the favourable end')."""
    settings = RecommendSettings(sensitivity=False)
    p = WorkloadProfile(model_id="llama-3-8b", method="lora", dataset_tokens=2e9)
    o = recommend(profile=p, catalog=catalog, settings=settings).primary
    assert o is not None and o.cost_usd.low < o.cost_usd.high
    key = (o.gpu, o.provider, o.total_gpus, o.pricing)

    def score_at(budget_usd: float) -> float:
        with_budget = p.model_copy(update={"budget_usd": budget_usd})
        rec = recommend(profile=with_budget, catalog=catalog, settings=settings)
        same = [x.score for x in rec.options if (x.gpu, x.provider, x.total_gpus, x.pricing) == key]
        assert same and same[0] is not None
        return same[0]

    mid = (o.cost_usd.low + o.cost_usd.high) / 2
    under_mid = score_at((o.cost_usd.low + mid) / 2)
    over_mid = score_at((mid + o.cost_usd.high) / 2)
    assert under_mid - over_mid == pytest.approx(RISK_BUDGET_MID_OVER, abs=1e-6)
