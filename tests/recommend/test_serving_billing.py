"""Serving on rented GPUs is billed for every hour the endpoint holds them (730 h a month), whatever the
utilisation, unless it scales to zero; owned hardware keeps utilisation (its amortised rate is per busy
hour)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Option, Recommendation, RecommendSettings
from tools.units import HOURS_PER_MONTH

SERVING: dict[str, Any] = {
    "workload": "inference",
    "model_id": "llama-3-8b",
    "precision": "bf16",
    "concurrency": 4,
    "context_len": 4096,
}


def _run(catalog: Catalog, scales: bool | None = None, **fields: Any) -> Recommendation:
    settings = RecommendSettings(sensitivity=False, serving_scales_to_zero=scales)
    return recommend(profile=WorkloadProfile(**{**SERVING, **fields}), catalog=catalog, settings=settings)


def _rented(rec: Recommendation) -> list[Option]:
    return [o for o in rec.options if o.deployment not in ("owned", "colocation")]


def test_rented_endpoint_is_billed_all_month_and_says_it_idles(catalog: Catalog) -> None:
    rec = _run(catalog, utilization=0.25)
    rented = _rented(rec)
    assert rented
    for o in rented:
        assert o.gpu_hours is not None
        assert o.gpu_hours.low == pytest.approx(HOURS_PER_MONTH * o.total_gpus)  # 730 h, not 182.5 h
        assert o.cost_usd.low >= HOURS_PER_MONTH * o.total_gpus * o.usd_per_gpu_hour - 1e-6
        assert any("idles 75%" in r and "scale-to-zero" in r for r in o.risks)
    assert "endpoint kept up all month" in {a.name for a in rec.assumptions}


def test_scale_to_zero_bills_busy_hours_and_no_idle_note(catalog: Catalog) -> None:
    always = _run(catalog, utilization=0.25)
    scaled = _run(catalog, scales=True, utilization=0.25)
    assert always.primary is not None and scaled.primary is not None
    for o in _rented(scaled):
        assert o.gpu_hours is not None
        assert o.gpu_hours.low == pytest.approx(HOURS_PER_MONTH * 0.25 * o.total_gpus)
        assert not any("idles" in r for r in o.risks)
    assert scaled.primary.cost_usd.mid < always.primary.cost_usd.mid


def test_no_idle_note_when_busy_all_month_or_user_keeps_it_up(catalog: Catalog) -> None:
    for rec in (_run(catalog, utilization=1.0), _run(catalog, scales=False, utilization=0.25), _run(catalog)):
        for o in rec.options:
            assert not any("idles" in r for r in o.risks)


def test_owned_serving_keeps_utilisation(catalog: Catalog) -> None:
    rec = _run(catalog, utilization=0.5, horizon_months=36)
    owned = [o for o in rec.options if o.deployment in ("owned", "colocation")]
    assert owned
    for o in owned:  # amortised rate per busy hour x busy hours
        assert o.gpu_hours is not None
        assert o.gpu_hours.low == pytest.approx(HOURS_PER_MONTH * 0.5 * o.total_gpus)
        assert not any("idles" in r for r in o.risks)
