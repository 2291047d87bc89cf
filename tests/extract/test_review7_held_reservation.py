"""Expert review 7, R11: a term reservation said before the GPUs ("We've got a 1-year reserved 8x H200
node on CoreWeave") is held capacity, "~25 active at once" is the concurrency, and the answer on the held
node says it meets the 30 tok/s per user asked (evals/reviews/2026-11-27-expert-review-7.md)."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R11 = (
    "We've got a 1-year reserved 8x H200 node on CoreWeave that sits idle at night. Could we serve Llama "
    "3.3 70B for our internal coding assistant (200 devs, ~25 active at once) at 30 tok/s per user?"
)


def test_review_phrasing_reads_the_reservation_and_the_users() -> None:
    p = RulesExtractor().extract(R11)
    held = (p.owned_gpu, p.owned_gpu_count, p.owned_reserved, p.owned_provider)
    assert held == ("h200", 8, True, "coreweave")
    assert p.concurrency == 25


@pytest.mark.parametrize(
    ("text", "gpu", "count", "provider"),
    [
        ("Our 3-year reserved 16x H100 at AWS is mostly idle.", "h100-sxm", 16, "aws"),
        ("We hold two 1-year committed 8x H100 nodes on Lambda.", "h100-sxm", 16, "lambda"),
        ("We have a 6-month reserved 4x A100 80GB box at CoreWeave.", "a100-80gb-sxm", 4, "coreweave"),
    ],
)
def test_other_term_reservations_are_held(text: str, gpu: str, count: int, provider: str) -> None:
    p = RulesExtractor().extract(text)
    held = (p.owned_gpu, p.owned_gpu_count, p.owned_reserved, p.owned_provider)
    assert held == (gpu, count, True, provider)


@pytest.mark.parametrize(
    "text",
    [
        "We got a quote for a 1-year reserved 8x H200 node on CoreWeave.",
        "Should we get a 1-year reserved 8x H200 node on CoreWeave?",
    ],
)
def test_a_quote_or_a_question_is_not_held(text: str) -> None:
    assert RulesExtractor().extract(text).owned_gpu is None


@pytest.mark.parametrize("text", ["Serve Llama 3.1 8B to 300 staff, ~40 active at once.",
                                  "Serve Llama 3.1 8B to 300 staff, about 40 online at the same time."])
def test_active_at_once_is_the_concurrency(text: str) -> None:
    assert RulesExtractor().extract(text).concurrency == 40


def test_the_answer_uses_the_held_node_and_says_it_meets_the_rate() -> None:
    reply = str(ask(R11)["reply"])
    assert "8x NVIDIA H200" in reply.split("Recommended:")[1].split("\n")[0]
    assert "meets your 30 tokens/s" in reply


def test_an_assumed_floor_is_not_called_yours() -> None:
    assert "meets your" not in str(ask("serve Llama 3.1 8B to 20 users")["reply"])
