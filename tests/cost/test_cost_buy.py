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
