"""Expert review 17 (evals/reviews/2026-11-28-expert-review-17.md): replies to the four requests judged
wrong, in the review's own words, with variants and a near miss. Expected values come from the tools
(catalog, units), not from the review's figures."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from tools.catalog.load import load_catalog
from tools.units import HOURS_PER_MONTH

R06 = (
    "generate 100 million tokens synthetic data with llama 3.1 70b, deadline is 5 days, cheapest gpu, "
    "we not use spot."
)


@pytest.mark.parametrize(
    "text",
    [
        R06,
        R06.replace("we not use spot", "we no want spot"),
        "LoRA llama 3.1 8b on 50M tokens, cheapest gpu please, we not using spot",
    ],
)
def test_r06_pick_is_not_spot(text: str) -> None:
    out = ask(text)
    assert "spot" in out["profile"]["pricing_excluded"]
    rec = out["recommendation"]
    assert rec["primary"]["pricing"] != "spot"
    assert all(a["pricing"] != "spot" for a in rec["alternatives"])
    assert "not understood" not in str(out["reply"])


def test_r06_near_miss_spot_stays_allowed() -> None:
    out = ask("LoRA llama 3.1 8b on 50M tokens, cheapest gpu please, not sure about spot")
    assert out["profile"]["pricing_excluded"] == []


R16 = "can we serve deepseek-r1-distill-llama-70b on 2x A100 80GB for 10 users at once? 4k tokens each"


@pytest.mark.parametrize(
    ("text", "base"),
    [
        (R16, "DeepSeek-R1-Distill-Llama-70B"),
        (
            R16.replace("deepseek-r1-distill-llama-70b", "R1-Distill-Llama-70B"),
            "DeepSeek-R1-Distill-Llama-70B",
        ),
        (
            "serve DeepSeek-R1-Distill-Qwen-32B on 1x H100 for 10 users, 4k tokens each",
            "DeepSeek-R1-Distill-Qwen-32B",
        ),
    ],
)
def test_r16_distill_is_sized_as_its_base(text: str, base: str) -> None:
    out = ask(text)
    arch = load_catalog().model(base)
    assert out["profile"]["model_id"] == arch.id
    reply = str(out["reply"])
    assert "deepseek-v3" not in reply.lower()
    # a 70B (or 32B) model's weights, never the 671B teacher's (~316 GiB per GPU in the review's reply)
    peak_gib = out["recommendation"]["primary"]["peak_gib_per_gpu"]
    assert peak_gib < 2 * arch.param_count() / 2**30  # bf16 weights over at least one GPU, plus KV


def test_r16_near_miss_the_teacher_is_deepseek() -> None:
    out = ask("can we serve deepseek r1 on 8x H200 for 10 users at once?")
    assert out["profile"]["model_id"] == load_catalog().model("DeepSeek-R1").id


R14 = (
    "they need 64x H100 for 3 months to pre-train a 7B model on 2T tokens. Is that sized right, and what "
    "would it cost?"
)


@pytest.mark.parametrize(
    "text",
    [
        R14,
        "Is 64x H100 for 3 months enough to pre-train a 7B model on 2T tokens?",
        "The vendor says 64 H100s for 3 months to pretrain our 7B model on 2T tokens. Is that enough?",
    ],
)
def test_r14_sizing_claim_is_answered_first(text: str) -> None:
    out = ask(text)
    reply = str(out["reply"])
    assert out["profile"]["claimed_gpu_count"] == 64
    assert out["profile"]["claimed_hours"] == pytest.approx(3 * HOURS_PER_MONTH)
    assert "I did not use" not in reply
    # the yes/no on their 64x H100 opens the answer, before the pick
    answer = next(line for line in reply.splitlines() if "on 64x NVIDIA H100" in line)
    assert answer.startswith("Yes")
    assert reply.index(answer) < reply.index("Recommended:")
    # the estimate on 64x H100 is inside the 3 months (the margin the buyer asked about)
    hours = re.search(r"estimate is ([\d,]+) – ([\d,]+) h", answer)
    assert hours is not None
    assert float(hours.group(2).replace(",", "")) < 3 * HOURS_PER_MONTH


def test_r14_near_miss_a_rental_term_is_not_checked() -> None:
    out = ask("we rent 64x H100 for 3 months to pretrain a 7B model on 2T tokens. What would it cost?")
    assert out["profile"]["claimed_hours"] is None
