"""Reading rules written from the failure lines of evals v7 (issue 12; v7 scored blind three times, then
read), each tested on its own phrasing with a near miss where one applies."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_a_purchase_order_is_a_budget_and_a_quote_is_not(extract: Extract) -> None:
    assert (
        extract(
            "PO 4500112233 has been raised for $30,000 and covers all GPU compute. LoRA Llama 3.1 8B."
        ).budget_usd
        == 30_000
    )
    p = extract("The vendor quoted $25k for the run. To be clear the $25k is his quote. LoRA Llama 3.1 8B.")
    assert p.budget_usd is None


def test_no_one_or_three_year_reserved_commitments(extract: Extract) -> None:
    p = extract("No 1-year or 3-year reserved commitments; lowest total cost wins. LoRA Llama 3.1 8B.")
    assert p.pricing_excluded == ["reserved"] and p.objective == "cheapest"


def test_live_at_any_moment_and_stream_at_no_less_than(extract: Extract) -> None:
    p = extract(
        "Serve Qwen2.5 72B: about 40 chats live at any moment; "
        "replies must stream at no less than 25 tokens/s."
    )
    assert p.concurrency == 40 and p.latency_ms_per_token == pytest.approx(40.0)


def test_generated_tokens_a_day_is_a_rate_not_a_batch(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 70B: about 8.64 million generated tokens a day, steady.")
    assert p.generation_tokens is None and p.target_tokens_per_s == pytest.approx(100.0)


def test_median_lengths_and_a_request_that_sends_tokens(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 70B. Median prompt after retrieval is 1,800 tokens, median completion 300.")
    assert (p.prompt_tokens, p.output_tokens) == (1800, 300)
    p = extract(
        "Code completion on Qwen2.5 7B: each request sends ~2,000 tokens of code, completions ~50 tokens."
    )
    assert p.prompt_tokens == 2000


def test_by_weekday_at_a_clock_time(extract: Extract) -> None:
    # reference Wed 2026-11-18 09:00 UTC: Monday 23 Nov 09:00 is 120 h away
    assert (
        extract("Label 1M rows with Llama 3.1 8B, 30 tokens out per row, by Monday 9am.").deadline_hours
        == 120
    )


def test_a_nightly_window_in_clock_times_is_a_job_run_every_night(extract: Extract) -> None:
    p = extract("Every night between 02:00 and 06:00 we re-score yesterday's tickets with Llama 3.1 8B.")
    assert p.deadline_hours == 4 and p.runs_per_month == pytest.approx(30.4, abs=0.1)


def test_items_per_month_with_an_output_each_is_a_steady_rate(extract: Extract) -> None:
    p = extract("About 1M new contracts a month arrive, each gets a ~200-token summary. Model: Gemma 3 27B.")
    assert p.target_tokens_per_s == pytest.approx(1e6 * 200 / (30.42 * 86400), rel=0.01)
    assert p.workload == "inference"


def test_translation_into_several_languages_multiplies_the_output(extract: Extract) -> None:
    p = extract(
        "Translate 1M listings (avg 100 tokens each) from English into German, Italian and Dutch by Friday."
    )
    assert p.generation_tokens == 3e8 and p.workload == "inference"
    p = extract("Translate 1M listings (avg 100 tokens each) into German by Friday.")
    assert p.generation_tokens == 1e8


def test_aggregate_generated_tokens_per_second(extract: Extract) -> None:
    assert (
        extract(
            "The fleet must sustain 5,000 generated tokens per second in aggregate. Gemma 2 27B."
        ).target_tokens_per_s
        == 5000
    )


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We've got a half cage in AM3 with two HGX H100 servers racked and paid off. Serve Llama 3.1 70B.",
         "h100-sxm", 16),
        ("What's left in our DC is 8 MI300X from a cancelled project. LoRA Llama 3.3 70B.", "mi300x", 8),
        ("two RTX A6000s (48 GB each) in a workstation under my desk. QLoRA Qwen2.5 32B?", "rtx-a6000", 2),
        ("We have 8 B200s on order. Meanwhile there are 4 L40S in our server room doing nothing.", "l40s", 4),
    ],
)  # fmt: skip
def test_owned_hardware_in_more_places(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_cards_on_order_are_not_owned(extract: Extract) -> None:
    assert extract("We have 8 B200s on order. LoRA Llama 3.1 8B on 10M tokens.").owned_gpu is None


def test_company_figures_and_the_base_models_history_are_not_the_job(extract: Extract) -> None:
    p = extract("We're at ~$8M ARR after a $25M Series A. LoRA Mistral 7B v0.3 on ~6M tokens.")
    assert p.budget_usd is None
    p = extract("LoRA Llama 3.1 8B on our 50M-token corpus. (Meta pretrained it on ~15T tokens.)")
    assert (p.workload, p.dataset_tokens) == ("fine_tuning", 5e7)
    assert extract("We pretrained a 1B model on 100B tokens last year.").workload == "pretraining"


def test_a_date_beside_no_date_pressure_is_not_a_deadline(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 7B to 45 users. The board meets on 9 December, but there's no date pressure.")
    assert p.deadline_hours is None
    assert extract("Serve Qwen2.5 7B to 45 users, live by 9 December.").deadline_hours is not None


# ------------------------------------------------------------------------ third expert review (2026-11-27)
def test_a_box_we_have_with_cards(extract: Extract) -> None:
    p = extract("we've got a box in the office with 2x RTX 4090. QLoRA Llama 3.1 70B on 50M tokens?")
    assert (p.owned_gpu, p.owned_gpu_count) == ("rtx-4090", 2)


def test_generating_items_with_an_output_each_is_a_batch(extract: Extract) -> None:
    p = extract(
        "Generate 200k dialogues with Llama 3.1 70B. Each dialogue ~1,000 output tokens from a ~300 token "
        "prompt. We have one week."
    )
    assert p.generation_tokens == 2e8 and p.prompt_tokens == 300


def test_only_use_eu_data_centres(extract: Extract) -> None:
    assert extract("LoRA Llama 3.1 8B; we can only use EU data centres.").eu_only is True


def test_the_peak_rate_sizes_the_service_and_a_monthly_ceiling_is_a_budget(extract: Extract) -> None:
    p = extract(
        "Serve Qwen2.5 72B: 6 req/s at peak, 2 req/s on average; answers ~400 tokens. "
        "The vendor quoted $28k/month, but our ceiling is $12k/month."
    )
    assert p.target_tokens_per_s == 2400 and p.budget_usd == 12_000


def test_a_term_reservation_and_a_single_label_output(extract: Extract) -> None:
    p = extract(
        "We have a 1-year reservation for 16 H100s on AWS. Could we classify 2 million documents (avg 3,000 "
        "tokens each, output is a single label) with Llama 3.1 70B every night in an 8-hour window?"
    )
    assert (p.owned_gpu, p.owned_gpu_count) == ("h100-sxm", 16)
    assert (p.prompt_tokens, p.output_tokens) == (3000, 3) and p.generation_tokens == 6e6


def test_a_model_ruled_out_with_instead_of(extract: Extract) -> None:
    assert extract("We now want to serve Qwen2.5 72B instead of Llama 3 70B.").model_id == "qwen2.5-72b"
    assert extract("Serve Llama 3.1 8B rather than Mistral 7B to 20 users.").model_id == "llama-3.1-8b"


def test_a_corpus_to_translate_into_n_languages(extract: Extract) -> None:
    p = extract(
        "Translate our catalogue (30M tokens) into 4 languages (DE, FR, ES, IT) with Qwen2.5 72B in 2 weeks."
    )
    assert p.generation_tokens == 1.2e8 and p.workload == "inference"
    assert (
        extract("Fine-tune Qwen2.5 7B to translate, on 30M tokens of parallel text.").generation_tokens
        is None
    )


def test_an_eval_run_against_several_checkpoints_multiplies_the_job(extract: Extract) -> None:
    p = extract(
        "Run our evals (~20k prompts, ~500 tokens in / ~100 out each) against 10 checkpoints by Friday."
    )
    assert p.generation_tokens == 2e7
    p = extract("Run our evals (~20k prompts, ~500 tokens in / ~100 out each) by Friday.")
    assert p.generation_tokens == 2e6


def test_a_prototype_on_a_personal_card_is_not_this_jobs_hardware(extract: Extract) -> None:
    p = extract(
        "I prototyped this on my own 4090 at home, which did ~40 tok/s, irrelevant for prod. "
        "For production: serve Qwen2.5 7B to 200 users at once."
    )
    assert p.owned_gpu is None and p.target_tokens_per_s is None and p.deployment_preference is None
    assert extract("We have my own 4090 at home; LoRA Qwen2.5 7B on it?").owned_gpu == "rtx-4090"
