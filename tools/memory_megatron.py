"""Megatron-core layer memory: the fused SwiGLU, Transformer Engine FP8 linears, FP8 primary weights and
the dtype of Megatron's persistent gradient buffer (issue 15).

- Fused SwiGLU (FrameworkMemoryDefaults.fused_swiglu; the megatron/nemo preset). Megatron-core's MLP runs
  `bias_swiglu_impl` when `bias_activation_fusion` is on with a gated SiLU
  (megatron/core/transformer/mlp.py); its autograd function keeps only its input, the fc1 output, and
  recomputes SiLU in the backward (megatron/core/fusions/fused_bias_swiglu.py SwiGLUFunction:
  `ctx.save_for_backward(input_for_backward)`). Megatron-LM turns the fusion on by default
  (`--no-bias-swiglu-fusion` turns it off) and Megatron-Bridge's Llama providers set
  `bias_activation_fusion = True`. The layer keeps the fc1 output (gate and up, 2 x 2f B) and the fc2
  input (2f B): 6f bytes per token, where transformers' unfused MLP keeps gate, up, SiLU(gate) and the
  product (8f, tools.memory_activations.mlp_bytes_per_token).
- FP8 linears (`fp8_linears`: Transformer Engine `fp8_autocast`, Megatron `--fp8`). Each TE linear
  quantises its input for the FP8 GEMM and saves that quantised copy for the weight gradient
  (transformer_engine/pytorch/module/linear.py `saved_inputmat`; layernorm_linear.py writes the norm
  output straight to FP8): 1 B per input value. So the q/k/v projections' and fc1's input (the norm
  outputs, h wide) and fc2's input (f wide) cost 1 B instead of 2; the attention output that o_proj takes
  is still kept in 16 bits by the attention itself (FlashAttention saves its output for the backward), so
  o_proj's FP8 copy is one more byte per value. Selective recompute of the attention core (Megatron's
  `recompute_modules=[core_attn]`) would drop that 16-bit output; it is not a calculator input (the figure
  counts it). Dense models in full training only.
- FP8 primary weights (`fp8_params`: Megatron `--fp8-param-gather`, TE `fp8_model_init`; set by
  Megatron-Bridge's FP8 mixed-precision recipes, megatron/bridge/training/mixed_precision.py
  bf16_with_fp8_current_scaling_mixed `fp8_param_gather = True`): the layers' linear weights are stored in
  FP8 (1 B), embeddings, head and norms in bf16 (tools.memory_states.stored_weight_bytes 'fp8'); the fp32
  master stays with the optimizer. FP8 weight transposes are made per use (the transpose cache off, as
  Megatron-Bridge's perf configs set `disable_parameter_transpose_cache`); a cached transpose, or TE's
  per-micro-batch FP8 weight copy in a run with bf16 weights, is not counted.
- The gradient buffer's dtype (`grad_reduce_in_fp32`, Megatron's `DistributedDataParallelConfig` field).
  Megatron-LM forces it on under bf16 (accumulate_allreduce_grads_in_fp32); off, the persistent buffer
  holds bf16 gradients and the optimizer makes an fp32 copy of its shard's gradients for the step
  (megatron/core/optimizer/optimizer.py `_copy_model_grads_to_main_grads`: `main_param.grad =
  model_param.main_grad.float()`, a real copy only when the buffer is not fp32; the distributed optimizer
  does the same per shard).
"""

from __future__ import annotations

from typing import Final

from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.memory_types import Plan
from tools.trace import TraceBuilder

FUSED_SWIGLU_SOURCE: Final = (
    "Megatron-LM megatron/core/fusions/fused_bias_swiglu.py SwiGLUFunction saves only its input; "
    "megatron/core/transformer/mlp.py bias_swiglu_impl under bias_activation_fusion (read 2026-11-29)"
)
FP8_LINEAR_SOURCE: Final = (
    "TransformerEngine pytorch/module/linear.py and layernorm_linear.py: the FP8-quantised input is saved "
    "for the weight gradient (read 2026-11-29)"
)
FP8_SAVED_INPUT_BYTES: Final = 1.0
"""An FP8 (E4M3) value: what a TE linear keeps per input value for its weight gradient."""
FP32_GRAD_COPY_BYTES: Final = 4.0
"""The fp32 copy of a bf16 gradient the Megatron optimizer makes for its step."""


