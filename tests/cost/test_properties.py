"""Property tests: no cost is negative, nothing is NaN or infinite for valid input."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from tools.catalog.schema import EgressSchedule, EgressTier
from tools.cost import buy_vs_rent, egress_cost, owned_usd_per_gpu_hour, spot_exposure, storage_cost, tco
from tools.ranges import Range
from tools.trace import trace_numbers

SCHEDULE = EgressSchedule(
    cloud="aws",
    free_gb_per_month=100,
    source="test",
    as_of="2026-11-01",
    tiers=(
        EgressTier(up_to_gb=10240, usd_per_gb=0.09),
        EgressTier(up_to_gb=51200, usd_per_gb=0.085),
        EgressTier(usd_per_gb=0.05),
    ),
)
money = st.floats(0, 1e6, allow_nan=False, allow_infinity=False)
gb = st.floats(0, 1e7, allow_nan=False, allow_infinity=False)
frac = st.floats(0.01, 1.0)


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


@settings(max_examples=80, deadline=None)
@given(
    dataset=gb,
    pulls=st.floats(0, 1000),
    other=st.one_of(st.none(), gb),
    months=st.floats(0.1, 36),
    same=st.booleans(),
)
def test_egress_non_negative_finite_and_monotone(
    dataset: float, pulls: float, other: float | None, months: float, same: bool
) -> None:
    e = egress_cost(
        dataset_gb=dataset,
        pulls=pulls,
        schedule=SCHEDULE,
        same_cloud=same,
        other_egress_gb_per_month=other,
        months=months,
    )
    assert e.total_usd >= 0 and _finite(e.total_usd, *trace_numbers(e.trace))
    more = egress_cost(
        dataset_gb=dataset,
        pulls=pulls + 1,
        schedule=SCHEDULE,
        same_cloud=same,
        other_egress_gb_per_month=other,
        months=months,
    )
    assert more.total_usd >= e.total_usd - 1e-6
    # Marginal tiered price never exceeds the highest tier rate.
    assert e.total_usd <= dataset * pulls * 0.09 + 1e-6


@settings(max_examples=80, deadline=None)
@given(
    lo=st.floats(0, 1e6),
    span=st.floats(0, 1e6),
    rate=st.floats(0, 100),
    storage=money,
    egress=money,
    managed=st.one_of(st.none(), st.floats(0, 2)),
)
def test_tco_non_negative_and_ordered(
    lo: float, span: float, rate: float, storage: float, egress: float, managed: float | None
) -> None:
    t = tco(
        gpu_hours=Range(low=lo, high=lo + span),
        usd_per_gpu_hour=rate,
        storage_usd=storage,
        egress_usd=egress,
        managed_premium_fraction=managed,
    )
    for r in (t.compute_usd, t.managed_usd, t.total_usd):
        assert 0 <= r.low <= r.high and _finite(r.low, r.high)
    assert t.total_usd.low >= storage + egress - 1e-6
    s = storage_cost(stored_gb=lo, months=span / 1e4, price=rate / 1e3)
    assert s.total_usd >= 0 and math.isfinite(s.total_usd)


@settings(max_examples=60, deadline=None)
@given(
    u=frac,
    price=st.floats(1000, 100000),
    tdp=st.floats(50, 1500),
    months=st.floats(12, 84),
    rent=st.floats(0.1, 20),
    horizon=st.floats(1, 120),
    colo=st.one_of(st.none(), st.floats(0, 500)),
)
def test_owned_and_break_even_finite(
    u: float, price: float, tdp: float, months: float, rent: float, horizon: float, colo: float | None
) -> None:
    own = dict(
        purchase_price_usd=price,
        tdp_w=tdp,
        amortization_months=months,
        server_overhead_fraction=0.3,
        pue=1.4,
        power_usd_per_kwh=0.13,
        ops_usd_per_gpu_month=100.0,
        colo_usd_per_kw_month=colo,
    )
    o = owned_usd_per_gpu_hour(utilization=u, **own)  # type: ignore[arg-type]
    assert o.usd_per_gpu_hour > 0 and _finite(o.usd_per_gpu_hour, *trace_numbers(o.trace))
    b = buy_vs_rent(rent_usd_per_gpu_hour=rent, utilization=u, horizon_months=horizon, **own)  # type: ignore[arg-type]
    assert b.rent_total_usd >= 0 and b.own_total_usd >= 0 and b.own_cash_usd >= b.own_total_usd - 1e-6
    assert _finite(*trace_numbers(b.trace))
    if b.break_even_utilization is not None:
        assert 0 <= b.break_even_utilization <= 1


@settings(max_examples=60, deadline=None)
@given(
    hours=st.floats(0.1, 5000),
    n=st.integers(1, 1024),
    rate=st.floats(0.1, 20),
    tau=st.floats(0.05, 24),
    write=st.one_of(st.none(), st.floats(0.001, 1)),
)
def test_spot_exposure_finite_and_non_negative(
    hours: float, n: int, rate: float, tau: float, write: float | None
) -> None:
    s = spot_exposure(
        wall_hours=hours,
        n_gpus=n,
        spot_usd_per_gpu_hour=rate,
        checkpoint_interval_hours=tau,
        checkpoint_write_hours=write,
        on_demand_usd_per_gpu_hour=rate * 2,
    )
    assert 0 <= s.lost_usd.low <= s.lost_usd.high and _finite(s.lost_usd.high, s.spot_total_usd.high)
    assert 0 <= s.probability_interrupted.low <= s.probability_interrupted.high <= 1
    assert _finite(*trace_numbers(s.trace))
