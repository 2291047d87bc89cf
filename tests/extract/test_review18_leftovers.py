"""Expert review 18's left-overs (evals/reviews/2026-11-28-expert-review-18.md), each as a class of phrasings
in words other than the review's, with near misses that must not trigger:

- a run cadence in every form (R17): "quarterly", "4 times a year", "each month", "every other week"; not one
  placed in the past ("we tried it every quarter last year");
- a time limit is the deadline (R15 turn 3): "10 hours is our limit", "we can't go over 10 h"; not another
  party's limit, a rate, or GPU-hours;
- a buy what-if names the cards it would buy (R17 turn 3 said in one message): "what if we bought our own 16
  H100s?" sizes 16 H100s to buy, never as cards already owned; "buy ... or keep renting?" weighs both;
- a reported claim keeps its reporter (R08): "my vendor says ..." sets claim_source, the team's own claim not;
- a plural card with no count is no claim on one card (R03: "would renting H100s be worth it instead?")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
CPT = "Continual pretraining of Mistral 7B on our legal corpus, 12B tokens."
LORA = "LoRA fine-tune of Qwen2.5 14B on 150M tokens."


# ------------------------------------------------------------------------------------------- cadence
@pytest.mark.parametrize(
    ("said", "runs_per_month"),
    [
        ("We refresh it quarterly.", 1 / 3),
        ("The job is repeated 4 times a year.", 1 / 3),
        ("We plan to redo this twice a year.", 1 / 6),
        ("It runs once a month.", 1.0),
        ("Each month we retrain on the new filings.", 1.0),
        ("We'd run it every quarter from now on.", 1 / 3),
    ],
)
def test_cadence_forms_set_runs_per_month(extract: Extract, said: str, runs_per_month: float) -> None:
    p = extract(f"{CPT} {said}")
    assert p.runs_per_month == pytest.approx(runs_per_month, rel=1e-3)
    assert p.status_of("runs_per_month") in ("stated", "inferred")


def test_every_other_week_is_about_two_runs_a_month(extract: Extract) -> None:
    p = extract(f"{CPT} The job repeats every other week.")
    assert p.runs_per_month is not None and 2.0 < p.runs_per_month < 2.3  # 52/2/12 = 2.17


@pytest.mark.parametrize(
    "said",
    [
        "We tried it every quarter last year, now it is a one-off.",
        "Last year we ran this every quarter.",
        "We used to retrain monthly.",
        "We review the costs every quarter.",
    ],
)
def test_near_miss_a_past_or_other_cadence_is_not_the_plans(extract: Extract, said: str) -> None:
    assert extract(f"{CPT} {said}").runs_per_month is None


def test_a_past_year_named_beside_the_plan_keeps_the_plan(extract: Extract) -> None:
    p = extract(f"{CPT} Like last year, we will retrain quarterly.")
    assert p.runs_per_month == pytest.approx(1 / 3)


# ------------------------------------------------------------------------------------- time limits
@pytest.mark.parametrize(
    ("said", "hours"),
    [
        ("Twelve hours is our limit.", 12.0),
        ("We cannot go over 9 h.", 9.0),
        ("Our limit is 20 hours.", 20.0),
        ("The run must not exceed 6 hours.", 6.0),
        ("Anything beyond 2 days won't work for us.", 48.0),
        ("It can't take longer than 16 hours.", 16.0),
        ("We have a hard 3-day cap.", 72.0),
        ("It should take no more than 5 hours.", 5.0),
        ("One day is the absolute max.", 24.0),
    ],
)
def test_a_time_limit_is_the_deadline(extract: Extract, said: str, hours: float) -> None:
    p = extract(f"{LORA} {said}")
    assert p.deadline_hours == pytest.approx(hours)


@pytest.mark.parametrize(
    "said",
    [
        "Spot instances there can't run longer than 6 hours.",  # the provider's limit, not the job's
        "We can't go over 10 hours per week on the shared cluster.",  # a schedule
        "Colab's 12-hour limit is why we stopped using it.",  # another party's limit
        "We can use no more than 500 GPU-hours.",  # a compute budget
        "The last run took 10 hours.",  # a report
    ],
)
def test_near_miss_other_limits_are_no_deadline(extract: Extract, said: str) -> None:
    assert extract(f"{LORA} {said}").deadline_hours is None


# ------------------------------------------------------------------------------------ buy what-ifs
@pytest.mark.parametrize(
    "said",
    [
        "What if we bought our own 16 H100s instead of renting?",
        "Suppose we purchase 16x H100 outright?",
        "How about buying 16 H100s?",
        "What if we purchased our own 16x H100 instead?",
    ],
)
def test_a_buy_what_if_sizes_the_cards_it_names(extract: Extract, said: str) -> None:
    p = extract(f"{CPT} {said}")
    assert p.buy_what_if is True and p.deployment_preference == "on_prem"
    assert p.claimed_gpu == "h100-sxm" and p.claimed_gpu_count == 16
    assert p.owned_gpu is None  # supposed, not had


def test_near_miss_cards_bought_are_owned_and_a_rental_bought_is_no_purchase(extract: Extract) -> None:
    p = extract(f"{CPT} We just bought 16 H100s. How long on them?")
    assert p.owned_gpu == "h100-sxm" and p.owned_gpu_count == 16 and not p.buy_what_if
    q = extract(f"{CPT} What if we buy reserved capacity for a year?")
    assert not q.buy_what_if and q.deployment_preference != "on_prem"


@pytest.mark.parametrize("said", ["Buy 16 H100s or keep renting?", "Purchase 16 H100s or continue to rent?"])
def test_buy_or_keep_renting_weighs_both(extract: Extract, said: str) -> None:
    p = extract(f"{CPT} {said}")
    assert p.horizon_months == pytest.approx(36)  # the buy-vs-rent default horizon, so the block is shown
    assert p.claimed_gpu == "h100-sxm" and p.claimed_gpu_count == 16


# ---------------------------------------------------------------------------------- claim reporters
@pytest.mark.parametrize(
    ("text", "source"),
    [
        (
            "Our integrator says serving Llama 3.1 8B to 40 users at 8k context needs 4x A100 80GB.",
            "your integrator",
        ),
        ("The reseller claims we need at least 8x L40S to serve Qwen2.5 32B for 30 users.", "the reseller"),
        ("My boss thinks 2x H100 can fine-tune Llama 3.1 8B (LoRA) on 400M tokens in 8 hours.", "your boss"),
        ("According to our CTO, a LoRA of Llama 3.1 70B on 50M tokens needs 8x H100 minimum.", "your CTO"),
    ],
)
def test_a_reported_claim_keeps_its_reporter(extract: Extract, text: str, source: str) -> None:
    p = extract(text)
    assert p.claimed_gpu is not None and p.claim_source == source


def test_near_miss_the_teams_own_claim_and_a_vendors_stock_have_no_reporter(extract: Extract) -> None:
    own = extract("We need 4x H100 to serve Llama 3.1 8B for 50 users at 8k context, right?")
    assert own.claimed_gpu == "h100-sxm" and own.claim_source is None
    stock = extract("The vendor has 4x H100 in stock. We'll serve Llama 3.1 8B for 50 users at 8k context.")
    assert stock.claim_source is None


def test_a_new_claim_of_the_team_drops_the_earlier_reporter(extract: Extract) -> None:
    first = extract("My vendor says we need 4x H100 to serve Llama 3.1 8B for 50 users at 8k context.")
    assert first.claim_source == "your vendor"
    second = extract("Is 2x H100 enough?", first)
    assert second.claimed_gpu_count == 2 and second.claim_source is None


# ------------------------------------------------------------------------------ plural, uncounted cards
def test_a_plural_card_with_no_count_is_no_claim_on_one(extract: Extract) -> None:
    p = extract(
        "Pretraining a 1.3B model on 100B tokens. We own 16x A100 80GB (2 nodes, InfiniBand). How many days "
        "on our cluster, and would renting H100s be worth it instead?"
    )
    assert p.claimed_gpu != "h100-sxm" and p.claimed_gpu_count != 1
    # a counted card in the same question is still the claim
    q = extract("Pretraining a 1.3B model on 100B tokens. How many days would it take on 8 H100s?")
    assert q.claimed_gpu == "h100-sxm" and q.claimed_gpu_count == 8
