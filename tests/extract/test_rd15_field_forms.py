"""Field types read the general ways teams write them (rd15): token-rate units ("tps", "t/s", "toks/s",
"tokens / second", "10 thousand tokens per second"), a rate the team had before is not the target; each
with a near miss that must not fire."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("Serve Mistral 7B at 2000 tps total.", 2000),
        ("Serve Mistral 7B, target 1500 t/s.", 1500),
        ("Serve Mistral 7B, 2500 toks/s.", 2500),
        ("Serve Mistral 7B, throughput target 5,000 tokens / second", 5000),
        ("Serve Mistral 7B at about 10 thousand tokens per second.", 10000),
        ("Serve Mistral 7B, we need 4k tkn/s across all users.", 4000),
        # the figure said before is the old one; the one asked for follows it
        ("Serve Mistral 7B, last year we did 500 tok/s, now we need 2000 tok/s.", 2000),
        ("Serve Mistral 7B; we currently get 300 tok/s and need 1200 tok/s.", 1200),
        ("Serve Mistral 7B; we currently need 1200 tok/s.", 1200),
    ],
)
def test_a_token_rate_in_any_unit_spelling_is_the_target(extract: Extract, text: str, rate: float) -> None:
    assert extract(text).target_tokens_per_s == pytest.approx(rate), text


def test_tps_per_user_is_each_ones_speed_not_the_aggregate(extract: Extract) -> None:
    p = extract("Serve Mistral 7B, we need 20 TPS per user and 60 users.")
    assert p.latency_ms_per_token == pytest.approx(50.0) and p.target_tokens_per_s is None


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mistral 7B for our team. Last year the old cluster peaked at 900 tokens/s.",
        "Serve Mistral 7B for our team; we currently get ~300 t/s on the old box.",
    ],
)
def test_a_rate_the_team_had_is_no_target(extract: Extract, text: str) -> None:
    assert extract(text).target_tokens_per_s is None, text


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("Fine-tune Llama 3 8B, we can only fit 2 in the chassis.", 2),
        ("Fine-tune Llama 3 8B, single node only.", 8),
        ("Fine-tune Llama 3 8B, must fit on one node.", 8),
        ("Fine-tune Llama 3 8B, no multi-node please.", 8),
        ("Fine-tune Llama 3 8B, one GPU if possible.", 1),
        ("Fine-tune Llama 3 8B; ideally on a single GPU.", 1),
        ("Fine-tune Llama 3 8B; one GPU would be ideal.", 1),
        ("Fine-tune Llama 3 8B, budget caps us at 4x.", 4),
        ("Fine-tune Llama 3 8B, we can't use more than 2 GPUs.", 2),
        ("Fine-tune Llama 3 8B; it must not exceed 16 H100 GPUs.", 16),
        ("Fine-tune Llama 3 8B, max. 4 gpus", 4),
        ("Fine-tune Llama 3 8B, we have a hard cap of 32 GPUs.", 32),
        ("Fine-tune Llama 3 8B, GPU limit: 4", 4),
        ("Fine-tune Llama 3 8B; max GPUs: 16.", 16),
        ("Fine-tune Llama 3 8B, ≤ 8 GPUs.", 8),
    ],
)
def test_a_gpu_count_limit_in_any_form_is_read(extract: Extract, text: str, limit: int) -> None:
    assert extract(text).max_gpus == limit, text


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama 3 8B on 8 GPUs per node, 4 nodes.",
        "Fine-tune Llama 3 8B; we'd rather not be limited to a single node.",
        "Fine-tune Llama 3 8B; we can fit 3 people in the office.",
        "Fine-tune Llama 3 8B; the budget caps us at $40k.",
        "Fine-tune Llama 3 8B; ≤ 80 GB per GPU.",
        "Fine-tune Llama 3 8B; GPU memory: 80 GB.",
    ],
)
def test_no_gpu_count_limit_from_a_near_miss(extract: Extract, text: str) -> None:
    assert extract(text).max_gpus is None, text


@pytest.mark.parametrize(
    ("text", "budget_usd"),
    [
        ("Fine-tune Llama 3 8B, ARR $4M, budget $6k.", 6000),  # the company's figure first, then the budget
        ("Fine-tune Llama 3 8B, spend capped at $3,000 per run.", 3000),  # one run's money is the job's
        ("Fine-tune Llama 3 8B, budget 5-8k.", 8000),  # a range's upper end, as "$5k-$8k"
        ("Fine-tune Llama 3 8B, under 10 grand.", 10000),
        ("Fine-tune Llama 3 8B, we've already spent $40k, we have $10k left.", 10000),
    ],
)
def test_a_budget_in_any_form_is_read(extract: Extract, text: str, budget_usd: float) -> None:
    assert extract(text).budget_usd == pytest.approx(budget_usd), text


def test_swiss_apostrophe_thousands_are_one_amount(extract: Extract) -> None:
    # "CHF 12'000" is twelve thousand francs (it read as CHF 12); converted at the catalog's CHF rate
    p = extract("Fine-tune Llama 3 8B, budget CHF 12'000.")
    assert p.budget_usd is not None and 12_000 < p.budget_usd < 15_000


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama 3 8B; our revenue is $2M and budget is tight.",
        "Fine-tune Llama 3 8B; the last training run cost $3,000 per run.",
        "Fine-tune Llama 3 8B, we have a 5-figure budget.",
    ],
)
def test_no_budget_from_a_near_miss(extract: Extract, text: str) -> None:
    assert extract(text).budget_usd is None, text


H100S = ["h100-pcie", "h100-sxm", "h100-nvl"]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Fine-tune Llama 3 8B, ideally B200s.", ["b200"]),
        ("Fine-tune Llama 3 8B, we lean towards H200s.", ["h200"]),
        ("Fine-tune Llama 3 8B, we're thinking of H100s.", H100S),
        ("Fine-tune Llama 3 8B, GPU: H100", H100S),
        ("Fine-tune Llama 3 8B, target hardware: MI300X", ["mi300x"]),
        ("Fine-tune Llama 3 8B, we're an AMD shop.", ["mi300x", "mi325x"]),
        # a list after one want cue: every GPU of it
        ("Serve Llama 3 8B. We can only use L4s or L40S, that's what our colo stocks.", ["l4", "l40s"]),
        ("Fine-tune Llama 3 8B on H100, H200 or B200.", [*H100S, "h200", "b200"]),
    ],
)
def test_gpus_wanted_in_any_form_are_read(extract: Extract, text: str, wanted: list[str]) -> None:
    assert sorted(extract(text).gpus_wanted) == sorted(wanted), text


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama 3 8B; we're not an AMD shop.",
        "Fine-tune Llama 3 8B; our previous vendor was an AMD customer.",
        "Fine-tune Llama 3 8B; last quarter we used A100s, which were slow.",
        "Fine-tune Llama 3 8B, compare H100 vs A100.",
    ],
)
def test_no_gpus_wanted_from_a_near_miss(extract: Extract, text: str) -> None:
    assert extract(text).gpus_wanted == [], text


@pytest.mark.parametrize(
    ("text", "preferred"),
    [
        ("Fine-tune Llama 3 8B, our enterprise agreement is with Microsoft.", ["azure"]),
        ("Fine-tune Llama 3 8B, we have an EA with AWS.", ["aws"]),
        ("Fine-tune Llama 3 8B, our MSA is with CoreWeave.", ["coreweave"]),
        ("Fine-tune Llama 3 8B, we can use AWS or Azure.", ["aws", "azure"]),
        ("Fine-tune Llama 3 8B, we used to be on AWS but moved everything to GCP.", ["gcp"]),
    ],
)
def test_a_provider_the_team_is_tied_to_is_preferred(
    extract: Extract, text: str, preferred: list[str]
) -> None:
    assert extract(text).providers_preferred == preferred, text


def test_a_sign_off_refused_excludes_the_provider(extract: Extract) -> None:
    assert extract("Fine-tune Llama 3 8B, security won't approve Azure.").providers_excluded == ["azure"]


@pytest.mark.parametrize(
    "text",
    [
        "Serve Phi-3 mini as a Microsoft Teams bot.",
        "Fine-tune Microsoft's Phi-4 on our data.",
        "Fine-tune Llama 3 8B; our competitor uses Azure.",
    ],
)
def test_no_provider_from_a_near_miss(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.providers_preferred == [] and p.providers_required == [] and p.providers_excluded == [], text


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("Serving Phi-4: 12 concurrent. Actually scratch Lambda, bad billing experience.", ["lambda"]),
        ("Fine-tune Llama 3 8B, forget about Azure.", ["azure"]),
    ],
)
def test_a_provider_taken_back_is_excluded(extract: Extract, text: str, excluded: list[str]) -> None:
    assert extract(text).providers_excluded == excluded, text


@pytest.mark.parametrize(
    "text", ["Pretrain a 1B model from scratch on AWS.", "Fine-tune Llama 3 8B, use scratch disk on GCP."]
)
def test_scratch_as_a_word_of_training_or_storage_excludes_nothing(extract: Extract, text: str) -> None:
    assert extract(text).providers_excluded == [], text


@pytest.mark.parametrize(
    ("text", "budget_usd"),
    [
        ("Serve Llama 3 70B to 200 users; we can spend $8k a month.", 8000),
        ("Serve Llama 3 70B to 200 users; can't go above $2k/mo.", 2000),
        ("Serve Llama 3 70B to 200 users; we have 10 grand a month.", 10000),
        # a year's serving budget is held against the monthly cost: its twelfth
        ("Serve Llama 3 70B to 200 users; budget $120k per year.", 10000),
    ],
)
def test_a_serving_budget_per_period_is_read(extract: Extract, text: str, budget_usd: float) -> None:
    assert extract(text).budget_usd == pytest.approx(budget_usd), text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 70B to 200 users; we have a $2k/month OpenAI bill today.",
        "Serve Llama 3 70B to 200 users; our revenue is $2M per year.",
        "Serve Llama 3 70B to 200 users; salaries are $150k a year.",
        "Serve Llama 3 70B to 200 users; we pay $3k a month to OpenAI.",
    ],
)
def test_no_serving_budget_from_a_bill_or_a_company_figure(extract: Extract, text: str) -> None:
    assert extract(text).budget_usd is None, text


def test_a_count_times_a_speed_is_each_ones_speed(extract: Extract) -> None:
    p = extract("Serve Llama 3 8B; 40 users x 50 tok/s.")
    assert p.latency_ms_per_token == pytest.approx(20.0) and p.target_tokens_per_s is None
    assert p.concurrency == 40


def test_several_outputs_for_each_item_multiply_the_volume_and_rate(extract: Extract) -> None:
    # 200k tickets x 2 versions x 100 tokens = 4e7 tokens in 48 h
    p = extract(
        "Summarise 200k support tickets with Llama 3.1 8B, 2 versions per ticket, ~100 tokens each,"
        " within 2 days."
    )
    assert p.generation_tokens == pytest.approx(4e7)
    assert p.target_tokens_per_s == pytest.approx(4e7 / (48 * 3600))


def test_outputs_per_day_are_no_multiple_of_each_item(extract: Extract) -> None:
    p = extract(
        "Summarise 200k support tickets with Llama 3.1 8B, ~100 tokens each, within 2 days. 3 versions a day."
    )
    assert p.generation_tokens == pytest.approx(2e7)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("Fine-tune Llama 3 8B; no bigger than a 4-GPU box.", 4),
        ("Fine-tune Llama 3 8B; our workstation has room for 2 cards.", 2),
        ("Fine-tune Llama 3 8B; 8 GPUs is our limit.", 8),
        ("Fine-tune Llama 3 8B; anything more than 4 GPUs is out.", 4),
        ("Fine-tune Llama 3 8B; no more than two nodes.", 16),
        ("Fine-tune Llama 3 8B; ideally 1 GPU, at most 2.", 2),  # the hard cap, not the wish
        ("Fine-tune Llama 3 8B; we're limited to a single 8xH100 node.", 8),
    ],
)
def test_a_gpu_cap_after_the_count_or_in_nodes_is_read(extract: Extract, text: str, limit: int) -> None:
    assert extract(text).max_gpus == limit, text


def test_nodes_of_another_tier_are_no_gpu_cap(extract: Extract) -> None:
    text = "Fine-tune Llama 3 8B. Our k8s cluster autoscales up to 40 nodes for the web tier."
    assert extract(text).max_gpus is None


@pytest.mark.parametrize(
    ("revision", "items"),
    [("Also the doc count went up to 1.1M.", 1.1e6), ("Also, it's now 2M documents.", 2e6)],
)
def test_a_revised_item_count_sizes_the_batch_and_its_rate_again(
    extract: Extract, revision: str, items: float
) -> None:
    first = extract("batch job: 800k docs x 500 tokens out with Mistral Nemo, need it within 3 days")
    assert first.generation_tokens == pytest.approx(4e8)
    p = extract(revision, first)
    assert p.generation_tokens == pytest.approx(items * 500)
    assert p.target_tokens_per_s == pytest.approx(items * 500 / (72 * 3600))


def test_another_count_going_up_leaves_the_batch_alone(extract: Extract) -> None:
    first = extract("batch job: 800k docs x 500 tokens out with Mistral Nemo, need it within 3 days")
    p = extract("Our headcount went up to 120 people.", first)
    assert p.generation_tokens == pytest.approx(4e8)


def test_half_a_million_items_is_half_a_million(extract: Extract) -> None:
    # read as "a million" before: twice the volume and the rate
    p = extract(
        "We have to translate half a million support articles into German with Gemma 3 12B, ~800 tokens"
        " each. No rush, two weeks is fine."
    )
    assert p.generation_tokens == pytest.approx(4e8)
    assert p.target_tokens_per_s == pytest.approx(4e8 / (336 * 3600))


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Pretrain a 1B model on a quarter of a billion tokens.", 2.5e8),
        ("Pretrain a 1B model on three quarters of a billion tokens.", 7.5e8),
    ],
)
def test_a_fraction_of_a_scale_word_is_read(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).dataset_tokens == pytest.approx(tokens), text


def test_a_nightly_batch_with_a_window_is_sized_by_the_window(extract: Extract) -> None:
    p = extract(
        "Every weeknight we run an automated code review with Code Llama 34B. About 2,500 PRs a night, ~4k"
        " tokens of diff each, ~600 tokens of review comments per PR. It has to finish between 02:00 and"
        " 07:00."
    )
    assert p.generation_tokens == pytest.approx(1.5e6)
    assert p.target_tokens_per_s == pytest.approx(1.5e6 / (5 * 3600))


def test_sessions_a_night_without_a_window_are_no_batch(extract: Extract) -> None:
    p = extract("Serve Llama 3 8B chat to 50 users; answers ~300 tokens. We get 400 sessions a night.")
    assert p.generation_tokens is None and p.target_tokens_per_s is None


_THREAD = (
    "Hi Ana,\n\n{lead}\n\nCurrent ask: LoRA of Llama 3 8B on 200M tokens, budget $8k.\n\nBest,\nLuis\n\n"
    "-----Original Message-----\nFrom: Ana\nSent: Monday, March 2, 2026 09:00\nSubject: old plan\n\n"
    "For Q1 we'd run it using 16 H100s on AWS, budget $40k.\n"
)


def test_a_quoted_thread_set_aside_gives_nothing(extract: Extract) -> None:
    p = extract(_THREAD.format(lead="Ignore the numbers in the thread below, that plan is dead."))
    assert p.gpus_wanted == [] and p.budget_usd == pytest.approx(8000)


def test_a_quoted_thread_not_set_aside_still_counts(extract: Extract) -> None:
    p = extract(_THREAD.format(lead="See the thread below for context."))
    assert p.gpus_wanted != [] and p.budget_usd == pytest.approx(8000)


def test_a_fine_tune_run_by_the_job_is_no_training_workload(extract: Extract) -> None:
    # 12 checkpoints x 5,000 prompts x 600 tokens = 3.6e7 tokens in 10 h
    p = extract(
        "We'll run our eval harness on 12 checkpoints of our Qwen3 8B fine-tune; each eval is 5,000 prompts"
        " x ~600 generated tokens. It needs to finish within 10 hours."
    )
    assert p.workload == "inference" and p.target_tokens_per_s == pytest.approx(3.6e7 / 36000)
    assert extract("Serve our Llama 3 8B fine-tune to 40 users.").workload == "inference"


@pytest.mark.parametrize(
    "text",
    [
        "We want to do the fine-tune. Llama 3 8B on 20M tokens.",
        "We need a fine-tune of Llama 3 8B on 20M tokens.",
    ],
)
def test_a_fine_tune_asked_for_is_still_training(extract: Extract, text: str) -> None:
    assert extract(text).workload == "fine_tuning", text


def test_items_to_translate_with_their_length_said_apart_size_the_batch(extract: Extract) -> None:
    # 20k pages x 500 tokens x 2 languages = 2e7 output tokens in 72 h
    p = extract(
        "Translate 20k product pages into French and Spanish with Llama 3.1 8B. They average 500 tokens."
        " Done within 3 days."
    )
    assert p.generation_tokens == pytest.approx(2e7) and p.prompt_tokens == 500
    assert p.target_tokens_per_s == pytest.approx(2e7 / (72 * 3600))


def test_a_head_count_beside_a_translation_is_no_batch(extract: Extract) -> None:
    p = extract(
        "Translate our docs into German with Llama 3.1 8B. We have 12 engineers and the pages average 900"
        " tokens."
    )
    assert p.generation_tokens is None
