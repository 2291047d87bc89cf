"""A purchase being weighed or asked about is an on-premises purchase (expert review 8, R02: "evaluating
the purchase of on-prem hardware ... which GPUs and how many to buy" got a 2x B200 rental); rent-or-buy
stays a question for buy vs rent, not a preference."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
SERVE = "Serve Llama 3.3 70B to 40 concurrent users. "


@pytest.mark.parametrize(
    "text",
    [
        "We are evaluating the purchase of on-prem hardware for this.",  # review 8, R02
        "Please advise which GPUs and how many to buy.",
        "How many H100s should we buy?",
        "We're planning the purchase of new servers for it.",
    ],
)
def test_a_purchase_is_on_prem(extract: Extract, text: str) -> None:
    assert extract(SERVE + text).deployment_preference == "on_prem"


@pytest.mark.parametrize(
    "text",
    ["Should we rent or buy?", "How many GPUs do we need?", "The purchase of our office chairs is done."],
)
def test_weighing_or_counting_is_not_a_purchase(extract: Extract, text: str) -> None:
    assert extract(SERVE + text).deployment_preference is None
