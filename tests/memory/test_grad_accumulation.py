"""grad_accumulation_steps (tools.memory_phases.accumulating): with more than one micro-batch per optimizer
step the earlier micro-batches' gradients are live through the next forward and loss (LitGPT finetune
loops, HF Trainer: the step and zero_grad run once per global batch)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.errors import InputError
from tools.memory import estimate_memory


def _est(catalog: Catalog, **kw: object):  # type: ignore[no-untyped-def]
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="full", seq_len=512, batch_size=4, grad_checkpointing=False,
        training_precision="pure-bf16", optimizer_impl="foreach", memory_basis="allocated",
    )  # fmt: skip
    base.update(kw)
    return estimate_memory(**base)  # type: ignore[arg-type]


def test_accumulated_gradients_are_live_at_the_loss(catalog: Catalog) -> None:
    one, eight = _est(catalog), _est(catalog, grad_accumulation_steps=8)
    grads_gib = eight.params * 2 / 2**30  # pure bf16: 2 B per parameter
    assert eight.phase_peaks_gib["loss"] - one.phase_peaks_gib["loss"] == pytest.approx(grads_gib, rel=1e-6)
    assert eight.phase_peaks_gib["optimizer"] == pytest.approx(one.phase_peaks_gib["optimizer"])
    assert eight.peak_allocated_gib() > one.peak_allocated_gib()


def test_no_held_gradients_when_the_step_runs_in_backward(catalog: Catalog) -> None:
    kw: dict[str, object] = dict(optimizer_in_backward=True, optimizer="adamw", framework="torchtune")
    assert _est(catalog, grad_accumulation_steps=4, **kw).peak_allocated_gib() == pytest.approx(
        _est(catalog, **kw).peak_allocated_gib()
    )


def test_lora_accumulation_adds_only_the_adapter_gradients(catalog: Catalog) -> None:
    kw: dict[str, object] = dict(method="lora", lora_rank=8, lora_targets="all-linear")
    acc = _est(catalog, grad_accumulation_steps=4, **kw)
    diff = acc.peak_allocated_gib() - _est(catalog, **kw).peak_allocated_gib()
    # the hf preset's peft adapters are fp32 on the bf16 base (lora_fp32_adapters): 4 B per adapter gradient
    assert diff == pytest.approx(acc.trainable_params * 4 / 2**30, rel=1e-6)
    bf16 = _est(catalog, grad_accumulation_steps=4, lora_fp32_adapters=False, **kw).peak_allocated_gib()
    assert bf16 - _est(catalog, lora_fp32_adapters=False, **kw).peak_allocated_gib() == pytest.approx(
        diff / 2
    )


def test_accumulation_steps_must_be_positive(catalog: Catalog) -> None:
    with pytest.raises(InputError):
        _est(catalog, grad_accumulation_steps=0)
