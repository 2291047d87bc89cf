"""Memory defaults of each training framework, as the framework ships them (issue 15).

`--framework NAME` (tools.vocabulary.FRAMEWORKS) presets the memory options a run of that stack uses
unless the caller sets them: the optimizer implementation (its step temporaries), the loss (chunked or
not), LoRA dropout, activation offloading, the optimizer step in backward, and whether mixed precision
is torch AMP (an fp32 model under autocast: fp32 weights, gradients and residual stream, bf16 weight
copies cached for the forward) or a ZeRO-style split (16-bit compute weights, fp32 master in the
optimizer). Each preset names its source. Explicit flags override every preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tools.errors import InputError
from tools.vocabulary import FRAMEWORK_DEFAULT, FRAMEWORKS, Framework

OPTIMIZER_IMPLS: Final[tuple[str, ...]] = ("foreach", "fused", "for-loop")
"""torch.optim implementations: foreach (multi-tensor; the default of a plain torch.optim.AdamW on CUDA),
fused (one CUDA kernel, no temporaries), for-loop (one parameter at a time)."""

LOSS_IMPLS: Final[tuple[str, ...]] = (
    "shift-labels",
    "shift-logits",
    "shift-logits-downcast",
    "vocab-parallel",
    "fused-linear",
)
"""How the model's unchunked fp32 loss holds the logits (tools.memory_activations._logits_bytes):
shift-labels (transformers' ForCausalLMLoss once it shifts the labels: the bf16 logits, their fp32 upcast),
shift-logits (transformers' Llama before that: fp32 logits, whose bf16 original is freed, and a shifted
contiguous copy when the batch has more than one sequence), shift-logits-downcast (ChatGLM2/3 and GLM-4
remote code: the same, and the fp32 logits cast back to 16-bit for the output while the log-softmax is
live), vocab-parallel (Megatron-core's VocabParallelCrossEntropy, fused or not: labels shifted by the data
loader, the fp32 upcast exponentiated in place and saved as the softmax, whose gradient is made in place),
fused-linear (the loss fused into the LM head's matmul, no logits tensor: Cut Cross-Entropy, axolotl's
CutCrossEntropyPlugin; Liger-Kernel's fused linear cross-entropy; tools.memory_fused_loss).
"""
LOSS_IMPL_DEFAULT: Final = "shift-labels"

MEMORY_BASES: Final[tuple[str, ...]] = ("reserved", "allocated")
"""reserved: what the GPU shows as used by the process (nvidia-smi): tensors + the caching allocator's
reserve + the CUDA context (+ NCCL). allocated: tensors only (torch.cuda.max_memory_allocated)."""
MEMORY_BASIS_DEFAULT: Final = "reserved"
"""What a buyer's nvidia-smi shows, so what must fit the card."""


@dataclass(frozen=True)
class FrameworkMemoryDefaults:
    """The memory options one framework uses unless told otherwise."""

    optimizer_impl: str
    loss_chunking: bool
    lora_dropout: float
    activation_offloading: bool
    optimizer_in_backward: bool
    amp: bool
    """Mixed precision as torch AMP (fp32 model + autocast) rather than 16-bit weights + fp32 master."""
    source: str
    loss_impl: str = "shift-labels"
    """The unchunked loss's implementation (LOSS_IMPLS) the stack's models use."""
    persistent_fp32_grads: bool = False
    """Gradients of the trained parameters live in one fp32 buffer allocated when the model is wrapped and
    zeroed, never freed, between steps (Megatron-core DistributedDataParallel's param_and_grad_buffer; bf16
    forces accumulate_allreduce_grads_in_fp32): 4 B per trained parameter in every phase, not 2 B from the
    backward on. The distributed optimizer shards the master and states, not this buffer. Its dtype is the
    `grad_reduce_in_fp32` option (Megatron's name; this preset value unless given): off, bf16 gradients."""
    fused_swiglu: bool = False
    """The gated MLP runs a fused SwiGLU that keeps only its input (Megatron-core, tools.memory_megatron)."""
    fp8_linears: bool = False
    """Linears in FP8 (Transformer Engine): off in every preset, a run's choice (tools.memory_megatron)."""
    fp8_params: bool = False
    """FP8 primary weights (Megatron fp8_param_gather): off in every preset (tools.memory_megatron)."""
    ddp_bucket_copies: bool = False
    """Data parallelism is torch DistributedDataParallel with gradient_as_bucket_view False (its default, kept
    by accelerate's DistributedDataParallelKwargs and Lightning's DDPStrategy): the reducer allocates its
    all-reduce buckets when the model is wrapped, a second copy of every trained gradient, live all step
    (torch/nn/parallel/distributed.py docstring: bucket views save 'the total gradients size')."""
    hf_layer_extras: bool = True
    """The model code is transformers' (tools.memory_activations.LAYER_EXTRA_H_BYTES: RMSNorm's fp32 input
    copy, the attention output kept twice, peft's casts, measured on HF modelling code); False for
    Megatron-core, whose layers keep what Korthikanti et al. 2022 count (that paper's model is Megatron's
    own GPT layer)."""
    fsdp_root_holds_embeddings: bool = True
    """Under FSDP the input embedding and LM head belong to the root unit (only decoder layers are wrapped:
    accelerate's TRANSFORMER_BASED_WRAP, torchtitan's apply_fsdp), so they stay gathered from the forward to
    the backward (tools.memory_states.FSDP_ROOT_STAYS_UNSHARDED); False where the stack shards them as their
    own units (torchtune's custom_sharded_layers ['tok_embeddings', 'output'])."""
    lora_fp32_adapters: bool = False
    """peft keeps the LoRA adapters fp32 on a 16-bit base (get_peft_model autocast_adapter_dtype=True;
    tools.memory_lora: applies to pure-bf16 training only, not under autocast)."""
    fp32_unquantized: bool = False
    """A 4/8-bit base's other parameters are fp32 (torch_dtype float32, or peft's
    prepare_model_for_kbit_training cast; tools.memory_quant)."""
    quant_saves_input: bool = False
    """bitsandbytes' 4-bit matmul keeps each quantised linear's 16-bit input (tools.memory_quant)."""
    returns_kv_cache: bool = False
    """The training forward runs with use_cache=True and returns each layer's K/V (tools.memory_use_cache)."""
    loss_upcast: bool = True
    """The loss upcasts the logits to fp32 (transformers ForCausalLMLoss; autocast's fp32 cross_entropy)."""
    fsdp_limit_all_gathers: bool = True
    """FSDP1's limit_all_gathers (torch's default True since PR #104900; tools.memory_fsdp)."""


_HF = FrameworkMemoryDefaults(
    ddp_bucket_copies=True,
    lora_fp32_adapters=True,
    optimizer_impl="fused",
    loss_chunking=False,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=True,
    source=(
        "transformers TrainingArguments: optim defaults to adamw_torch_fused on torch >= 2.8 "
        "(training_args.py, transformers 5.x); loss ForCausalLMLoss (fp32 logits); peft LoraConfig "
        "lora_dropout=0.0; bf16=True autocasts an fp32 model (AMP); peft get_peft_model(..., "
        "autocast_adapter_dtype=True) keeps LoRA adapters fp32 on a 16-bit base (huggingface/peft PR #1706, "
        "2024-05; peft troubleshooting guide: since v0.11.0), which costs fp32 input copies only without "
        "autocast (pure-bf16)"
    ),
)
_TORCHTUNE = FrameworkMemoryDefaults(
    optimizer_impl="fused",
    loss_chunking=True,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=False,
    source=(
        "pytorch/torchtune recipes/configs/llama3_1/8B_lora_single_device.yaml: torch.optim.AdamW "
        "fused: True, loss CEWithChunkedOutputLoss, lora_dropout 0.0, enable_activation_offloading False, "
        "dtype bf16; distributed configs shard tok_embeddings and output as their own FSDP units "
        "(custom_sharded_layers)"
    ),
    fsdp_root_holds_embeddings=False,
)
_MEGATRON = FrameworkMemoryDefaults(
    optimizer_impl="fused",
    loss_chunking=False,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=False,
    source=(
        "Megatron-LM / NeMo distributed optimizer: Apex/TE FusedAdam, bf16 params + fp32 main; "
        "megatron/training/arguments.py: bf16 sets accumulate_allreduce_grads_in_fp32 (fp32 grad buffer, "
        "core/distributed/param_and_grad_buffer.py); loss core/tensor_parallel/cross_entropy.py "
        "VocabParallelCrossEntropy (calculate_logits_max: .float(); exp in place; softmax saved); "
        "bias_activation_fusion on (fused SwiGLU: megatron/core/fusions/fused_bias_swiglu.py)"
    ),
    loss_impl="vocab-parallel",
    persistent_fp32_grads=True,
    hf_layer_extras=False,
    fused_swiglu=True,
)
_DEEPSPEED = FrameworkMemoryDefaults(
    optimizer_impl="fused",
    loss_chunking=False,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=False,
    source="DeepSpeed: FusedAdam (ops/adam/fused_adam.py) on 16-bit params with an fp32 master partition",
)
_TORCHTITAN = FrameworkMemoryDefaults(
    optimizer_impl="fused",
    loss_chunking=False,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=False,
    source="torchtitan job config: optimizer.implementation 'fused'; FSDP2 MixedPrecisionPolicy bf16",
)
_UNSLOTH = FrameworkMemoryDefaults(
    ddp_bucket_copies=True,
    optimizer_impl="fused",
    loss_chunking=True,
    lora_dropout=0.0,
    activation_offloading=True,
    optimizer_in_backward=False,
    amp=True,
    source=(
        "unsloth: fused chunked cross-entropy kernel, 'unsloth' gradient checkpointing offloads the "
        "checkpointed layer inputs to CPU; LoRA dropout 0 in its notebooks; HF Trainer underneath"
    ),
)

FRAMEWORK_MEMORY_DEFAULTS: Final[dict[str, FrameworkMemoryDefaults]] = {
    "hf": _HF,
    "axolotl": _HF,  # HF Trainer underneath (axolotl passes optimizer/loss through TrainingArguments)
    "llama-factory": _HF,  # HF Trainer underneath (LLaMA-Factory's finetuning_args keep its defaults)
    "unsloth": _UNSLOTH,
    "torchtune": _TORCHTUNE,
    "torchtitan": _TORCHTITAN,
    "deepspeed": _DEEPSPEED,
    "megatron": _MEGATRON,
    "nemo": _MEGATRON,
}
"""One preset per tools.vocabulary.FRAMEWORKS name (tests/memory/test_frameworks.py checks the keys)."""


def framework_defaults(framework: str | None) -> FrameworkMemoryDefaults:
    """The preset of `framework` (None: FRAMEWORK_DEFAULT); one-line InputError for an unknown name."""
    name: str = framework or FRAMEWORK_DEFAULT
    if name not in FRAMEWORKS:
        raise InputError(f"unknown framework {name!r}: use one of {', '.join(FRAMEWORKS)}")
    return FRAMEWORK_MEMORY_DEFAULTS[name]


__all__ = [
    "FRAMEWORK_MEMORY_DEFAULTS",
    "LOSS_IMPLS",
    "LOSS_IMPL_DEFAULT",
    "MEMORY_BASES",
    "MEMORY_BASIS_DEFAULT",
    "OPTIMIZER_IMPLS",
    "Framework",
    "FrameworkMemoryDefaults",
    "framework_defaults",
]
