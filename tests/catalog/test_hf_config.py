"""arch_from_hf_config: Hugging Face config.json -> ModelArch for each supported family.

The dicts below reproduce the architecture keys of the published config.json files named in each
test (only the keys that matter; the rest of a real config is ignored by the parser).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tools.catalog.hf_config import SUPPORTED_MODEL_TYPES, arch_from_hf_config, hf_config_from_arch
from tools.catalog.load import Catalog
from tools.errors import InputError

Write = Callable[[str, str], Path]

# meta-llama/Meta-Llama-3-8B/config.json
LLAMA3_8B: dict[str, Any] = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "max_position_embeddings": 8192,
    "tie_word_embeddings": False,
    "rope_theta": 500000.0,
    "torch_dtype": "bfloat16",
}
# Qwen/Qwen2.5-0.5B/config.json
QWEN25_05B: dict[str, Any] = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_attention_heads": 14,
    "num_hidden_layers": 24,
    "num_key_value_heads": 2,
    "vocab_size": 151936,
    "max_position_embeddings": 32768,
    "tie_word_embeddings": True,
    "sliding_window": 32768,
    "use_sliding_window": False,
}
# mistralai/Mixtral-8x7B-v0.1/config.json
MIXTRAL: dict[str, Any] = {
    "architectures": ["MixtralForCausalLM"],
    "model_type": "mixtral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
    "vocab_size": 32000,
    "max_position_embeddings": 32768,
}
# Qwen/Qwen3-30B-A3B/config.json
QWEN3_MOE: dict[str, Any] = {
    "architectures": ["Qwen3MoeForCausalLM"],
    "model_type": "qwen3_moe",
    "hidden_size": 2048,
    "head_dim": 128,
    "intermediate_size": 6144,
    "moe_intermediate_size": 768,
    "num_attention_heads": 32,
    "num_hidden_layers": 48,
    "num_key_value_heads": 4,
    "num_experts": 128,
    "num_experts_per_tok": 8,
    "decoder_sparse_step": 1,
    "mlp_only_layers": [],
    "vocab_size": 151936,
    "max_position_embeddings": 40960,
    "tie_word_embeddings": False,
}
# google/gemma-2-9b/config.json
GEMMA2_9B: dict[str, Any] = {
    "architectures": ["Gemma2ForCausalLM"],
    "model_type": "gemma2",
    "hidden_size": 3584,
    "head_dim": 256,
    "intermediate_size": 14336,
    "num_attention_heads": 16,
    "num_hidden_layers": 42,
    "num_key_value_heads": 8,
    "vocab_size": 256000,
    "max_position_embeddings": 8192,
    "sliding_window": 4096,
}
# google/gemma-3-27b-pt/config.json (multimodal: the language model sits in text_config)
GEMMA3_27B: dict[str, Any] = {
    "architectures": ["Gemma3ForConditionalGeneration"],
    "model_type": "gemma3",
    "text_config": {
        "model_type": "gemma3_text",
        "hidden_size": 5376,
        "head_dim": 128,
        "intermediate_size": 21504,
        "num_attention_heads": 32,
        "num_hidden_layers": 62,
        "num_key_value_heads": 16,
        "sliding_window": 1024,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
    },
    "vision_config": {"hidden_size": 1152, "num_hidden_layers": 27},
}
# microsoft/Phi-3-mini-4k-instruct/config.json
PHI3_MINI: dict[str, Any] = {
    "architectures": ["Phi3ForCausalLM"],
    "model_type": "phi3",
    "hidden_size": 3072,
    "intermediate_size": 8192,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 32,
    "vocab_size": 32064,
    "max_position_embeddings": 4096,
    "tie_word_embeddings": False,
}
# deepseek-ai/DeepSeek-V3/config.json
DEEPSEEK_V3: dict[str, Any] = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "num_hidden_layers": 61,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "num_experts_per_tok": 8,
    "first_k_dense_replace": 3,
    "q_lora_rank": 1536,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128,
    "v_head_dim": 128,
    "vocab_size": 129280,
    "max_position_embeddings": 163840,
    "tie_word_embeddings": False,
}
# microsoft/Phi-3.5-MoE-instruct/config.json
PHIMOE: dict[str, Any] = {
    "architectures": ["PhiMoEForCausalLM"],
    "model_type": "phimoe",
    "hidden_size": 4096,
    "intermediate_size": 6400,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "num_local_experts": 16,
    "num_experts_per_tok": 2,
    "attention_bias": True,
    "vocab_size": 32064,
    "max_position_embeddings": 131072,
}
# mistralai/Mistral-Nemo-Base-2407/config.json: head_dim 128 although 5120 / 32 = 160
MISTRAL_NEMO: dict[str, Any] = {
    "architectures": ["MistralForCausalLM"],
    "model_type": "mistral",
    "hidden_size": 5120,
    "head_dim": 128,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 40,
    "num_key_value_heads": 8,
    "vocab_size": 131072,
    "max_position_embeddings": 1024000,
}
# tiiuae/falcon-7b/config.json (current) and the legacy RefinedWebModel naming
FALCON_7B: dict[str, Any] = {
    "architectures": ["FalconForCausalLM"],
    "model_type": "falcon",
    "hidden_size": 4544,
    "num_attention_heads": 71,
    "num_hidden_layers": 32,
    "multi_query": True,
    "parallel_attn": True,
    "new_decoder_architecture": False,
    "bias": False,
    "vocab_size": 65024,
}
FALCON_7B_LEGACY: dict[str, Any] = {
    "architectures": ["RWForCausalLM"],
    "model_type": "RefinedWebModel",
    "hidden_size": 4544,
    "n_head": 71,
    "n_layer": 32,
    "multi_query": True,
    "parallel_attn": True,
    "bias": False,
    "vocab_size": 65024,
}
# tiiuae/falcon-40b/config.json
FALCON_40B: dict[str, Any] = {
    "architectures": ["FalconForCausalLM"],
    "model_type": "falcon",
    "hidden_size": 8192,
    "num_attention_heads": 128,
    "num_hidden_layers": 60,
    "num_kv_heads": 8,
    "new_decoder_architecture": True,
    "parallel_attn": True,
    "bias": False,
    "vocab_size": 65024,
}


@pytest.mark.parametrize(
    ("config", "catalog_id"),
    [
        (LLAMA3_8B, "llama-3-8b"),
        (QWEN25_05B, "qwen2.5-0.5b"),
        (MIXTRAL, "mixtral-8x7b"),
        (QWEN3_MOE, "qwen3-30b-a3b"),
        (GEMMA2_9B, "gemma-2-9b"),
        (GEMMA3_27B, "gemma-3-27b"),
        (PHI3_MINI, "phi-3-mini"),
        (DEEPSEEK_V3, "deepseek-v3"),
        (FALCON_7B, "falcon-7b"),
        (FALCON_7B_LEGACY, "falcon-7b"),
        (FALCON_40B, "falcon-40b"),
        (PHIMOE, "phi-3.5-moe"),
        (MISTRAL_NEMO, "mistral-nemo-12b"),
    ],
)
def test_real_configs_match_catalog(catalog: Catalog, config: dict[str, Any], catalog_id: str) -> None:
    arch = arch_from_hf_config(config)
    ref = catalog.model(catalog_id)
    assert arch.param_count() == ref.param_count()
    assert arch.active_param_count() == ref.active_param_count()
    assert arch.kv_bytes_per_token(2) == ref.kv_bytes_per_token(2)
    assert arch.family == ref.family


def test_llama_fields() -> None:
    arch = arch_from_hf_config(LLAMA3_8B, model_id="my-llama")
    assert arch.id == "my-llama"
    assert (arch.n_layers, arch.n_heads, arch.n_kv_heads, arch.head_dim) == (32, 32, 8, 128)  # 4096 / 32
    assert arch.hf_architecture == "LlamaForCausalLM"
    assert not arch.tied_embeddings and not arch.qkv_bias


def test_head_dim_taken_from_config_when_given() -> None:
    # Gemma 2 9B: head_dim 256 although hidden / heads = 224
    assert arch_from_hf_config(GEMMA2_9B).head_dim == 256
    assert arch_from_hf_config({**LLAMA3_8B, "head_dim": 64}).head_dim == 64


def test_family_specific_fields() -> None:
    qwen = arch_from_hf_config(QWEN25_05B)
    assert qwen.qkv_bias and qwen.tied_embeddings
    gemma = arch_from_hf_config(GEMMA2_9B)
    assert gemma.tied_embeddings and gemma.norms_per_layer == 4
    assert (gemma.sliding_window, gemma.global_layer_every) == (4096, 2)
    gemma3 = arch_from_hf_config(GEMMA3_27B)
    assert (gemma3.sliding_window, gemma3.global_layer_every, gemma3.vocab_size) == (1024, 6, 262208)
    ds = arch_from_hf_config(DEEPSEEK_V3)
    assert ds.uses_mla and ds.first_dense_layers == 3 and ds.n_shared_experts == 1
    falcon = arch_from_hf_config(FALCON_7B)
    assert (falcon.n_kv_heads, falcon.intermediate_size, falcon.mlp_gated, falcon.norms_per_layer) == (
        1,
        4 * 4544,
        False,
        2,
    )
    assert arch_from_hf_config(FALCON_40B).norms_per_layer == 4


def test_layer_types_list_sets_global_every() -> None:
    types = (["sliding_attention"] * 5 + ["full_attention"]) * 8
    cfg = {
        **GEMMA3_27B["text_config"],
        "model_type": "gemma3_text",
        "num_hidden_layers": 48,
        "layer_types": types,
    }
    assert arch_from_hf_config(cfg).global_layer_every == 6


def test_round_trip_every_catalog_model(catalog: Catalog) -> None:
    # A config built from a catalog record parses back to the same architecture and parameter count.
    for m in catalog.models:
        back = arch_from_hf_config(hf_config_from_arch(m))
        assert back.param_count() == m.param_count(), m.id
        assert back.active_param_count() == m.active_param_count(), m.id
        assert back.kv_cache_bytes(32768, 2) == m.kv_cache_bytes(32768, 2), m.id


def test_reads_file_and_folder(write: Write) -> None:
    path = write("config.json", json.dumps({**LLAMA3_8B, "_name_or_path": "meta-llama/Meta-Llama-3-8B"}))
    arch = arch_from_hf_config(path)
    assert arch.id == "Meta-Llama-3-8B" and arch.param_count() == arch_from_hf_config(LLAMA3_8B).param_count()
    assert str(path) in arch.source
    assert arch_from_hf_config(path.parent).param_count() == arch.param_count()
    other = write("my-llama.json", json.dumps(LLAMA3_8B))
    assert arch_from_hf_config(other).id == "my-llama"  # named after the file when not config.json


def test_unsupported_model_type_one_line() -> None:
    with pytest.raises(InputError) as exc:
        arch_from_hf_config({"model_type": "gpt2", "n_embd": 768})
    msg = str(exc.value)
    assert "'gpt2' is not supported" in msg and "llama" in msg and "falcon" in msg and "\n" not in msg
    for family in ("llama", "mixtral", "qwen3_moe", "gemma3", "phi3", "deepseek_v3", "falcon"):
        assert family in SUPPORTED_MODEL_TYPES


def test_missing_model_type() -> None:
    with pytest.raises(InputError, match="model_type missing is not supported"):
        arch_from_hf_config({"hidden_size": 10})


def test_broken_json(write: Write) -> None:
    path = write("config.json", '{"model_type": "llama", "hidden_size": 4096,,}')
    with pytest.raises(InputError) as exc:
        arch_from_hf_config(path)
    msg = str(exc.value)
    assert "not valid JSON" in msg and "line 1" in msg and "\n" not in msg
    with pytest.raises(InputError, match="expected a JSON object"):
        arch_from_hf_config(write("list.json", "[1, 2]"))
    with pytest.raises(InputError, match="file not found"):
        arch_from_hf_config(Path("/nonexistent/config.json"))


def test_missing_and_bad_fields() -> None:
    cfg = {k: v for k, v in LLAMA3_8B.items() if k != "num_hidden_layers"}
    with pytest.raises(InputError, match="'num_hidden_layers' is missing"):
        arch_from_hf_config(cfg)
    with pytest.raises(InputError, match="'hidden_size' must be a whole number"):
        arch_from_hf_config({**LLAMA3_8B, "hidden_size": "big"})
    with pytest.raises(InputError, match="num_key_value_heads|n_kv_heads"):
        arch_from_hf_config({**LLAMA3_8B, "num_key_value_heads": 0})
    with pytest.raises(InputError, match="does not divide"):
        arch_from_hf_config({**LLAMA3_8B, "num_key_value_heads": 7})
    with pytest.raises(InputError, match="not divisible"):
        arch_from_hf_config({**LLAMA3_8B, "num_attention_heads": 30})
    with pytest.raises(InputError, match="mlp_only_layers"):
        arch_from_hf_config({**QWEN3_MOE, "mlp_only_layers": [0]})
