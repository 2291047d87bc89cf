"""Expert review 17 (evals/reviews/2026-11-28-expert-review-17.md): the four wrong answers were reading
failures. Each is read here in the review's words, two variants in a team's own words and a near miss:
R06 a negation without its auxiliary ("we not use spot"), R16 a distilled model's name
("deepseek-r1-distill-llama-70b" is a Llama 70B, not DeepSeek-V3), R14 a reported sizing with its term
("they need 64x H100 for 3 months ... Is that sized right"), R19 turn 3 "we'd prefer to buy hardware
rather than rent, budget $400k"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract import units_text as U
from tools.catalog.load import load_catalog
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

R06 = (
    "generate 100 million tokens synthetic data with llama 3.1 70b, deadline is 5 days, cheapest gpu, "
    "we not use spot."
)


@pytest.mark.parametrize(
    "text",
    [
        R06,
        "we no want spot, cheapest gpu for llama 3.1 8b LoRA on 50M tokens",
        "We are not using spot. LoRA llama 3 8b",
    ],
)
def test_r06_negation_without_auxiliary_rules_out_spot(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.pricing_excluded == ["spot"]
    assert p.provenance["pricing_excluded"].evidence


@pytest.mark.parametrize(
    "text",
    [
        "not sure about spot. LoRA llama 3 8b on 50M tokens",
        "we do not need spot pricing info. LoRA llama 3 8b",
    ],
)
def test_r06_near_miss_rules_out_nothing(extract: Extract, text: str) -> None:
    assert extract(text).pricing_excluded == []


R16 = "can we serve deepseek-r1-distill-llama-70b on 2x A100 80GB for 10 users at once? 4k tokens each"


@pytest.mark.parametrize(
    ("text", "base"),
    [
        (R16, "DeepSeek-R1-Distill-Llama-70B"),
        ("serve DeepSeek-R1-Distill-Qwen-32B for 10 users", "DeepSeek-R1-Distill-Qwen-32B"),
        ("we want the R1 distill qwen 14b for 10 users", "DeepSeek-R1-Distill-Qwen-14B"),
    ],
)
def test_r16_distilled_model_reads_as_its_base(extract: Extract, text: str, base: str) -> None:
    cat = load_catalog()
    p = extract(text)
    # the catalog alias names the base architecture (DeepSeek-R1 model card, distilled model table)
    assert p.model_id == cat.model(base).id
    assert p.model_id != cat.model("DeepSeek-R1").id


def test_r16_near_miss_the_teacher_itself_stays_deepseek(extract: Extract) -> None:
    cat = load_catalog()
    assert extract("serve deepseek r1 for 10 users").model_id == cat.model("DeepSeek-R1").id


R14 = (
    "they need 64x H100 for 3 months to pre-train a 7B model on 2T tokens. Is that sized right, and what "
    "would it cost?"
)


@pytest.mark.parametrize(
    ("text", "count", "amount", "unit"),
    [
        (R14, 64, 3, "month"),
        ("Is 64x H100 for 3 months enough to pre-train a 7B model on 2T tokens?", 64, 3, "month"),
        (
            "Our vendor spec'd 32 A100s for six weeks to pretrain a 3B model on 500B tokens; is that enough?",
            32,
            6,
            "week",
        ),
    ],
)
def test_r14_reported_sizing_is_a_claim(
    extract: Extract, text: str, count: int, amount: float, unit: str
) -> None:
    p = extract(text)
    assert p.claimed_gpu is not None and p.claimed_gpu_count == count
    assert p.claimed_hours == pytest.approx(U.hours_from(amount, unit).value)


def test_r14_near_miss_a_rental_term_without_a_sizing_question(extract: Extract) -> None:
    p = extract("we rent 64x H100 for 3 months to pretrain a 7B model on 2T tokens. What would it cost?")
    assert p.claimed_gpu is None and p.claimed_hours is None


@pytest.mark.parametrize(
    "text",
    [
        "Actually we'd prefer to buy hardware rather than rent, budget $400k.",
        "we would rather buy our own GPUs than rent them, budget 400k",
        "Change of plan: buy the servers instead of renting. Budget $400k",
    ],
)
def test_r19_buy_rather_than_rent_is_a_purchase_with_its_budget(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.deployment_preference == "on_prem"
    assert p.budget_usd == pytest.approx(400_000) and p.budget_capex is True


def test_r19_near_miss_buying_weighed_is_not_a_preference(extract: Extract) -> None:
    p = extract("should we buy hardware rather than rent? budget $400k")
    assert p.deployment_preference is None and p.budget_capex is None
