"""Key/value states a training forward returns when the model runs with `use_cache=True` (issue 15).

transformers' decoder models build `past_key_values` whenever `use_cache` is on, and LlamaConfig (like most
configs) defaults `use_cache=True`; only transformers' own gradient checkpointing turns it off in training
(LlamaModel.forward, 4.3x: 'use_cache=True is incompatible with gradient checkpointing. Setting
use_cache=False'). A stack that checkpoints with torch's checkpoint_wrapper instead (FSDP
apply_activation_checkpointing, llama-recipes of mid-2023) or does not checkpoint at all, and does not pass
use_cache=False, gets every layer's K and V back from the forward: live at the end of the forward and, when
the loop holds the output (`outputs = model(**batch)`), through the backward and the step. Source:
meta-llama/llama-recipes PR #165 (awgu, 2023-09-05) 'Pass use_cache=False when training with FSDP': 'For
the LLaMA-7B run, this saves ~4 GB in activation memory and avoids peak memory from being at the end of the
forward pass' (4 GPUs, 4 x 2048 tokens: 2 x 32 layers x 8192 tokens x 4096 x 2 B = 4.0 GiB, this module).
"""

from __future__ import annotations

from tools.catalog.schema import ModelArch

KV_BYTES_PER_VALUE = 2
"""K and V are the 16-bit projection outputs (after rotary embedding for K) the attention already made."""


def returned_kv_bytes(arch: ModelArch, tokens: int, tp: int = 1) -> float:
    """Bytes per GPU of the K and V every layer returns as past_key_values for `tokens` tokens (micro-batch x
    sequence), split over `tp` tensor-parallel ranks: 2 x layers x tokens x kv_heads x head_dim x 2 B."""
    width = arch.n_kv_heads * arch.head_dim
    return 2.0 * arch.n_layers * tokens * width * KV_BYTES_PER_VALUE / max(1, tp)
