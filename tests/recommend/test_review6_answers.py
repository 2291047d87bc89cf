"""Answers expert-buyer review 6 judged wrong or cosmetically wrong because the request was misread
(evals/reviews/2026-11-27-expert-review-6.md). Each runs the real rules and recommender through the
conversation (explain=False) and asserts what the reply must say, with a near miss where one applies.
Reference figures are the review's (dense BF16 peaks, catalog prices)."""

from __future__ import annotations

import re

import pytest

from tests.recommend.conftest import conversation_reply as _reply
from tests.recommend.conftest import reply_line as _line


def _not_used(reply: str) -> str:
    """The "I did not use" block (empty when everything was used)."""
    m = re.search(r"I did not use:\n((?:- .*\n?)+)", reply)
    return m.group(1) if m else ""


# ---------------------------------------------------------------- R05: "how many H100s", one month, EU
@pytest.mark.parametrize(
    "text",
    [
        "Planning continued pretraining of Llama 3.1 8B on 100B tokens of German web + legal text. We have "
        "roughly one month of compute time. How many H100s do we need and what does it cost? Must stay in "
        "the EU.",
        "Continued pretraining of Llama 3.1 8B on 100B tokens. How many H100s do we need to finish within 30 "
        "days? EU only.",
    ],
)
def test_a_count_question_is_answered_with_an_h100_count_that_meets_the_month(text: str) -> None:
    reply = _reply(text)
    rec = _line(reply, "Recommended: ")
    # review: 6 x 8.03e9 x 1e11 (+attention) = 5.1e21 FLOP; 720 h: 5-7 H100 at MFU 0.3-0.4 -> 8, 16 for margin
    m = re.match(r"Recommended: (\d+)x NVIDIA H100", rec)
    assert m is not None and int(m.group(1)) in (8, 16), rec
    assert "deadline" in _line(reply, "Why: ")  # the month is the deadline the count meets
    assert "impossible on 1x" not in reply and "GPU count you mentioned 1" not in reply
    assert "month of compute time" not in _not_used(reply)


# ---------------------------------------------------------------- R06 / R04: the GPU in prose
def test_we_would_rent_h100s_sizes_on_h100s() -> None:
    reply = _reply(
        "how much would it cost to pretrain a 1.5B model from scratch on 1T tokens? rough numbers, we'd rent "
        "H100s, want it done in ~3 weeks"
    )
    # review: 9e21 FLOP; 16 H100 at MFU 0.4 = 395 h, 0.3 = 527 h: 24-32 H100 meet 504 h with margin
    assert re.match(r"Recommended: (?:24|32)x NVIDIA H100", _line(reply, "Recommended: ")), reply
    assert "rent" not in _not_used(reply) and "rough numbers" not in _not_used(reply)


def test_8xh100_without_a_space_gets_the_yes_no_line() -> None:
    reply = _reply(
        "We want to run DPO on our SFT'd Mistral Small 24B checkpoint. 60k preference pairs, "
        "prompt+chosen+rejected averages 1,500 tokens per pair. Full-parameter DPO with a frozen reference "
        "model. Is 8xH100 enough and how long will it take?"
    )
    check = _line(reply, "Check: ")
    # review: 23.6B x 16 B / 8 + reference 6 GB + activations ~57 GiB of 79.6: yes
    assert check.startswith("Check: Yes") and "8x NVIDIA H100" in check, reply


# ---------------------------------------------------------------- R02: "finishes over a weekend"
def test_a_weekend_deadline_picks_a_card_that_finishes_inside_it() -> None:
    reply = _reply(
        "Hi team — we'd like to LoRA fine-tune Llama 3.1 8B for a classification-ish task. Dataset is 120k "
        "examples averaging 900 tokens, 3 epochs. Cheapest option that finishes over a weekend please."
    )
    assert "60 h" in _line(reply, "I understood: ")
    rec = _line(reply, "Recommended: ")
    # review: 1.04e19 FLOP; the 4090's 48-72 h overshoots ~60 h, the L40S does it in ~1 day
    assert "RTX 4090" not in rec and "meets the 60 h deadline" in _line(reply, "Why: "), reply


# ---------------------------------------------------------------- R20: "only one of the two nodes?"
def test_a_what_if_on_one_of_two_held_nodes_answers_on_8_gpus() -> None:
    turns = (
        "We have 16x H200 (two nodes) reserved on Nebius for the next 6 weeks.",
        "we'd like to continue pretraining Qwen2.5 32B on 50B tokens with it, does that fit in the 6 weeks?",
    )
    before = _reply(*turns)
    assert _line(before, "Recommended: ").startswith("Recommended: 16x NVIDIA H200")
    reply = _reply(*turns, "and if we only got one of the two nodes?")
    assert _line(reply, "Recommended: ").startswith("Recommended: 8x NVIDIA H200"), reply
    # review: 9.8e21 FLOP on 8x H200 = 764-1,147 h at MFU 0.3-0.45: inside 1,008 h only near the fast end
    assert "only near the fast end" in _line(reply, "Why: ")
    assert "could not answer" not in reply


# ---------------------------------------------------------------- R12 / R14 / R15: answered, not "unused"
@pytest.mark.parametrize(
    ("text", "answered"),
    [
        (
            "Procurement constraint: AWS only (us-east-1), on-demand, no spot. Workload: LoRA fine-tune of "
            "Llama 3.1 70B, 300M tokens, seq len 4096. Please give GPU type, count, expected hours and total "
            "cost.",
            ("on-demand", "Please give GPU type", "expected hours"),
        ),
        (
            "We have $5k total. We want to full-finetune Llama 3.1 8B on 1B tokens. Is that possible and "
            "which provider should we use?",
            ("Is that possible",),
        ),
        (
            "RAG service on Llama 3.1 8B: prompts are long, ~24k tokens of retrieved context, outputs short "
            "(~150 tokens). Need p95 time-to-first-token under 2 s at about 3 requests per second. How many "
            "GPUs?",
            ("How many GPUs",),
        ),
    ],
)
def test_questions_the_answer_answers_are_not_listed_as_unused(text: str, answered: tuple[str, ...]) -> None:
    reply = _reply(text)
    assert _line(reply, "Recommended: ")
    for words in answered:
        assert words not in _not_used(reply), (words, reply)


def test_a_question_the_answer_does_not_answer_is_still_listed() -> None:
    # near miss: a "which" question the pick does not answer
    reply = _reply("LoRA fine-tune of Llama 3.1 8B on 20M tokens. Which learning rate schedule works best?")
    assert "Which learning rate" in _not_used(reply), reply


def test_a_serving_pick_does_not_answer_a_request_for_hours() -> None:
    from advisor.extract.answered_requests import asks_deliverables
    from tools.catalog.load import load_catalog
    from tools.profile import WorkloadProfile
    from tools.recommend import recommend
    from tools.recommend.models import RecommendSettings

    rec = recommend(
        profile=WorkloadProfile(workload="inference", model_id="llama-3-8b", concurrency=10),
        catalog=load_catalog(),
        settings=RecommendSettings(sensitivity=False),
    )
    assert rec.primary is not None and rec.primary.cost_basis != "per_job"
    assert asks_deliverables("Please give GPU type, count", rec)
    assert not asks_deliverables("expected hours and total cost", rec)
    assert not asks_deliverables("Please give our team a call", rec)
