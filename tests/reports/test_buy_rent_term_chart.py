"""Expert review 9: a 3-year reservation chosen for a 12-month horizon bills 36 months (the table said so),
but the chart's line stopped at 12 months' worth. The chart now rises at the horizon to the committed
total, labelled, so chart and table agree."""

from __future__ import annotations

import re

import pytest

from reports.buy_rent import buy_rent_section
from tools.cost_buy import HOURS_PER_MONTH, RentBasis, buy_rent_timeline
from tools.recommend.models import Recommendation


def test_a_term_outlasting_the_horizon_is_drawn_to_its_committed_total(handmade_rec: Recommendation) -> None:
    od = RentBasis(name="on-demand", usd_per_gpu_hour=4.0)
    r3 = RentBasis(name="reserved 3 years", usd_per_gpu_hour=1.5, commitment=True, term_months=36)
    t = buy_rent_timeline(
        horizon_months=12, rents=[od, r3], n_gpus=8, utilization=0.5, purchase_usd=300000.0,
        running_usd_per_month=2000.0,
    )  # fmt: skip
    section = buy_rent_section(handmade_rec.model_copy(update={"buy_vs_rent": t}))
    assert section is not None
    chart: str = section["chart"]
    assert "36-month term billed" in chart
    segment = r'<line x1="([\d.]+)" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"[^>]*term-billed'
    segments = re.findall(segment, chart)
    assert len(segments) == 1  # only the 3-year term outlasts the horizon
    _, y_at_horizon, y_committed = (float(v) for v in segments[0])
    # y grows downwards; the committed $315,360 sits three times as high above the axis as the $105,120
    # billed by month 12 (1.5 x 730 x 8 x 36 vs x 12), within the chart's 0.1-pixel rounding.
    grid = r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="\1" stroke="#D9D9D9"'
    axis_y = max(float(y) for y in re.findall(grid, chart))  # the $0 grid line
    assert (axis_y - y_committed) / (axis_y - y_at_horizon) == pytest.approx(36 / 12, rel=0.01)
    assert t.rents[1].committed_usd == 1.5 * HOURS_PER_MONTH * 8 * 36
