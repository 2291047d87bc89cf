"""Price spread (issue 3: "cost range (from the MFU range and the price spread)"): a spot, community or
marketplace quote floats, so the option's cost range runs from the fast end at the quoted price to the
slow end at the quoted price raised by a named, sourced catalog estimate; list prices are firm."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import evaluate_configuration, recommend
from tools.recommend.models import Option, RecommendSettings
from tools.recommend.spread import price_spread
from tools.trace import TraceBuilder

QUIET = RecommendSettings(sensitivity=False)
BASE_8B_LORA: dict[str, Any] = {
    "model_id": "llama-3-8b",
    "method": "lora",
    "dataset_tokens": 200e6,
    "epochs": 2,
}


def _option(catalog: Catalog, provider: str, pricing: str, gpu: str = "h100-sxm") -> Option:
    profile = WorkloadProfile(**BASE_8B_LORA)
    return evaluate_configuration(
        profile=profile, catalog=catalog, gpu=gpu, provider=provider, pricing=pricing, settings=QUIET
    )


def test_spot_cost_range_is_wider_than_the_mfu_range_by_the_named_fraction(catalog: Catalog) -> None:
    frac = catalog.estimate("price_spread_spot_fraction").value
    o = _option(catalog, "gcp", "spot")
    assert o.gpu_hours is not None and o.pricing == "spot"
    rate = o.usd_per_gpu_hour  # the quoted price stays the option's rate
    assert rate == pytest.approx(6.57)  # catalog: GCP H100 spot (shared/references/prices.md)
    mfu_only_high = o.gpu_hours.high * rate
    assert o.cost_usd.low == pytest.approx(o.gpu_hours.low * rate)
    assert o.cost_usd.high == pytest.approx(mfu_only_high * (1 + frac))
    assert o.cost_usd.high > mfu_only_high * 1.5
    assert o.usd_per_gpu_hour_high == pytest.approx(rate * (1 + frac))
    assert any("price_spread_spot_fraction" in r for r in o.risks)


def test_on_demand_list_price_adds_no_spread(catalog: Catalog) -> None:
    o = _option(catalog, "lambda", "on_demand")
    assert o.gpu_hours is not None and o.usd_per_gpu_hour_high is None
    assert o.cost_usd.low == pytest.approx(o.gpu_hours.low * o.usd_per_gpu_hour)
    assert o.cost_usd.high == pytest.approx(o.gpu_hours.high * o.usd_per_gpu_hour)


def test_marketplace_and_community_quotes_float_reserved_is_firm(catalog: Catalog) -> None:
    tb = TraceBuilder()
    spot_market = price_spread(catalog, pricing="spot", tier="marketplace", tb=tb)
    assert spot_market.name == "price_spread_marketplace_fraction"  # the widest that applies
    assert spot_market.fraction == catalog.estimate("price_spread_marketplace_fraction").value
    community = price_spread(catalog, pricing="on_demand", tier="community", tb=tb)
    assert community.fraction == catalog.estimate("price_spread_community_fraction").value
    assert price_spread(catalog, pricing="reserved", tier="community", tb=tb).fraction == 0
    assert price_spread(catalog, pricing="on_demand", tier="hyperscaler", tb=tb).fraction == 0
    names = {a.name for a in tb.assumptions}
    assert {"price_spread_marketplace_fraction", "price_spread_community_fraction"} <= names
    assert all(a.source for a in tb.assumptions)


def test_spread_is_recorded_in_the_recommendation(catalog: Catalog) -> None:
    rec = recommend(profile=WorkloadProfile(**BASE_8B_LORA), catalog=catalog, settings=QUIET)
    names = {a.name for a in rec.assumptions}
    assert "price spread (list on-demand, reserved)" in names
    assert "price_spread_community_fraction" in names
    for o in [rec.primary, *rec.alternatives]:
        assert o is not None and o.gpu_hours is not None
        high_rate = o.usd_per_gpu_hour_high or o.usd_per_gpu_hour
        premium = 1.0 + (0.30 if o.deployment == "managed" else 0.0)
        assert o.cost_usd.high == pytest.approx(o.gpu_hours.high * high_rate * premium, rel=1e-9)


NEGOTIATED_SPOT = """
prices:
  - {provider: gcp, gpu: h100-sxm, pricing: spot, usd_per_gpu_hour: 4.10, tier: hyperscaler,
     region: us-central1, cloud: gcp, source: "our GCP agreement", as_of: 2026-11-20}
"""


def test_a_spot_rate_from_the_users_price_file_is_firm_unless_marked_a_market_quote(tmp_path: Any) -> None:
    """A --prices file holds the rates the buyer pays: a negotiated spot rate gets no spread (the high
    end is the slow end at that rate); `negotiated: false` marks a copied market quote, which floats."""
    from tools.catalog.load import load_catalog

    path = tmp_path / "mine.yaml"
    path.write_text(NEGOTIATED_SPOT)
    mine = load_catalog(path)
    o = _option(mine, "gcp", "spot")
    assert o.usd_per_gpu_hour == pytest.approx(4.10) and o.usd_per_gpu_hour_high is None
    assert o.gpu_hours is not None
    assert o.cost_usd.high == pytest.approx(o.gpu_hours.high * 4.10)
    assert not any("floats" in r for r in o.risks)
    rec = recommend(profile=WorkloadProfile(**BASE_8B_LORA), catalog=mine, settings=QUIET)
    assert "price spread (negotiated rate)" in {a.name for a in rec.assumptions}  # the report lists it

    path.write_text(NEGOTIATED_SPOT.replace("as_of: 2026-11-20}", "as_of: 2026-11-20, negotiated: false}"))
    quote = _option(load_catalog(path), "gcp", "spot")
    frac = mine.estimate("price_spread_spot_fraction").value
    assert quote.usd_per_gpu_hour_high == pytest.approx(4.10 * (1 + frac))
    assert all(not p.negotiated for p in load_catalog().prices)  # the bundled catalog's are market prices
