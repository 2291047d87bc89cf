"""Owned hardware against the use its runs imply: 8 one-hour LoRA runs a month do not keep 8x B200 busy
80% of the time, whatever the profile says (runs_per_month x wall hours / 730 h; tools.classify)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.offers import RESERVED_UTILIZATION_MIN
from tools.recommend.owned import OWNED_UTILIZATION_MIN, owned_rate
from tools.units import HOURS_PER_MONTH

QUIET = RecommendSettings(sensitivity=False)
FEW_SHORT_RUNS: dict[str, Any] = {
    "model_id": "llama-3-8b",
    "method": "lora",
    "dataset_tokens": 100e6,
    "epochs": 1,
    "utilization": 0.8,
    "horizon_months": 36,
    "runs_per_month": 8,
}


def _run(catalog: Catalog, **fields: Any) -> Recommendation:
    return recommend(profile=WorkloadProfile(**{**FEW_SHORT_RUNS, **fields}), catalog=catalog, settings=QUIET)


def _owned(rec: Recommendation) -> list[Any]:
    return [o for o in rec.options if o.deployment in ("owned", "colocation")]


def test_owned_options_are_only_those_the_runs_keep_busy(catalog: Catalog) -> None:
    rec = _run(catalog)
    assert rec.primary is not None
    for o in _owned(rec):  # before: 8x B200 owned was the primary at 0.2-0.4 h a run (0.3% use)
        implied = 8 * o.wall_hours.mid / HOURS_PER_MONTH
        assert implied >= OWNED_UTILIZATION_MIN
    assert any("left out" in n and "you said 80% busy" in n for n in rec.notes)
    assert any("other work must fill the rest" in n for n in rec.notes)


def test_amortised_rate_uses_the_lower_utilisation(catalog: Catalog) -> None:
    # on-premises only: since issue 16 an owned option that a rental beats on cost and time at less
    # risk is not displayed, so the rate is checked where owned options are all there is
    rec = _run(catalog, deployment_preference="on_prem")
    owned = _owned(rec)
    assert owned, "a slow single small GPU is kept busy by 8 runs a month (e.g. 1x L4, ~45 h a run)"
    for o in owned:
        implied = 8 * o.wall_hours.mid / HOURS_PER_MONTH
        if implied < OWNED_UTILIZATION_MIN:
            continue  # kept only because on-premises was asked for (see the test below)
        eff = min(0.8, implied)
        rate = owned_rate(
            catalog,
            catalog.gpu(o.gpu),
            utilization=eff,
            horizon_months=36,
            colocation=o.deployment == "colocation",
        )
        assert o.usd_per_gpu_hour == pytest.approx(float(rate.usd_per_gpu_hour))
        # the text rounds the candidate's own implied use (its wall-clock range), within a point of eff; the
        # buy-vs-rent line needs an on-demand rental of the same GPU (issue 13 made 1x RTX 3090, which has no
        # rental price, the owned pick instead of 1x L4)
        texts = [f"{eff + d:.0%} use" for d in (-0.01, 0, 0.01)]
        if any(r.pricing == "on_demand" for r in catalog.prices_for(o.gpu)):
            assert any(w.startswith("buy vs rent") and any(t in w for t in texts) for w in o.why)
    steps = {s.step for s in rec.trace}
    assert any(s.endswith("implied_utilization") for s in steps)


def test_on_prem_wish_keeps_owned_hardware_with_the_warning(catalog: Catalog) -> None:
    rec = _run(catalog, deployment_preference="on_prem")
    owned = _owned(rec)
    assert owned and rec.primary is not None and rec.primary.deployment == "owned"
    idle = [o for o in owned if any("other work must fill the rest" in r for r in o.risks)]
    assert idle
    for o in idle:  # billed at what the runs fill, not at the stated 80%
        at_stated = owned_rate(
            catalog, catalog.gpu(o.gpu), utilization=0.8, horizon_months=36, colocation=False
        )
        assert o.usd_per_gpu_hour > float(at_stated.usd_per_gpu_hour)


def test_runs_that_fill_the_month_keep_the_stated_utilisation(catalog: Catalog) -> None:
    # 2B-token runs, 8 a month (advisor/examples/owned-lora-8b.yaml): owned hardware stays on offer
    rec = _run(catalog, dataset_tokens=2e9, ops_capacity="dedicated")
    owned = _owned(rec)
    assert owned
    for o in owned:
        assert 8 * o.wall_hours.mid / HOURS_PER_MONTH >= 0.8  # these runs fill the stated 80% or more
        assert not any("other work" in r for r in o.risks)
        at_stated = owned_rate(
            catalog,
            catalog.gpu(o.gpu),
            utilization=0.8,
            horizon_months=36,
            colocation=o.deployment == "colocation",
            amortization_months=36.0,  # the stated 36-month horizon, shorter than the hardware's life
        )
        assert o.usd_per_gpu_hour == pytest.approx(float(at_stated.usd_per_gpu_hour))


def test_reserved_training_capacity_the_runs_leave_idle_is_not_offered(catalog: Catalog) -> None:
    # expert review 2026-11-27: '~60% busy' beside one 2B-token LoRA a month picked 8x L40S reserved
    # at a per-job price, though a reserved term bills every hour of the month
    rec = _run(catalog, dataset_tokens=2e9, utilization=0.6, runs_per_month=1)
    for o in rec.options:
        if o.pricing == "reserved":
            assert 1 * o.wall_hours.mid / HOURS_PER_MONTH >= RESERVED_UTILIZATION_MIN
    assert rec.primary is not None and rec.primary.pricing != "reserved"


def test_buy_vs_rent_is_costed_at_the_use_the_runs_fill(catalog: Catalog) -> None:
    rec = _run(catalog, dataset_tokens=2e9, utilization=0.6, runs_per_month=1)
    timeline = rec.buy_vs_rent
    assert rec.primary is not None and timeline is not None
    implied = rec.primary.wall_hours.mid / HOURS_PER_MONTH
    assert timeline.utilization == pytest.approx(max(implied, 0.001), rel=0.05)
    assert timeline.cheapest != "buy"


def test_a_nightly_batch_job_does_not_buy_hardware_its_runs_leave_idle(catalog: Catalog) -> None:
    # third expert review 2026-11-27: a nightly 8-hour classification with 'a 1-year reservation' was
    # answered 'buy 96x B200 for $4.68M' at an assumed 100% use
    p = WorkloadProfile(
        workload="inference", model_id="llama-3.1-70b", prompt_tokens=3000, output_tokens=3,
        generation_tokens=6e6, deadline_hours=8, runs_per_month=30.4, horizon_months=12,
    )  # fmt: skip
    rec = recommend(profile=p, catalog=catalog, settings=QUIET)
    assert rec.primary is not None and rec.primary.deployment not in ("owned", "colocation")
