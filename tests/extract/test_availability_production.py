"""A production endpoint with no uptime figure (expert review 16, R10: "public API on Mixtral 8x7B, 500
requests/min" got one GPU and no spare) is read as HA_AVAILABILITY, marked as the production assumption
(tools.recommend.serving_spare.PRODUCTION_ASSUMED); an internal tool, a negated phrase or a stated uptime is
not overridden."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile
from tools.recommend.serving_plan import HA_AVAILABILITY
from tools.recommend.serving_spare import uptime_assumed

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        "public API on Mixtral 8x7B, 500 requests/min at peak, 1k input and 300 output tokens each.",
        "A customer-facing chatbot on Llama 3.1 8B for 200 concurrent users.",
        "Serve Qwen 2.5 32B as a production endpoint at 40 requests per second.",
        "We go live in production next month with Llama 3.1 70B, 100 users at once.",
        "Llama 3.1 8B behind our SLA with enterprise customers, 30 requests per second.",
    ],
)
def test_production_wording_assumes_three_nines(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.availability_target == pytest.approx(HA_AVAILABILITY)
    assert uptime_assumed(p)


@pytest.mark.parametrize(
    "text",
    [
        "An internal tool for 20 analysts: Llama 3.1 8B, 10 requests per minute.",
        "Serve Llama 3.1 8B to our team; it is not a public API.",
        "Summarise 2M documents with Llama 3.1 8B overnight as a batch job.",
        "Run Mistral 7B for a research prototype with 5 users.",
    ],
)
def test_internal_or_unstated_use_assumes_no_uptime(extract: Extract, text: str) -> None:
    assert extract(text).availability_target is None


def test_a_stated_uptime_outranks_the_production_assumption(extract: Extract) -> None:
    p = extract("A public API on Llama 3.1 8B with 99.5% uptime, 20 requests per second.")
    assert p.availability_target == pytest.approx(0.995)
    assert not uptime_assumed(p)
