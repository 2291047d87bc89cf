"""Fused projections (ModelArch.fused_qkv_proj / fused_gate_up_proj; Phi-3's qkv_proj and gate_up_proj in
transformers modeling_phi3.py): LoRA adapts one linear per fused group, so peft keeps one adapter input (and
one A/B pair) where Llama-style q/k/v and gate/up keep three and two."""

from __future__ import annotations

import pytest

from tools.catalog.hf_config import arch_from_hf_config, hf_config_from_arch
from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_arch import adapted_linears, lora_param_count


def test_phi3_lora_trainable_parameters_match_peft(catalog: Catalog) -> None:
    phi3 = catalog.model("phi-3-mini")
    assert phi3.fused_qkv_proj and phi3.fused_gate_up_proj
    targets = ("qkv_proj", "o_proj", "gate_up_proj", "down_proj")
    resolved = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    attn, mlp = adapted_linears(phi3, resolved)
    assert tuple(attn) + tuple(mlp) == targets
    assert attn["qkv_proj"] == (3072, 3 * 3072) and mlp["gate_up_proj"] == (3072, 2 * 8192)
    # peft 0.21 get_peft_model on Phi-3-mini, r 8, all-linear: 12,582,912 trainable parameters
    # (bench/data/device/device2_training.jsonl, phi-3-mini-lora row; exact)
    assert lora_param_count(phi3, rank=8, targets=resolved) == 12_582_912


def test_one_targeted_member_adapts_the_whole_fused_linear(catalog: Catalog) -> None:
    phi3 = catalog.model("phi-3-mini")
    attn, mlp = adapted_linears(phi3, ("q_proj",))
    assert attn == {"qkv_proj": (3072, 9216)} and mlp == {}
    unfused = phi3.model_copy(update={"fused_qkv_proj": False, "fused_gate_up_proj": False})
    assert adapted_linears(unfused, ("q_proj",))[0] == {"q_proj": (3072, 3072)}


def test_phi3_fp32_adapter_inputs_counted_once_per_fused_linear(catalog: Catalog) -> None:
    phi3 = catalog.model("phi-3-mini")
    unfused = phi3.model_copy(update={"fused_qkv_proj": False, "fused_gate_up_proj": False})
    kw: dict[str, object] = dict(
        method="lora", seq_len=4096, batch_size=2, grad_checkpointing=False, training_precision="pure-bf16",
        lora_rank=8, lora_targets="all-linear", lora_dropout=0.05, memory_basis="allocated",
        lora_fp32_adapters=True,
    )  # fmt: skip
    fused_gib = estimate_memory(arch=phi3, **kw).peak_allocated_gib()  # type: ignore[arg-type]
    separate_gib = estimate_memory(arch=unfused, **kw).peak_allocated_gib()  # type: ignore[arg-type]
    # 3 fewer fp32 inputs (q/k/v -> 1, gate/up -> 1) x 5 B (fp32 dropout output + mask) x h 3072 x 8192 tokens
    # x 32 layers = 11.25 GiB; the 2r rank intermediates and the adapters' states change by < 0.1 GiB
    assert separate_gib - fused_gib == pytest.approx(11.25, abs=0.15)
    # measured 58.55 GiB allocated on an H200 (bench/data/memory_measurements_device2.yaml, phi-3-mini LoRA
    # no-ckpt row, peft 0.21); 3% tolerance (the allocated basis' device-set median is < 1%)
    assert fused_gib == pytest.approx(58.55, rel=0.03)


def test_hf_config_phi3_is_fused_and_round_trips(catalog: Catalog) -> None:
    phi3 = catalog.model("phi-3-mini")
    rebuilt = arch_from_hf_config(hf_config_from_arch(phi3), model_id="phi-3-mini")
    assert rebuilt.fused_qkv_proj and rebuilt.fused_gate_up_proj
    llama = arch_from_hf_config(hf_config_from_arch(catalog.model("llama-3.1-8b")), model_id="x")
    assert not llama.fused_qkv_proj and not llama.fused_gate_up_proj