def _mlp_widths(arch: ModelArch) -> float:
    """The MLP's intermediate width a token visits: f (dense), or the routed experts' and shared experts'."""
    if not arch.is_moe:
        return float(arch.intermediate_size)
    active = arch.n_active_experts or arch.n_experts or 1
    shared = arch.shared_expert_intermediate_size or (
        (arch.moe_intermediate_size or 0) * arch.n_shared_experts if arch.n_shared_experts else 0
    )
    return float(active * (arch.moe_intermediate_size or 0) + shared)


def check_fp8(plan: Plan) -> None:
    """One-line InputError where the FP8 options are asked of a set-up they are not modelled for."""
    if plan.fp8_params and not plan.fp8_linears:
        raise InputError(
            "fp8-params needs fp8-linears (FP8 primary weights are a Transformer Engine FP8 run)"
        )
    if (plan.fp8_linears or plan.fp8_params) and not plan.full_training:
        raise InputError("fp8-linears / fp8-params are modelled for full training and pretraining only")
    if plan.fp8_linears and plan.arch.is_moe:
        raise InputError("fp8-linears is modelled for dense models only: leave it off for a MoE model")


def layer_delta_bytes_per_token(plan: Plan, tb: TraceBuilder) -> float:
    """Change to one layer's stored bytes per token (tools.memory_activations) from Megatron's fused SwiGLU
    and from FP8 linears (module docstring); 0 when neither applies."""
    arch = plan.arch
    delta = 0.0
    if plan.fused_swiglu and arch.mlp_gated:
        delta -= tb.step(
            "fused_swiglu_saving",
            "2 B x f (the fused SwiGLU keeps its input, not SiLU(gate) beside it)",
            2.0 * _mlp_widths(arch),
            "B/token",
            source=FUSED_SWIGLU_SOURCE,
        )
    if plan.fp8_linears:
        h = float(arch.hidden_size)
        o_in = float(arch.attention_linears()["o_proj"][0])
        saved = (2.0 - FP8_SAVED_INPUT_BYTES) * (2 * h + _mlp_widths(arch))
        delta += tb.step(
            "fp8_linear_inputs_delta",
            "-(2 - 1) B x (h q/k/v input + h fc1 input + f fc2 input) + 1 B x o_proj input (its FP8 copy "
            "beside the attention's 16-bit output)",
            FP8_SAVED_INPUT_BYTES * o_in - saved,
            "B/token",
            source=FP8_LINEAR_SOURCE,
        )
    return delta


def step_grad_copy_bytes(
    plan: Plan, trainable: int, split: float, persistent: bool, tb: TraceBuilder
) -> float:
    """The fp32 copy of the step's gradients a Megatron optimizer makes from a bf16 gradient buffer
    (module docstring), bytes per GPU; 0 with an fp32 buffer or without Megatron's buffer."""
    if not persistent or plan.grad_reduce_in_fp32 or not plan.mixed:
        return 0.0
    return tb.step(
        "megatron_fp32_grad_copy",
        "trained params x 4 B x stage_fraction / tp / shard_o (main_grad.float() for the step)",
        trainable * FP32_GRAD_COPY_BYTES * split / plan.shard("optimizer"),
        "B",
        "Megatron-LM megatron/core/optimizer/optimizer.py _copy_model_grads_to_main_grads",
        shard_o=plan.shard("optimizer"),
    )


__all__ = [
    "FP8_SAVED_INPUT_BYTES",
    "FUSED_SWIGLU_SOURCE",
    "check_fp8",
    "layer_delta_bytes_per_token",
    "step_grad_copy_bytes",
]
