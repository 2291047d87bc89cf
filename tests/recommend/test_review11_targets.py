"""Expert review 11, R08 (a p95 answer time checked in the middle of the range; 'meets your 50 tokens/s'
that the user never said) and R09 (owned cards that cannot run the job; 'what's the minimum to rent?'
listed as unanswered)."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R08 = (
    "summarization API on Qwen2.5 14B: peak 40 requests per second, input 2,000 tokens, output 200 tokens, "
    "p95 latency under 4 s"
)
R09 = (
    "We own 4x RTX 4090 (24GB each). Can we LoRA fine-tune Llama 3.1 70B on 10M tokens on them? If not, "
    "what's the minimum to rent?"
)
_ANSWER = re.compile(
    r"([\d.]+)-([\d.]+) s per 200-token answer \(.*?\): (within|misses[^:;]*|over[^:;]*) your (p95 )?4 s"
)


@pytest.mark.parametrize(
    ("text", "percentile"),
    [
        ("Serve Qwen2.5 14B, 200-token answers; p95 latency under 4 s.", 95.0),
        ("Serve Qwen2.5 14B, 200-token answers; p99 latency must stay under 4 s.", 99.0),
        ("Serve Qwen2.5 14B, 200-token answers; latency under 4 s at the 95th percentile.", 95.0),
        ("Serve Qwen2.5 14B, 200-token answers; 95% of requests must finish within 4 s.", 95.0),
        ("Serve Qwen2.5 14B, 200-token answers; median latency under 4 s.", None),
    ],
)
def test_the_percentile_of_a_latency_target_is_read(text: str, percentile: float | None) -> None:
    p = RulesExtractor().extract(text)
    assert p.latency_percentile == percentile and p.response_target_s == 4.0


def test_a_p95_answer_time_holds_at_the_slow_end_and_names_the_users_target() -> None:
    """Before: 5x B200, '2.3-4.9 s per 200-token answer ... over at the slow end of your 4 s target' and
    'meets your 50 tokens/s'. A p95 target must hold at the slow end: the replica count that holds it (6x
    B200 at ~$29,740/month, the review's own figure) and the user's own words for the per-user pace."""
    reply = str(ask(R08)["reply"])
    pick = reply.split("Alternatives:")[0]
    m = _ANSWER.search(pick)
    assert m is not None, pick
    assert float(m.group(2)) <= 4.0 and m.group(3) == "within" and m.group(4) == "p95 ", pick
    assert "your 50 tokens/s" not in reply
    assert "your p95 4 s for a 200-token answer" in pick


def test_without_a_percentile_the_slow_end_may_miss() -> None:
    """A plain 'latency under 4 s' (no percentile) keeps the middle-of-range reading: fewer replicas."""
    reply = str(ask(R08.replace("p95 latency", "latency"))["reply"])
    pick = reply.split("Alternatives:")[0]
    m = _ANSWER.search(pick)
    assert m is not None and m.group(4) is None, pick


def test_owned_cards_that_cannot_run_it_name_the_least_rental_and_answer_the_question() -> None:
    reply = str(ask(R09)["reply"])
    assert "could not answer" not in reply and "If not" not in reply.split("Your 4x")[0], reply
    least = re.search(
        r"The fewest GPUs to rent that fit: (\d+)x .*? at (\S+) \(on demand\), (\$[\d.,]+ – \$[\d.,]+)", reply
    )
    assert least is not None, reply
    pick = re.search(r"Recommended: (\d+)x .*? at (\S+) \(on demand\): .*?, (\$[\d.,]+ – \$[\d.,]+)\.", reply)
    assert pick is not None, reply
    if least.group(1, 2) == pick.group(1, 2):  # the same rental: one price
        assert least.group(3) == pick.group(3), reply
    assert "With QLoRA (a 4-bit base) it runs on your 4x" in reply
    assert "I did not use" not in reply  # "(24GB each)" is the catalog's RTX 4090, "If not" the verdict's


def test_an_owned_memory_the_catalog_does_not_hold_stays_listed() -> None:
    reply = str(ask(R09.replace("24GB", "48GB"))["reply"])
    assert "I did not use:\n- '48GB each)'" in reply, reply
