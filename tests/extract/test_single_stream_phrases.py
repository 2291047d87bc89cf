"""One stream at a time and its per-user speed (expert review 7, R15,
evals/reviews/2026-11-27-expert-review-7.md): "at 100 tok/s for one user" is a concurrency of 1 and a
per-user speed (10 ms/token), also inside a claim ("a single L4 can serve ... at 100 tok/s for one user"),
since a serving claim's speed is what the check tests; a user count per day or a "single user-facing" app
is not one stream."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        "Someone on our team says a single L4 can serve Llama 3.1 8B at 100 tok/s for one user. Is that "
        "realistic?",
        "Can one L4 serve Llama 3.1 8B at 100 tok/s for a single user?",
        "Is 100 tokens/s single-stream realistic for Llama 3.1 8B on one L4?",
        "We want to serve Llama 3.1 8B to just one user at 100 tokens per second.",
    ],
)
def test_one_stream_at_a_given_speed(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.workload == "inference"
    assert p.concurrency == 1, text
    assert p.latency_ms_per_token == pytest.approx(10.0), text  # 1000 ms / 100 tokens/s


@pytest.mark.parametrize(
    "text",
    [
        "We serve Llama 3.1 8B in a single user-facing app for 40 concurrent users.",
        "Serve Llama 3.1 8B, one user per day at most for now, 20 concurrent users at launch.",
    ],
)
def test_near_miss_not_one_stream(extract: Extract, text: str) -> None:
    assert extract(text).concurrency != 1, text
