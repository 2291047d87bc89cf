"""Expert review 19, findings 3 and 4, in other wordings than the review's: a request rate is a rate (never
requests in flight), a volume per month or day is an average sized at the named peak factor, a per-response
latency is read, and a prompt said as a context size sets the prompt tokens; with the near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import PEAK_TO_AVERAGE_REQUESTS, SECONDS_PER_MONTH
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        # a peak rate: sized as said (tokens/s = requests/s x output tokens)
        ("Serve Qwen2.5 7B, answers ~300 tokens, 90 requests a minute at peak.", 1.5 * 300),
        ("Host Llama 3.1 8B: around 0.5 req/s on average and peaks of 4 req/s, replies ~200 tokens.", 800),
        ("Serve Mistral 7B at ~20 req/s, answers about 150 tokens.", 3000),
        ("Serve Llama 3.1 8B, busiest hour is 6 requests per second, 100-token replies.", 600),
    ],
)
def test_a_request_rate_is_a_rate_not_requests_in_flight(extract: Extract, text: str, rate: float) -> None:
    p = extract(text)
    assert p.target_tokens_per_s == pytest.approx(rate, rel=1e-3), text
    assert p.concurrency is None, text


@pytest.mark.parametrize(
    ("text", "average_per_s", "tokens"),
    [
        ("Our Llama 3.1 8B assistant handles about 3 million requests a month, 200 output tokens each.",
         3e6 / SECONDS_PER_MONTH, 200),
        ("Serve Qwen2.5 14B: roughly 50k queries per day, replies ~400 tokens.", 50e3 / 86400, 400),
        ("Serve Llama 3.1 8B, about 1.5 requests per second on average, 300 output tokens each.", 1.5, 300),
    ],
)  # fmt: skip
def test_an_average_volume_is_sized_at_the_named_peak_factor(
    extract: Extract, text: str, average_per_s: float, tokens: int
) -> None:
    p = extract(text)
    expected = average_per_s * PEAK_TO_AVERAGE_REQUESTS * tokens
    assert p.target_tokens_per_s == pytest.approx(expected, rel=1e-3), text
    assert "peak-to-average" in (p.provenance["target_tokens_per_s"].evidence or "")
    assert p.concurrency is None


def test_a_stated_peak_replaces_the_peak_factor(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B: 2M requests a month, peaks of 5 requests per second, 250 output tokens.")
    assert p.target_tokens_per_s == pytest.approx(5 * 250)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B for 60 concurrent requests, 250 output tokens.",
        "Serve Llama 3.1 8B, at peak 60 requests at the same time, 250-token answers.",
        "Serve Llama 3.1 8B, peaks at 60 sessions, 250 output tokens.",
    ],
)
def test_requests_in_flight_stay_a_concurrency(extract: Extract, text: str) -> None:
    assert extract(text).concurrency == 60, text


@pytest.mark.parametrize(
    ("text", "seconds", "pct"),
    [
        ("Serve Mixtral 8x7B, 400-token answers, p95 latency under 2 s per response.", 2.0, 95.0),
        ("Serve Mixtral 8x7B, 400-token answers; each answer must take under 12 s at p99.", 12.0, 99.0),
        ("Serve Mixtral 8x7B with 400-token replies, p90 below 6 s per reply.", 6.0, 90.0),
    ],
)
def test_a_per_response_latency_is_read(extract: Extract, text: str, seconds: float, pct: float) -> None:
    p = extract(text)
    assert p.response_target_s == pytest.approx(seconds), text
    assert p.latency_percentile == pct, text
    assert p.latency_ms_per_token == pytest.approx(seconds * 1000 / 400), text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mixtral 8x7B, 400-token answers, p95 latency under 50 ms per token.",
        "Serve Mixtral 8x7B to 50 users, 400-token answers, TTFT p95 < 2 s.",  # the first token only
    ],
)
def test_a_token_or_first_token_latency_is_not_a_response_target(extract: Extract, text: str) -> None:
    assert extract(text).response_target_s is None, text


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        ("Serve Qwen2.5 7B with 32k context to 4 users; TTFT for a full 32k prompt under 5 s.", 32768),
        ("Serve Llama 3.1 8B to 5 analysts who paste entire filings of ~80k tokens.", 80000),
        ("Serve Llama 3.1 8B for 6 users, every prompt fills the whole 64k window.", 65536),
        ("Serve Llama 3.1 8B for 6 users who upload 50k-token reports.", 50000),
        ("Serve Llama 3.1 8B for 6 users; first token within 8 s for the whole 100k-token input.", 100000),
    ],
)
def test_a_prompt_said_as_a_context_size_sets_the_prompt(extract: Extract, text: str, prompt: int) -> None:
    assert extract(text).prompt_tokens == prompt, text


@pytest.mark.parametrize(
    "text",
    [
        # the window alone is the longest sequence held (context_len), not every request's prompt
        "Serve Llama 3.1 8B with a 128k context window for 8 users.",
        "Serve Llama 3.1 8B with 128k context for 8 simultaneous users.",
        "Serve Llama 3.1 8B with the full 128k context for 8 users.",
    ],
)
def test_a_context_window_alone_is_not_a_prompt_length(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.context_len == 131072 and p.prompt_tokens is None, text
