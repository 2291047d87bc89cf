"""Serving throughput as teams write it (issue 12): aggregate token rates, request rates with answer
lengths, per-user speeds and batches of items; and the near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("Serve Llama 3 70B, need ~3k tok/s aggregate.", 3000),
        ("Serve Llama 3 8B, throughput of 5,000 tokens per second.", 5000),
        ("Serve Llama 3 8B and sustain 40 req/s with 500-token answers.", 20000),
        ("Serve Qwen2.5 7B at 120 requests per second, responses average 300 tokens.", 36000),
        ("Serving Llama 3 70B: peak 2,400 requests per minute, answers ~250 tokens.", 10000),
        ("Serve Mistral 7B at 50 QPS; answers are about 200 tokens.", 10000),
        ("Serve Llama 3 8B, we expect 2M output tokens an hour at peak.", 2e6 / 3600),
    ],
)
def test_an_aggregate_rate_is_read(extract: Extract, text: str, rate: float) -> None:
    assert extract(text).target_tokens_per_s == pytest.approx(rate, rel=1e-3), text


def test_a_batch_of_items_with_output_each_and_a_deadline_gives_volume_and_rate(extract: Extract) -> None:
    p = extract("Batch job: summarise 2M documents with Llama 3 8B, ~400 output tokens each, within 3 days.")
    assert p.generation_tokens == pytest.approx(8e8)
    assert p.target_tokens_per_s == pytest.approx(8e8 / (72 * 3600))


def test_a_per_user_speed_is_a_latency_not_an_aggregate(extract: Extract) -> None:
    p = extract("Serve Llama 3 8B to 100 concurrent users; each user should get 30 tok/s.")
    assert p.latency_ms_per_token == pytest.approx(1000 / 30) and p.target_tokens_per_s is None


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mistral 7B at 50 QPS.",  # no answer length: the rate stays unknown, never guessed
        "LoRA Llama 3 8B on 30k support tickets (~500 tokens each).",  # a training set, not a batch output
        "We get 40 requests per second today; fine-tune Llama 3 8B on 10M tokens.",
    ],
)
def test_a_near_miss_sets_no_target_rate(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.target_tokens_per_s is None and p.generation_tokens is None, text
