"""Reserved cloud capacity the team holds (WorkloadProfile.owned_reserved; expert review 4, R12): the
reservation's fee is committed and the provider pays the power, so using it costs nothing more; the
answer says whether the job ends before the term does (tools/recommend/owned_first.py)."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.owned_first import YOURS_PROVIDER
from tools.units import HOURS_PER_MONTH

QUIET = RecommendSettings(sensitivity=False)
PRETRAIN_7B = dict(workload="pretraining", params_b=7.0, method="full", dataset_tokens=1e12)


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    p = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=p, catalog=catalog, settings=QUIET)


def test_a_reservation_runs_the_job_at_no_extra_cost(catalog: Catalog) -> None:
    owned = _rec(catalog, **PRETRAIN_7B, owned_gpu="h100-sxm", owned_gpu_count=16).primary
    reserved = dict(owned_reserved=True, owned_provider="aws")
    held = _rec(catalog, **PRETRAIN_7B, owned_gpu="h100-sxm", owned_gpu_count=16, **reserved).primary
    assert owned is not None and held is not None
    assert held.provider == YOURS_PROVIDER and held.pricing_words() == "your reservation"
    assert owned.usd_per_gpu_hour > 0.2 and held.usd_per_gpu_hour == 0  # power and staff vs nothing more
    assert held.cost_usd.high == 0
    assert any("you hold reserved at aws" in w for w in held.why)
    assert not any("power at" in w or "amortised" in w for w in held.why)
    assert any("than using your reservation" in w for w in held.why)


def test_the_term_left_is_checked_against_the_run(catalog: Catalog) -> None:
    base = dict(PRETRAIN_7B, owned_gpu="h100-sxm", owned_gpu_count=16, owned_reserved=True)
    o = _rec(catalog, **base).primary
    assert o is not None
    low, high = o.wall_hours.low, o.wall_hours.high
    assert not any("term ends" in w for w in o.why)  # no term said: nothing to compare
    for months, words in (
        ((high + 10) / HOURS_PER_MONTH, "it finishes before the term ends:"),
        ((low - 10) / HOURS_PER_MONTH, "it does not finish before the term ends"),
        ((low + high) / 2 / HOURS_PER_MONTH, "only near the fast end of the range"),
    ):
        got = _rec(catalog, **base, owned_months_left=months).primary
        assert got is not None
        assert any(words in w for w in got.why), (months, got.why)


def test_no_buy_versus_rent_for_a_reservation(catalog: Catalog) -> None:
    fields = dict(PRETRAIN_7B, owned_gpu="h100-sxm", owned_gpu_count=16, horizon_months=12.0)
    assert _rec(catalog, **fields).buy_vs_rent is not None
    assert _rec(catalog, **fields, owned_reserved=True).buy_vs_rent is None


def test_a_purchase_is_spread_over_a_stated_horizon_shorter_than_the_hardware_life(catalog: Catalog) -> None:
    # expert review 5: "1-year reserved instances are fine" -> buy 2x A100 at $1,158/month, the purchase
    # spread over 48 months though the plan is 12; no resale value is assumed (tools.cost_owned)
    from tools.catalog.schema import Estimate
    from tools.recommend.owned import DEFAULT_HORIZON_MONTHS, owned_amortization_months

    def months(p: WorkloadProfile) -> float:
        got = owned_amortization_months(catalog, p)
        return got.value if isinstance(got, Estimate) else got

    life = float(catalog.estimate("hardware_amortization_months").value)
    assert life > 12
    short = WorkloadProfile().with_values("stated", horizon_months=12.0)
    assert months(short) == 12.0
    long = WorkloadProfile().with_values("stated", horizon_months=life + 12)
    assert months(long) == life
    # no horizon said: the buy-vs-rent default horizon, the one the answer weighs (expert review 18, R17:
    # "the purchase over 48 months" beside a 36-month buy-vs-rent block), when shorter than the life
    assumed = WorkloadProfile().with_values("assumed", horizon_months=12.0)
    assert months(assumed) == min(DEFAULT_HORIZON_MONTHS, life)
    serve = dict(workload="inference", model_id="qwen2.5-32b", concurrency=60, horizon_months=12.0)
    rec = _rec(catalog, **serve)
    assert rec.primary is not None and rec.primary.pricing_words() != "to buy"


def test_held_capacity_is_not_hardware_the_team_runs(catalog: Catalog) -> None:
    # seen on the rendered PDF: "you run the hardware: procurement lead time ..." under a cloud reservation
    from reports.view import _option_row

    base = dict(PRETRAIN_7B, owned_gpu="h100-sxm", owned_gpu_count=16)
    owned, held = _rec(catalog, **base).primary, _rec(catalog, **base, owned_reserved=True).primary
    assert owned is not None and held is not None
    assert any("procurement" in r for r in owned.risks) and not any("procurement" in r for r in held.risks)
    row = _option_row(held)
    assert row["deployment"] == "held cloud capacity" and row["tier"] == ""
