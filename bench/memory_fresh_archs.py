"""Architectures of fresh-set models that are neither catalog models nor tools.memory_calibration rows.

bench/accuracy_fresh_memory.py used to build these as Llama-like shapes from the parameter count alone
(tools.catalog.synthetic: 128,256-token vocabulary, 8 KV heads), which is wrong for each of them: Mistral
7B v0.1/v0.2 and TinyLlama have a 32,000-token vocabulary (4x fewer logits), Yi-34B 60 layers of width
7168. Each is transcribed from the model's Hugging Face config.json (source on the record); the parameter
count each implies is checked against the published one in tests/bench_data/test_memory_fresh_archs.py.
Looked up by Hugging Face id or by name (`fresh_arch`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from tools.catalog.schema import ModelArch

_AS_OF = dt.date(2026, 11, 27)


def _arch(id: str, name: str, aliases: tuple[str, ...], source: str, **fields: Any) -> ModelArch:
    return ModelArch(
        id=id, name=name, family=fields.pop("family", "llama"), aliases=aliases, source=source,
        as_of=_AS_OF, **fields,
    )  # fmt: skip


MISTRAL_7B_V01 = _arch(
    "mistral-7b-v0.1", "Mistral 7B v0.1", ("mistralai/Mistral-7B-v0.1", "Mistral 7B v0.1"),
    "huggingface.co/mistralai/Mistral-7B-v0.1 config.json (MistralForCausalLM: hidden 4096, 32 layers, "
    "32 heads, 8 KV heads, intermediate 14336, vocab 32000, sliding_window 4096); 7.24B",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=32000, max_context=32768,
    published_params_b=7.24,
)  # fmt: skip
MISTRAL_7B_V02 = _arch(
    "mistral-7b-v0.2", "Mistral 7B v0.2",
    ("mistral-community/Mistral-7B-v0.2", "unsloth/Mistral-7B-v0.2", "Mistral 7B v0.2",
     "Mistral 7B v0.2 Base"),
    "huggingface.co/mistral-community/Mistral-7B-v0.2 config.json (the v0.2 base weights; the same shapes as "
    "v0.1 with rope_theta 1e6 and no sliding window: 32k context); 7.24B",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=32000, max_context=32768,
    published_params_b=7.24,
)  # fmt: skip
YI_34B = _arch(
    "yi-34b", "Yi 34B", ("01-ai/Yi-34B", "Yi 34B", "Yi-34B"),
    "huggingface.co/01-ai/Yi-34B config.json (LlamaForCausalLM: hidden 7168, 60 layers, 56 heads, 8 KV "
    "heads, intermediate 20480, vocab 64000, max_position_embeddings 4096); 34.39B",
    family="yi", hf_architecture="LlamaForCausalLM", n_layers=60, hidden_size=7168, n_heads=56,
    n_kv_heads=8, head_dim=128, intermediate_size=20480, vocab_size=64000, max_context=4096,
    published_params_b=34.39,
)  # fmt: skip
TINYLLAMA_1B = _arch(
    "tinyllama-1.1b", "TinyLlama 1.1B",
    ("TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T", "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
     "TinyLlama 1.1B"),
    "huggingface.co/TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json (LlamaForCausalLM: "
    "hidden 2048, 22 layers, 32 heads, 4 KV heads, intermediate 5632, vocab 32000); 1.10B",
    hf_architecture="LlamaForCausalLM", n_layers=22, hidden_size=2048, n_heads=32, n_kv_heads=4,
    head_dim=64, intermediate_size=5632, vocab_size=32000, max_context=2048, published_params_b=1.10,
)  # fmt: skip

FRESH_ARCHS: tuple[ModelArch, ...] = (MISTRAL_7B_V01, MISTRAL_7B_V02, YI_34B, TINYLLAMA_1B)


def fresh_arch(*keys: str | None) -> ModelArch | None:
    """The architecture whose id, name or an alias equals one of `keys` (case-insensitive; a name may
    carry a parenthesised suffix such as 'TinyLlama 1.1B (intermediate-step-1431k-3T)'), else None."""
    for key in keys:
        if not key:
            continue
        want = {key.strip().lower(), key.split("(")[0].strip().lower()}
        for arch in FRESH_ARCHS:
            names = {arch.id.lower(), arch.name.lower(), *(a.lower() for a in arch.aliases)}
            if want & names:
                return arch
    return None
