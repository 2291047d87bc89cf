"""lora_fused_qkv (tools.memory_types.Plan.lora_fused_qkv): LitGPT's LoRAQKVLinear applies one LoRA dropout
to the fused q/k/v projection's input, so two of peft's three dropout copies (and masks) are not kept.
Off by default (peft adapts q_proj, k_proj and v_proj as separate layers)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_activations import LORA_DROPOUT_BYTES_PER_INPUT


def _peaks(catalog: Catalog, **kw: object) -> tuple[float, float, str]:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=512, batch_size=2, grad_checkpointing=False,
        training_precision="pure-bf16", lora_dropout=0.05, memory_basis="allocated",
        lora_fp32_adapters=False,  # LitGPT's own 16-bit adapters, not peft's
        lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"],
    )  # fmt: skip
    base.update(kw)
    peft = estimate_memory(**base)  # type: ignore[arg-type]
    fused = estimate_memory(lora_fused_qkv=True, **base)  # type: ignore[arg-type]
    assert peft.peak_phase == fused.peak_phase
    return peft.peak_allocated_gib(), fused.peak_allocated_gib(), fused.peak_phase


def test_one_dropout_copy_for_the_fused_qkv_instead_of_three(catalog: Catalog) -> None:
    peft, fused, _ = _peaks(catalog)
    # Llama-2-7B: 32 layers, h = 4096; 2 x 512 tokens without checkpointing; 2 copies of 3 B per input value
    saved_bytes = 2 * LORA_DROPOUT_BYTES_PER_INPUT * 4096 * 1024 * 32
    assert (peft - fused) * 2**30 == pytest.approx(saved_bytes, rel=0.01)


def test_nothing_changes_without_dropout_or_with_one_adapted_projection(catalog: Catalog) -> None:
    peft, fused, _ = _peaks(catalog, lora_dropout=0.0)
    assert fused == pytest.approx(peft)
    peft, fused, _ = _peaks(catalog, lora_targets=["q_proj", "o_proj"])
    assert fused == pytest.approx(peft)
    full = estimate_memory(arch=catalog.model("llama-2-7b"), method="full", seq_len=512, lora_fused_qkv=True)
    assert (
        full.peak_gib_per_gpu
        == estimate_memory(arch=catalog.model("llama-2-7b"), method="full", seq_len=512).peak_gib_per_gpu
    )
