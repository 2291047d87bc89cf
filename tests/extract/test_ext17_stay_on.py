"""A provider the work must stay on, said as where it stays or runs (advisor/extract/rules_stay_on.py; issue
12, evals v12/v15 development cases): the phrasing, two variants, and near misses: a soft wish, moving off."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_JOB = "Serve Llama 3.1 8B to 200 concurrent users. "


@pytest.mark.parametrize(
    ("said", "provider"),
    [
        ("It has to be HIPAA so we're staying on Azure, that's non negotiable.", "azure"),
        ("- HARD req: stays in AWS. security won't sign off on egress", "aws"),
        ("Stay on GCP, please, we don't want data leaving the account.", "gcp"),
        ("We have $100k of Azure credits, so Azure is where this runs.", "azure"),
    ],
)
def test_staying_on_a_provider_for_a_hard_reason_requires_it(
    extract: Extract, said: str, provider: str
) -> None:
    p = extract(_JOB + said)
    assert p.providers_required == [provider]


def test_near_miss_a_soft_wish_to_stay_is_a_preference(extract: Extract) -> None:
    p = extract(_JOB + "We'd like to stay on AWS if possible, it must be cheap though.")
    assert not p.providers_required


def test_near_miss_moving_off_a_provider_requires_nothing(extract: Extract) -> None:
    p = extract(_JOB + "We're moving off AWS this quarter; compliance is done.")
    assert not p.providers_required
