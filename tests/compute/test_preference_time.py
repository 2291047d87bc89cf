"""Training time of preference tuning (tools.preference, tools.compute.training): per token the policy's
forward + backward (6 N full, 4 N adapters) plus the frozen reference's forward (2 N) unless its
log-probs are precomputed; ORPO / SimPO run no reference. Tokens: both sequences of every pair."""

from __future__ import annotations

import pytest

from advisor.api import time as api_time
from tools.catalog.load import load_catalog
from tools.compute.training import estimate_training_time
from tools.errors import InputError
from tools.preference import preference_tokens
from tools.ranges import Range

N = 8.0e9
MFU = Range(low=0.4, high=0.4)


def _flops(method: str, objective: str, precomputed: bool = False) -> float:
    t = estimate_training_time(
        active_params=N,
        tokens=1e9,
        method=method,  # type: ignore[arg-type]
        grad_checkpointing=False,
        gpu=load_catalog().gpu("h100-sxm"),
        n_gpus=1,
        mfu_range=MFU,
        training_objective=objective,
        precompute_ref_log_probs=precomputed,
    )
    return t.flops


def test_policy_plus_reference_forward_per_token() -> None:
    # full DPO: (6 + 2) x 8e9 x 1e9 = 6.4e19 FLOPs; LoRA DPO: (4 + 2) x 8e9 x 1e9 = 4.8e19 (no attention term:
    # no architecture given)
    assert _flops("full", "dpo") == pytest.approx(6.4e19)
    assert _flops("lora", "dpo") == pytest.approx(4.8e19)
    assert _flops("full", "dpo", precomputed=True) == pytest.approx(4.8e19)  # 6 x 8e9 x 1e9
    assert _flops("full", "orpo") == _flops("full", "simpo") == _flops("full", "sft") == pytest.approx(4.8e19)
    assert _flops("full", "kto") == pytest.approx(6.4e19)


def test_pairs_to_tokens() -> None:
    # 60,000 x (2 x 1,000 + 1,000 + 1,000) = 240,000,000; sides with the prompt in: 60,000 x (2,000 + 2,000)
    assert (
        preference_tokens(pairs=60_000, prompt_tokens=1000, chosen_tokens=1000, rejected_tokens=1000) == 240e6
    )
    assert preference_tokens(pairs=60_000, chosen_tokens=2000, rejected_tokens=2000) == 240e6
    with pytest.raises(ValueError):
        preference_tokens(pairs=0, chosen_tokens=1, rejected_tokens=1)


def test_review_5_r13_is_about_2_7x_the_sft_reading() -> None:
    # R13 check: 60k x (6 + 2) x 8e9 x 4k = 1.5e19 FLOPs vs the tool's 6 x 8e9 x 120M = 5.8e18 (2.7x).
    # Same GPUs and band: the hours scale with FLOPs (the attention term adds 4/3 of its SFT share).
    dpo = api_time(
        model="llama-3.1-8b",
        gpu="h100-sxm",
        gpus=8,
        training_objective="dpo",
        pairs=60_000,
        chosen_tokens=2000,
        rejected_tokens=2000,
    )
    sft = api_time(model="llama-3.1-8b", gpu="h100-sxm", gpus=8, tokens=120e6)
    assert dpo["tokens_timed"] == 240e6
    ratio = dpo["wall_hours"]["low"] / sft["wall_hours"]["low"]
    assert 2.6 < ratio < 2.75
    assert any(a["name"] == "training_objective" for a in dpo["assumptions"])


def test_pair_flags_are_checked() -> None:
    with pytest.raises(InputError, match="--pairs needs --rejected-tokens"):
        api_time(model="llama-3.1-8b", gpu="h100-sxm", training_objective="dpo", pairs=1000, chosen_tokens=10)
    with pytest.raises(InputError, match="need --training-objective"):
        api_time(model="llama-3.1-8b", gpu="h100-sxm", pairs=1000, chosen_tokens=10, rejected_tokens=10)
    with pytest.raises(InputError, match="unknown --training-objective"):
        api_time(model="llama-3.1-8b", gpu="h100-sxm", training_objective="ppo")
