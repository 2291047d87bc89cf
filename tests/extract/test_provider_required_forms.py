"""Providers the team must use, in the ways issue 12's dev failures said it (evals v10, v12, v14, v15): a
rule as its verb ("policy requires that ... go through the Google Cloud or AWS agreements"), the team's BAA
with a provider ("on AWS (our BAA is there)", "a signed BAA. We have one with AWS and one with Google
Cloud"), and "Google" alone for its cloud in a list of exclusions. Near misses for each.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "Continued pretraining of Llama 3.1 8B on 6B tokens. "


@pytest.mark.parametrize(
    ("said", "required"),
    [
        (
            "University policy requires that funded cloud usage go through the institution's existing Google "
            "Cloud or AWS agreements.",
            {"aws", "gcp"},
        ),
        ("The contract mandates that all training runs on Azure.", {"azure"}),
        ("Q: Where does it run? A: US regions only, on AWS (our BAA is there).", {"aws"}),
        (
            "Requirements: a provider with a signed BAA. We have one with AWS and one with Google Cloud.",
            {"aws", "gcp"},
        ),
        ("We signed a BAA with Azure last year.", {"azure"}),
    ],
)
def test_required_forms(extract: Extract, said: str, required: set[str]) -> None:
    assert set(extract(JOB + said).providers_required) == required


@pytest.mark.parametrize(
    "said",
    [
        "The grant requires that we report usage; we were quoted on AWS.",  # the rule is not about the cloud
        "AWS offers BAAs, and we'd prefer Lambda.",  # a provider that offers one, not the team's
        "We don't have a BAA with RunPod yet.",  # no agreement
        "We have one with AWS.",  # "one" with no BAA before it
    ],
)
def test_required_near_misses(extract: Extract, said: str) -> None:
    assert extract(JOB + said).providers_required == []


def test_google_alone_is_its_cloud(extract: Extract) -> None:
    p = extract(JOB + "We do not want the hyperscalers: no AWS, no Azure, no Google.")
    assert set(p.providers_excluded) == {"aws", "azure", "gcp"}


@pytest.mark.parametrize(
    "said",
    [
        "Fine-tune Gemma 2 9B by Google on 8M tokens, no AWS.",
        "Fine-tune google/gemma-2-9b on 8M tokens, no AWS.",
        "Fine-tune Google's Gemma 2 9B on 8M tokens, no AWS.",
    ],
)
def test_google_as_model_maker_is_no_provider(extract: Extract, said: str) -> None:
    assert extract(said).providers_excluded == ["aws"]
