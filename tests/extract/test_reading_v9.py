"""Reading rules written from the failure lines of evals v9 (issue 12; v9 scored blind first, then read),
each tested on its own phrasing with a near miss where one applies."""

from __future__ import annotations

from collections.abc import Callable

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_the_output_described_before_its_length(extract: Extract) -> None:
    p = extract(
        "Batch job: tag 10M support emails with Llama 3.1 8B. The response is a short label set, ~12 tokens."
    )
    assert p.output_tokens == 12 and p.generation_tokens == 10e6 * 12
    p = extract("Serve Llama 3.1 8B. The output is streamed to 40 users, ~2 s apart.")
    assert p.output_tokens is None  # no length in tokens


def test_an_items_read_length_is_not_its_output_when_the_output_is_said(extract: Extract) -> None:
    p = extract("Every night we summarise ~50k tickets, ticket text ~1k tokens each, summary ~150 tokens.")
    assert p.output_tokens == 150 and p.generation_tokens == 50e3 * 150
    assert p.concurrency is None  # counted tickets in a batch, not streams open at once


def test_a_clock_window_written_with_a_dash(extract: Extract) -> None:
    p = extract("Nightly job with Llama 3.1 8B: 2M prompts x 300 output tokens. Our window is 22:00-04:00.")
    assert p.deadline_hours == 6


def test_the_time_a_relaxed_asker_grants_is_the_deadline(extract: Extract) -> None:
    p = extract("Translate 300k articles with Gemma 3 12B, ~700 tokens each. No rush, three weeks is fine.")
    assert p.deadline_hours == 21 * 24
    p = extract("LoRA Llama 3.1 8B on 20M tokens. 24 GB is enough for us.")
    assert p.deadline_hours is None
