"""tools.cost_buy: marginal cost of owned hardware, purchase quotes, buy vs rent month by month."""

from __future__ import annotations

import pytest

from tools.cost_buy import RentBasis, buy_rent_timeline, owned_marginal_usd_per_gpu_hour, purchase_quote
from tools.errors import InputError
from tools.units import HOURS_PER_MONTH

NODE = 10.2 / 5.6  # DGX H100: 10.2 kW for 8 x 700 W


def test_marginal_cost_is_power_hosting_and_staff_without_capital() -> None:
    m = owned_marginal_usd_per_gpu_hour(tdp_w=700, pue=1.4, power_usd_per_kwh=0.10, ops_usd_per_gpu_month=100)
    assert m.energy_usd_per_gpu_hour == pytest.approx(0.7 * NODE * 1.4 * 0.10)
    assert m.hosting_usd_per_gpu_hour == 0.0
    assert m.usd_per_gpu_hour == pytest.approx(0.7 * NODE * 1.4 * 0.10 + 100 / HOURS_PER_MONTH)
    colo = owned_marginal_usd_per_gpu_hour(
        tdp_w=700, pue=1.4, power_usd_per_kwh=0.10, ops_usd_per_gpu_month=100, colo_usd_per_kw_month=200
    )
    assert colo.hosting_usd_per_gpu_hour == pytest.approx(0.7 * NODE * 200 / HOURS_PER_MONTH)
    assert any(a.name == "capital_usd" for a in m.assumptions)


def test_purchase_quote_states_gpu_server_total_and_monthly() -> None:
    q = purchase_quote(
        n_gpus=16,
        gpus_per_server=8,
        purchase_price_usd=30000,
        tdp_w=700,
        utilization=1.0,
        amortization_months=48,
        server_overhead_fraction=0.3,
        pue=1.4,
        power_usd_per_kwh=0.13,
        ops_usd_per_gpu_month=100,
    )
    assert (q.servers, q.usd_per_server, q.usd_total) == (2, pytest.approx(312000), pytest.approx(624000))
    energy = 0.7 * NODE * 1.4 * 0.13 * HOURS_PER_MONTH
    assert q.monthly_equivalent_usd == pytest.approx(16 * (30000 * 1.3 / 48 + energy + 100))
    assert q.lead_time_weeks is None


def test_timeline_applies_utilisation_once_and_finds_break_even() -> None:
    rents = [
        RentBasis(name="on-demand", usd_per_gpu_hour=4.0),
        RentBasis(name="reserved 3 years", usd_per_gpu_hour=2.0, commitment=True),
    ]
    t = buy_rent_timeline(
        n_gpus=8,
        horizon_months=36,
        utilization=0.5,
        purchase_usd=300000,
        running_usd_per_month=3000,
        rents=rents,
    )
    od, res = t.rents
    assert od.usd_per_month == pytest.approx(4.0 * HOURS_PER_MONTH * 0.5 * 8)  # busy hours only
    assert res.usd_per_month == pytest.approx(2.0 * HOURS_PER_MONTH * 8)  # every hour of the term
    assert od.break_even_month == pytest.approx(300000 / (od.usd_per_month - 3000))
    assert len(t.buy_cumulative_usd) == 37 and t.buy_cumulative_usd[0] == 300000
    never = buy_rent_timeline(
        n_gpus=1,
        horizon_months=12,
        utilization=0.1,
        purchase_usd=30000,
        running_usd_per_month=500,
        rents=[RentBasis(name="x", usd_per_gpu_hour=1.0)],
    )
    assert never.rents[0].break_even_month is None and never.cheapest == "x"
    with pytest.raises(InputError):
        buy_rent_timeline(
            n_gpus=1, horizon_months=12, utilization=0, purchase_usd=1, running_usd_per_month=1, rents=[]
        )



def test_a_term_longer_than_the_horizon_bills_every_month_of_the_term() -> None:
    """A 3-year reservation chosen for a 12-month need bills 36 months (no resale assumed). At 50% use over
    12 months: on-demand at $4 (busy hours) 4 x 730 x 0.5 x 8 x 12 = $140,160; reserved 1 year at $2.60
    2.6 x 730 x 8 x 12 = $182,208; reserved 3 years at $1.50 shows $105,120 after 12 months but commits
    1.5 x 730 x 8 x 36 = $315,360; buying $300,000 + $2,000 x 12 = $324,000. On-demand is cheapest, not
    the 3-year term."""
    od = RentBasis(name="on-demand", usd_per_gpu_hour=4.0)
    r3 = RentBasis(name="reserved 3 years", usd_per_gpu_hour=1.5, commitment=True, term_months=36)
    r1 = RentBasis(name="reserved 1 year", usd_per_gpu_hour=2.6, commitment=True, term_months=12)
    kw = {"n_gpus": 8, "utilization": 0.5, "purchase_usd": 300000.0, "running_usd_per_month": 2000.0}
    t = buy_rent_timeline(horizon_months=12, rents=[od, r3, r1], **kw)
    by = {ln.basis.name: ln for ln in t.rents}
    assert by["reserved 3 years"].cumulative_usd[-1] == pytest.approx(1.5 * HOURS_PER_MONTH * 8 * 12)
    assert by["reserved 3 years"].committed_usd == pytest.approx(1.5 * HOURS_PER_MONTH * 8 * 36)
    assert by["reserved 3 years"].total_usd == pytest.approx(315360)
    assert by["reserved 1 year"].committed_usd is None  # its term ends with the horizon
    assert t.cheapest == "on-demand"
    assert any(s.step.startswith("committed_usd (reserved 3 years)") for s in t.trace)
    # Over 36 months the term ends with the horizon: on-demand $420,480, buy $372,000, reserved $315,360.
    long = buy_rent_timeline(horizon_months=36, rents=[od, r3], **kw)
    assert long.rents[1].committed_usd is None
    assert long.cheapest == "reserved 3 years"
