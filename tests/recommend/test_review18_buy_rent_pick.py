"""Expert review 18, R17: "what if we bought our own 16 H100s instead of renting? when does it pay off?" with
4 runs a year (2-4% use) kept the purchase as the pick although its own block said "breaks even at never",
and one reply used three horizons (12, 36 and 48 months) and two utilisations (30%, 3%). One horizon per
answer (tools.recommend.owned.answer_horizon_months), one utilisation (tools.recommend.purchase.
purchase_utilization), and purchase vs rent ranked on that horizon's totals
(tools/recommend/buy_rent_pick.py)."""

from __future__ import annotations

import re
from typing import Any

from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for
from tools.recommend.models import Recommendation
from tools.recommend.owned import DEFAULT_HORIZON_MONTHS

R17: dict[str, Any] = {
    "workload": "continual_pretraining",
    "model_id": "llama-3.1-8b",
    "method": "full",
    "dataset_tokens": 20e9,
    "claimed_gpu": "h100-sxm",
    "claimed_gpu_count": 16,
    "deployment_preference": "on_prem",
    "buy_what_if": True,
}


def _rec(fields: dict[str, Any]) -> Recommendation:
    profile, settings = profile_from_mapping(fields)
    rec, _ = recommend_for(profile, settings=settings)
    return rec


def _months_said(rec: Recommendation) -> set[str]:
    assert rec.primary is not None
    text = " ".join([*rec.primary.why, *(w for a in rec.alternatives for w in a.why)])
    # horizons and amortisation spans ("over 36 months"), not a price's age ("35 months before")
    return set(re.findall(r"(\d+)[ -]months?\b(?!\s+before)", text))


def test_r17_a_quarterly_cadence_makes_renting_the_pick() -> None:
    rec = _rec({**R17, "runs_per_month": 4 / 12})
    t, p = rec.buy_vs_rent, rec.primary
    assert t is not None and p is not None
    od = next(ln for ln in t.rents if ln.basis.name.startswith("on-demand"))
    assert od.break_even_month is None and od.total_usd < t.buy_cumulative_usd[-1]  # the block: never
    # the ranking follows the block: the same 16 H100s rented on demand first, the purchase below
    assert p.deployment == "cloud" and p.pricing == "on_demand" and (p.gpu, p.total_gpus) == ("h100-sxm", 16)
    assert p.why[0].startswith(f"rent, not buy: over {t.horizon_months} months at {t.utilization:.0%} use")
    assert "buying never pays off at this use" in p.why[0]
    bought = rec.alternatives[0]
    assert bought.deployment == "owned" and bought.why[0].startswith("to buy, if you still want to own them")
    # one horizon and one utilisation in the answer
    assert t.horizon_months == DEFAULT_HORIZON_MONTHS and t.utilization < 0.05
    assert _months_said(rec) <= {str(t.horizon_months)}, _months_said(rec)
    assert not any("30% use" in w for w in bought.why), bought.why
    # one renting total for the same GPUs: the option's own buy-vs-rent line uses the block's on-demand rate
    rent = f"renting ${od.total_usd:,.0f}"
    assert any(w.startswith("buy vs rent (16 GPUs") and rent in w for w in bought.why), bought.why


def test_r17_no_cadence_weighs_the_assumed_use_and_says_so() -> None:
    rec = _rec(R17)
    p = rec.primary
    assert p is not None and p.deployment == "cloud"
    assert "(assumed: say how often you run it)" in p.why[0]
    assert _months_said(rec) <= {str(int(DEFAULT_HORIZON_MONTHS))}


def test_near_miss_a_wish_to_own_keeps_the_purchase_first() -> None:
    # "we'd rather buy than rent": the purchase stays the pick, the block says what renting would cost
    rec = _rec({**R17, "buy_what_if": None, "runs_per_month": 4 / 12})
    assert rec.primary is not None and rec.primary.deployment == "owned"
    assert rec.buy_vs_rent is not None


def test_near_miss_buying_that_pays_off_stays_the_pick() -> None:
    # kept busy (90% use over 3 years): buying costs less over the horizon than renting on demand
    rec = _rec({**R17, "utilization": 0.9, "horizon_months": 36})
    t, p = rec.buy_vs_rent, rec.primary
    assert t is not None and p is not None
    od = next(ln for ln in t.rents if ln.basis.name.startswith("on-demand"))
    assert t.buy_cumulative_usd[-1] <= od.total_usd
    assert p.deployment == "owned" and not p.why[0].startswith("rent, not buy")
