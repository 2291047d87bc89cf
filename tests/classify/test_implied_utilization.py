"""tools.classify.implied_utilization: how busy the runs themselves keep a configuration."""

import pytest

from tools.classify import implied_utilization
from tools.errors import InputError


def test_eight_one_hour_runs_fill_about_one_percent() -> None:
    # 8 runs x 1 h / 730 h = 1.1% (exact arithmetic); stated 80% -> the purchase can count on 1.1%
    u = implied_utilization(runs_per_month=8, wall_hours_low=0.5, wall_hours_high=1.5, stated_utilization=0.8)
    assert u.implied_utilization == pytest.approx(8 / 730)
    assert u.implied_utilization_range == pytest.approx((4 / 730, 12 / 730))
    assert u.effective_utilization == pytest.approx(8 / 730)
    assert u.disagrees and u.note is not None
    assert "you said 80% busy" in u.note and "1.1%" in u.note and "other work" in u.note
    assert {s.step for s in u.trace} == {"implied_utilization", "effective_utilization"}


def test_runs_that_fill_the_month_keep_the_stated_figure() -> None:
    u = implied_utilization(runs_per_month=4, wall_hours_low=150, wall_hours_high=200, stated_utilization=0.7)
    assert u.implied_utilization == pytest.approx(4 * 175 / 730)  # 95.9% > 70%
    assert u.effective_utilization == 0.7
    assert not u.disagrees and u.note is None


def test_bad_inputs_raise() -> None:
    with pytest.raises(InputError):
        implied_utilization(runs_per_month=1, wall_hours_low=1, wall_hours_high=2, stated_utilization=1.5)
    with pytest.raises(InputError):
        implied_utilization(
            runs_per_month=float("nan"), wall_hours_low=1, wall_hours_high=2, stated_utilization=0.5
        )
