"""horizon_months as teams write it (issue 12): cues, nouns, keys and end dates; and the near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("We'll run this for the next 2-3 years.", 36),
        ("Compare renting and buying over an 18-month horizon.", 18),
        ("Horizon: 3 years", 36),
        ("Our time horizon is 2 years.", 24),
        ("Planning horizon 24 months.", 24),
        ("We would keep the cards for 3 years.", 36),
        ("We'll run the service for 2 years.", 24),
        ("The service runs 24/7 for at least two years.", 24),
        ("Amortise the servers across 36 months.", 36),
        ("Expected useful life of 5 years.", 60),
        ("Give me the 3-year TCO for serving Mistral 7B.", 36),
        ("We can sign a 2-year commitment.", 24),
        ("over the next 24 mo", 24),
        ("It must pay itself off within 18 months.", 18),
    ],
)
def test_a_stated_horizon_is_read(extract: Extract, text: str, months: float) -> None:
    assert extract(text).horizon_months == pytest.approx(months), text


@pytest.mark.parametrize(
    ("text", "months"),
    [
        # reference time: Wed 2026-11-18 (conftest); 730-hour months
        ("Serve Llama 3 8B for the rest of the year.", 1.4),
        ("We plan to serve Llama 3 8B through 2027.", 13.4),
        ("Serve it until the end of 2028.", 25.5),
        ("We'll host it till mid-2027.", 7.4),
    ],
)
def test_an_end_date_becomes_the_months_until_it(extract: Extract, text: str, months: float) -> None:
    p = extract(text)
    assert p.horizon_months == pytest.approx(months, abs=0.1), text
    assert p.provenance["horizon_months"].status == "inferred"


@pytest.mark.parametrize(
    "text",
    [
        "We've been doing this for 2 years; serve Llama 3 8B to 50 users.",
        "Support logs collected over 3 years, about 20M tokens. LoRA Llama 3 8B.",
        "Llama 3 8B is 2 years old by now.",
        "Full fine-tune Llama 3 8B, training for 3 months is too long, we need it within 2 weeks.",
        "We need it done within 3 months.",
        "Fine-tune Llama 3 8B for 3 epochs.",
    ],
)
def test_a_near_miss_is_not_a_horizon(extract: Extract, text: str) -> None:
    assert extract(text).horizon_months is None, text
