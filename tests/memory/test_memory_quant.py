"""Quantised-base options (tools.memory_quant): `quant_saves_input` (bitsandbytes MatMul4Bit keeps each 4-bit
linear's 16-bit input: `ctx.tensors = (A, B)`) and `fp32_unquantized` (a 4-bit base whose non-quantised
parameters are fp32 and whose forward runs without autocast: torch_dtype float32 or peft's kbit cast). Both
off by default; the expected bytes are worked by hand from the modules' docstrings (Llama-2-7B: 32 layers,
h = 4096, f = 11008, vocab 32000)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_activations import LOGITS_BYTES_PER_VALUE_16BIT

_H, _F, _L, _V = 4096, 11008, 32, 32000


def _qlora(catalog: Catalog, **kw: object) -> dict[str, object]:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="qlora", seq_len=512, batch_size=2, grad_checkpointing=False,
        training_precision="pure-bf16", lora_dropout=0.05, memory_basis="allocated",
        lora_targets="all-linear",
    )  # fmt: skip
    base.update(kw)
    return base


def test_quant_saves_each_distinct_linear_input_per_layer(catalog: Catalog) -> None:
    base = _qlora(catalog)
    off = estimate_memory(**base)  # type: ignore[arg-type]
    on = estimate_memory(quant_saves_input=True, **base)  # type: ignore[arg-type]
    assert off.peak_phase == on.peak_phase
    # attention input h, o_proj input h, MLP input h, down_proj input f; 2 B each; 1024 tokens x 32 layers
    expected = 2 * (3 * _H + _F) * 1024 * _L
    assert (on.peak_allocated_gib() - off.peak_allocated_gib()) * 2**30 == pytest.approx(expected, rel=0.01)


def test_a_16bit_adapter_without_dropout_already_keeps_the_same_input(catalog: Catalog) -> None:
    base = _qlora(catalog, lora_dropout=0.0)
    off = estimate_memory(**base)  # type: ignore[arg-type]
    on = estimate_memory(quant_saves_input=True, **base)  # type: ignore[arg-type]
    # every linear is adapted with nn.Identity dropout: lora_A keeps the very tensor MatMul4Bit keeps
    assert on.peak_allocated_gib() == pytest.approx(off.peak_allocated_gib())
    attn_only = _qlora(catalog, lora_dropout=0.0, lora_targets=["q_proj", "v_proj"])
    off = estimate_memory(**attn_only)  # type: ignore[arg-type]
    on = estimate_memory(quant_saves_input=True, **attn_only)  # type: ignore[arg-type]
    expected = 2 * (2 * _H + _F) * 1024 * _L  # o_proj, MLP and down_proj inputs are not shared
    assert (on.peak_allocated_gib() - off.peak_allocated_gib()) * 2**30 == pytest.approx(expected, rel=0.01)


def test_options_need_a_quantised_base(catalog: Catalog) -> None:
    kw = dict(arch=catalog.model("llama-2-7b"), method="lora", seq_len=512)
    plain = estimate_memory(**kw).peak_gib_per_gpu  # type: ignore[arg-type]
    both = estimate_memory(quant_saves_input=True, fp32_unquantized=True, **kw)  # type: ignore[arg-type]
    assert both.peak_gib_per_gpu == plain


def test_fp32_unquantized_weights_and_16bit_loss(catalog: Catalog) -> None:
    base = _qlora(catalog, loss_upcast=False, grad_checkpointing=True)
    off = estimate_memory(**base)  # type: ignore[arg-type]
    on = estimate_memory(fp32_unquantized=True, **base)  # type: ignore[arg-type]
    # embeddings + head + norms: (2 x V x h + (2 L + 1) h) params at 4 B instead of 2
    other = 2 * _V * _H + (2 * _L + 1) * _H
    assert on.breakdown_gib.weights - off.breakdown_gib.weights == pytest.approx(other * 2 / 2**30, rel=0.01)
    # the loss on fp32 logits: at least the 16-bit loss's bytes again per logit value (1024 x 32000)
    gap = (on.peak_allocated_gib() - off.peak_allocated_gib()) * 2**30
    assert gap > other * 2 + LOGITS_BYTES_PER_VALUE_16BIT * 1024 * _V
    assert "fp32_forward_layer_bytes_per_token" in {s.step for s in on.trace}
    assert "fp32_forward_layer_bytes_per_token" not in {s.step for s in off.trace}


def test_reserved_peak_is_never_below_the_reserve_at_the_counters_reset(catalog: Catalog) -> None:
    """tools.memory.RESERVE_NEVER_SHRINKS: a floor on the reserved basis only, and only when it binds."""
    base = _qlora(catalog, memory_basis="reserved", grad_checkpointing=True)
    plain = estimate_memory(**base)  # type: ignore[arg-type]
    tensors_and_reserve = plain.peak_without_context_gib()
    floored = estimate_memory(reserved_at_reset_gib=tensors_and_reserve + 1.5, **base)  # type: ignore[arg-type]
    assert floored.peak_without_context_gib() == pytest.approx(tensors_and_reserve + 1.5)
    assert floored.peak_allocated_gib() == pytest.approx(plain.peak_allocated_gib())
    below = estimate_memory(reserved_at_reset_gib=0.5, **base)  # type: ignore[arg-type]
    assert below.peak_without_context_gib() == pytest.approx(tensors_and_reserve)
    allocated = _qlora(catalog, grad_checkpointing=True)  # memory_basis allocated: no reserve at all
    assert estimate_memory(reserved_at_reset_gib=99.0, **allocated).peak_gib_per_gpu == pytest.approx(  # type: ignore[arg-type]
        estimate_memory(**allocated).peak_gib_per_gpu  # type: ignore[arg-type]
    )
