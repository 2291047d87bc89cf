"""Memory of preference tuning (tools.memory_preference): a pair is 2 sequences, full DPO holds a frozen
bf16 reference copy, LoRA DPO uses the base with the adapter off, precomputed log-probs hold none."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.memory_states import stored_weight_bytes
from tools.memory_types import MemoryEstimate
from tools.units import bytes_to_gib


def _est(
    method: str, objective: str = "sft", precomputed: bool = False, batch_size: int = 1, **kw: Any
) -> MemoryEstimate:
    arch = load_catalog().model("llama-3.1-8b")
    return estimate_memory(
        arch=arch,
        method=method,
        training_objective=objective,
        precompute_ref_log_probs=precomputed,
        seq_len=2048,
        batch_size=batch_size,
        **kw,
    )


def test_full_dpo_adds_a_bf16_copy_of_the_weights() -> None:
    # Llama 3.1 8B: 8.03e9 params x 2 B = 14.96 GiB more weights than SFT (TRL create_reference_model)
    ref_gib = bytes_to_gib(stored_weight_bytes(load_catalog().model("llama-3.1-8b"), "bf16"))
    assert ref_gib == pytest.approx(14.96, abs=0.01)
    sft, dpo = _est("full"), _est("full", "dpo")
    assert dpo.breakdown_gib.weights - sft.breakdown_gib.weights == pytest.approx(ref_gib, rel=1e-9)
    assert any(s.step == "reference_weights_per_gpu" for s in dpo.trace)


def test_the_reference_is_sharded_by_zero3_only() -> None:
    z3 = _est("full", "dpo", gpus=8, sharding="zero3").breakdown_gib.weights
    z3_sft = _est("full", gpus=8, sharding="zero3").breakdown_gib.weights
    assert z3 - z3_sft == pytest.approx(14.96 / 8, abs=0.01)
    z2 = _est("full", "dpo", gpus=8, sharding="zero2").breakdown_gib.weights
    z2_sft = _est("full", gpus=8, sharding="zero2").breakdown_gib.weights
    assert z2 - z2_sft == pytest.approx(14.96, abs=0.01)


@pytest.mark.parametrize(
    ("method", "objective", "precomputed"),
    [
        ("lora", "dpo", False),
        ("qlora", "dpo", False),
        ("full", "dpo", True),
        ("full", "orpo", False),
        ("full", "simpo", False),
    ],
)
def test_no_second_copy(method: str, objective: str, precomputed: bool) -> None:
    assert _est(method, objective, precomputed).breakdown_gib.weights == _est(method).breakdown_gib.weights


def test_a_pair_is_two_sequences_of_activations() -> None:
    # LoRA keeps activations through the step: a micro-batch of 1 pair = 2 sequences = SFT at batch 2
    dpo = _est("lora", "dpo")
    assert dpo.breakdown_gib.activations == pytest.approx(
        _est("lora", batch_size=2).breakdown_gib.activations
    )
    assert dpo.breakdown_gib.activations > 1.9 * _est("lora").breakdown_gib.activations
    assert _est("lora", "kto").breakdown_gib.activations == _est("lora").breakdown_gib.activations


def test_an_unknown_objective_is_an_input_error() -> None:
    with pytest.raises(InputError, match="training objective"):
        _est("full", "rlhf")


def test_size_api_takes_the_objective() -> None:
    from advisor.api import size

    sft = size(model="llama-3.1-8b", method="full")
    dpo = size(model="llama-3.1-8b", method="full", training_objective="dpo")
    assert dpo["breakdown_gib"]["weights"] - sft["breakdown_gib"]["weights"] == pytest.approx(14.96, abs=0.01)


def _ref_logits_bytes(est: MemoryEstimate) -> float:
    return sum(float(s.output or 0.0) for s in est.trace if s.step == "reference_forward_logits")


@pytest.mark.parametrize(("loss_impl", "per_value"), [("shift-labels", 2.0), ("shift-logits", 6.0)])
def test_reference_forward_logits_sit_beside_the_policys_forward(loss_impl: str, per_value: float) -> None:
    # DPO pairs, batch 1 pair = 2 sequences x 2048 tokens x 128,256 vocab (Llama 3.1) x bytes per value:
    # 16-bit logits (2 B), or the 16-bit output and its fp32 upcast at `logits.float()` (2 + 4 B)
    dpo = _est("full", "dpo", loss_impl=loss_impl)
    expected = 2 * 2048 * 128_256 * per_value
    assert _ref_logits_bytes(dpo) == pytest.approx(expected, rel=1e-9)
    sft_like = _est("full", "simpo", loss_impl=loss_impl)  # reference-free: no reference forward
    assert _ref_logits_bytes(sft_like) == 0.0
    gap = dpo.phase_peaks_gib["forward"] - sft_like.phase_peaks_gib["forward"]
    ref_weights_gib = bytes_to_gib(stored_weight_bytes(load_catalog().model("llama-3.1-8b"), "bf16"))
    assert gap == pytest.approx(ref_weights_gib + bytes_to_gib(expected), rel=1e-9)


def test_no_reference_forward_with_precomputed_log_probs_but_one_with_adapters() -> None:
    assert _ref_logits_bytes(_est("full", "dpo", precomputed=True)) == 0.0
    assert _ref_logits_bytes(_est("lora", "dpo")) > 0.0  # the base with the adapter off runs the forward
