"""Reading rules written from the failure lines of evals v6 (issue 12; v6 scored blind first, then read),
each tested on its own phrasing and with a near miss that must not set the field.

European and Indian numbers, numeric dates, time-of-day windows, batch jobs whose items have their own
lengths, request volumes per day, residency in non-native wording, policy negations, and people by
their job as concurrent users.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import PEAK_TO_AVERAGE_REQUESTS
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Serve Llama 3.1 8B for 1.200 concurrent users.", "concurrency", 1200),
        ("Serve Mistral 7B, prompt is 2.048 tokens, 30 users.", "prompt_tokens", 2048),
        ("LoRA Llama 3.1 8B on 2,5 mln tokens.", "dataset_tokens", 2.5e6),
        ("QLoRA Llama 3.1 8B on 5 crore tokens.", "dataset_tokens", 5e7),
        ("Full fine-tune of Qwen2.5 7B on circa 1,2 bln tokens.", "dataset_tokens", 1.2e9),
    ],
)
def test_european_and_indian_numbers(extract: Extract, text: str, field: str, value: float) -> None:
    assert getattr(extract(text), field) == value


def test_a_decimal_that_is_not_a_count_stays_a_decimal(extract: Extract) -> None:
    assert extract("LoRA Llama 3.1 8B on 20M tokens, 1.5 epochs.").epochs == 1.5


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("LoRA Llama 3.1 8B on 20M tokens; we must finish until 15.01.2027.", 1407.0),  # day.month.year
        ("LoRA Llama 3.1 8B on 20M tokens. Deadline 03/12.", 375.0),  # Dec 3 is nearer than Mar 12
        ("LoRA Llama 3.1 8B on 20M tokens. Due by 11/30.", 303.0),  # only month/day is a date
    ],
)
def test_numeric_dates(extract: Extract, text: str, hours: float) -> None:
    # reference Wed 2026-11-18 09:00 UTC; end of the day named
    assert extract(text).deadline_hours == hours


def test_a_time_of_day_window_is_the_job_deadline(extract: Extract) -> None:
    p = extract(
        "Nightly we summarise ~100k documents with Mistral Small 24B. Docs average about 2,000 tokens, "
        "summaries ~100 tokens. It has to fit in the window between 10pm and 6am."
    )
    assert p.deadline_hours == 8 and p.prompt_tokens == 2000 and p.generation_tokens == 1e7


def test_schedule_hours_a_day_are_not_a_deadline(extract: Extract) -> None:
    assert extract("Serve Llama 3.1 8B, 8 hours a day on weekdays, 20 users.").deadline_hours is None


def test_label_comes_back_short(extract: Extract) -> None:
    p = extract(
        "Label 5M tickets with Llama 3.1 8B by Friday. Each ticket is ~300 tokens going in and the label "
        "comes back as a small JSON blob, ~20 tokens."
    )
    assert (p.prompt_tokens, p.output_tokens, p.generation_tokens) == (300, 20, 1e8)


def test_requests_a_day_with_lengths_is_a_throughput(extract: Extract) -> None:
    p = extract("Our API handles ~1M requests a day on Llama 3.1 8B, average 500 tokens in and 100 out.")
    # the daily average sized at the assumed peak-to-average ratio (expert review 19, R11)
    assert p.target_tokens_per_s == pytest.approx(1e6 * 100 / 86400 * PEAK_TO_AVERAGE_REQUESTS)


@pytest.mark.parametrize(
    "text",
    [
        "The data can not go out of European Union because of law.",
        "Our cloud must be european. LoRA Llama 3.1 8B.",
        "Hosting must be in Spain or other country of EU.",
    ],
)
def test_residency_in_non_native_wording(extract: Extract, text: str) -> None:
    assert extract(text).eu_only is True


@pytest.mark.parametrize(
    "text",
    [
        "No need for EU hosting anymore. LoRA Gemma 2 9B on 25M tokens.",
        "We're EU-based but the data isn't sensitive, so any region is fine.",
        "P.S. the EU-only point above no longer applies.",
    ],
)
def test_residency_lifted(extract: Extract, text: str) -> None:
    assert extract(text).eu_only is False


def test_policy_negations(extract: Extract) -> None:
    assert extract("Full fine-tune of Phi-4, any pricing model except spot.").pricing_excluded == ["spot"]
    p = extract("We have to stay on GCP (committed spend). Serve Qwen3 8B.")
    assert p.providers_required == ["gcp"]
    p = extract("We don't need it 24/7 - only office hours. Serve Llama 3.1 8B to 40 users.")
    assert p.utilization is not None and p.utilization < 0.5


def test_funding_is_not_a_budget(extract: Extract) -> None:
    p = extract("We closed our Series A ($12M) last month. Serve Llama 3.1 8B to 60 users at once.")
    assert p.budget_usd is None


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Serve Qwen2.5 14B to 25 radiologists at once.", 25),
        ("Serve Llama 3.1 8B to our 800 customers; about 60 of them hit the bot at the same time.", 60),
    ],
)
def test_people_at_once(extract: Extract, text: str, n: int) -> None:
    assert extract(text).concurrency == n


def test_speed_per_second_per_chat_is_a_latency(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B to 50 chats at once, at least 25 tokens per second per chat.")
    assert p.latency_ms_per_token == pytest.approx(40.0) and p.target_tokens_per_s is None


def test_full_in_brackets_and_continue_of_pretraining(extract: Extract) -> None:
    assert extract("Fine-tune (full, not LoRA) Mistral Nemo 12B on 850M tokens.").method == "full"
    p = extract("We want to make continue of pre-training for Mistral 7B on 20B tokens.")
    assert p.workload == "continual_pretraining"


def test_grand_is_a_thousand(extract: Extract) -> None:
    # "ten grand" was named as unreadable before; a multiplier word, like "k"
    assert extract("LoRA Llama 3 8B on 20M tokens. The budget is ten grand.").budget_usd == 10_000


# --------------------------------------------------------------------------- from v4's failure lines (dev)
def test_within_a_fortnight(extract: Extract) -> None:
    assert extract("Generate 2B tokens with Qwen2.5 72B within a fortnight.").deadline_hours == 336


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("lora llama 3.1 8b, H100s only, max 4 of em", 4),
        ("only got quota for 2 gpus rn, lora llama 3.1 8b", 2),
    ],
)
def test_gpu_limits_in_slack(extract: Extract, text: str, n: int) -> None:
    assert extract(text).max_gpus == n


def test_prompt_carries_tokens_and_seq_shorthand(extract: Extract) -> None:
    assert (
        extract(
            "Serve Qwen2.5 32B; prompts carry ~10k tokens of context, completions ~300 tokens."
        ).prompt_tokens
        == 10_000
    )
    assert extract("lora llama 3.1 8b on 60M tokens, 8k seq").seq_len == 8192


def test_is_n_days_enough_is_a_claim(extract: Extract) -> None:
    p = extract("Is 5 days enough to fine-tune Llama 3.1 8B on 2B tokens with 8 H100s?")
    assert (p.claimed_gpu_count, p.claimed_hours) == (8, 120)
    p = extract("Would a single 4090 be enough to serve Qwen2.5 7B to 5 users?")
    assert p.claimed_gpu == "rtx-4090"


def test_rate_each_and_per_caller_are_per_user(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B to ~100 agents at once, ~25 tok/s each.")
    assert p.latency_ms_per_token == pytest.approx(40.0) and p.target_tokens_per_s is None
    p = extract(
        "Voice agent on Llama 3.1 8B: text must stream at 50+ tokens/s per caller, 100 calls at once."
    )
    assert p.latency_ms_per_token == pytest.approx(20.0)


def test_economic_area_and_average_load(extract: Extract) -> None:
    assert extract("Content must never be processed outside the European Economic Area.").eu_only is True
    p = extract("Serve Qwen3 32B on 16 H100s we'd buy, ~65% average load over 3 years.")
    assert p.utilization == pytest.approx(0.65)


# ------------------------------------------------------------------------ second expert review (2026-11-27)
@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We have 16 H100s (two 8-GPU nodes) reserved for a year. Serve Llama 3.1 405B.", "h100-sxm", 16),
        ("We already have one 8x H100 SXM node reserved on AWS for the next 4 months.", "h100-sxm", 8),
        ("LoRA Mistral 7B on my workstation? It has 4x RTX 4090... correction, so it's 2x RTX 4090 now.",
         "rtx-4090", 2),
    ],
)  # fmt: skip
def test_owned_or_reserved_in_more_phrasings(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_rented_on_demand_is_not_owned(extract: Extract) -> None:
    assert extract("We rent 8 H100s on demand at Lambda. LoRA Llama 3.1 8B.").owned_gpu is None


def test_items_named_after_the_jobs_verb(extract: Extract) -> None:
    p = extract(
        "Classify 20M short tweets with Llama 3.1 8B overnight (10 hours max). "
        "~80 tokens in, ~5 out per tweet."
    )
    assert p.generation_tokens == 1e8 and p.prompt_tokens == 80


def test_dont_suggest_a_provider_excludes_it(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on 10M tokens. Please don't suggest RunPod.")
    assert set(p.providers_excluded) == {"runpod-community", "runpod-secure"}
