"""Claims and feasibility questions as teams write them (issue 12), and near misses that are deadlines."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import OVERNIGHT_HOURS, WEEKEND_HOURS
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "gpu", "count", "hours"),
    [
        ("Is 8x A100 enough to finish in 2 days? Full fine-tune Llama 3 8B on 5B tokens.", "a100", 8, 48),
        ("My boss thinks one 4090 will do it in a week. LoRA Mistral 7B on 100M tokens.", "rtx-4090", 1, 168),
        ("Can a single H100 handle 70B QLoRA overnight? 20M tokens.", "h100", 1, OVERNIGHT_HOURS),
        ("Our CTO insists 4 H100s can finish the full fine-tune of Mistral 7B on 2B tokens in 3 days.",
         "h100", 4, 72),
        ("I reckon two A100s would do it over the weekend. LoRA Llama 3 8B, 50M tokens.", "a100", 2,
         WEEKEND_HOURS),
    ],
)  # fmt: skip
def test_a_claim_is_read_with_its_hardware_and_time(
    extract: Extract, text: str, gpu: str, count: int, hours: float
) -> None:
    p = extract(text)
    assert p.claimed_gpu is not None and p.claimed_gpu.startswith(gpu), text
    assert (p.claimed_gpu_count, p.claimed_hours) == (count, hours), text
    assert p.deadline_hours is None  # the claim's time is not the team's deadline


def test_a_claimed_consumer_card_is_not_a_preference_for_consumer_hardware(extract: Extract) -> None:
    p = extract("My boss thinks one 4090 will do it in a week. LoRA Mistral 7B on 100M tokens.")
    assert p.deployment_preference is None


@pytest.mark.parametrize(
    "text",
    [
        "We think we need it within 2 days on H100s.",
        "We need it in 3 days, we'd like H100s. LoRA Llama 3 8B on 50M tokens.",
    ],
)
def test_a_deadline_with_a_gpu_wish_is_not_a_claim(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.claimed_gpu is None and p.claimed_hours is None, text
    assert p.deadline_hours is not None and p.gpus_wanted, text
