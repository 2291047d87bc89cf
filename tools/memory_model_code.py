"""Whose layer code a run executes, for the per-layer activation extras (issue 15).

tools.memory_activations.LAYER_EXTRA_H_BYTES holds what transformers' decoder layers keep beyond the
Korthikanti et al. 2022 count (RMSNorm's fp32 input copy, the attention output kept twice, the fp32 residual
under AMP, peft's casts), measured on HF modelling code with the fake-tensor simulator. A model written in
plain torch keeps only what its own ops save: rasbt/LLMs-from-scratch's GPTModel (ch05/10_llm-training-speed,
01_opt_single_gpu.py, stored 7bd26314) uses nn.LayerNorm on bf16 tensors (no fp32 copy), nn.Linear, GELU and
scaled_dot_product_attention, the layer Korthikanti et al. count. 'plain' drops the HF extras; 'hf' keeps
them; None takes the framework preset's (tools.memory_frameworks hf_layer_extras).
"""

from __future__ import annotations

from typing import Final

from tools.errors import InputError

MODEL_CODES: Final[tuple[str, ...]] = ("hf", "plain")


def model_code_extras(model_code: str | None, preset_extras: bool) -> bool:
    """Whether the layer keeps transformers' extras: the preset's answer unless `model_code` says."""
    if model_code is None:
        return preset_extras
    if model_code not in MODEL_CODES:
        raise InputError(f"model_code must be one of {', '.join(MODEL_CODES)} (got {model_code!r})")
    return model_code == "hf"
