"""Expert review 12 (evals/reviews/2026-11-27-expert-review-12.md), R19 / P19 and R05, with the real rules
extractor and recommender: an FP8 what-if after a serving conversation re-sizes on FP8 weights and says
what changed; 'Should we buy or rent?' with no horizon is answered over the named default horizon."""

from __future__ import annotations

import re

import pytest

from advisor.conversation import Conversation
from tools.recommend.buy_rent import DEFAULT_HORIZON_MONTHS

R19 = [
    "We're building a customer chat assistant, about 300 concurrent users at peak.",
    "Llama 3.3 70B, and each user should get at least 20 tokens/s.",
]
R05 = (
    "We need to serve Llama 3.1 8B 24/7 for our product, about 500 requests per minute, ~1k tokens in "
    "and 300 out. Should we buy or rent?"
)


@pytest.mark.parametrize("what_if", ["What if we run it in FP8 instead?", "Use FP8 precision."])
def test_fp8_follow_up_resizes_and_says_what_changed(what_if: str) -> None:
    c = Conversation(explain=False)
    for m in R19:
        c.send(m)
    before = c.last.recommendation.primary if c.last and c.last.recommendation else None
    assert before is not None
    t = c.send(what_if)
    assert c.profile.precision == "fp8"
    assert t.recommendation is not None and t.recommendation.primary is not None
    after = t.recommendation.primary
    # FP8 weights are 1 byte per parameter against 2 for BF16 (tools/memory_states.py): 70.6B parameters
    # at 1 B/param take ~33 GiB off the whole set-up, so the peak per GPU must fall
    assert after.peak_gib_per_gpu < before.peak_gib_per_gpu - 5
    assert "nothing changes" not in t.reply
    assert "could not answer" not in t.reply
    assert "With FP8 weights instead of BF16" in t.reply
    assert f"{before.peak_gib_per_gpu:.1f} GiB -> {after.peak_gib_per_gpu:.1f} GiB" in t.reply
    assert re.search(r"\$[\d,]+ per month -> \$[\d,]+ per month", t.reply)


def test_fp8_in_a_first_serving_message_sizes_fp8_weights() -> None:
    bf16 = Conversation(explain=False).send(
        "Serve Llama 3.3 70B to 300 concurrent chat users, 20 tokens/s each."
    )
    fp8 = Conversation(explain=False).send(
        "Serve Llama 3.3 70B in FP8 to 300 concurrent chat users, 20 tokens/s each."
    )
    assert bf16.recommendation is not None and fp8.recommendation is not None
    assert fp8.recommendation.profile.precision == "fp8"
    a, b = bf16.recommendation.primary, fp8.recommendation.primary
    assert a is not None and b is not None
    # per GPU of the same card, or fewer/cheaper GPUs: FP8 never needs more memory per replica than BF16
    assert b.peak_gib_per_gpu < a.peak_gib_per_gpu or b.total_gpus < a.total_gpus
    assert "With FP8 weights" not in fp8.reply  # nothing to compare on a first message


def test_fp8_follow_up_after_training_is_not_a_weight_precision() -> None:
    """'train in fp8' is compute precision on bf16 master weights (rule_precision): no change there."""
    c = Conversation(explain=False)
    c.send("LoRA fine-tune of Llama 3.1 8B on 100M tokens")
    c.send("What if we use FP8?")
    assert c.profile.precision != "fp8"


def test_buy_or_rent_without_horizon_is_answered_over_the_named_default() -> None:
    t = Conversation(explain=False).send(R05)
    rec = t.recommendation
    assert rec is not None and rec.buy_vs_rent is not None
    assert rec.buy_vs_rent.horizon_months == DEFAULT_HORIZON_MONTHS
    assert "could not answer" not in t.reply
    assert "Buy vs rent (" in t.reply
    assert f"No horizon was given: this weighs {DEFAULT_HORIZON_MONTHS:g} months" in t.reply


def test_buy_or_rent_keeps_a_stated_horizon_and_answers_it() -> None:
    t = Conversation(explain=False).send(R05.replace("buy or rent?", "buy or rent over 2 years?"))
    rec = t.recommendation
    assert rec is not None and rec.buy_vs_rent is not None
    assert rec.buy_vs_rent.horizon_months == 24
    assert "No horizon was given" not in t.reply
    # the pick is rented (a GPU nobody sells): the timeline is that of the best option that can be bought
    assert "Buy vs rent (" in t.reply


def test_buy_or_rent_asked_in_a_later_turn() -> None:
    c = Conversation(explain=False)
    c.send(R05.replace(" Should we buy or rent?", ""))
    t = c.send("Should we buy or rent?")
    assert t.recommendation is not None and t.recommendation.buy_vs_rent is not None
    assert "could not answer" not in t.reply


def test_the_default_horizon_is_listed_as_assumed_never_as_understood() -> None:
    """The 36 months were not said: 'I understood' lists what the user said, 'Assumed' what was filled in."""
    reply = Conversation(explain=False).send(R05).reply
    understood = next(line for line in reply.splitlines() if line.startswith("I understood"))
    assumed = next(line for line in reply.splitlines() if line.startswith("Assumed"))
    assert "horizon" not in understood
    assert f"horizon {DEFAULT_HORIZON_MONTHS:g} months" in assumed


def test_a_pick_to_buy_is_not_beside_an_assumed_cloud_preference() -> None:
    t = Conversation(explain=False).send(
        "We want to serve Llama 3.1 8B 24/7 for our internal chatbot, about 30 concurrent users. "
        "Should we buy or rent?"
    )
    assert t.recommendation is not None and t.recommendation.primary is not None
    assumed = next(line for line in t.reply.splitlines() if line.startswith("Assumed"))
    assert t.recommendation.primary.pricing == "owned"  # buying wins over 36 months at 100% use
    assert "deployment preference cloud" not in assumed
    assert "(1 GPUs" not in t.reply
