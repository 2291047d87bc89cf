"""Expert review 12's reading failures (evals/reviews/2026-11-27-expert-review-12.md): "full SFT" read as
LoRA (R12); "training of model 13B parameter from zero, tokens is 260 billion" read as a 260B model with no
pre-training and no data set (R06)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        # R12
        "1-month reservation of 8x H200 on Nebius. Can we fit a full SFT of Llama 3.1 70B on 500M tokens?",
        "full-parameter SFT of Llama 3.1 8B on 1B tokens",
        "full FT of Llama 3.1 8B on 1B tokens",
        "FFT of Llama 3.1 8B on 1B tokens, how long on 8x H100?",
        "SFT (all weights) of Llama 3.1 8B on 1B tokens",
        "full finetune of Llama 3.1 8B on 1B tokens",
        "Full fine-tune of Qwen2.5 7B on 300M tokens",
    ],
)
def test_full_sft_phrasings_mean_full_fine_tuning(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.workload == "fine_tuning", text
    assert p.method == "full", text


@pytest.mark.parametrize(
    "text",
    [
        "SFT of Llama 3.1 8B on 1B tokens",  # plain SFT names no method: LoRA SFT is as common
        # "fft" in lower case is a Fourier transform, not full fine-tuning
        "We do SFT on Llama 3.1 8B with 1B tokens, the fft size of our audio features is 512",
    ],
)
def test_plain_sft_leaves_the_method_unstated(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.status_of("method") != "stated", text
    assert p.method != "full" or p.status_of("method") == "assumed", text


@pytest.mark.parametrize(
    ("text", "params_b", "tokens"),
    [
        # R06 (non-native): the size is next to "parameter", the token count next to "tokens"
        ("I want to make training of model 13B parameter from zero, tokens is 260 billion. I have only money "
         "150 thousand dollar", 13.0, 260e9),
        ("training of model 13B parameter from zero on 260 billion tokens", 13.0, 260e9),  # P06b
        ("Train a 7B model from nothing, tokens are 140 billion.", 7.0, 140e9),
        ("We want to build a new base model, 3B parameters, token count is 60B", 3.0, 60e9),
        ("Pre-train 1B model from the ground up; number of tokens: 20B", 1.0, 20e9),
    ],
)
def test_from_zero_is_pre_training_and_tokens_is_the_data(
    extract: Extract, text: str, params_b: float, tokens: float
) -> None:
    p = extract(text)
    assert p.workload == "pretraining", text
    assert p.params_b == pytest.approx(params_b), text
    assert p.dataset_tokens == pytest.approx(tokens), text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 50 users; the endpoint should autoscale from zero to 4 replicas.",
        "Serve Llama 3.1 8B, scale from zero when traffic comes.",
    ],
)
def test_scaling_from_zero_is_not_pre_training(extract: Extract, text: str) -> None:
    assert extract(text).workload == "inference", text


def test_a_token_key_still_ignores_lengths(extract: Extract) -> None:
    p = extract("Fine-tune Llama 3.1 8B with LoRA; max tokens is 2048 per example, 1B tokens in total.")
    assert p.params_b == pytest.approx(8.0)
    assert p.dataset_tokens == pytest.approx(1e9)


@pytest.mark.parametrize(
    ("text", "gpu", "count", "rate"),
    [
        # R08: the claim's set-up and its aggregate rate, so the answer checks the rate on that set-up
        ("vendor says 8x H100 can serve Llama 3.1 405B in FP8 at 2,000 tokens/s aggregate output. Is that "
         "realistic?", "h100-sxm", 8, 2000.0),
        ("The vendor claims 4x A100 80GB can serve Qwen2.5 72B at a total throughput of 1,500 tok/s, true?",
         "a100-80gb-sxm", 4, 1500.0),
    ],
)
def test_a_claimed_aggregate_rate_is_read_with_its_set_up(
    extract: Extract, text: str, gpu: str, count: int, rate: float
) -> None:
    p = extract(text)
    assert p.workload == "inference", text
    assert p.claimed_gpu == gpu and p.claimed_gpu_count == count, text
    assert p.target_tokens_per_s == pytest.approx(rate), text


def test_a_claimed_per_user_speed_stays_a_per_user_speed(extract: Extract) -> None:
    p = extract("Vendor says one L4 can serve Llama 3.1 8B at 100 tok/s for one user. Is that realistic?")
    assert p.target_tokens_per_s is None
    assert p.latency_ms_per_token == pytest.approx(10.0)


def test_the_users_own_target_wins_over_a_claimed_rate(extract: Extract) -> None:
    p = extract(
        "We need 3,000 tokens/s aggregate for Llama 3.1 70B. The vendor says 8x H100 can serve it at 5,000 "
        "tokens/s in total, true?"
    )
    assert p.target_tokens_per_s == pytest.approx(3000.0)


def test_an_aggregate_rate_with_no_set_up_claimed_is_not_a_claim(extract: Extract) -> None:
    p = extract("Is it realistic to serve Llama 3.1 70B at 2,000 tokens/s aggregate?")
    assert p.claimed_gpu is None
    assert p.target_tokens_per_s in (None, pytest.approx(2000.0))  # rule_serving's reading, if any
