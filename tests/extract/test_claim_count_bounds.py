"""Claims about how many GPUs it takes, with their direction (advisor/extract/rules_claims.py _count_bound;
WorkloadProfile.claimed_gpu_bound): "N is the minimum" and "N is too few" are not "N suffices". Own
phrasings, the way people write them, and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.llm.templates import understood
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]  # (text, prior=None)
LORA = "We want to LoRA fine-tune Llama 3 70B on 200M tokens. "
SERVE = "Serving Qwen2.5 32B for 20 concurrent users. "


@pytest.mark.parametrize(
    ("text", "gpu", "count", "bound"),
    [
        (LORA + "The vendor says it needs at least 4x A100, true?", "a100-80gb-sxm", 4, "minimum"),
        (LORA + "My lead says we need a minimum of 8 H100s for this. Is that right?", "h100-sxm", 8,
         "minimum"),
        (LORA + "Our consultant insists we need 8 A100s as a bare minimum. Really?", "a100-80gb-sxm", 8,
         "minimum"),
        (LORA + "we'd need 16 H100 minimum, right?", "h100-sxm", 16, "minimum"),
        (LORA + "I reckon no fewer than two H100s would do it?", "h100-sxm", 2, "minimum"),
        (SERVE + "One L40S won't cut it, will it?", "l40s", 1, "too_few"),
        (SERVE + "I think 2x H100 is not enough, right?", "h100-sxm", 2, "too_few"),
        (SERVE + "a single 4090 can't handle it, can it?", "rtx-4090", 1, "too_few"),
        (SERVE + "Our CTO thinks 2 L40S are too few?", "l40s", 2, "too_few"),
        # doubting the count: fewer might do
        (LORA + "Is 8x H100 overkill?", "h100-sxm", 8, "minimum"),
        (LORA + "Do we really need 8 H100s?", "h100-sxm", 8, "minimum"),
        (LORA + "Is 4x A100 the minimum?", "a100-80gb-sxm", 4, "minimum"),
        (LORA + "Can't we do it with fewer than 8 H100s?", "h100-sxm", 8, "minimum"),
        # a plain claim that the count suffices has no bound
        (SERVE + "Surely 2 H100s is enough?", "h100-sxm", 2, None),
        (LORA + "Can we get away with a single A100 80GB or do we need more?", "a100-80gb-sxm", 1, None),
    ],
)  # fmt: skip
def test_the_claim_keeps_its_direction(
    extract: Extract, text: str, gpu: str, count: int, bound: str | None
) -> None:
    p = extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_gpu_bound) == (gpu, count, bound), text


@pytest.mark.parametrize(
    "text",
    [
        # history: a past run's hardware, no claim
        LORA + "Last year we used at least 64 A100s for the v1 run.",
        # "at least" on the load, not on the GPUs
        SERVE + "We expect at least 300 users on 2x H100 at peak.",
        # a count asked, not claimed
        LORA + "How many H100s do we need at minimum?",
    ],
)
def test_near_misses_have_no_bound(extract: Extract, text: str) -> None:
    assert extract(text).claimed_gpu_bound is None, text


def test_the_summary_reads_the_bound_in_words(extract: Extract) -> None:
    p = extract(SERVE + "One L40S won't cut it, will it?")
    said = understood(p, ["claimed_gpu_bound"])
    assert "that count, you said, is too few" in said, said


@pytest.mark.parametrize(
    ("text", "count", "bound"),
    [
        ("Full fine-tune of Llama 3.1 8B on 1B tokens. We'd need 16 GPUs minimum, right?", 16, "minimum"),
        ("Serving Llama 3.1 70B to 100 users. Two GPUs won't cut it, will it?", 2, "too_few"),
        ("QLoRA of Llama 3 70B. The vendor says at least 8 GPUs, true?", 8, "minimum"),
    ],
)
def test_a_count_claim_without_a_gpu(extract: Extract, text: str, count: int, bound: str) -> None:
    p = extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_gpu_bound) == (None, count, bound), text


def test_gpus_we_have_are_no_count_claim(extract: Extract) -> None:
    p = extract("Full fine-tune of Llama 3.1 8B on 1B tokens. We have at least 16 GPUs in our cluster?")
    assert p.claimed_gpu_bound is None


def test_a_later_plain_claim_drops_the_earlier_bound(extract: Extract) -> None:
    first = extract(LORA + "The vendor says it needs at least 4x A100, true?")
    assert first.claimed_gpu_bound == "minimum"
    later = extract("And would 2x H100 be enough?", first)
    assert (later.claimed_gpu, later.claimed_gpu_count, later.claimed_gpu_bound) == ("h100-sxm", 2, None)
    kept = extract("Our budget is $5k.", first)
    assert kept.claimed_gpu_bound == "minimum"  # a turn without a claim keeps it
