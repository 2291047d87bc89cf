"""tools.cost.tco with a price spread (issue 3: cost range from the MFU range and the price spread)."""

import pytest

from tools.cost import tco
from tools.errors import InputError
from tools.ranges import Range


def test_spread_widens_only_the_high_end() -> None:
    hours = Range(low=100.0, high=200.0)
    firm = tco(gpu_hours=hours, usd_per_gpu_hour=2.0, storage_usd=0.0, egress_usd=0.0)
    spread = tco(
        gpu_hours=hours, usd_per_gpu_hour=2.0, usd_per_gpu_hour_high=3.0, storage_usd=0.0, egress_usd=0.0
    )
    # low = fast end x quoted price; high = slow end x high price (exact arithmetic)
    assert spread.compute_usd.low == pytest.approx(firm.compute_usd.low) == pytest.approx(200.0)
    assert spread.compute_usd.high == pytest.approx(600.0)
    assert firm.compute_usd.high == pytest.approx(400.0)
    assert spread.usd_per_gpu_hour == 2.0 and spread.usd_per_gpu_hour_high == 3.0
    step = next(s for s in spread.trace if s.step == "compute_usd")
    assert step.inputs["usd_per_gpu_hour_high"] == 3.0


def test_spread_applies_to_the_managed_premium_and_equal_high_is_firm() -> None:
    hours = Range(low=10.0, high=10.0)
    t = tco(
        gpu_hours=hours,
        usd_per_gpu_hour=1.0,
        usd_per_gpu_hour_high=2.0,
        storage_usd=0.0,
        egress_usd=0.0,
        managed_premium_fraction=0.5,
    )
    assert t.managed_usd.high == pytest.approx(10.0)
    same = tco(gpu_hours=hours, usd_per_gpu_hour=1.0, usd_per_gpu_hour_high=1.0, storage_usd=0, egress_usd=0)
    assert same.usd_per_gpu_hour_high is None


def test_high_below_quoted_is_an_input_error() -> None:
    with pytest.raises(InputError, match="usd_per_gpu_hour_high"):
        tco(gpu_hours=1.0, usd_per_gpu_hour=2.0, usd_per_gpu_hour_high=1.0, storage_usd=0, egress_usd=0)
