"""Expert review 13, R13: a yes/no question about named cards ("Is an L40S good enough to serve ...?") is a
claim to check on those cards (claimed_gpu, claimed_gpu_count), as "Can one L40S serve ...?" already was;
a statement or a question about something else is not."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R13 = (
    "Is an L40S good enough to serve Llama 3.1 8B at 30 tokens/s per user for 40 users? "
    "Or do we need an H100?"
)


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        (R13, "l40s", 1),
        ("Are 2x A100 80GB sufficient to serve Llama 3.1 70B for 20 users?", "a100-80gb-sxm", 2),
        ("is a single H100 fast enough for Llama 3.1 8B with 100 users?", "h100-sxm", 1),
        ("Are four L4s up to the job of serving Llama 3.1 8B to 10 users?", "l4", 4),
        ("Serve Llama 3.1 8B to 40 users. Is one L40S enough?", "l40s", 1),
    ],
)
def test_is_it_enough_is_a_claim(text: str, gpu: str, count: int) -> None:
    p = RulesExtractor().extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "The L40S is good enough for us. Serve Llama 3.1 8B to 40 users.",  # a statement, not a question
        "Is an L40S available in Frankfurt? Serve Llama 3.1 8B to 40 users.",  # asks something else
    ],
)
def test_near_misses_are_no_claim(text: str) -> None:
    assert RulesExtractor().extract(text).claimed_gpu is None


def test_the_answer_checks_the_named_card() -> None:
    out = ask(R13)
    reply = str(out["reply"])
    assert "'an L40S good enough'" not in reply
    assert "on 1x NVIDIA L40S each of 40 streams decodes" in reply
