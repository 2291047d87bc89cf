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


# Falcon's FalconAttention.query_key_value (huggingface/transformers src/transformers/models/falcon/
# modeling_falcon.py) and Qwen-1's QWenAttention.c_attn (huggingface.co/Qwen/Qwen-7B modeling_qwen.py, remote
# code) are one fused q/k/v linear each: peft adapts it with one A/B pair of r x (d_in + d_out).
FALCON_7B_CONFIG = {  # huggingface.co/tiiuae/falcon-7b config.json (the keys the reader uses)
    "model_type": "falcon", "hidden_size": 4544, "n_head": 71, "n_layer": 32, "multi_query": True,
    "parallel_attn": True, "new_decoder_architecture": False, "vocab_size": 65024, "bias": False,
    "max_position_embeddings": 2048,
}  # fmt: skip
QWEN_7B_CONFIG = {  # huggingface.co/Qwen/Qwen-7B config.json (the keys the reader uses)
    "model_type": "qwen", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
    "kv_channels": 128, "intermediate_size": 22016, "vocab_size": 151936, "seq_length": 8192,
    "tie_word_embeddings": False,
}  # fmt: skip


def test_falcon_query_key_value_lora_count_by_hand(catalog: Catalog) -> None:
    qkv = ("q_proj", "k_proj", "v_proj")  # peft's Falcon default target, query_key_value
    from_config = arch_from_hf_config(FALCON_7B_CONFIG, model_id="falcon-7b-cfg")
    for falcon in (catalog.model("falcon-7b"), from_config):
        assert falcon.fused_qkv_proj and not falcon.fused_gate_up_proj  # dense_h_to_4h is one linear anyway
        assert adapted_linears(falcon, qkv)[0] == {"qkv_proj": (4544, 4672)}
        # by hand: multi-query qkv_out_dim = h + 2 x head_dim = 4544 + 128 = 4672; r 16 x (4544 + 4672) x 32
        # layers = 4,718,592 (three separate q/k/v pairs would count 16 x (3 x 4544 + 4544 + 64 + 64) x 32)
        assert lora_param_count(falcon, rank=16, targets=qkv) == 4_718_592
    falcon40 = catalog.model("falcon-40b")
    # new decoder architecture: (2 x 8 KV heads + 128 heads) x 64 = 9216 out; r 8 x (8192 + 9216) x 60 layers
    assert lora_param_count(falcon40, rank=8, targets=qkv) == 8_355_840


def test_qwen1_c_attn_lora_count_by_hand() -> None:
    qwen = arch_from_hf_config(QWEN_7B_CONFIG, model_id="qwen-7b-cfg")
    assert qwen.fused_qkv_proj and not qwen.fused_gate_up_proj  # w1 and w2 are two linears
    qkv = ("q_proj", "k_proj", "v_proj")  # c_attn: 4096 -> 3 x 32 x 128 = 12288
    assert adapted_linears(qwen, qkv)[0] == {"qkv_proj": (4096, 12288)}
    # by hand: r 64 x (4096 + 12288) x 32 layers = 33,554,432
    assert lora_param_count(qwen, rank=64, targets=qkv) == 33_554_432
    # every linear (Qwen finetune.py: c_attn, c_proj, w1, w2; peft matches both c_proj, attention's h -> h and
    # QWenMLP's 11008 -> h), r 64: c_attn 64 x 16384 + attention c_proj 64 x 8192 + w1, w2, mlp c_proj
    # 3 x 64 x (4096 + 11008) = 4,472,832 per layer x 32 = 143,130,624
    every = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    assert lora_param_count(qwen, rank=64, targets=every) == 143_130_624
