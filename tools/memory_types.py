"""Inputs and results of the memory calculator (tools.memory): the resolved plan the calculator works
from and the frozen result types (option names: tools.vocabulary). Memory in GiB (2**30 bytes)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tools.catalog.schema import ModelArch
from tools.trace import Traced
from tools.vocabulary import QUANTIZED

KV_CACHE_BYTES_PER_VALUE = 2.0
"""16-bit KV cache (vLLM kv_cache_dtype='auto' follows the model's 16-bit activation dtype)."""


@dataclass(frozen=True)
class Plan:
    """One validated configuration (tools.memory.estimate_memory builds it; local to one call)."""

    arch: ModelArch
    method: str
    precision: str
    training_precision: str
    optimizer: str
    lora_rank: int
    lora_targets: tuple[str, ...]
    seq_len: int
    batch_size: int
    grad_checkpointing: bool
    flash_attention: bool
    gpus: int
    sharding: str  # effective: "none" with several data-parallel ranks becomes "ddp"
    tp: int
    pp: int
    offload: str
    concurrency: int
    context_len: int
    loss_chunking: bool
    optimizer_in_backward: bool
    framework: str = "hf"
    optimizer_impl: str = "fused"
    lora_dropout: float = 0.0
    activation_offloading: bool = False
    amp_framework: bool = True
    memory_basis: str = "reserved"
    compiled_loss: bool = False
    """The loss is compiled with torch.compile (torchtune compile=True): a chunked loss then keeps bf16."""
    loss_upcast: bool = True
    """The loss upcasts the logits to fp32 (transformers ForCausalLMLoss, or autocast's fp32 cross_entropy);
    False: computed in the model's 16-bit dtype (remote code without .float() and no autocast)."""
    logits_held: bool = False
    """The training loop keeps the model's output (its logits) alive through the backward and the step, as
    `output = model(...); loss = output.loss; loss.backward()` does
    (tools.memory_activations.LOGITS_HELD_BYTES); HF Trainer and torchtune drop them before the backward."""
    hf_layer_extras: bool = True
    """The model code is transformers' (tools.memory_activations.LAYER_EXTRA_H_BYTES); False for a model
    written in plain torch (nn.LayerNorm, no fp32 norm copy) or Megatron-core's layers (the preset's value
    unless the caller sets `model_code`)."""
    returns_kv_cache: bool = False
    """The training forward runs with use_cache=True and returns every layer's K and V
    (tools.memory_use_cache): live at the end of the forward, and through the backward when logits_held."""
    kv_cache_bytes_per_value: float = KV_CACHE_BYTES_PER_VALUE
    """Serving: bytes per KV-cache value (2: 16-bit, the default; 1: FP8, vLLM --kv-cache-dtype fp8)."""
    grad_accumulation_steps: int = 1
    """Micro-batches per optimizer step. Above 1 the gradients of the earlier micro-batches stay live
    through the next micro-batch's forward, loss and backward (torch accumulates into `.grad`; the step and
    zero_grad run once per global batch, as LitGPT's finetune loops and HF Trainer do)."""
    variable_length: bool = False
    """Batches are padded to the longest sequence of each batch, so their length changes from step to step
    (swift 1.x's and HF's pad-to-longest collators; False: packed or padded to a fixed length). On the
    reserved basis the caching allocator keeps the earlier batches' logits blocks
    (tools.memory_phases.variable_length_reserve)."""
    lora_fused_qkv: bool = False
    """The adapted q, k and v projections are one fused linear with one LoRA dropout on its input (LitGPT's
    LoRAQKVLinear: `F.linear(self.lora_dropout(x), self.lora_A)` once for q, k and v): one dropout copy and
    mask for the three, where peft's separate q_proj / k_proj / v_proj layers each keep their own."""
    fp32_unquantized: bool = False
    """A 4/8-bit base whose non-quantised parameters are fp32 and whose forward runs without autocast: loaded
    with torch_dtype float32 (transformers keeps every module bitsandbytes does not replace in that dtype), or
    cast by peft's prepare_model_for_kbit_training ('cast all non INT8 parameters to fp32': every fp16/bf16
    parameter that is not a Params4bit). Embeddings, norms and LM head take 4 B/param; bitsandbytes'
    Linear4bit casts its input to the compute dtype and its output back to the input's dtype
    (`out.to(inp_dtype)`), so the residual stream, the attention and MLP tensors and the logits are fp32
    (tools.memory_quant)."""
    lora_fp32_adapters: bool = False
    """LoRA adapters kept in fp32 on a 16-bit base run without autocast (peft get_peft_model's default
    autocast_adapter_dtype=True): each adapted linear casts its input to fp32 before the dropout and lora_A
    (tools.memory_lora)."""
    quant_saves_input: bool = False
    """Each 4-bit linear keeps its 16-bit input for the backward (bitsandbytes MatMul4Bit.forward:
    `ctx.tensors = (A, B)` whenever an input needs a gradient), where a frozen 16-bit nn.Linear keeps none
    (tools.memory_quant.quant_saved_input_bytes_per_token)."""
    fsdp_limit_all_gathers: bool = True
    """FSDP1's all-gather rate limiter (torch's default on): off, every unit of the stage may be gathered at
    once (tools.memory_fsdp)."""
    fused_swiglu: bool = False
    """Megatron-core's fused SwiGLU keeps only its input (tools.memory_megatron; the framework preset's)."""
    fp8_linears: bool = False
    """The linears run FP8 GEMMs (Transformer Engine) and keep their inputs in FP8 (tools.memory_megatron)."""
    fp8_params: bool = False
    """The layers' linear weights are stored in FP8 (Megatron fp8_param_gather; tools.memory_megatron)."""
    grad_reduce_in_fp32: bool = True
    """Megatron's persistent gradient buffer is fp32 (off: bf16, with an fp32 copy for the step)."""
    loss_impl: str = "shift-labels"
    """Where the unchunked fp32 loss shifts (tools.memory_frameworks.LOSS_IMPLS): the labels (no logits copy),
    a contiguous copy of the logits, or that copy plus a 16-bit downcast of the output (GLM remote code)."""

    @property
    def amp(self) -> bool:
        """torch AMP full training: an fp32 model (weights, gradients, residual stream) under bf16
        autocast, as HF Trainer runs `bf16=True` on an fp32 model; unsharded or DDP only (ZeRO and FSDP
        keep 16-bit compute weights with an fp32 master in the optimizer partition)."""
        return self.amp_framework and self.full_training and self.mixed and self.sharding in ("none", "ddp")

    @property
    def dp(self) -> int:
        """Data-parallel ranks: gpus / (tp x pp)."""
        return self.gpus // (self.tp * self.pp)

    @property
    def training(self) -> bool:
        return self.method != "inference"

    @property
    def full_training(self) -> bool:
        return self.method in ("full", "pretraining")

    @property
    def adapters(self) -> bool:
        return self.method in ("lora", "qlora")

    @property
    def quantized(self) -> bool:
        return self.precision in QUANTIZED

    @property
    def mixed(self) -> bool:
        """Mixed precision: 16-bit weights with an fp32 master copy and fp32 optimizer states."""
        return self.training_precision == "mixed" and self.precision != "fp32"

    @property
    def tokens(self) -> int:
        """Tokens per micro-batch per data-parallel rank."""
        return self.batch_size * self.seq_len

    @property
    def layers_per_stage(self) -> int:
        """Layers on the pipeline stage holding the most: ceil(L / pp)."""
        return math.ceil(self.arch.n_layers / self.pp)

    def shard(self, what: Literal["weights", "gradients", "optimizer"]) -> int:
        """ZeRO partitioning (Rajbhandari et al. 2020, Section 5.1): stage 1 shards optimizer states over
        the data-parallel ranks, stage 2 also gradients, stage 3 / FSDP also weights."""
        stages = {
            "weights": ("zero3", "fsdp"),
            "gradients": ("zero2", "zero3", "fsdp"),
            "optimizer": ("zero1", "zero2", "zero3", "fsdp"),
        }
        return self.dp if self.sharding in stages[what] else 1


PEAK_PHASES: tuple[str, ...] = ("forward", "loss", "backward", "optimizer", "serving")
"""Where a step peaks: end of the forward (loss computed), the loss backward (logits gradient), the
backward through the layers (gradients accumulating, one layer recomputed), the optimizer step
(gradients + the optimizer's temporaries); inference serving has one phase."""


class MemoryBreakdown(BaseModel):
    """Per-GPU memory by component at the peak phase, GiB (2**30 bytes): what is live then."""

    model_config = ConfigDict(frozen=True)

    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    adapters: float
    overhead: float

    def total(self) -> float:
        """Sum of the lines: the per-GPU peak."""
        return (
            self.weights
            + self.gradients
            + self.optimizer
            + self.activations
            + self.kv_cache
            + self.adapters
            + self.overhead
        )


class MemoryEstimate(Traced):
    """Peak GPU memory of one configuration. All memory in GiB (2**30 bytes).

    `cuda_context_gib` (CUDA context + NCCL buffers) and `fragmentation_gib` (the caching allocator's
    reserve) together make the `overhead` line on the reserved basis; on the allocated basis the line is
    0 and the peak is tensor memory only (both figures are still given); `cpu_offload_gib_per_gpu` is
    what offloading moved to host memory per rank;
    `paged_optimizer_gib` is the paged optimizer state that may spill to host under memory pressure.
    """

    peak_gib_per_gpu: float
    total_gib: float
    breakdown_gib: MemoryBreakdown
    cuda_context_gib: float
    fragmentation_gib: float
    releasable_reserve_gib: float = 0.0
    """The part of fragmentation_gib in whole cached segments, which the allocator frees for good on a card
    too small for the whole reserve (tools.memory_reserve.releasable_reserve, tools.memory_card)."""
    cpu_offload_gib_per_gpu: float
    paged_optimizer_gib: float
    gpus: int
    tp: int
    pp: int
    dp: int
    params: int
    trainable_params: int
    method: str
    model_id: str
    precision: str
    training_precision: str
    optimizer: str
    lora_rank: int | None
    lora_targets: tuple[str, ...]
    seq_len: int
    batch_size: int
    grad_checkpointing: bool
    flash_attention: bool
    sharding: str
    offload: str
    concurrency: int
    context_len: int
    loss_chunking: bool
    optimizer_in_backward: bool
    framework: str
    optimizer_impl: str
    lora_dropout: float
    activation_offloading: bool
    memory_basis: str
    variable_length: bool = False
    """Batches padded to their longest sample (Plan.variable_length): the reserve adds stale logits blocks."""
    peak_phase: str
    phase_peaks_gib: dict[str, float]
    """Tensor memory (allocated basis) at each phase's peak, GiB; the largest is the peak."""
    memory_options: dict[str, dict[str, object]] = {}
    """Per memory option (tools.memory_options): {"value": the value used, "source": "framework preset" or
    "flag"}."""

    def peak_allocated_gib(self) -> float:
        """Tensor memory at the peak: what PyTorch's max_memory_allocated() would show (either basis)."""
        return self.peak_gib_per_gpu - self.breakdown_gib.overhead

    def peak_without_context_gib(self) -> float:
        """Tensors + the allocator's reserve: what PyTorch's max_memory_reserved() would show."""
        return self.peak_allocated_gib() + self.fragmentation_gib

    def peak_reserved_gib(self) -> float:
        """Tensors + allocator reserve + CUDA context (+ NCCL): what nvidia-smi shows (either basis)."""
        return self.peak_without_context_gib() + self.cuda_context_gib
