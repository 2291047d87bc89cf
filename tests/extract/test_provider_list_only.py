"""A list of providers closed by "only" requires each of them (expert reviews 7 and 9: "Lambda or CoreWeave
only" kept CoreWeave alone), and "we're already on X" is a preference (it was listed as unused)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "LoRA Llama 3.1 8B on 200M tokens. "


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("Providers: Lambda or CoreWeave only.", ["lambda", "coreweave"]),
        ("Azure or GCP only.", ["azure", "gcp"]),
        ("AWS, Azure or GCP only, no spot.", ["aws", "azure", "gcp"]),
    ],
)
def test_a_list_closed_by_only_requires_each(extract: Extract, text: str, ids: list[str]) -> None:
    assert extract(JOB + text).providers_required == ids


def test_a_negated_list_is_not_required(extract: Extract) -> None:
    assert extract(JOB + "Not Lambda or CoreWeave only, anything works.").providers_required == []


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("We are already on Nebius.", ["nebius"]),
        ("we're already on runpod.", ["runpod-community", "runpod-secure"]),
    ],
)
def test_already_on_a_provider_is_preferred(extract: Extract, text: str, ids: list[str]) -> None:
    p = extract(JOB + text)
    assert p.providers_preferred == ids and p.providers_required == []


def test_data_already_somewhere_is_a_location(extract: Extract) -> None:
    p = extract(JOB + "Our data is already in S3.")
    assert p.providers_preferred == [] and p.data_location == "aws"
