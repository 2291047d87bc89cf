"""Expert review 10, R20: a QLoRA job on the 2 A100s a team owns ran on 1 of them (82-154 h) because the
balanced score valued $5 of power above 40-60 hours. Owned GPUs cost only their marginal rate, so a training
job uses more of them when that finishes it OWNED_SPEEDUP_MIN times sooner within OWNED_COST_SLACK more
marginal cost (tools/recommend/owned_first.py)."""

from __future__ import annotations

from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for
from tools.recommend.owned_first import OWNED_COST_SLACK, OWNED_SPEEDUP_MIN

R20 = {"workload": "fine_tuning", "model_id": "qwen2.5-72b", "method": "qlora", "dataset_tokens": 1e8}


def _primary(owned: int) -> tuple[int, float, float]:
    profile, settings = profile_from_mapping({**R20, "owned_gpu": "a100-80gb-pcie", "owned_gpu_count": owned})
    rec, _ = recommend_for(profile, settings=settings)
    p = rec.primary
    assert p is not None and p.deployment == "owned" and p.gpu == "a100-80gb-pcie"
    return p.total_gpus, p.wall_hours.mid, p.cost_usd.mid


def test_both_owned_cards_are_used_when_that_halves_the_time() -> None:
    n2, hours2, cost2 = _primary(2)
    assert n2 == 2
    n1, hours1, cost1 = _primary(1)  # the single card the rule would otherwise have kept
    assert n1 == 1
    assert hours2 * OWNED_SPEEDUP_MIN <= hours1 and cost2 <= cost1 * (1 + OWNED_COST_SLACK)
