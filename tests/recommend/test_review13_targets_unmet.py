"""Expert review 13, R18: when no option meets every stated serving target within the budget, the reply says
so first and names the nearest options; a per-user speed below the target never 'meets' it; a community
host is never 'lowest operational risk'."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.conversation import Conversation
from tools.recommend.models import reaches_target

R18 = [
    "serve Qwen2.5 Coder 32B to about 100 devs concurrently",
    "first token under 1 second, and at least 30 tokens/s per user. Budget is around $8k/month",
    "stay in the EU, and no community/marketplace hosts",
]
HEAD = "No option within your $8,000 budget meets every target at the slow end of its range."


@pytest.mark.parametrize(
    ("low", "wanted", "met"),
    [(29.7, 30.0, False), (29.96, 30.0, True), (30.0, 30.0, True), (49.4, 50.0, False), (31.0, 30.0, True)],
)
def test_a_figure_below_the_target_never_meets_it(low: float, wanted: float, met: bool) -> None:
    # printed to three significant figures (tools.present.tokens_per_s_range): 29.96 prints as 30.0
    assert reaches_target(low, wanted) is met


@pytest.fixture(scope="module")
def r18_replies() -> list[str]:
    conv = Conversation(explain=False)
    return [conv.send(m).reply for m in R18]


def test_t2_labels_agree_with_their_figures(r18_replies: list[str]) -> None:
    t2 = r18_replies[1]
    for low, label in re.findall(r"\(([\d.]+) – [\d.]+ tokens/s per user; ([^)]*)\)", t2):
        assert (label.startswith("meets your 30")) == (float(low) >= 30.0), (low, label)
    # a runpod-community option is never the lowest-risk one (the reply demotes community hosts)
    assert not re.search(r"lowest operational risk: [^;]*runpod-community", t2)


def test_t3_says_no_option_meets_every_target_first(r18_replies: list[str]) -> None:
    t3 = r18_replies[2]
    assert HEAD in t3 and t3.index(HEAD) < t3.index("Recommended:")
    note = t3[t3.index(HEAD) : t3.index("Recommended:")]
    # the option meeting every target, over the budget, with its price; EU and no community hosts kept
    over = re.search(
        r"Nearest: \d+x .*? at (\w[\w-]*) .*?meets every target for \$([\d,]+) per month, over", note
    )
    assert over is not None and over.group(1) not in ("runpod-community", "vast-ai", "spheron")
    assert float(over.group(2).replace(",", "")) > 8000
    # the pick within the budget names each target it relaxes, with its slow-end figure (2x H200 at
    # runpod-secure's EU data centres since expert review 19, R12: 29.7 tokens/s and 3.8 s)
    assert "relaxes the 30 tokens/s per user (29.7 tokens/s at the slow end)" in note
    assert "the 1 s to the first token (3.8 s at the slow end)" in note


@pytest.mark.parametrize(
    "text",
    [
        "We want to serve Qwen2.5 32B to 100 concurrent users in the EU, time to first token below 1s and "
        "30 tok/s each, budget $8000 a month",
        "Qwen2.5 32B chat for 100 simultaneous users, TTFT < 1 second, at least 30 tokens per second per "
        "user, max $8k per month",
        "Qwen2.5 32B chat for 100 simultaneous users, at least 30 tokens per second per user, max $8k per "
        "month",
    ],
)
def test_phrasings_with_targets_out_of_budget_get_the_plain_line(text: str) -> None:
    reply = str(ask(text)["reply"])
    assert HEAD in reply and reply.index(HEAD) < reply.index("Recommended:")
    assert "over the budget" in reply and "relaxes the 30 tokens/s per user" in reply


@pytest.mark.parametrize(
    "text",
    [
        # near misses: a budget that buys every target; no budget; no stated target
        "Qwen2.5 32B chat for 100 simultaneous users, TTFT < 1 second, at least 30 tokens per second per "
        "user, max $40k per month",
        "Qwen2.5 32B chat for 100 simultaneous users, TTFT < 1 second, at least 30 tokens per second per "
        "user",
        "Qwen2.5 32B chat for 100 simultaneous users, max $8k per month",
    ],
)
def test_no_line_when_a_budget_option_holds_every_target_or_none_is_stated(text: str) -> None:
    assert "meets every target at the slow end" not in str(ask(text)["reply"])
