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

LOSS_IMPLS: Final[tuple[str, ...]] = ("shift-labels", "shift-logits", "shift-logits-downcast")
"""How the model's unchunked fp32 loss holds the logits (tools.memory_activations._logits_bytes):
shift-labels (transformers' ForCausalLMLoss once it shifts the labels: the bf16 logits, their fp32 upcast),
shift-logits (transformers' Llama before that: fp32 logits, whose bf16 original is freed, and a shifted
contiguous copy when the batch has more than one sequence), shift-logits-downcast (ChatGLM2/3 and GLM-4
remote code: the same, and the fp32 logits cast back to 16-bit for the output while the log-softmax is
live)."""
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
    fsdp_root_holds_embeddings: bool = True
    """Under FSDP the input embedding and LM head belong to the root unit (only decoder layers are wrapped:
    accelerate's TRANSFORMER_BASED_WRAP, torchtitan's apply_fsdp), so they stay gathered from the forward to
    the backward (tools.memory_states.FSDP_ROOT_STAYS_UNSHARDED); False where the stack shards them as their
    own units (torchtune's custom_sharded_layers ['tok_embeddings', 'output'])."""


_HF = FrameworkMemoryDefaults(
    optimizer_impl="fused",
    loss_chunking=False,
    lora_dropout=0.0,
    activation_offloading=False,
    optimizer_in_backward=False,
    amp=True,
    source=(
        "transformers TrainingArguments: optim defaults to adamw_torch_fused on torch >= 2.8 "
        "(training_args.py, transformers 5.x); loss ForCausalLMLoss (fp32 logits); peft LoraConfig "
        "lora_dropout=0.0; bf16=True autocasts an fp32 model (AMP)"
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
    source="Megatron-LM / NeMo distributed optimizer: Apex/TE FusedAdam, bf16 params + fp32 main",
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
