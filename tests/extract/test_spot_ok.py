"""Spot welcomed is read (spot_ok; expert review 8, R20: "Can spot help? We're fine with spot for this
one" was unused); a past run on spot, a negation or a rule-out is not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text", ["We're fine with spot for this one.", "Spot instances are OK.", "Can spot help?"]
)
def test_spot_welcomed_is_read(extract: Extract, text: str) -> None:
    assert extract("Summarise 2M documents with Llama 3.1 70B. " + text).spot_ok is True


@pytest.mark.parametrize(
    "text", ["No spot please.", "We used spot before and it was fine.", "We are not fine with spot."]
)
def test_spot_not_welcomed(extract: Extract, text: str) -> None:
    assert extract("Summarise 2M documents with Llama 3.1 70B. " + text).spot_ok is None
