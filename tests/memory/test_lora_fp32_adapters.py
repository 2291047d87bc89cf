"""lora_fp32_adapters (tools.memory_lora): peft's get_peft_model keeps the adapters fp32 on a bf16 base
(autocast_adapter_dtype=True), so without autocast each adapted linear keeps an fp32 copy of its input
(lora_dropout 0) or an fp32 dropout output and a 1-byte mask (lora_dropout > 0), and nothing keeps the
16-bit inputs. On in the hf preset (peft's default), off in the others; ignored under mixed precision and on
a quantised base."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory

# Llama-3.1-8B, all-linear: per layer and token the adapted inputs are q, k, v, o, gate, up (4096 each) and
# down (14336) = 38,912 elements; the distinct 16-bit inputs (q/k/v, o, gate/up, down) are 26,624 elements.
ADAPTED_INPUTS = 6 * 4096 + 14336
DISTINCT_INPUTS = 3 * 4096 + 14336
LAYERS, TOKENS = 32, 2 * 2048


def _act_gib(catalog: Catalog, **kw: object) -> float:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-3.1-8b"), method="lora", seq_len=2048, batch_size=2, lora_rank=16,
        lora_targets="all-linear", grad_checkpointing=False, training_precision="pure-bf16",
        lora_dropout=0.0, memory_basis="allocated", optimizer_impl="fused",
    )  # fmt: skip
    base.update(kw)
    est = estimate_memory(**base)  # type: ignore[arg-type]
    assert est.peak_phase in ("backward", "loss")
    return est.breakdown_gib.activations


def test_fp32_cast_kept_per_adapted_linear_without_dropout(catalog: Catalog) -> None:
    delta_gib = _act_gib(catalog, lora_fp32_adapters=True) - _act_gib(catalog, lora_fp32_adapters=False)
    # 4 B per adapted input element, less the 2 B distinct 16-bit inputs no longer kept
    expected = (4 * ADAPTED_INPUTS - 2 * DISTINCT_INPUTS) * TOKENS * LAYERS / 2**30
    assert delta_gib == pytest.approx(expected, rel=1e-6)


def test_dropout_adds_the_one_byte_mask_as_the_lent_gpu_measured(catalog: Catalog) -> None:
    # H200, peft 0.21.0 (bench/data/memory_measurements_device.yaml): dropout 0.05 minus 0 = 4.70 GiB
    with_dropout = _act_gib(catalog, lora_fp32_adapters=True, lora_dropout=0.05)
    delta_gib = with_dropout - _act_gib(catalog, lora_fp32_adapters=True)
    assert delta_gib == pytest.approx(1 * ADAPTED_INPUTS * TOKENS * LAYERS / 2**30, rel=1e-6)
    assert delta_gib == pytest.approx(4.70, rel=0.02)


def test_ignored_under_mixed_precision_and_on_a_quantised_base(catalog: Catalog) -> None:
    for kw in ({"training_precision": "mixed"}, {"method": "qlora"}):
        assert _act_gib(catalog, lora_fp32_adapters=True, **kw) == pytest.approx(_act_gib(catalog, **kw))


def test_adapter_states_are_fp32(catalog: Catalog) -> None:
    arch = catalog.model("llama-3.1-8b")
    kw: dict[str, object] = dict(arch=arch, method="lora", lora_rank=16, lora_targets="all-linear",
                                 training_precision="pure-bf16")  # fmt: skip
    bf16 = estimate_memory(lora_fp32_adapters=False, **kw).breakdown_gib.adapters  # type: ignore[arg-type]
    fp32 = estimate_memory(lora_fp32_adapters=True, **kw).breakdown_gib.adapters  # type: ignore[arg-type]
    assert fp32 == pytest.approx(2 * bf16)  # weight + grad + 2 AdamW states: 16 B instead of 8 B


def test_the_hf_preset_keeps_peft_fp32_adapters_and_torchtune_does_not(catalog: Catalog) -> None:
    """peft's get_peft_model autocasts adapters to fp32 by default (huggingface/peft PR #1706); torchtune's
    own LoRA modules take the model's dtype."""
    assert _act_gib(catalog) == pytest.approx(_act_gib(catalog, lora_fp32_adapters=True))
    kw: dict[str, object] = dict(
        arch=catalog.model("llama-3.1-8b"),
        method="lora",
        training_precision="pure-bf16",
        framework="torchtune",
    )
    tune = estimate_memory(**kw)  # type: ignore[arg-type]
    assert tune.memory_options["lora_fp32_adapters"] == {"value": False, "source": "framework preset"}
    fp32 = estimate_memory(lora_fp32_adapters=True, **kw)  # type: ignore[arg-type]
    assert fp32.memory_options["lora_fp32_adapters"] == {"value": True, "source": "flag"}
    assert fp32.breakdown_gib.adapters == pytest.approx(2 * tune.breakdown_gib.adapters)
