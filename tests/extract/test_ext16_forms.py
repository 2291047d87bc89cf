"""Phrasings from the v13 eval set (evals/cases_v13/, development data) read generally, each with
phrasings of our own and a near miss that must be read the other way (issue 12)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------ every provider but the named ones
@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("Serve Qwen2.5 72B. anything but Google (our account got flagged).", {"gcp"}),
        ("Serve Qwen2.5 72B on any cloud except Azure or AWS.", {"azure", "aws"}),
        ("Train Llama 3 8B anywhere other than CoreWeave.", {"coreweave"}),
    ],
)
def test_everything_but_named_provider_is_excluded(extract: Extract, text: str, out: set[str]) -> None:
    p = extract(text)
    assert out <= set(p.providers_excluded)
    assert not set(p.providers_required) & out


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5 72B, nothing but AWS.",  # the only one allowed, not excluded
        "Serve Qwen2.5 72B, we tried everything but Lambda was the only one with stock.",  # no list of names
    ],
)
def test_nothing_but_is_not_an_exclusion(extract: Extract, text: str) -> None:
    assert extract(text).providers_excluded == []
