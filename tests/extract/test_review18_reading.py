"""Expert review 18 (evals/reviews/2026-11-28-expert-review-18.md): the reading failures, each in the
review's words, in two other wordings and with a near miss that must not trigger the rule.

R11 two workloads in one message ("(1) serve ... and (2) separately ... QLoRA ..."), R15 a follow-up that
places the job ("EU hosting please") after a LoRA plan, R17 a cadence ("every quarter"), R10 a ban on other
clouds, R19 a place outside the US and the EU, P06 colocation, R08 a vendor's claim of what is needed, R07 a
card owned before "or we must rent?"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_cadence_forms import SPRINT_WEEKS
from advisor.extract.rules_text import doubled_numbers
from advisor.extract.units_text import DAYS_PER_MONTH, WEEKS_PER_MONTH
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

# ------------------------------------------------------------------- R11: two workloads in one message
R11 = (
    "Two things: (1) we want to serve Mixtral 8x7B for an internal tool, ~20 users, and (2) separately we'll "
    "run a QLoRA of Llama 3 8B on 10M tokens once a month. Can one box do both? Budget $2k/month."
)


def test_doubled_numbers_keeps_a_list_marker_after_and() -> None:
    # "and (2)" is the list's second item, not the number "and two" written twice ("twenty-one (21)" is)
    assert doubled_numbers("~20 users, and (2) separately") == "~20 users, and (2) separately"
    assert doubled_numbers("within twenty-one (21) days") == "within 21 days"


@pytest.mark.parametrize(
    "text",
    [
        R11,
        # serving first, the training job "separately" in a sentence of its own
        "We need to serve Mixtral 8x7B for an internal tool to ~20 users. Separately, we'll run a QLoRA of "
        "Llama 3 8B on 10M tokens once a month. Budget $2k/month.",
        # "First ... Second, ..."
        "First, we want to host Mixtral 8x7B for about 20 support agents. Second, we QLoRA Llama 3 8B on 10M "
        "tokens every month. Our budget is $2,000 per month.",
    ],
)
def test_r11_two_workloads_become_training_and_serving(rules: RulesExtractor, text: str) -> None:
    a = rules.analyse(text)
    training, serving = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert training.workload == "fine_tuning" and training.method == "qlora"
    assert training.model_id == "llama-3-8b" and training.dataset_tokens == pytest.approx(10e6)
    assert training.runs_per_month == pytest.approx(1.0)
    assert serving.workload == "inference" and serving.model_id == "mixtral-8x7b"
    assert serving.concurrency == 20
    assert serving.budget_usd == pytest.approx(2000)  # a monthly budget: the serving part's, as stated


def test_r11_also_in_one_sentence_without_a_comma(rules: RulesExtractor) -> None:
    text = "We serve Llama 3.1 70B to 100 users and we also want to LoRA fine-tune Mistral 7B on 20M tokens."
    a = rules.analyse(text)
    assert merge_findings(None, a.findings).method == "lora"
    other = merge_findings(None, a.other)
    assert other.workload == "inference" and other.concurrency == 100 and other.model_id == "llama-3.1-70b"


@pytest.mark.parametrize(
    "text",
    [
        # one workload: "second" names no job, "also" adds a wish, not a training job
        "We serve Llama 3.1 8B to 40 users. Second, latency must stay under 50 ms per token.",
        "We serve Llama 3.1 8B to 40 users and we also want it in the EU.",
    ],
)
def test_r11_near_miss_one_workload_stays_one(rules: RulesExtractor, text: str) -> None:
    a = rules.analyse(text)
    assert a.other == ()
    assert merge_findings(None, a.findings).workload == "inference"


# ------------------------------------------------------------------- R15: a follow-up placing the job
LORA = WorkloadProfile(
    workload="fine_tuning", model_id="qwen2.5-7b", params_b=7.6, method="lora", dataset_tokens=3e8
)


@pytest.mark.parametrize(
    "text",
    [
        "We're in Frankfurt, so EU hosting please, and we want it done overnight (~10 hours).",
        "EU hosting please, and it must finish within 10 hours.",
        "It has to be hosted in Germany; done in 10 hours would be great.",
    ],
)
def test_r15_hosting_place_keeps_the_training_workload(extract: Extract, text: str) -> None:
    p = extract(text, LORA)
    assert p.workload == "fine_tuning" and p.method == "lora"
    assert p.deadline_hours == pytest.approx(10)


def test_r15_near_miss_hosting_with_no_training_plan_is_serving(extract: Extract) -> None:
    # no earlier training: "EU hosting" of a model for users is a serving request
    assert extract("EU hosting for Llama 3.1 8B, about 30 users at once.").workload == "inference"


# --------------------------------------------------------------------------- R17: cadence
@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("We do continual pretraining of Llama 3.1 8B on domain text, 20B tokens, every quarter.", 1 / 3),
        ("We pretrain a 1B model from scratch on 20B tokens quarterly.", 1 / 3),
        ("Continued pretraining of Mistral 7B on 5B tokens, twice a year.", 2 / 12),
        ("We retrain the LoRA of Llama 3 8B on fresh data every 6 months.", 1 / 6),
        ("We fine-tune Llama 3 8B with LoRA on 50M tokens each sprint.", WEEKS_PER_MONTH / SPRINT_WEEKS),
        ("CPT of Llama 3.1 8B on 20B tokens. We would redo this every quarter.", 1 / 3),
        ("Full fine-tune of Qwen2.5 7B on 100M tokens, 4 runs a year.", 4 / 12),
    ],
)
def test_r17_cadence_sets_runs_per_month(extract: Extract, text: str, runs: float) -> None:
    p = extract(text)
    assert p.runs_per_month == pytest.approx(runs)
    assert p.provenance["runs_per_month"].evidence


@pytest.mark.parametrize(
    "text",
    [
        "CPT of Llama 3.1 8B on 20B tokens. Our quarterly budget is $40k.",
        "CPT of Llama 3.1 8B on 20B tokens. We review spend every quarter.",
        "CPT of Llama 3.1 8B on 20B tokens. The cluster is free every night.",
        "We serve Llama 3 8B to 50 users; quarterly review of costs.",
    ],
)
def test_r17_near_miss_other_things_that_recur(extract: Extract, text: str) -> None:
    assert extract(text).runs_per_month is None


def test_cadence_arithmetic_uses_the_price_sheet_month() -> None:
    # every night is a day's cadence: DAYS_PER_MONTH runs a month (units_text)
    p = RulesExtractor().extract("We LoRA fine-tune Llama 3 8B on 2M tokens every night.")
    assert p.runs_per_month == pytest.approx(DAYS_PER_MONTH)


# --------------------------------------------------------------------------- R10: other clouds banned
@pytest.mark.parametrize(
    ("text", "provider"),
    [
        ("We're an AWS shop (us-east-1, security does not allow other clouds). Need to LoRA fine-tune Llama "
         "3.1 70B on 50M tokens, seq 4096, 2 epochs. Which instance and how much?", "aws"),
        ("Our data sits in Azure. Compliance won't let us use any other cloud. LoRA Llama 3 8B on 20M "
         "tokens.", "azure"),
        ("LoRA Llama 3 8B on 20M tokens. We may not use anything but GCP.", "gcp"),
    ],
)  # fmt: skip
def test_r10_other_clouds_banned_requires_the_named_one(extract: Extract, text: str, provider: str) -> None:
    p = extract(text)
    assert p.providers_required == [provider]


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Llama 3 8B on 20M tokens on AWS. Other clouds are fine too if cheaper.",
        "LoRA Llama 3 8B on 20M tokens. We like AWS, but no other cloud has H200s in stock anyway.",
        "LoRA Llama 3 8B on 20M tokens. Security does not allow other clouds.",  # no provider named anywhere
    ],
)
def test_r10_near_miss_no_requirement(extract: Extract, text: str) -> None:
    assert extract(text).providers_required == []


# --------------------------------------------------------------------------- R19: a place outside US and EU
@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Need inference for Llama 3.1 8B hosted in Japan (users in Tokyo, latency matters), around 100 "
         "requests/min, 1k tokens in / 300 out. Which provider and GPU?", "Japan"),
        ("Serve Llama 3.1 8B for 50 users. The servers should be located in Singapore.", "Singapore"),
        ("Serve Llama 3.1 8B for 50 users. Data must stay in India.", "India"),
        ("Serve Llama 3.1 8B for 50 users, Tokyo region please.", "Tokyo"),
    ],
)  # fmt: skip
def test_r19_place_outside_us_and_eu_is_read(extract: Extract, text: str, place: str) -> None:
    p = extract(text)
    assert p.region_asked == place
    assert p.provenance["region_asked"].evidence


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B for 50 users; our users are in Tokyo and our team is based in Seoul.",
        "Serve Llama 3.1 8B for 50 users, anywhere but Japan.",
        "Serve Llama 3.1 8B for 50 users, hosted in the EU.",
    ],
)
def test_r19_near_miss_no_place_asked(extract: Extract, text: str) -> None:
    assert extract(text).region_asked is None


# --------------------------------------------------------------------------- P06: colocation
@pytest.mark.parametrize(
    "text",
    [
        "We want to buy one 8x H200 server to serve Llama 3.1 70B, 60% utilization, 3 years. We have no data "
        "centre, we would need colocation.",
        "We want to buy one 8x H200 server; we'd colocate it at Equinix.",
        "We don't have a server room, so the box would go in a colo.",
    ],
)
def test_p06_colocation_is_read(extract: Extract, text: str) -> None:
    assert extract(text).colocation is True


def test_p06_near_miss_colocation_refused(extract: Extract) -> None:
    text = "We want to buy one 8x H200 server for our own data centre, no colocation."
    assert extract(text).colocation is None


# --------------------------------------------------------------------------- R08: a vendor's claim
@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("My vendor says we need 4x H100 to serve Llama 3.1 8B for 50 concurrent users with 8k context. That "
         "seems like a lot to me. Is it?", "h100-sxm", 4),
        ("Our vendor claims serving Llama 3.1 8B for 50 concurrent users at 8k needs 4x H100. Is that right?",
         "h100-sxm", 4),
        ("The integrator told us we would need 8 A100s to fine-tune Mistral 7B with LoRA on 100M tokens.",
         "a100-80gb-sxm", 8),
    ],
)  # fmt: skip
def test_r08_reported_need_is_a_minimum_claim(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_gpu_bound) == (gpu, count, "minimum")
    assert p.max_gpus is None and p.gpus_wanted == []  # a claim to check, not a cap on the answer


@pytest.mark.parametrize(
    "text",
    [
        "We need 4x H100 to serve Llama 3.1 8B for 50 concurrent users.",  # the team's own ask: a cap
        "The vendor says 4x H100 are in stock for serving Llama 3.1 8B to 50 users.",  # no need said
    ],
)
def test_r08_near_miss_no_reported_need(extract: Extract, text: str) -> None:
    assert extract(text).claimed_gpu_bound is None


# --------------------------------------------------------------------------- R07: the card owned
@pytest.mark.parametrize(
    "text",
    [
        "Hello, I am need to make lora on gemma 3 27b for our turkish dataset, it have 15 million token. We "
        "have only one RTX 4090 in office, is it possible or we must rent? Thanks",
        "LoRA on gemma 3 27b, 15M tokens. We got a single RTX 4090 at the lab - can it do this, or do we "
        "need to rent something?",
        "LoRA on gemma 3 27b, 15M tokens. We have one RTX 4090, or should we rent?",
    ],
)
def test_r07_owned_card_before_an_alternative_to_rent(extract: Extract, text: str) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == ("rtx-4090", 1)


def test_r07_near_miss_rented_cards_are_not_owned(extract: Extract) -> None:
    assert extract("LoRA on gemma 3 27b, 15M tokens. We have 8 H100s rented at CoreWeave.").owned_gpu is None
