"""Expert review 10, R20: "We own 2x A100 80GB (PCIe)" / "QLoRA Qwen2.5 72B on 100M tokens with them. How
long?" / "And if we add two more of the same cards?". The form factor in brackets was dropped (read as the
SXM4 card), and the follow-up that grows the owned set was "a question I could not answer"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("We own 2x A100 80GB (PCIe)", "a100-80gb-pcie"),
        ("We have 4x H100 (NVL) in our rack", "h100-nvl"),
        ("our box: 8 x H100 (SXM)", "h100-sxm"),
        ("We own 2x A100 80GB PCIe", "a100-80gb-pcie"),  # without brackets, as before
    ],
)
def test_a_bracketed_form_factor_is_part_of_the_card(extract: Extract, text: str, gpu: str) -> None:
    assert extract(text).owned_gpu == gpu, text


def test_a_bracket_that_is_no_form_factor_leaves_the_card_alone(extract: Extract) -> None:
    p = extract("We own 2x A100 80GB (bought 2023)")
    assert p.owned_gpu is not None and p.owned_gpu.startswith("a100-80gb"), p.owned_gpu
    assert p.owned_gpu_count == 2


def _owned_pair(extract: Extract) -> WorkloadProfile:
    p = extract("We own 2x A100 80GB (PCIe)")
    return extract("QLoRA Qwen2.5 72B on 100M tokens with them. How long?", p)


@pytest.mark.parametrize(
    ("follow_up", "count"),
    [
        ("And if we add two more of the same cards?", 4),  # R20 turn 3
        ("what if we bought 2 more GPUs?", 4),
        ("and with 6 extra cards?", 8),
        ("What if we doubled it?", 4),
    ],
)
def test_a_follow_up_adding_cards_grows_the_owned_count(extract: Extract, follow_up: str, count: int) -> None:
    p = extract(follow_up, _owned_pair(extract))
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-pcie", count), follow_up
    assert p.model_id == "qwen2.5-72b" and p.method == "qlora"  # the rest of the question is kept


@pytest.mark.parametrize(
    "follow_up",
    [
        "We add two more of the same cards next year.",  # a statement, not a what-if
        "and if we add two more H100s?",  # another card: the GPU rules read it, not a growth of the A100s
        "what if we had two more weeks?",  # not hardware
    ],
)
def test_near_misses_keep_the_owned_count(extract: Extract, follow_up: str) -> None:
    p = extract(follow_up, _owned_pair(extract))
    assert p.owned_gpu_count == 2, follow_up


# ----------------------------------------------- R19 turn 3: "What if we buy the GPUs instead of renting?"
@pytest.mark.parametrize(
    "follow_up",
    [
        "What if we buy the GPUs instead of renting? We'd keep them 3 years.",  # R19 turn 3
        "how about buying our own instead?",
        "Instead of renting, what if we bought them?",
    ],
)
def test_a_what_if_switch_to_buying_sizes_the_purchase(extract: Extract, follow_up: str) -> None:
    p = extract("Serve Llama 3.1 8B to 300 concurrent users at peak.")
    p = extract(follow_up, p)
    assert p.deployment_preference == "on_prem", follow_up
    assert p.concurrency == 300  # the rest of the set-up is kept


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 300 users. Should we buy or rent?",  # weighs both: the recommender shows both
        "Serve Llama 3.1 8B to 300 users. What if we rent instead of buying?",
    ],
)
def test_weighing_or_switching_to_renting_is_no_purchase(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference != "on_prem", text


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("We'd keep them 3 years.", 36),
        ("we will run the servers 4 years", 48),
        ("We'd keep the cards for 3 years.", 36),  # with "for", as before
    ],
)
def test_keeping_the_hardware_n_years_is_the_horizon(extract: Extract, text: str, months: int) -> None:
    assert extract("Serve Llama 3.1 8B to 300 users on our own GPUs. " + text).horizon_months == months


def test_a_run_time_is_no_horizon(extract: Extract) -> None:
    p = extract("LoRA Llama 3 8B on 50M tokens; we run it 3 hours a night.")
    assert p.horizon_months is None


# ----------------------------------------------- R11: "it must not be spot"
@pytest.mark.parametrize(
    "text",
    [
        "We're an AWS-only shop and it must not be spot.",  # R11
        "it can't be on spot",
        "It mustn't run on preemptible capacity.",
        "this cannot be spot instances",
    ],
)
def test_what_the_capacity_may_not_be_rules_it_out(extract: Extract, text: str) -> None:
    p = extract("Llama 3.1 8B inference for 20 chat users. " + text)
    assert "spot" in p.pricing_excluded, text


@pytest.mark.parametrize(
    "text",
    [
        "it can be spot if that is cheaper",
        "the budget can't be spot-checked",
        "the spot price must not be above $2/h",
    ],
)
def test_near_misses_leave_spot_in(extract: Extract, text: str) -> None:
    p = extract("Llama 3.1 8B inference for 20 chat users. " + text)
    assert "spot" not in p.pricing_excluded, text


# ----------------------------------------------- R09: "No per-user latency target"
@pytest.mark.parametrize(
    "text",
    [
        "No per-user latency target.",  # R09
        "latency doesn't matter, throughput does",
        "We don't care about per-user speed.",
        "It is not latency-sensitive: nobody waits on the answers.",
        "Latency is not a concern for this pipeline.",
    ],
)
def test_a_waived_per_user_speed_is_read(extract: Extract, text: str) -> None:
    p = extract("Sustain 3,000 output tokens/s aggregate on Qwen2.5 32B. " + text)
    assert p.no_latency_target is True, text
    assert p.latency_ms_per_token is None


@pytest.mark.parametrize(
    "text",
    ["Latency is a concern: users chat with it.", "Low latency matters a lot.", "no latency spikes please"],
)
def test_a_latency_that_matters_is_no_waiver(extract: Extract, text: str) -> None:
    assert extract("Serve Qwen2.5 32B to 40 users. " + text).no_latency_target is None, text


# ----------------------------------------------- R11: "during business hours only (10 h a day, weekdays)"
SERVE = "Run Llama 3.1 8B inference for about 20 concurrent chat users"


@pytest.mark.parametrize(
    "text",
    [
        f"{SERVE} during business hours only (10 h a day, weekdays)?",  # R11
        f"{SERVE}; we only need it 9 to 5 on weekdays.",
        f"{SERVE}. It is used only during office hours.",
        f"{SERVE}, 12 hours a day only.",
    ],
)
def test_a_service_needed_only_in_set_hours_is_scheduled(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.serving_scheduled is True and p.utilization is not None and p.utilization < 0.6, text


@pytest.mark.parametrize(
    "text",
    [
        f"{SERVE}; it is busy about 30% of the time.",  # a low load, not a schedule
        f"{SERVE}; traffic peaks during business hours.",
        f"{SERVE} 24/7, heaviest during business hours only.",
        "LoRA Llama 3 8B on 50M tokens; we only train during office hours.",  # training, not a service
    ],
)
def test_a_load_or_training_schedule_is_no_service_schedule(extract: Extract, text: str) -> None:
    assert extract(text).serving_scheduled is None, text


# ----------------------------------------------- R14: "12 LoRA fine-tuning runs ... $2,000 total"
@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("12 LoRA fine-tuning runs on Mistral 7B, each on 100M tokens.", 12),  # R14
        ("We plan a sweep of 20 runs of LoRA on Llama 3 8B, 50M tokens each.", 20),
        ("LoRA Llama 3 8B on 50M tokens; we want to run it 5 times with different seeds.", 5),
        ("about a dozen QLoRA experiments on Qwen2.5 7B, 20M tokens each", 12),
    ],
)
def test_a_campaign_of_runs_is_counted(extract: Extract, text: str, runs: int) -> None:
    assert extract(text).runs_total == runs, text


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Llama 3 8B on 50M tokens, 20 runs a month.",  # a cadence: runs_per_month
        "LoRA Llama 3 8B on 50M tokens; we did 30 runs last quarter on A100s.",  # the past
        "LoRA Llama 3 8B on 50M tokens for 3 epochs on 8 GPUs.",
        "Serve Llama 3 8B; we run 12 experiments on prompts first.",  # serving: no training campaign
    ],
)
def test_no_campaign_without_a_count_of_runs_to_do(extract: Extract, text: str) -> None:
    assert extract(text).runs_total is None, text
