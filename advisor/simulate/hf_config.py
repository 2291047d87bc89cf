"""Translate a catalog ModelArch into the keyword arguments of a Hugging Face config.

Pure Python (no torch, no transformers): `hf_config_kwargs` returns (model_type, kwargs) and the
simulator passes them to `transformers.AutoConfig.for_model(model_type, **kwargs)`. Keeping this
mapping import-free lets tests check it without the optional `simulate` extra.
"""

from __future__ import annotations

from typing import Any

from tools.catalog.schema import ModelArch
from tools.errors import InputError

# Hugging Face `architectures[0]` -> `model_type` (transformers' config registry key).
ARCHITECTURE_TO_MODEL_TYPE: dict[str, str] = {
    "LlamaForCausalLM": "llama",
    "MistralForCausalLM": "mistral",
    "MixtralForCausalLM": "mixtral",
    "Qwen2ForCausalLM": "qwen2",
    "QWenLMHeadModel": "qwen2",  # Qwen (v1) remote code: Qwen2's shapes
    "Qwen2MoeForCausalLM": "qwen2_moe",
    "Qwen3ForCausalLM": "qwen3",
    "Qwen3MoeForCausalLM": "qwen3_moe",
    "Gemma2ForCausalLM": "gemma2",
    "Gemma3ForCausalLM": "gemma3_text",
    "Gemma3ForConditionalGeneration": "gemma3_text",
    "Phi3ForCausalLM": "phi3",
    "DeepseekV3ForCausalLM": "deepseek_v3",
}

# Family names as the catalog writes them -> model_type, used when hf_architecture is empty.
FAMILY_TO_MODEL_TYPE: dict[str, str] = {
    "llama": "llama",
    "mistral": "mistral",
    "mixtral": "mixtral",
    "qwen2": "qwen2",
    "qwen2.5": "qwen2",
    "qwen2_moe": "qwen2_moe",
    "qwen3": "qwen3",
    "qwen3_moe": "qwen3_moe",
    "gemma2": "gemma2",
    "gemma3": "gemma3_text",
    "phi3": "phi3",
    "phi": "phi3",
    "deepseek_v3": "deepseek_v3",
    "qwen": "qwen2",  # Qwen (v1) remote code has Qwen2's shapes: qkv bias, SwiGLU, untied head, MHA (last:
    # prefix match, so qwen2/qwen3 find their own entries first)
}

SUPPORTED_MODEL_TYPES = tuple(sorted(set(ARCHITECTURE_TO_MODEL_TYPE.values())))


def model_type_for(arch: ModelArch) -> str:
    """The transformers model_type that builds this architecture; InputError when there is none."""
    if arch.hf_architecture in ARCHITECTURE_TO_MODEL_TYPE:
        return ARCHITECTURE_TO_MODEL_TYPE[arch.hf_architecture]
    family = arch.family.lower().replace("-", "_").replace(" ", "_")
    for key, model_type in FAMILY_TO_MODEL_TYPE.items():
        if family == key or family.startswith(key):
            return model_type
    raise InputError(
        f"the simulator cannot build {arch.id!r} (architecture {arch.hf_architecture or arch.family!r}); "
        f"supported: {', '.join(SUPPORTED_MODEL_TYPES)}; use the analytic estimate instead"
    )


def hf_config_kwargs(arch: ModelArch, *, max_positions: int | None = None) -> tuple[str, dict[str, Any]]:
    """(model_type, config kwargs) that rebuild `arch` with transformers' modelling code.

    Only shape-defining fields are set; everything else keeps the config class's defaults (rope,
    norms, activation), which do not change tensor sizes.
    """
    model_type = model_type_for(arch)
    kw: dict[str, Any] = {
        "hidden_size": arch.hidden_size,
        "intermediate_size": arch.intermediate_size,
        "num_hidden_layers": arch.n_layers,
        "num_attention_heads": arch.n_heads,
        "num_key_value_heads": arch.n_kv_heads,
        "head_dim": arch.head_dim,
        "vocab_size": arch.vocab_size,
        "tie_word_embeddings": arch.tied_embeddings,
        "max_position_embeddings": max(arch.max_context, max_positions or 0),
        "use_cache": False,  # training programs never keep a KV cache (TRL, torchtune set this too)
    }
    if model_type == "llama":
        kw["attention_bias"] = arch.qkv_bias
    if model_type in ("mistral", "mixtral", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe"):
        kw["sliding_window"] = None  # full attention: the worst case for activations
    if model_type in ("qwen3", "qwen3_moe"):
        kw["attention_bias"] = arch.qkv_bias
    if model_type in ("gemma2", "gemma3_text") and arch.sliding_window:
        kw["sliding_window"] = arch.sliding_window
    if model_type == "mixtral":
        assert arch.n_experts and arch.moe_intermediate_size
        kw["intermediate_size"] = arch.moe_intermediate_size
        kw["num_local_experts"] = arch.n_experts
        kw["num_experts_per_tok"] = arch.n_active_experts or 2
    if model_type in ("qwen2_moe", "qwen3_moe"):
        assert arch.n_experts and arch.moe_intermediate_size
        kw["num_experts"] = arch.n_experts
        kw["num_experts_per_tok"] = arch.n_active_experts or 2
        kw["moe_intermediate_size"] = arch.moe_intermediate_size
        kw["decoder_sparse_step"] = 1
        kw["mlp_only_layers"] = list(range(arch.first_dense_layers))
    if model_type == "qwen2_moe":
        kw["shared_expert_intermediate_size"] = arch.shared_expert_intermediate_size or 0
    if model_type == "deepseek_v3":
        assert arch.n_experts and arch.moe_intermediate_size
        kw.update(
            q_lora_rank=arch.q_lora_rank,
            kv_lora_rank=arch.kv_lora_rank,
            qk_rope_head_dim=arch.qk_rope_head_dim,
            qk_nope_head_dim=arch.qk_nope_head_dim,
            v_head_dim=arch.v_head_dim,
            n_routed_experts=arch.n_experts,
            num_experts_per_tok=arch.n_active_experts or 8,
            n_shared_experts=arch.n_shared_experts,
            moe_intermediate_size=arch.moe_intermediate_size,
            first_k_dense_replace=arch.first_dense_layers,
            n_group=1,
            topk_group=1,
        )
        kw.pop("head_dim")
    return model_type, kw
