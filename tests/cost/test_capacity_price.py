"""tools.capacity_price: the same rented capacity priced a month at other providers (expert review 19, R19).
Expected figures are the bundled catalog's own records times the hours (the formula in the module
docstring), exact to floating point; the records are read here, not copied."""

from __future__ import annotations

import pytest

from tools.capacity_price import capacity_prices
from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.units import HOURS_PER_MONTH

CAT = load_catalog()


def _rate(provider: str, gpu: str = "h100-sxm", pricing: str = "on_demand") -> float:
    return next(
        r.usd_per_gpu_hour for r in CAT.prices_for(gpu) if r.provider == provider and r.pricing == pricing
    )


def _line(cp, provider: str, pricing: str):  # type: ignore[no-untyped-def]
    return next(ln for ln in cp.lines if ln.provider == provider and ln.pricing == pricing)


def test_all_month_on_demand_and_the_reserved_estimate() -> None:
    cp = capacity_prices(
        CAT, gpu="h100-sxm", n_gpus=8, providers=["lambda", "nebius"], current_provider="aws",
        current_pricing="on_demand", utilization=1.0, reserved_term_months=12,
    )  # fmt: skip
    assert cp.hours_per_month == pytest.approx(HOURS_PER_MONTH)
    aws = _line(cp, "aws", "on_demand")
    assert aws.current and aws.usd_per_month == pytest.approx(8 * _rate("aws") * HOURS_PER_MONTH)
    # "Lambda" is its 8-GPU cluster tier: eight single-GPU instances are not the same capacity
    assert {ln.provider for ln in cp.lines} == {"aws", "lambda-cluster", "nebius"}
    neb = _line(cp, "nebius", "on_demand")
    assert neb.usd_per_month == pytest.approx(8 * _rate("nebius") * HOURS_PER_MONTH)
    # no 1-year record for H100 (AWS's is a Capacity Block of days): the catalog's estimate below on-demand
    discount = float(CAT.estimate("reserved_1y_discount_fraction").value)
    res = _line(cp, "nebius", "reserved")
    assert res.estimate and res.term_months == 12
    assert res.usd_per_month == pytest.approx(8 * _rate("nebius") * (1 - discount) * HOURS_PER_MONTH)
    assert any(s.step.startswith("capacity_usd_per_month[nebius") for s in cp.trace)


def test_the_stated_spend_sets_the_hours_and_is_compared() -> None:
    rate = _rate("aws")
    spend = 20_000.0  # half the month's bill: the same capacity is half the GPU-hours
    cp = capacity_prices(
        CAT, gpu="h100-sxm", n_gpus=8, providers=["nebius"], current_provider="aws",
        current_pricing="on_demand", stated_usd_per_month=spend,
    )  # fmt: skip
    hours = spend / (8 * rate)
    assert cp.hours_per_month == pytest.approx(hours)
    assert _line(cp, "aws", "on_demand").usd_per_month == pytest.approx(spend)
    neb = _line(cp, "nebius", "on_demand")
    assert neb.usd_per_month == pytest.approx(8 * _rate("nebius") * hours)
    assert neb.vs_stated_usd_per_month == pytest.approx(neb.usd_per_month - spend)
    # a reserved term bills every hour, whatever the use
    assert _line(cp, "nebius", "reserved").hours_per_month == pytest.approx(HOURS_PER_MONTH)


def test_a_reserved_record_of_the_term_is_used_over_the_estimate() -> None:
    cp = capacity_prices(CAT, gpu="l40s", n_gpus=2, providers=["runpod"], utilization=1.0)
    res = [ln for ln in cp.lines if ln.pricing == "reserved" and ln.provider == "runpod-community"]
    assert res and not res[0].estimate
    assert res[0].usd_per_gpu_hour == pytest.approx(_rate("runpod-community", "l40s", "reserved"))


def test_no_provider_named_prices_the_cheapest_others() -> None:
    cp = capacity_prices(CAT, gpu="h100-sxm", n_gpus=8, current_provider="aws", utilization=1.0)
    others = {ln.provider for ln in cp.lines} - {"aws"}
    assert 1 <= len(others) <= 3
    cheapest_firm = min(
        (r for r in CAT.prices_for("h100-sxm") if r.pricing == "on_demand" and not r.reference_only
         and not r.managed and 8 in r.gpus_per_node and r.tier not in ("community", "marketplace")),
        key=lambda r: r.usd_per_gpu_hour,
    )  # fmt: skip
    assert cheapest_firm.provider in others


def test_a_provider_without_the_gpu_is_said() -> None:
    cp = capacity_prices(CAT, gpu="h100-sxm", n_gpus=8, providers=["nosuchcloud"], utilization=1.0)
    assert cp.not_offered == ("nosuchcloud",)


def test_a_count_below_one_is_a_user_error() -> None:
    with pytest.raises(InputError):
        capacity_prices(CAT, gpu="h100-sxm", n_gpus=0)
