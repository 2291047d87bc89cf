"""A held reservation's cloud read from its region, and a refusal to leave it (evals v14, development data;
issue 12): variants of our own and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

_GCP = "We have a 1-year committed-use reservation of 32 H100s (a3-highgpu, us-central1). Train Llama 3 8B. "
_AWS = "We hold a reserved cluster of 16 H100 in us-east-1 until June. Pretrain Llama 3.1 8B. "


@pytest.mark.parametrize(
    ("text", "provider"),
    [
        (_GCP + "Please don't suggest moving to another cloud.", "gcp"),
        (_AWS + "We have to stay on our current cloud.", "aws"),
        (_GCP + "Switching clouds is not an option.", "gcp"),
    ],
)
def test_staying_at_the_reservations_cloud(extract: Extract, text: str, provider: str) -> None:
    p = extract(text)
    assert p.owned_provider == provider
    assert p.providers_required == [provider]


@pytest.mark.parametrize(
    "text",
    [
        _GCP + "Happy to move to another cloud if it is cheaper.",  # a move welcomed
        _GCP + "Should we move to another cloud?",  # a question
    ],
)
def test_moving_allowed_is_not_a_requirement(extract: Extract, text: str) -> None:
    assert extract(text).providers_required == []


def test_region_in_another_sentence_is_not_the_reservations(extract: Extract) -> None:
    p = extract("We have a reservation of 32 H100s. Our data sits in us-central1. Pretrain Llama 3.1 8B.")
    assert p.owned_provider is None
