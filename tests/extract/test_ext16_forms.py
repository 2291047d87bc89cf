"""Phrasings from the v13 eval set (evals/cases_v13/, development data) read generally, each with
phrasings of our own and a near miss that must be read the other way (issue 12)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules import RulesExtractor
from advisor.extract.units_text import usd_per_unit
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------ every provider but the named ones
@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("Serve Qwen2.5 72B. anything but Google (our account got flagged).", {"gcp"}),
        ("Serve Qwen2.5 72B on any cloud except Azure or AWS.", {"azure", "aws"}),
        ("Train Llama 3 8B anywhere other than CoreWeave.", {"coreweave"}),
    ],
)
def test_everything_but_named_provider_is_excluded(extract: Extract, text: str, out: set[str]) -> None:
    p = extract(text)
    assert out <= set(p.providers_excluded)
    assert not set(p.providers_required) & out


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5 72B, nothing but AWS.",  # the only one allowed, not excluded
        "Serve Qwen2.5 72B. We can't use anything but GCP.",  # a double negative: the only one
        "Serve Qwen2.5 72B, we tried everything but Lambda was the only one with stock.",  # no list of names
    ],
)
def test_nothing_but_is_not_an_exclusion(extract: Extract, text: str) -> None:
    assert extract(text).providers_excluded == []


# ------------------------------------------------------------------ budgets in other currencies, form fields
def _usd(code: str) -> float:
    rate = usd_per_unit(code)  # the catalog's dated reference rate (tools/catalog/costs.yaml usd_per_<code>)
    return 1.0 if rate is None else rate.value


@pytest.mark.parametrize(
    ("text", "amount", "code"),
    [
        ("DPO on Mistral 7B, 18k pairs. money: PLN 2,000 from the grant.", 2_000, "PLN"),
        ("Train Llama 3 8B. budget 20,000 NOK", 20_000, "NOK"),  # was read as $20 (no currency)
        ("Train Llama 3 8B. Budget: SEK 50k.", 50_000, "SEK"),
        ("Train Phi-4 on 8B tokens.\n5. Max spend (USD): 45,000", 45_000, "USD"),  # an intake form's field
        ("Train Phi-4 on 8B tokens. Budget (EUR): 12k", 12_000, "EUR"),
        ("Train Phi-4 on 8B tokens. Budget in GBP: 3,000", 3_000, "GBP"),
    ],
)
def test_budget_in_a_coded_currency_or_labelled_field(
    extract: Extract, text: str, amount: float, code: str
) -> None:
    assert extract(text).budget_usd == pytest.approx(amount * _usd(code), rel=0.001)


@pytest.mark.parametrize(
    "text",
    [
        "Train Mistral 7B on 1B tokens. We raised NOK 20M last year.",  # money, but no budget cue
        "Train Mistral 7B on 1B tokens. The GPUs cost SEK 500 per hour on our cloud.",  # a rate
        "Train Phi-4 on 1B tokens. Max spend (USD): 4,500 per month",  # a monthly rate, not a job's budget
    ],
)
def test_coded_amount_that_is_no_budget(extract: Extract, text: str) -> None:
    assert extract(text).budget_usd is None


# ------------------------------------------------------------------ an amount set aside is no budget
@pytest.mark.parametrize(
    ("text", "amount", "code"),
    [
        ("Full fine-tune Qwen2.5 32B on 1B tokens. Marta, approved at £18,000 max, not the £25k you "
         "originally asked for.", 18_000, "GBP"),  # v13-train-po-email-chain-qwen32-azure-gbp
        ("LoRA Llama 3 8B on 20M tokens. Budget $40k rather than the $60k we had planned.", 40_000, "USD"),
        ("LoRA Llama 3 8B on 20M tokens. Budget: not more than $5k.", 5_000, "USD"),  # a cap, not a contrast
    ],
)  # fmt: skip
def test_amount_set_aside_is_not_the_budget(extract: Extract, text: str, amount: float, code: str) -> None:
    assert extract(text).budget_usd == pytest.approx(amount * _usd(code), rel=0.001)


# ------------------------------------------------------------------ GPU options as a clause of their own
@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("Serve DeepSeek-V3 in FP8 to 120 users. One node only, 8x H200 or 8x B200, no multi-node.",
         {"h200", "b200"}),  # v13-serve-okr-deepseek-v3-single-node
        ("Serve Llama 3.1 70B to 40 users. Hardware: 4x L40S or 2x H100.", {"l40s", "h100-sxm"}),
    ],
)  # fmt: skip
def test_counted_gpu_options_are_wanted(extract: Extract, text: str, out: set[str]) -> None:
    assert out <= set(extract(text).gpus_wanted)


@pytest.mark.parametrize(
    "text",
    [
        "Serve DeepSeek-V3 to 120 users. Last year we used 8x H100 or 8x A100.",  # a story, not a wish
        "Serve DeepSeek-V3 to 120 users. Which is better, 8x H200 or 8x B200?",  # a question to answer
        "Serve DeepSeek-V3 to 120 users, not 8x H200 or 8x B200.",  # negated
    ],
)
def test_gpu_options_near_misses(extract: Extract, text: str) -> None:
    assert extract(text).gpus_wanted == []


# ------------------------------------------------------------------ a batch counted once, output per item
def test_items_named_again_after_per(extract: Extract) -> None:
    p = extract(
        "Generates product descriptions for 2.4M SKUs with Llama 3.3 70B.\n"
        "Per SKU: ~500 prompt tokens (attributes), ~220 output tokens.\n"
        "SLA: the whole backfill done within 5 days of the trigger."
    )  # v13-batch-airflow-dag-sku-descriptions: 2,400,000 x 220 over 120 h
    assert p.generation_tokens == pytest.approx(2_400_000 * 220)
    assert p.target_tokens_per_s == pytest.approx(2_400_000 * 220 / (120 * 3600), rel=0.01)


def test_european_thousands_in_a_batch_count(extract: Extract) -> None:
    p = extract(
        "Every month we must translate 3.000 documents of 8.000 tokens each with Gemma 3 27B (the output is "
        "also about 8.000 tokens). Each time we have 48 hours for the job."
    )  # v13-batch-spanish-publisher-monthly-translation: 3,000 x 8,000 over 48 h
    assert p.generation_tokens == pytest.approx(3_000 * 8_000)
    assert p.target_tokens_per_s == pytest.approx(3_000 * 8_000 / (48 * 3600), rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to our 2M users; per user ~300 output tokens per answer.",  # users, not items
        # money per period, not items (v13-serve-okr-deepseek-v3-single-node)
        "Serve DeepSeek-V3 to 120 reviewers, 700 output tokens each. GPU spend at most $60k per quarter.",
        "Summarise 500 contracts with Llama 3.1 8B by Friday. For each contract ~400 output tokens.",  # few
    ],
)
def test_per_item_near_misses(extract: Extract, text: str) -> None:
    assert extract(text).generation_tokens is None


# ------------------------------------------------------------------ a date set off from "deadline" by a comma
@pytest.mark.parametrize(
    ("text", "hours"),
    [
        # v13-batch-kaggle-team-pseudolabels: Wed 18 Nov 09:00 -> Thu 3 Dec 23:59 UTC
        ("Pseudo-label 600k problems with Qwen2.5 72B before the final submission deadline, Dec 3 23:59 UTC.",
         15 * 24 + 14 + 59 / 60),
        ("Label 600k problems with Qwen2.5 72B; deadline, 3 December.", 15 * 24 + 15),  # end of that day
    ],
)  # fmt: skip
def test_deadline_comma_date(extract: Extract, text: str, hours: float) -> None:
    assert extract(text).deadline_hours == pytest.approx(hours, abs=0.1)


def test_a_deadline_word_without_a_date_sets_none(extract: Extract) -> None:
    p = extract("Label 600k problems with Qwen2.5 72B; the deadline, honestly, is flexible.")
    assert p.deadline_hours is None


# ------------------------------------------------------------------ a form's or a config file's values
def test_config_keys_name_the_cloud_and_cap(extract: Extract) -> None:
    p = extract(
        'module "pool" {\n  cloud         = "gcp"\n  max_gpu_count = 16   # hard quota\n}\n'
        "Full fine-tune of Llama 3.1 70B over 2B tokens."
    )  # v13-train-terraform-module-full-ft-gcp
    assert p.providers_required == ["gcp"]
    assert p.max_gpus == 16


@pytest.mark.parametrize(
    ("text", "max_gpus"),
    [
        ("Serve Qwen3 32B, 60 users. maxReplicas: 4  # one GPU per replica, 4 GPUs total is the cap", 4),
        ("Serve Qwen3 32B, 60 users. 8 GPUs in total is our limit.", 8),
        ("Serve Qwen3 32B, 60 users. We had 8 GPUs total last year.", None),  # no cap word
    ],
)
def test_total_is_the_cap(extract: Extract, text: str, max_gpus: int | None) -> None:
    assert extract(text).max_gpus == max_gpus


@pytest.mark.parametrize(
    ("answer", "excluded", "spot_ok"),
    [("No", ["spot"], None), ("Yes", [], True)],
)
def test_form_question_about_spot_answered(
    extract: Extract, answer: str, excluded: list[str], spot_ok: bool | None
) -> None:
    p = extract(
        f"Continued pretraining of Phi-4 on 8B tokens.\n7. Can we use spot / low-priority VMs?: {answer}"
    )
    assert p.pricing_excluded == excluded  # v13-msg-intake-form-cpt-phi4-azure
    assert p.spot_ok is spot_ok


def test_not_on_any_us_hyperscaler(extract: Extract) -> None:
    p = extract("Serve Phi-4 to 300 users. Hosting in the EU only, and not on any US hyperscaler.")
    assert {"aws", "azure", "gcp"} <= set(p.providers_excluded)  # v13-serve-calendar-invite-phi4-hr-bot
    assert extract("Serve Phi-4 to 300 users on any hyperscaler you like.").providers_excluded == []


def test_gpu_named_twice_in_a_config_line(extract: Extract) -> None:
    p = extract("Serve Qwen3 32B to 60 users. gpu: l40s  # L40S is all we're allowed to use, nothing else")
    assert p.gpus_wanted == ["l40s"]  # v13-serve-helm-values-qwen3-l40s-frankfurt
    p = extract("Serve Qwen3 32B to 60 users. L40S is all we're allowed to say about the old cluster.")
    assert p.gpus_wanted == []


# ------------------------------------------------------------------ a sentence naming one step, said later
def test_sentence_naming_a_step_belongs_to_it(rules: RulesExtractor) -> None:
    a = rules.analyse("Step 1: LoRA fine-tune Llama 3 8B on 20M tokens. Step 2: serve it to 50 users. "
                      "Budget for step 1: $5k.")  # fmt: skip
    assert [f.value for f in a.findings if f.field == "budget_usd"] == [5000.0]
    assert not [f for f in a.other if f.field == "budget_usd"]
    assert [f.value for f in a.other if f.field == "concurrency"] == [50]  # step 2 keeps its own facts


# ------------------------------------------------------------------ a wish for a day and time is a deadline
def test_wants_it_on_a_day_and_time(extract: Extract) -> None:
    first = extract("Need 1M product summaries from Llama 3.1 8B, ~300 output tokens each, by Friday.")
    p = extract("Change: the client wants it Thursday 18:00 CET, not Friday.", first)
    # v13-multi-batch-deadline-pulled-in-eur-budget: Wed 09:00 UTC -> Thu 17:00 UTC (18:00 CET) = 32 h
    assert p.deadline_hours == pytest.approx(32.0, abs=0.1)


def test_wants_it_in_a_language_is_no_deadline(extract: Extract) -> None:
    p = extract("Generate 1M summaries with Llama 3.1 8B. The client wants it in French.")
    assert p.deadline_hours is None


# ------------------------------------------------------------------ how long money lasts is no deadline
@pytest.mark.parametrize(
    "text",
    [
        "Synthetic QA with Llama 3.1 8B, 5M items, 150 output tokens each. Grant money left: $3,400 for the "
        "whole group until the end of the year; this job gets at most $900.",  # v13-batch-lab-wiki-table-...
        "Synthetic QA with Llama 3.1 8B. We have AWS credits until the end of March.",
    ],
)
def test_money_until_a_date_is_no_deadline(extract: Extract, text: str) -> None:
    assert extract(text).deadline_hours is None


@pytest.mark.parametrize(
    "text",
    [
        "Synthetic QA with Llama 3.1 8B. Finish by the end of the year; budget $3k.",
        "Synthetic QA with Llama 3.1 8B. Budget $3k, and the job must run until the end of next week.",
    ],
)
def test_a_job_until_a_date_keeps_its_deadline(extract: Extract, text: str) -> None:
    assert extract(text).deadline_hours is not None
