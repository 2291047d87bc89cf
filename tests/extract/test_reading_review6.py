"""Reading failures expert-buyer review 6 found (evals/reviews/2026-11-27-expert-review-6.md): each on the
review's words, phrasings of our own, and a near miss read the other way."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_count_question import asks_count
from advisor.extract.units_text import LONG_WEEKEND_HOURS, WEEKEND_HOURS
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
H100S = {"h100-sxm", "h100-pcie", "h100-nvl"}


# ----------------------------------------------- 1. "how many H100s do we need": a count, not a claim on one
@pytest.mark.parametrize(
    ("text", "hours"),
    [
        # the review's R05 and probe P05
        ("Planning continued pretraining of Llama 3.1 8B on 100B tokens of German web + legal text. We have "
         "roughly one month of compute time. How many H100s do we need and what does it cost? Must stay in "
         "the EU.", 730.0),
        ("Continued pretraining of Llama 3.1 8B on 100B tokens. How many H100s do we need to finish within "
         "30 days? EU only.", 720.0),
        # our own
        ("how many H100 GPUs would it take to pretrain a 3B model on 300B tokens in 3 weeks?", 504.0),
        ("Full fine-tune of Mistral 7B on 5B tokens. We've got about two weeks of cluster time. How many "
         "H100s are needed?", 336.0),
        ("LoRA on Llama 3 70B, 200M tokens: how many H100s should we rent to be done within 4 days?", 96.0),
    ],
)  # fmt: skip
def test_a_count_question_wants_the_gpu_and_keeps_the_time_as_deadline(
    extract: Extract, text: str, hours: float
) -> None:
    p = extract(text)
    assert p.claimed_gpu is None and p.claimed_gpu_count is None and p.claimed_hours is None, text
    assert set(p.gpus_wanted) <= H100S and "h100-sxm" in p.gpus_wanted, text
    assert p.deadline_hours == pytest.approx(hours), text
    assert p.status_of("deadline_hours") == "inferred"


def test_the_compute_window_evidence_says_it_is_read_as_the_deadline(extract: Extract) -> None:
    p = extract("We have roughly one month of compute time. Llama 3.1 8B, 100B tokens.")
    assert p.deadline_hours == 730.0  # tools.units.HOURS_PER_MONTH (price-sheet month)
    assert "deadline" in str(p.provenance["deadline_hours"].evidence)


@pytest.mark.parametrize(
    "text",
    [
        "How many hours on 8x H100? Full fine-tune of Llama 3 8B on 5B tokens.",  # a time asked: a claim
        "How many days would 16 H100s need for Llama 3 8B on 100B tokens?",
        "Our vendor says 4 H100s finish it within 30 days. Llama 3 8B on 20B tokens.",
    ],
)
def test_near_misses_on_named_hardware_stay_claims(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.claimed_gpu == "h100-sxm" and p.claimed_gpu_count is not None, text
    assert not asks_count(text)


def test_gpu_hours_are_a_compute_budget_not_a_window(extract: Extract) -> None:
    p = extract("We have 500 GPU-hours of compute. LoRA Llama 3 8B on 20M tokens.")
    assert p.deadline_hours is None


# ----------------------------------------------- 2. "we'd rent H100s" and "8xH100"
@pytest.mark.parametrize(
    "text",
    [
        "how much would it cost to pretrain a 1.5B model from scratch on 1T tokens? rough numbers, we'd rent "
        "H100s, want it done in ~3 weeks",  # R06
        "Pretrain a 1B model on 500B tokens; we would be renting H100s for it.",
        "We plan to rent 16 H100s for a LoRA of Llama 3 70B on 100M tokens.",
    ],
)
def test_the_gpu_the_team_will_rent_is_wanted(extract: Extract, text: str) -> None:
    p = extract(text)
    assert "h100-sxm" in p.gpus_wanted and set(p.gpus_wanted) <= H100S, text


def test_a_rental_asked_about_beside_owned_hardware_is_not_required(extract: Extract) -> None:
    # R16's shape: renting is the alternative asked about, not a requirement
    p = extract("Our cluster is 2 nodes with 8x A100 each. Could we serve Llama 3.3 70B on it, or should we "
                "rent H100s?")  # fmt: skip
    assert p.gpus_wanted == []


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Full-parameter DPO of Mistral Small 24B, 60k pairs of 1,500 tokens. Is 8xH100 enough and how long "
         "will it take?", "h100-sxm", 8),  # R04
        ("Is 2xA100-80GB enough for a LoRA of Llama 3 8B on 20M tokens?", "a100-80gb-sxm", 2),
        ("Would 4×H100 be enough to fine-tune Mistral 7B on 1B tokens?", "h100-sxm", 4),
    ],
)  # fmt: skip
def test_a_count_glued_to_the_gpu_names_the_set_up(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count), text


# ----------------------------------------------- 3. "finishes over a weekend": a ~60 h deadline
@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Hi team — we'd like to LoRA fine-tune Llama 3.1 8B for a classification-ish task. Dataset is 120k "
         "examples averaging 900 tokens, 3 epochs. Cheapest option that finishes over a weekend please.",
         WEEKEND_HOURS),  # R02
        ("LoRA Llama 3 8B on 50M tokens, it should be done over the weekend.", WEEKEND_HOURS),
        ("QLoRA of Qwen2.5 32B on 30M tokens; it has to be trained over the long weekend.",
         LONG_WEEKEND_HOURS),
        ("Mistral 7B LoRA, 40M tokens. We have just the weekend.", WEEKEND_HOURS),
    ],
)  # fmt: skip
def test_a_weekend_is_a_deadline_with_its_assumption_stated(
    extract: Extract, text: str, hours: float
) -> None:
    p = extract(text)
    assert p.deadline_hours == hours, text
    assert p.status_of("deadline_hours") == "inferred"
    assert "Friday evening" in str(p.provenance["deadline_hours"].evidence)


def test_a_weekend_is_friday_evening_to_monday_morning() -> None:
    assert WEEKEND_HOURS == 60.0  # Fri 18:00 -> Mon 06:00 (review 6: "a weekend is ~60 h")
    assert LONG_WEEKEND_HOURS == 84.0


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Llama 3 8B on 50M tokens. Our evals run over the weekend.",  # a schedule
        "LoRA Llama 3 8B on 50M tokens. We only work on it on weekends.",
    ],
)
def test_a_weekend_schedule_is_no_deadline(extract: Extract, text: str) -> None:
    assert extract(text).deadline_hours is None, text


def test_a_weekend_claim_stays_a_claim(extract: Extract) -> None:
    p = extract("I reckon two A100s would do it over the weekend. LoRA Llama 3 8B, 50M tokens.")
    assert (p.claimed_gpu_count, p.claimed_hours, p.deadline_hours) == (2, WEEKEND_HOURS, None)


# ----------------------------------------------- 4. "and if we only got one of the two nodes?"
def _owned_16(extract: Extract) -> WorkloadProfile:
    p = extract("We have 16x H200 (two nodes) reserved on Nebius for the next 6 weeks.")
    said = (
        "we'd like to continue pretraining Qwen2.5 32B on 50B tokens with it, does that fit in the 6 weeks?"
    )
    return extract(said, p)


@pytest.mark.parametrize(
    "follow_up",
    [
        "and if we only got one of the two nodes?",  # R20 turn 3
        "what if we only had one node?",
        "Suppose we just keep one of the nodes, does it still fit?",
        "and with only half of them?",
    ],
)
def test_a_follow_up_keeping_part_of_the_held_set_up_halves_it(extract: Extract, follow_up: str) -> None:
    p = extract(follow_up, _owned_16(extract))
    assert (p.owned_gpu, p.owned_gpu_count) == ("h200", 8), follow_up
    assert p.deadline_hours == 1008.0 and p.model_id == "qwen2.5-32b"  # the rest of the question is kept


def test_a_follow_up_share_of_a_named_set_up_changes_the_count_asked_about(extract: Extract) -> None:
    p = extract("Is 16x H100 (two nodes) enough to full fine-tune Llama 3 8B on 5B tokens in 2 days?")
    assert p.claimed_gpu_count == 16
    p = extract("and if we only got one of the two nodes?", p)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 8, 48.0)


@pytest.mark.parametrize(
    "follow_up",
    [
        "what if we paid half the price?",  # not a share of the hardware
        "and if we got one of the two nodes with H100s instead?",  # a new set-up: the GPU rules read it
        "One of the two nodes is in Frankfurt.",  # a statement, not a what-if
    ],
)
def test_near_misses_keep_the_held_count(extract: Extract, follow_up: str) -> None:
    p = extract(follow_up, _owned_16(extract))
    assert p.owned_gpu_count == 16, follow_up


# ----------------------------------------------- 5. "on-demand" in a constraint list
def test_on_demand_listed_as_a_constraint_rules_out_the_other_pricing(extract: Extract) -> None:
    p = extract("Procurement constraint: AWS only (us-east-1), on-demand, no spot. LoRA Llama 3.1 70B, 300M "
                "tokens.")  # fmt: skip
    assert {"spot", "reserved"} <= set(p.pricing_excluded) and "on_demand" not in p.pricing_excluded


def test_on_demand_in_a_list_of_options_rules_out_nothing(extract: Extract) -> None:
    p = extract("We compared spot, on-demand, reserved. LoRA Llama 3.1 8B, 30M tokens.")
    assert p.pricing_excluded == []
