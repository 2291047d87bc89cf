"""The Megatron / NeMo preset (tools.memory_frameworks._MEGATRON): a persistent fp32 gradient buffer, the
vocab-parallel cross-entropy and Korthikanti's layer count without the transformers extras. Each test
compares the preset with the same plan under another framework, so it fails if the mechanism is removed."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_activations import LOGITS_BYTES_PER_VALUE, LOGITS_BYTES_PER_VALUE_VOCAB_PARALLEL

GIB = 2.0**30


def _est(catalog: Catalog, framework: str, **kw: object):  # type: ignore[no-untyped-def]
    base: dict[str, object] = dict(
        arch=catalog.model("llama-3-8b"), method="full", seq_len=2048, batch_size=2, grad_checkpointing=True,
        gpus=2, tp=2, memory_basis="allocated", framework=framework, traced=True,
    )  # fmt: skip
    base.update(kw)
    return estimate_memory(**base)  # type: ignore[arg-type]


def test_megatron_gradients_are_an_fp32_buffer_live_from_the_forward(catalog: Catalog) -> None:
    meg = _est(catalog, "megatron", loss_impl="shift-labels")
    ds = _est(catalog, "deepspeed", loss_impl="shift-labels")
    params_per_gpu = meg.params / 2  # tp 2
    grads_fwd = meg.phase_peaks_gib["forward"] - ds.phase_peaks_gib["forward"]
    # megatron: 4 B per parameter from the forward on (arguments.py: bf16 -> fp32 grad accumulation);
    # deepspeed's 16-bit gradients exist only from the backward
    assert grads_fwd * GIB == pytest.approx(4.0 * params_per_gpu, rel=0.01)
    assert any(a.name == "persistent_fp32_grad_buffer" for a in meg.assumptions)


def test_vocab_parallel_loss_holds_6_bytes_per_logit_not_12(catalog: Catalog) -> None:
    arch = catalog.model("llama-3-8b")
    kw: dict[str, object] = dict(method="lora", lora_dropout=0.0)
    meg = _est(catalog, "megatron", **kw)
    hf = _est(catalog, "megatron", loss_impl="shift-labels", **kw)
    values = 2 * 2048 * arch.vocab_size / 2  # tokens x vocab / tp
    diff = (hf.phase_peaks_gib["loss"] - meg.phase_peaks_gib["loss"]) * GIB
    assert diff == pytest.approx(
        values * (LOGITS_BYTES_PER_VALUE - LOGITS_BYTES_PER_VALUE_VOCAB_PARALLEL), rel=0.01
    )
    assert LOGITS_BYTES_PER_VALUE_VOCAB_PARALLEL == 6


def test_megatron_layers_keep_no_transformers_extras(catalog: Catalog) -> None:
    kw: dict[str, object] = dict(grad_checkpointing=False, loss_impl="shift-labels")
    meg, ds = _est(catalog, "megatron", **kw), _est(catalog, "deepspeed", **kw)
    meg_layer = next(s for s in meg.trace if s.step == "layer_activation_bytes_per_token").output
    ds_layer = next(s for s in ds.trace if s.step == "layer_activation_bytes_per_token").output
    assert ds_layer - meg_layer == pytest.approx(14.0 * catalog.model("llama-3-8b").hidden_size)
