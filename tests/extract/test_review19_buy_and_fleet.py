"""Expert review 19's reading failures (evals/reviews/2026-11-28-expert-review-19.md, R13/P13, R19/P19, R04)
as classes of phrasing, in words other than the review's, with near misses:

- a purchase question in its common forms sets buy_asked (and the default buy-vs-rent horizon when none is
  said): "is buying worth it", "cheaper to own", "should we purchase our own", "does it make sense to buy",
  "buy ... or stay on the cloud"; not hardware already bought, a rental product bought, or which GPU to buy;
- capacity rented now, described with its monthly cost, is the current fleet: its provider is no requirement,
  its GPU no wish, its spend no budget; the providers a price is asked at are providers_asked, the reserved
  term asked is no planning horizon; a requirement said elsewhere ("our AWS account" in a policy) stands;
- "most cheap", "most affordable", "least costly" are the cheapest objective."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "Every month we fine-tune Llama 3.1 8B (full) on 2B tokens of new data."


# ------------------------------------------------------------------------------------- purchase questions
@pytest.mark.parametrize(
    "said",
    [
        "Is buying our own hardware worth it?",
        "Would it be cheaper to own a server with 8 H200s?",
        "Would owning 8x H200 save us money compared to the cloud?",
        "Should we purchase our own DGX H100 instead?",
        "Does it make sense to buy an HGX box for this?",
        "Would a purchase of 16 A100s pay for itself?",
        "Buy a couple of 8x H100 nodes or stay on the cloud?",
        "We're considering purchasing an 8x H200 server instead of renting.",
        "Is it worth it to buy 4 L40S cards?",
        "Honestly, is purchasing more cost-effective than renting for us?",
    ],
)
def test_a_purchase_question_is_asked_and_weighed(extract: Extract, said: str) -> None:
    p = extract(f"{JOB} {said}")
    assert p.buy_asked is True, said
    assert p.horizon_months == pytest.approx(36)  # the default horizon for weighing a purchase
    assert p.owned_gpu is None  # weighed, not had


def test_a_stated_horizon_is_kept_beside_a_purchase_question(extract: Extract) -> None:
    p = extract(f"{JOB} Would owning the GPUs be cheaper than renting over the next 2 years?")
    assert p.buy_asked is True and p.horizon_months == pytest.approx(24)


def test_the_cards_of_a_purchase_question_are_the_set_up_weighed(extract: Extract) -> None:
    p = extract(f"{JOB} Would getting our own 4x H200 box be cheaper than renting?")
    assert p.buy_asked is True
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h200", 4)


@pytest.mark.parametrize(
    "said",
    [
        "We bought 8 H100s last year and want to use them.",  # owned, not a question
        "Is it worth buying reserved capacity for a year?",  # a rental product
        "Should we purchase a savings plan?",
        "Which GPU should we buy for this?",  # buying settled: which one
        "Is it worth renting 8x H100 for this?",  # renting alone
        "Buying our own would be cheaper, so we will buy.",  # a statement, not a question
    ],
)
def test_near_miss_no_purchase_question(extract: Extract, said: str) -> None:
    assert not extract(f"{JOB} {said}").buy_asked, said


def test_near_miss_cards_bought_are_owned(extract: Extract) -> None:
    p = extract(f"{JOB} We bought 8 H100s last year.")
    assert (p.owned_gpu, p.owned_gpu_count) == ("h100-sxm", 8) and not p.buy_asked


def test_a_what_if_purchase_of_our_own_server_is_not_owned(extract: Extract) -> None:
    p = extract(f"{JOB} We rent today. What if we bought our own 8x H100 server instead?")
    assert p.owned_gpu is None and p.buy_what_if is True
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h100-sxm", 8)


def test_a_server_to_buy_is_no_serving_workload(extract: Extract) -> None:
    # "server" is a machine, not the verb "serve" (the workload is left to the rest of the message)
    assert extract("Is it worth buying an 8x H100 server?").workload is None


# ------------------------------------------------------------------------------------------ current fleet
@pytest.mark.parametrize(
    ("text", "gpu", "count", "provider", "usd"),
    [
        ("We pay about $40,000 a month for 8 H100s on AWS. How much would the same capacity be on Nebius?",
         "h100-sxm", 8, "aws", 40_000),
        ("Our GCP bill for 16x A100 80GB is ~$35k per month. What would that cost at Lambda?",
         "a100-80gb-sxm", 16, "gcp", 35_000),
        ("8x H100 on-demand at Azure costs us 90k USD monthly. Compare it with CoreWeave please?",
         "h100-sxm", 8, "azure", 90_000),
        ("We currently rent 8x H200 at CoreWeave for roughly $30k/month; what would Nebius charge for it?",
         "h200", 8, "coreweave", 30_000),
    ],
)  # fmt: skip
def test_the_fleet_rented_now_is_read_and_not_required(
    extract: Extract, text: str, gpu: str, count: int, provider: str, usd: float
) -> None:
    p = extract(text)
    assert (p.current_gpu, p.current_gpu_count, p.current_provider) == (gpu, count, provider)
    assert p.current_usd_per_month == pytest.approx(usd)
    assert provider not in p.providers_required and provider not in p.providers_preferred
    assert p.gpus_wanted == [] and p.budget_usd is None  # a description, not a wish or a budget
    assert p.providers_asked and provider not in p.providers_asked


def test_the_reserved_term_asked_is_a_price_not_a_horizon(extract: Extract) -> None:
    p = extract(
        "We're paying ~$40k/month for 8x H100 on-demand on AWS, running 24/7. Price the same capacity at "
        "Lambda and Nebius, on demand and on a 3-year commitment?"
    )
    assert p.reserved_months_asked == pytest.approx(36)
    assert p.horizon_months is None
    assert p.current_pricing == "on_demand" and p.utilization == pytest.approx(1.0)
    assert set(p.providers_asked) >= {"lambda", "nebius"}


def test_near_miss_a_policy_requirement_elsewhere_stands(extract: Extract) -> None:
    p = extract(
        "Company policy: all training must run in our AWS account. We spend around $40k a month on 8x H100 "
        "there. What would the same capacity cost with a 1-year reservation?"
    )
    assert p.providers_required == ["aws"]  # the policy sentence, not the fleet's
    assert p.current_gpu == "h100-sxm" and p.reserved_months_asked == pytest.approx(12)


@pytest.mark.parametrize(
    "text",
    [
        "We can spend $40k/month on 8x H100 at AWS. What should we train?",  # a budget
        "Budget: $40k a month for 8x H100 on AWS.",
        "We spent $40k last month on 8x H100 at AWS and the job failed.",  # money gone, not the bill
    ],
)
def test_near_miss_a_budget_or_past_spend_is_no_fleet(extract: Extract, text: str) -> None:
    assert extract(text).current_gpu is None, text


# ------------------------------------------------------------------------------------ cheapest, said plainly
@pytest.mark.parametrize(
    "said",
    ["Which card is most cheap for it?", "We want the most affordable GPU.", "What is least costly?"],
)
def test_cheapest_said_plainly_is_the_objective(extract: Extract, said: str) -> None:
    assert extract(f"QLoRA of Qwen2.5 14B on 40M tokens. {said}").objective == "cheapest"
