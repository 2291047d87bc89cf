"""Expert review 14, R03: "Please compare buying vs renting over 3 years. Budget cap USD 600k." - the cap was
compared with one month of serving and a $812,500 purchase called "within the $600,000 budget"; "TTFT p95 <
2 s" (the percentile after TTFT) was listed as not used. A budget for a buy-vs-rent over a horizon is its
total (capex); a budget said per month is not; the TTFT bound is read with the percentile on either side."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
SERVE = "Serve Llama 3.3 70B to 500 concurrent users at 25 tokens/s each, 1,500 tokens in and 400 out. "


@pytest.mark.parametrize(
    "text",
    [
        "Please compare buying vs renting over 3 years. Budget cap USD 600k.",
        "Buy or rent over a 3-year horizon? We have $600k.",
        "We'd like to compare purchasing with renting over 36 months; max budget $600,000.",
    ],
)
def test_a_buy_rent_budget_over_years_is_a_total(extract: Extract, text: str) -> None:
    p = extract(SERVE + text)
    assert p.budget_usd == pytest.approx(600_000)
    assert p.budget_capex is True


@pytest.mark.parametrize(
    "text",
    [
        "Please compare buying vs renting over 3 years. Budget USD 20k per month.",  # a monthly budget
        "Budget cap USD 600k.",  # no buy-vs-rent asked: the serving budget stays as the tools hold it
    ],
)
def test_near_misses_stay_periodic(extract: Extract, text: str) -> None:
    assert extract(SERVE + text).budget_capex is None


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("TTFT p95 < 2 s.", 2.0),
        ("TTFT (p99) under 800 ms.", 0.8),
        ("p95 TTFT below 1.5 s.", 1.5),
    ],
)
def test_ttft_with_the_percentile_after(extract: Extract, text: str, seconds: float) -> None:
    assert extract(SERVE + text).ttft_target_s == pytest.approx(seconds)


def test_a_measured_ttft_is_no_target(extract: Extract) -> None:
    assert extract(SERVE + "TTFT p95 was 3 s today, which is too slow.").ttft_target_s is None
