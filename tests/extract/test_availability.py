"""Uptime targets (availability_target): percentages, nines and high-availability words read as a
fraction; the same words negated, or a percentage that is not an uptime, set nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile
from tools.recommend.serving_plan import HA_AVAILABILITY

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "value", "status"),
    [
        ("Serve Llama 3.1 70B to 200 concurrent users in the EU, 99.9% uptime", 0.999, "stated"),
        ("We need 99.9% uptime and must reduce costs by 30%.", 0.999, "stated"),
        ("We need 99.95% availability for the chatbot.", 0.9995, "stated"),
        ("The SLA is 99.99 percent.", 0.9999, "stated"),
        ("uptime target: 99.5%", 0.995, "stated"),
        ("It must be three nines.", 0.999, "inferred"),
        ("Four nines or we lose the contract.", 0.9999, "inferred"),
        ("Serve Mistral 7B with high availability.", HA_AVAILABILITY, "inferred"),
        ("The endpoint must be HA.", HA_AVAILABILITY, "inferred"),
        ("No single point of failure in the serving path.", HA_AVAILABILITY, "inferred"),
    ],
)
def test_uptime_is_read(extract: Extract, text: str, value: float, status: str) -> None:
    p = extract(text)
    assert p.availability_target == pytest.approx(value)
    assert p.status_of("availability_target") == status


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 8B to 50 users; we don't need high availability.",
        "HA is not needed for this internal tool.",
        "GPU utilization is 99% during the run.",  # a percentage, not an uptime
        "Serve 8B, ha, it's just a demo.",  # lower-case 'ha' is a laugh, not HA
        "Fine-tune Llama 3 8B on 99.9% clean data.",
        "We have 30% availability of the cluster.",  # below 90%: not an uptime target
    ],
)
def test_no_uptime_is_read(extract: Extract, text: str) -> None:
    assert extract(text).availability_target is None
