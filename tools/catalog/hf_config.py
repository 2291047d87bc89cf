"""Build a ModelArch from a Hugging Face `config.json`, so a user's own model needs no catalog entry.

Supported `model_type`s (the families in the catalog): llama, mistral, mixtral, qwen2, qwen2_moe, qwen3,
qwen3_moe, gemma, gemma2, gemma3 / gemma3_text, phi3, phimoe, deepseek_v3 (and deepseek_v2), falcon (and its
legacy RefinedWeb / RefinedWebModel names). Field names and defaults follow each family's
transformers configuration class; `head_dim` is taken from the config when it is given (Gemma, Qwen3
and others set it independently of hidden_size / num_attention_heads).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tools.catalog.schema import ModelArch
from tools.errors import InputError

Config = Mapping[str, Any]

# Defaults of the transformers config classes for keys a config.json may omit, per family.
_FAMILY_DEFAULTS: dict[str, dict[str, Any]] = {
    "llama": {"tie_word_embeddings": False, "max_position_embeddings": 2048, "attention_bias": False},
    "mistral": {"tie_word_embeddings": False, "max_position_embeddings": 131072},
    "mixtral": {
        "tie_word_embeddings": False,
        "max_position_embeddings": 131072,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
    },
    "qwen2": {"tie_word_embeddings": False, "max_position_embeddings": 32768},
    "qwen2_moe": {"tie_word_embeddings": False, "max_position_embeddings": 32768},
    "qwen3": {"tie_word_embeddings": False, "max_position_embeddings": 32768, "attention_bias": False},
    "qwen3_moe": {"tie_word_embeddings": False, "max_position_embeddings": 32768, "attention_bias": False},
    "gemma": {"tie_word_embeddings": True, "max_position_embeddings": 8192, "head_dim": 256},
    "gemma2": {
        "tie_word_embeddings": True,
        "max_position_embeddings": 8192,
        "head_dim": 256,
        "sliding_window": 4096,
        "vocab_size": 256000,
    },
    "gemma3_text": {
        "tie_word_embeddings": True,
        "max_position_embeddings": 131072,
        "head_dim": 256,
        "sliding_window": 4096,
        "sliding_window_pattern": 6,
        "vocab_size": 262208,
    },
    "phi3": {"tie_word_embeddings": False, "max_position_embeddings": 4096, "vocab_size": 32064},
    "phimoe": {
        "tie_word_embeddings": False,
        "max_position_embeddings": 131072,
        "vocab_size": 32064,
        "attention_bias": True,
        "num_local_experts": 16,
        "num_experts_per_tok": 2,
    },
    "deepseek_v3": {
        "tie_word_embeddings": False,
        "max_position_embeddings": 4096,
        "first_k_dense_replace": 0,
        "n_shared_experts": 0,
    },
    "falcon": {
        "tie_word_embeddings": True,
        "max_position_embeddings": 2048,
        "vocab_size": 65024,
        "multi_query": True,
        "parallel_attn": True,
        "new_decoder_architecture": False,
    },
}
_FAMILY_DEFAULTS["deepseek_v2"] = _FAMILY_DEFAULTS["deepseek_v3"]

_ALIASES = {"refinedweb": "falcon", "refinedwebmodel": "falcon", "gemma3": "gemma3_text"}

SUPPORTED_MODEL_TYPES = (
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "phi3",
    "phimoe",
    "deepseek_v3",
    "deepseek_v2",
    "falcon",
    "qwen",
)


class _Cfg:
    """A config with family defaults, where a missing required key raises a one-line InputError."""

    def __init__(self, raw: Config, family: str, where: str) -> None:
        self.raw = {**_FAMILY_DEFAULTS.get(family, {}), **{k: v for k, v in raw.items() if v is not None}}
        self.family = family
        self.where = where

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, *keys: str, default: Any = None) -> Any:
        for k in keys:
            if k in self.raw:
                return self.raw[k]
        return default

    def int_(self, *keys: str, default: int | None = None) -> int:
        value = self.get(*keys, default=default)
        if value is None:
            raise InputError(
                f"{self.where}: '{keys[0]}' is missing for model_type '{self.family}'; "
                "pass the model's complete config.json"
            )
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise InputError(f"{self.where}: '{keys[0]}' must be a whole number, got {value!r}")
        return int(value)

    def bool_(self, key: str, default: bool = False) -> bool:
        return bool(self.get(key, default=default))


def _common(c: _Cfg) -> dict[str, Any]:
    hidden = c.int_("hidden_size", "n_embd", "d_model")
    heads = c.int_("num_attention_heads", "n_head")
    kv_heads = c.int_("num_key_value_heads", default=heads)
    head_dim = c.get("head_dim")
    if head_dim is None:
        if hidden % heads:
            raise InputError(
                f"{c.where}: hidden_size {hidden} is not divisible by num_attention_heads {heads}; "
                "add 'head_dim' to the config"
            )
        head_dim = hidden // heads
    return {
        "n_layers": c.int_("num_hidden_layers", "n_layer"),
        "hidden_size": hidden,
        "n_heads": heads,
        "n_kv_heads": kv_heads,
        "head_dim": int(head_dim),
        "intermediate_size": c.int_("intermediate_size", "ffn_hidden_size"),
        "vocab_size": c.int_("vocab_size"),
        "tied_embeddings": c.bool_("tie_word_embeddings"),
        "max_context": c.int_("max_position_embeddings", "max_sequence_length", "seq_length"),
    }


def _dense(c: _Cfg) -> dict[str, Any]:
    """llama, mistral, qwen2, qwen3, phi3: pre-norm decoder, gated SiLU MLP, 2 RMSNorms per layer."""
    out = _common(c)
    out["qkv_bias"] = True if c.family in ("qwen2", "qwen2_moe") else c.bool_("attention_bias")
    return out


def _moe_mixtral(c: _Cfg) -> dict[str, Any]:
    out = _dense(c)
    out.update(
        n_experts=c.int_("num_local_experts"),
        n_active_experts=c.int_("num_experts_per_tok"),
        moe_intermediate_size=out["intermediate_size"],
    )
    return out


def _phimoe(c: _Cfg) -> dict[str, Any]:
    """Phi-3.5-MoE: Mixtral-style experts, biased attention, LayerNorms with bias (4 vectors per layer)."""
    out = _moe_mixtral(c)
    out["norms_per_layer"] = 4
    return out


def _moe_qwen(c: _Cfg) -> dict[str, Any]:
    if c.get("mlp_only_layers"):
        raise InputError(
            f"{c.where}: 'mlp_only_layers' (dense layers between MoE layers) is not supported; "
            "use a config without it or --params-b"
        )
    step = c.int_("decoder_sparse_step", default=1)
    if step != 1:
        raise InputError(f"{c.where}: decoder_sparse_step {step} (MoE every {step} layers) is not supported")
    out = _dense(c)
    out.update(
        n_experts=c.int_("num_experts"),
        n_active_experts=c.int_("num_experts_per_tok"),
        moe_intermediate_size=c.int_("moe_intermediate_size"),
    )
    shared = c.get("shared_expert_intermediate_size")
    if shared:
        out.update(n_shared_experts=1, shared_expert_intermediate_size=int(shared))
    return out


def _gemma(c: _Cfg) -> dict[str, Any]:
    """Gemma: GeGLU (gated) MLP, tied head, 4 RMSNorms per layer (Gemma 2/3), local/global layers."""
    out = _common(c)
    out["tied_embeddings"] = c.bool_("tie_word_embeddings", True)
    if c.family != "gemma":
        out["norms_per_layer"] = 4
        window = c.get("sliding_window")
        if window:
            out["sliding_window"] = int(window)
            out["global_layer_every"] = _global_every(c, default=2 if c.family == "gemma2" else 6)
    return out


def _global_every(c: _Cfg, default: int) -> int:
    layer_types = c.get("layer_types")
    if isinstance(layer_types, list) and layer_types:
        n_global = sum(1 for t in layer_types if t == "full_attention")
        return max(1, round(len(layer_types) / n_global)) if n_global else len(layer_types)
    return c.int_("sliding_window_pattern", default=default)


def _deepseek(c: _Cfg) -> dict[str, Any]:
    """DeepSeek-V2/V3: MLA attention, first_k_dense_replace dense layers, routed + shared experts."""
    out = _common(c)
    v_head = c.int_("v_head_dim")
    out.update(
        head_dim=v_head,
        n_experts=c.int_("n_routed_experts"),
        n_active_experts=c.int_("num_experts_per_tok"),
        moe_intermediate_size=c.int_("moe_intermediate_size"),
        n_shared_experts=c.int_("n_shared_experts"),
        first_dense_layers=c.int_("first_k_dense_replace"),
        kv_lora_rank=c.int_("kv_lora_rank"),
        qk_rope_head_dim=c.int_("qk_rope_head_dim"),
        qk_nope_head_dim=c.int_("qk_nope_head_dim"),
        v_head_dim=v_head,
    )
    q_rank = c.get("q_lora_rank")
    if q_rank:
        out["q_lora_rank"] = int(q_rank)
    return out


def _falcon(c: _Cfg) -> dict[str, Any]:
    """Falcon: parallel attention/MLP, non-gated GELU MLP of 4h, LayerNorms with bias, MQA or GQA; q, k and v
    are one fused linear, `query_key_value` (huggingface/transformers
    src/transformers/models/falcon/modeling_falcon.py FalconAttention: out (2 x kv heads + heads) x head_dim
    in the new architecture, h + 2 x head_dim multi-query, 3h otherwise; read 2026-11-28)."""
    hidden = c.int_("hidden_size", "n_embd")
    heads = c.int_("num_attention_heads", "n_head")
    if c.bool_("new_decoder_architecture"):
        kv_heads = c.int_("num_kv_heads", "n_head_kv", default=heads)
        # two LayerNorms (ln_attn, ln_mlp), weight + bias each, unless num_ln_in_parallel_attn == 1
        norms = 2 if c.get("num_ln_in_parallel_attn") == 1 else 4
    else:
        kv_heads = 1 if c.bool_("multi_query", True) else heads
        norms = 2 if c.bool_("parallel_attn", True) else 4
    return {
        "n_layers": c.int_("num_hidden_layers", "n_layer"),
        "hidden_size": hidden,
        "n_heads": heads,
        "n_kv_heads": kv_heads,
        "head_dim": c.int_("head_dim", default=hidden // heads),
        "intermediate_size": c.int_("ffn_hidden_size", default=4 * hidden),
        "vocab_size": c.int_("vocab_size"),
        "tied_embeddings": c.bool_("tie_word_embeddings", True),
        "mlp_gated": False,
        "norms_per_layer": norms,
        "fused_qkv_proj": True,
        "max_context": c.int_("max_position_embeddings"),
    }


def _qwen_v1(c: _Cfg) -> dict[str, Any]:
    """Qwen (v1, remote code QWenLMHeadModel): fused c_attn with bias, full multi-head attention, SwiGLU
    MLP whose config `intermediate_size` is twice the width of w1/w2 (modeling_qwen.py QWenMLP:
    `ff_dim_in = config.intermediate_size // 2`), untied head, context `seq_length`. c_attn is q, k and v in
    one linear, `nn.Linear(hidden_size, 3 * projection_size)` (QWenAttention in the Qwen-1 remote code,
    huggingface.co/Qwen/Qwen-7B modeling_qwen.py; mirrored at undefdev/Qwen-7B-Chat modeling_qwen.py, read
    2026-11-28): fused_qkv_proj. w1 and w2 stay two linears."""
    hidden = c.int_("hidden_size")
    heads = c.int_("num_attention_heads")
    return {
        "n_layers": c.int_("num_hidden_layers"),
        "hidden_size": hidden,
        "n_heads": heads,
        "n_kv_heads": heads,
        "head_dim": c.int_("kv_channels", default=hidden // heads),
        "intermediate_size": c.int_("intermediate_size") // 2,
        "vocab_size": c.int_("vocab_size"),
        "tied_embeddings": c.bool_("tie_word_embeddings"),
        "qkv_bias": True,
        "fused_qkv_proj": True,
        "max_context": c.int_("seq_length", "max_position_embeddings"),
    }


def _phi3(c: _Cfg) -> dict[str, Any]:
    """Phi-3 / Phi-4 (Phi3ForCausalLM): a Llama-style layer whose q/k/v and gate/up are one fused linear each
    (transformers modeling_phi3.py Phi3Attention.qkv_proj, Phi3MLP.gate_up_proj)."""
    return {**_dense(c), "fused_qkv_proj": True, "fused_gate_up_proj": True}


_BUILDERS: dict[str, Callable[[_Cfg], dict[str, Any]]] = {
    "qwen": _qwen_v1,
    "llama": _dense,
    "mistral": _dense,
    "qwen2": _dense,
    "qwen3": _dense,
    "phi3": _phi3,
    "mixtral": _moe_mixtral,
    "phimoe": _phimoe,
    "qwen2_moe": _moe_qwen,
    "qwen3_moe": _moe_qwen,
    "gemma": _gemma,
    "gemma2": _gemma,
    "gemma3_text": _gemma,
    "deepseek_v2": _deepseek,
    "deepseek_v3": _deepseek,
    "falcon": _falcon,
}


def _read(path: Path) -> tuple[dict[str, Any], str]:
    if path.is_dir():
        path = path / "config.json"
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{where}: file not found; pass the path of a Hugging Face config.json") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{where}: cannot read ({exc}); pass a Hugging Face config.json") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where}: not valid JSON ({exc.msg} at line {exc.lineno}); pass a Hugging Face config.json"
        ) from None
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a JSON object; pass a Hugging Face config.json")
    return data, where


def arch_from_hf_config(
    path_or_dict: str | Path | Mapping[str, Any],
    *,
    model_id: str | None = None,
    as_of: dt.date | None = None,
) -> ModelArch:
    """The ModelArch described by a Hugging Face config.json (a path, a model folder, or the parsed dict).

    Raises InputError (one line) for unreadable or invalid JSON, an unsupported `model_type`, or a
    missing/invalid field. `model_id` defaults to the config's `_name_or_path`, else the model folder's
    name (for a file named config.json) or the file's stem.
    `as_of` defaults to the file's modification date (today for a dict).
    """
    if isinstance(path_or_dict, Mapping):
        raw: dict[str, Any] = dict(path_or_dict)
        where = "config.json"
        source = "user config.json (dict)"
        default_id = str(raw.get("_name_or_path") or "")
        date = as_of or dt.date.today()
    else:
        path = Path(path_or_dict).expanduser()
        raw, where = _read(path)
        source = f"user config.json: {where}"
        # a model folder names the model ('.../Meta-Llama-3-8B/config.json'); otherwise the file does
        file = Path(where)
        label = file.parent.name if file.name == "config.json" else file.stem
        default_id = str(raw.get("_name_or_path") or label or "")
        date = as_of or dt.date.fromtimestamp(Path(where).stat().st_mtime)

    model_type = str(raw.get("model_type") or "").strip()
    family = _ALIASES.get(model_type.lower(), model_type.lower())
    if family == "gemma3_text" and isinstance(raw.get("text_config"), Mapping):
        # multimodal Gemma 3: the language model is described in text_config
        raw = {**{k: v for k, v in raw.items() if k != "text_config"}, **raw["text_config"]}
    builder = _BUILDERS.get(family)
    if builder is None:
        shown = f"'{model_type}'" if model_type else "missing"
        raise InputError(
            f"{where}: model_type {shown} is not supported; supported: {', '.join(SUPPORTED_MODEL_TYPES)} "
            "(or give --model ID / --params-b N)"
        )
    fields = builder(_Cfg(raw, family, where))
    if fields["n_kv_heads"] > 0 and fields["n_heads"] % fields["n_kv_heads"]:
        raise InputError(
            f"{where}: num_key_value_heads {fields['n_kv_heads']} does not divide "
            f"num_attention_heads {fields['n_heads']}; check the config.json"
        )
    arch_list = raw.get("architectures")
    hf_arch = str(arch_list[0]) if isinstance(arch_list, list) and arch_list else ""
    mid = model_id or default_id.rstrip("/").rsplit("/", 1)[-1] or f"custom-{family}"
    try:
        return ModelArch(
            id=mid,
            name=model_id or default_id or mid,
            family="gemma3" if family == "gemma3_text" else family,
            hf_architecture=hf_arch,
            source=source,
            as_of=date,
            **fields,
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise InputError(f"{where}: field '{loc}': {err['msg']}; check the config.json") from None


def hf_config_from_arch(arch: ModelArch) -> dict[str, Any]:
    """A config.json dict for a catalog ModelArch (inverse of arch_from_hf_config for its families).

    Used to check the round trip and to hand a catalog model to tools that read Hugging Face configs.
    """
    family = _ALIASES.get(arch.family, arch.family)
    family = family if family in _BUILDERS else "llama"
    cfg: dict[str, Any] = {
        "model_type": family,
        "architectures": [arch.hf_architecture] if arch.hf_architecture else [],
        "_name_or_path": arch.id,
        "num_hidden_layers": arch.n_layers,
        "hidden_size": arch.hidden_size,
        "num_attention_heads": arch.n_heads,
        "num_key_value_heads": arch.n_kv_heads,
        "head_dim": arch.head_dim,
        "intermediate_size": arch.intermediate_size,
        "vocab_size": arch.vocab_size,
        "tie_word_embeddings": arch.tied_embeddings,
        "max_position_embeddings": arch.max_context,
        "attention_bias": arch.qkv_bias,
    }
    if family == "qwen":  # v1 keys: intermediate_size is 2x the MLP width, context in seq_length
        cfg.update(
            intermediate_size=2 * arch.intermediate_size,
            seq_length=arch.max_context,
            kv_channels=arch.head_dim,
        )
    if family in ("mixtral", "phimoe"):
        cfg.update(num_local_experts=arch.n_experts, num_experts_per_tok=arch.n_active_experts)
    elif family in ("qwen2_moe", "qwen3_moe"):
        cfg.update(
            num_experts=arch.n_experts,
            num_experts_per_tok=arch.n_active_experts,
            moe_intermediate_size=arch.moe_intermediate_size,
        )
        if arch.shared_expert_intermediate_size:
            cfg["shared_expert_intermediate_size"] = arch.shared_expert_intermediate_size
    elif family in ("gemma2", "gemma3_text"):
        if arch.sliding_window:
            cfg.update(sliding_window=arch.sliding_window, sliding_window_pattern=arch.global_layer_every)
    elif family.startswith("deepseek"):
        cfg.update(
            n_routed_experts=arch.n_experts,
            num_experts_per_tok=arch.n_active_experts,
            moe_intermediate_size=arch.moe_intermediate_size,
            n_shared_experts=arch.n_shared_experts,
            first_k_dense_replace=arch.first_dense_layers,
            q_lora_rank=arch.q_lora_rank,
            kv_lora_rank=arch.kv_lora_rank,
            qk_rope_head_dim=arch.qk_rope_head_dim,
            qk_nope_head_dim=arch.qk_nope_head_dim,
            v_head_dim=arch.v_head_dim,
        )
    elif family == "falcon":
        cfg.update(
            ffn_hidden_size=arch.intermediate_size,
            new_decoder_architecture=arch.n_kv_heads > 1,
            num_kv_heads=arch.n_kv_heads,
            multi_query=arch.n_kv_heads == 1,
        )
    return cfg
