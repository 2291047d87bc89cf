"""loss_impl: whether the model's unchunked fp32 loss shifts the labels or the logits (with a 16-bit
output cast, as GLM remote code does), and when that moves the peak (tools.memory_activations)."""

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
    LOGITS_SHIFT_COPY_BYTES,
)
from tools.memory_calibration import GLM_4_9B, LLAMA_2_7B
from tools.memory_types import MemoryEstimate

_GLM: dict[str, Any] = dict(arch=GLM_4_9B, method="lora", lora_rank=8, lora_targets="all-linear")


def _step(est: MemoryEstimate, name: str) -> Any:
    return next(s for s in est.trace if s.step == name)


def test_constants_count_the_live_tensors() -> None:
    # fp32 logits + fp32 log-softmax (+ the 16-bit output cast for GLM); the shifted copy only if batch > 1
    assert LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_LOGITS == 8 and LOGITS_SHIFT_COPY_BYTES == 4
    assert LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_DOWNCAST == 10
    assert LOGITS_FORWARD_BYTES_PER_VALUE == 10 and LOGITS_BYTES_PER_VALUE == 12


def test_default_is_label_shifting() -> None:
    kw: dict[str, Any] = dict(_GLM, seq_len=4096, batch_size=2)
    skip = {"memory_options", "assumptions"}  # these say the preset or the flag gave it
    default, given = estimate_memory(**kw), estimate_memory(**kw, loss_impl="shift-labels")
    assert default.model_dump(exclude=skip) == given.model_dump(exclude=skip)
    assert given.memory_options["loss_impl"] == {"value": "shift-labels", "source": "flag"}


def test_glm_loss_binds_with_several_sequences() -> None:
    # GLM-4, 2 x 5120 tokens x 151552 vocabulary: the shifted fp32 copy makes the loss forward 14 B/value,
    # above the loss backward's 12, so the peak moves to the forward by 2 B x 1.55e9 values ~ 2.9 GiB.
    kw: dict[str, Any] = dict(_GLM, seq_len=5120, batch_size=2)
    base = estimate_memory(**kw)
    glm = estimate_memory(**kw, loss_impl="shift-logits-downcast")
    assert base.peak_phase == "loss" and glm.peak_phase == "forward"
    assert _step(glm, "logits_at_loss_forward").inputs["bytes_per_value"] == 14
    values_gib = 10240 * GLM_4_9B.vocab_size / 2**30
    grown = glm.peak_allocated_gib() - base.peak_allocated_gib()
    assert grown == pytest.approx(2 * values_gib, rel=0.02)


def test_glm_loss_does_not_bind_for_one_sequence() -> None:
    # LLaMA-Factory issue #4772's GLM-4 run (batch 1 x 10240): the slice is contiguous, no copy: 10 B/value,
    # the same as the default, and the same peak.
    kw: dict[str, Any] = dict(_GLM, seq_len=10240, batch_size=1)
    glm = estimate_memory(**kw, loss_impl="shift-logits-downcast")
    assert _step(glm, "logits_at_loss_forward").inputs["bytes_per_value"] == 10
    assert glm.peak_allocated_gib() == pytest.approx(estimate_memory(**kw).peak_allocated_gib())


def test_shifted_copy_does_not_bind_under_checkpointed_lora() -> None:
    # LLaMA-Factory wiki's Llama-2 rows (batch 4): the forward's 12 B equals the loss backward's 12 B.
    kw: dict[str, Any] = dict(arch=LLAMA_2_7B, method="lora", seq_len=1024, batch_size=4)
    shifted = estimate_memory(**kw, loss_impl="shift-logits")
    assert shifted.peak_allocated_gib() == pytest.approx(estimate_memory(**kw).peak_allocated_gib())
    assert _step(shifted, "logits_at_loss_forward").inputs["bytes_per_value"] == 12
    one = estimate_memory(**dict(kw, batch_size=1), loss_impl="shift-logits")
    assert _step(one, "logits_at_loss_forward").inputs["bytes_per_value"] == 8


def test_bad_loss_impl_is_an_input_error() -> None:
    kw: dict[str, Any] = dict(_GLM, seq_len=1024)
    with pytest.raises(InputError, match="loss implementation"):
        estimate_memory(**kw, loss_impl="shift-everything")
    with pytest.raises(InputError, match="unchunked"):
        estimate_memory(**kw, framework="torchtune", loss_impl="shift-logits")
