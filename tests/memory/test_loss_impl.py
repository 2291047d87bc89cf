"""loss_impl: where the model's unchunked fp32 loss shifts (labels, a copy of the logits, or a copy plus a
16-bit output cast as GLM remote code does), and when it moves the peak (tools.memory_activations)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.errors import InputError
from tools.memory import estimate_memory
from tools.memory_activations import (
    LOGITS_BYTES_PER_VALUE,
    LOGITS_FORWARD_BYTES_PER_VALUE,
    LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_DOWNCAST,
    LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_LOGITS,
)
from tools.memory_calibration import GLM_4_9B, LLAMA_2_7B
from tools.memory_types import MemoryEstimate

_GLM_LONG: dict[str, Any] = dict(
    arch=GLM_4_9B, method="lora", lora_rank=8, lora_targets="all-linear", seq_len=10240, batch_size=1
)


def _step(est: MemoryEstimate, name: str) -> Any:
    return next(s for s in est.trace if s.step == name)


def test_constants_count_the_live_tensors() -> None:
    # fp32 logits + shifted fp32 copy + fp32 log-softmax (+ the 16-bit output cast for GLM)
    assert LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_LOGITS == 12
    assert LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_DOWNCAST == 14
    assert LOGITS_FORWARD_BYTES_PER_VALUE == 10 and LOGITS_BYTES_PER_VALUE == 12


def test_default_is_label_shifting() -> None:
    assert estimate_memory(**_GLM_LONG) == estimate_memory(**_GLM_LONG, loss_impl="shift-labels")


def test_glm_downcast_binds_at_long_context() -> None:
    # GLM-4 at 10240 tokens x 151552 vocabulary: the loss forward (14 B/value) outgrows the loss backward
    # (12 B/value), so the peak moves to the forward by 2 B x 1.55e9 values ~ 2.9 GiB.
    base = estimate_memory(**_GLM_LONG)
    glm = estimate_memory(**_GLM_LONG, loss_impl="shift-logits-downcast")
    assert base.peak_phase == "loss" and glm.peak_phase == "forward"
    assert _step(glm, "logits_at_loss_forward").inputs["bytes_per_value"] == 14
    values_gib = 10240 * GLM_4_9B.vocab_size / 2**30
    grown = glm.peak_allocated_gib() - base.peak_allocated_gib()
    assert grown == pytest.approx(2 * values_gib, rel=0.02)


def test_shifted_copy_does_not_bind_under_checkpointed_lora() -> None:
    # LoRA with checkpointing: the forward's 12 B equals the loss backward's 12 B; the peak is unchanged.
    kw: dict[str, Any] = dict(arch=LLAMA_2_7B, method="lora", seq_len=1024, batch_size=4)
    base = estimate_memory(**kw)
    shifted = estimate_memory(**kw, loss_impl="shift-logits")
    assert shifted.peak_allocated_gib() == pytest.approx(base.peak_allocated_gib())
    assert _step(shifted, "logits_at_loss_forward").inputs["bytes_per_value"] == 12


def test_bad_loss_impl_is_an_input_error() -> None:
    with pytest.raises(InputError, match="loss implementation"):
        estimate_memory(**_GLM_LONG, loss_impl="shift-everything")
    with pytest.raises(InputError, match="unchunked"):
        estimate_memory(**_GLM_LONG, framework="torchtune", loss_impl="shift-logits")
