"""loss_impl fused-linear: Cut Cross-Entropy / Liger's fused linear cross-entropy make no logits tensor, so
the loss costs the LM head input's gradient and one fp32 LSE per token (tools.memory_fused_loss)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import load_catalog
from tools.memory import estimate_memory
from tools.memory_activations import FINAL_NORM_BYTES_PER_H, LOGITS_HELD_BYTES
from tools.memory_fused_loss import FUSED_LINEAR_LOSS_BYTES_PER_H, FUSED_LINEAR_LSE_BYTES
from tools.memory_types import MemoryEstimate

# QLoRA on a 152k-vocabulary model at 2 x 4096 tokens: the standard loss's logits (12 B x 1.2e9 values,
# ~14 GiB at the loss backward) dominate the step
QWEN2_5_7B = load_catalog().model("qwen2.5-7b")
_KW: dict[str, Any] = dict(arch=QWEN2_5_7B, method="qlora", seq_len=4096, batch_size=2, lora_rank=16)
_TOKENS = 2 * 4096


def _step(est: MemoryEstimate, name: str) -> Any:
    return next(s for s in est.trace if s.step == name)


def test_the_fused_loss_holds_no_logits_only_the_head_inputs_gradient_and_the_lse() -> None:
    fused = estimate_memory(**_KW, loss_impl="fused-linear", memory_basis="allocated")
    per_token = FUSED_LINEAR_LOSS_BYTES_PER_H * QWEN2_5_7B.hidden_size + FUSED_LINEAR_LSE_BYTES
    assert _step(fused, "fused_linear_loss").output == pytest.approx(_TOKENS * per_token)
    norm = _TOKENS * FINAL_NORM_BYTES_PER_H * QWEN2_5_7B.hidden_size
    assert _step(fused, "logits_at_loss_backward").output == pytest.approx(norm + _TOKENS * per_token)
    base = estimate_memory(**_KW, memory_basis="allocated")
    values_gib = _TOKENS * QWEN2_5_7B.vocab_size / 2**30
    # the standard loss's peak sits at the loss backward (12 B per value); the fused one does not
    assert base.peak_phase == "loss" and fused.peak_phase != "loss"
    assert base.peak_allocated_gib() - fused.peak_allocated_gib() > 8 * values_gib
    assert fused.memory_options["loss_impl"] == {"value": "fused-linear", "source": "flag"}


def test_a_held_output_holds_nothing_and_the_reserve_keeps_no_logits_segment() -> None:
    # the patched forward returns logits=None in training (cut_cross_entropy/transformers/llama.py)
    assert LOGITS_HELD_BYTES["fused-linear"] == 0
    free = estimate_memory(**_KW, loss_impl="fused-linear")
    held = estimate_memory(**_KW, loss_impl="fused-linear", logits_held=True)
    assert held.peak_gib_per_gpu == pytest.approx(free.peak_gib_per_gpu)
    assert _step(free, "allocator_reserve").inputs["logits_segment_share"] == 0.0
    assert _step(estimate_memory(**_KW), "allocator_reserve").inputs["logits_segment_share"] > 0


def test_the_fused_loss_is_not_a_chunked_loss() -> None:
    with pytest.raises(ValueError, match="unchunked"):
        estimate_memory(**_KW, loss_impl="fused-linear", loss_chunking=True)
