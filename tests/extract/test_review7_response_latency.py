"""Expert review 7, R07: "keeps p95 latency under 2 s" is a whole answer's time (response_target_s), and
the answer says whether the pick meets it: seconds per answer = time to first token + output tokens x ms
per token (tools/recommend/serving_plan.py response_note)."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R07 = (
    "We're putting Qwen2.5 7B behind a classification API: about 2M requests per day, ~600 input tokens and "
    "~20 output tokens each. Needs to keep p95 latency under 2 s. Cheapest setup?"
)


def test_review_phrasing_is_a_response_target() -> None:
    p = RulesExtractor().extract(R07)
    assert p.response_target_s == pytest.approx(2.0)
    assert p.latency_ms_per_token == pytest.approx(100.0)  # 2,000 ms over 20 tokens
    assert p.ttft_target_s is None


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("Serve Qwen2.5 7B to 30 users; responses must come back within 2 seconds.", 2.0),
        ("Serve Qwen2.5 7B, 300 in / 50 out tokens, latency should stay under 1.5 seconds.", 1.5),
        ("Serve Qwen2.5 7B to 30 users. Each request must complete in under 3 s.", 3.0),
        ("Serve Qwen2.5 7B to 30 users, end-to-end latency under 2.5 s.", 2.5),
    ],
)
def test_other_wordings(text: str, seconds: float) -> None:
    assert RulesExtractor().extract(text).response_target_s == pytest.approx(seconds)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5 7B to 30 users at latency 50 ms per token.",
        "Serve Qwen2.5 7B to 30 users, under 2 s to the first token.",
        "Serve Qwen2.5 7B to 30 users; replies must begin streaming in under a second.",
    ],
)
def test_per_token_and_first_token_targets_are_not_per_answer(text: str) -> None:
    assert RulesExtractor().extract(text).response_target_s is None


def test_the_answer_gives_seconds_per_answer_and_a_verdict() -> None:
    reply = str(ask(R07)["reply"])
    verdicts = "within|over at the slow end of|over"
    m = re.search(rf"([\d.]+)-([\d.]+) s per 20-token answer \(.*?\): ({verdicts}) your (?:p95 )?2 s", reply)
    assert m is not None, reply
    low, high, verdict = float(m.group(1)), float(m.group(2)), m.group(3)
    assert low <= high
    assert (verdict == "within") == (high <= 2.0)


def test_without_an_answer_length_it_says_how_long_an_answer_fits() -> None:
    reply = str(ask("Serve Qwen2.5 7B to 30 users; responses must come back within 2 seconds.")["reply"])
    assert re.search(r"answers of up to [\d,]+ tokens finish within your 2 s", reply), reply
