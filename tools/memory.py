"""Calculator 1: peak GPU memory of training (full, LoRA, QLoRA, pre-training) and inference.

Model of the peak, per GPU, in GiB (2**30 bytes), as a sum of named lines:

    peak = weights + gradients + optimizer + activations + kv_cache + adapters + overhead

- weights: the (frozen or trained) model in its storage precision, split by tensor (tp) and pipeline
  (pp) parallelism, sharded over data-parallel ranks by ZeRO-3/FSDP, plus the gathered layers ZeRO-3
  needs in flight.
- gradients / optimizer: full training only (ZeRO paper, Rajbhandari et al. 2020, Section 5: "mixed
  precision Adam = 2 + 2 + 12 bytes per parameter"); ZeRO-1 shards the optimizer, ZeRO-2 also the
  gradients, ZeRO-3/FSDP also the weights.
- adapters: LoRA/QLoRA adapter weights + their gradients + their optimizer states.
- activations: tools.memory_activations (Korthikanti et al. 2022 adapted to SwiGLU/GQA/MLA), the layer
  inputs kept by gradient checkpointing, the logits with their fp32 upcast and gradient, LoRA
  intermediates and QLoRA dequantisation buffers.
- kv_cache: inference, at concurrency x context (ModelArch.kv_cache_bytes: GQA, MLA, sliding windows).
- overhead: CUDA context + framework, NCCL buffers when several GPUs talk, and the caching allocator's
  fragmentation as a named fraction of the dynamic (activation) memory.

Why 16 bytes per parameter for mixed precision, not seed 001's 18: the common fine-tuning stacks
(Hugging Face Trainer/accelerate AMP, DeepSpeed ZeRO, PyTorch FSDP MixedPrecision) keep 16-bit weights
and gradients plus an fp32 master copy and fp32 Adam m and v = 2 + 2 + 4 + 4 + 4 = 16 B (ZeRO paper;
AMP keeps fp32 weights and gradients instead: 4 + 4 + 8 = 16 B too). 18 B is Megatron-LM's count,
which accumulates gradients in fp32 (2 + 4 + 12). `seed_rule_gb` keeps seed 001's 18 B rule for
comparisons.

Paged optimizers (paged-adamw-8bit) allocate their state in CUDA unified memory: the driver evicts
pages to host RAM only under memory pressure. The estimate counts the state as resident on the GPU
(what it uses when it fits); a GPU that is short of it by less than that state will page instead of
failing, at a speed cost (the result's `paged_optimizer_gib` says how much could spill).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.memory_activations import (
    ACTIVATION_BYTES,
    checkpoint_bytes_per_token,
    layer_bytes_per_token,
    lora_bytes_per_token,
    prefill_bytes_per_token,
)
from tools.trace import TraceBuilder, Traced
from tools.units import BYTES_PER_GB, bytes_to_gib

Method = Literal["full", "lora", "qlora", "pretraining", "inference"]
Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"]
TrainingPrecision = Literal["mixed", "pure-bf16"]
Optimizer = Literal["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"]
Sharding = Literal["none", "ddp", "zero1", "zero2", "zero3", "fsdp"]
Offload = Literal["none", "optimizer", "params"]

METHODS: tuple[str, ...] = ("full", "lora", "qlora", "pretraining", "inference")
PRECISIONS: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4")
TRAINING_PRECISIONS: tuple[str, ...] = ("mixed", "pure-bf16")
OPTIMIZERS: tuple[str, ...] = ("adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor")
SHARDINGS: tuple[str, ...] = ("none", "ddp", "zero1", "zero2", "zero3", "fsdp")
OFFLOADS: tuple[str, ...] = ("none", "optimizer", "params")
QUANTIZED: tuple[str, ...] = ("fp8", "int8", "int4", "nf4")

# --- named, sourced constants -------------------------------------------------------------------
NF4_BYTES_PER_PARAM = (4 + 0.127) / 8
"""NF4 with double quantisation: 4 bits + 0.127 bits of constants per weight (Dettmers et al. 2023,
QLoRA, Section 3: blocksize 64, fp8 second-level constants, blocksize 256) = 0.516 B."""
INT4_BYTES_PER_PARAM = (4 + (16 + 4) / 128) / 8
"""GPTQ/AWQ int4 with group size 128: one fp16 scale and one 4-bit zero point per 128 weights = 0.52 B."""
INT8_BYTES_PER_PARAM = 1.0
"""LLM.int8()/per-channel int8: 1 B plus one fp32 scale per output row (negligible)."""
FP8_BYTES_PER_PARAM = 1.0
"""FP8 (E4M3) weights with per-tensor or per-channel scales (negligible)."""
WEIGHT_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": FP8_BYTES_PER_PARAM,
    "int8": INT8_BYTES_PER_PARAM,
    "int4": INT4_BYTES_PER_PARAM,
    "nf4": NF4_BYTES_PER_PARAM,
}
UNQUANTIZED_BYTES = 2.0
"""Embeddings, lm_head and norms stay 16-bit under 4/8-bit quantisation (bitsandbytes and GPTQ quantise
only the transformer's linear layers)."""
FP32_MASTER_BYTES = 4.0
"""Mixed precision keeps an fp32 master copy of every trained 16-bit weight (ZeRO paper, Section 3.1)."""
ADAM_STATE_COUNT = 2
"""Adam/AdamW keeps two states per parameter, m and v (Loshchilov & Hutter 2019)."""
EIGHT_BIT_STATE_BYTES = 1.0 + 4 / 2048
"""bitsandbytes 8-bit optimizer state: 1 B per value plus one fp32 absmax per 2048-value block
(Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization)."""
LORA_ADAPTER_BYTES_MIXED = 4.0
"""PEFT keeps LoRA adapters in fp32 when the base is 16-bit (peft >= 0.12 autocast_adapter_dtype=True);
their gradients are fp32 too."""
LOGITS_BYTES_PER_VALUE = 2 + 4 + 4
"""Peak logits memory per (token, vocab) value: the bf16 lm_head output (2 B), its fp32 upcast for the
loss (4 B, transformers >= 4.45 `logits.float()`) and the fp32 gradient of the logits (4 B) during the
loss backward; the fp32 log-softmax saved by cross-entropy replaces the upcast once that is freed.
Checked against Qwen-7B LoRA memory rising ~2 GB per 1k tokens of a 152k vocabulary (Qwen README)."""
CHUNKED_LOSS_CHUNKS = 8
"""torchtune CEWithChunkedOutputLoss splits the logits into 8 chunks and upcasts one chunk at a time."""
LOGITS_BYTES_PER_VALUE_CHUNKED = 2 + 2 + (4 + 4) / CHUNKED_LOSS_CHUNKS
"""Chunked cross-entropy: bf16 logits and their bf16 gradient, plus one fp32 chunk and its gradient."""
KV_CACHE_BYTES_PER_VALUE = 2.0
"""16-bit KV cache (vLLM kv_cache_dtype='auto' follows the model's 16-bit activation dtype)."""
PREFILL_CHUNK_TOKENS = 8192
"""Inference prefill is processed in chunks of at most 8192 tokens (vLLM chunked prefill,
max_num_batched_tokens default for online serving)."""
CUDA_CONTEXT_GIB = 0.5
"""CUDA context, kernels and cuBLAS/cuDNN workspaces that the PyTorch allocator does not report: about
0.3-0.6 GiB with CUDA lazy loading on A100/H100 (PyTorch 'Understanding CUDA memory usage' notes;
estimators.md: 0.3-2 GiB)."""
NCCL_BUFFERS_GIB = 0.5
"""NCCL communicator buffers when more than one GPU takes part (NCCL_BUFFSIZE 4 MiB x channels x peers,
plus the DDP/FSDP bucket that is being reduced); ~0.3-1 GiB observed on 8-GPU nodes."""
ALLOCATOR_FRAGMENTATION_FRACTION = 0.10
"""PyTorch's caching allocator reserves more than it allocates: blocks of freed activations are split
and cached. Modelled as 10% of the dynamic memory (activations, gradients, adapter states); reserved vs
allocated in torchtune's and Qwen's measured runs is 5-15%."""
GATHERED_UNITS_IN_FLIGHT = 2
"""ZeRO-3/FSDP keep the current layer's gathered weights and prefetch the next one (FSDP forward/backward
prefetch; DeepSpeed stage3_prefetch_bucket_size)."""
SEED_001_BYTES_PER_PARAM: dict[str, float] = {
    "full": 18.0,
    "pretraining": 18.0,
    "lora": 2.0,
    "qlora": 0.5,
    "inference": 2.0,
}
SEED_001_ADAPTER_OVERHEAD_GB: dict[str, float] = {"lora": 9.0, "qlora": 12.0}
"""Seed 001's adapter overhead: LoRA '~6-12 GB' (midpoint 9), QLoRA '~5-15 GB' with 12 GB in its worked
example."""


class MemoryBreakdown(BaseModel):
    """Per-GPU peak memory by component, GiB (2**30 bytes)."""

    model_config = ConfigDict(frozen=True)

    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    adapters: float
    overhead: float

    def total(self) -> float:
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
    """Peak GPU memory of one configuration. All memory in GiB (2**30 bytes)."""

    peak_gib_per_gpu: float
    total_gib: float
    breakdown_gib: MemoryBreakdown
    cuda_context_gib: float
    fragmentation_gib: float
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

    def peak_without_context_gib(self) -> float:
        """Peak minus the CUDA context and NCCL buffers: what PyTorch's memory_reserved() would show."""
        return self.peak_gib_per_gpu - self.cuda_context_gib

    def peak_allocated_gib(self) -> float:
        """Peak minus all overhead: what PyTorch's max_memory_allocated() would show."""
        return self.peak_gib_per_gpu - self.breakdown_gib.overhead


def default_precision(method: str) -> str:
    """Weight precision when none is given: NF4 for QLoRA, bf16 otherwise."""
    return "nf4" if method == "qlora" else "bf16"


def _choose(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InputError(f"unknown {name} {value!r}: use one of {', '.join(allowed)}")
    return value


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a whole number >= 1 (got {value!r})")
    return value


def resolve_lora_targets(arch: ModelArch, targets: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Module names LoRA adapts: 'attention', 'all-linear', 'mlp', or explicit names (comma list)."""
    attention = tuple(arch.attention_linears())
    mlp_width = (
        arch.moe_intermediate_size if arch.is_moe and arch.moe_intermediate_size else arch.intermediate_size
    )
    mlp = tuple(arch.mlp_linears(mlp_width))
    if isinstance(targets, str):
        key = targets.strip().lower()
        if key == "attention":
            return attention
        if key in ("all-linear", "all_linear", "all"):
            return attention + mlp
        if key == "mlp":
            return mlp
        names = [t.strip() for t in targets.split(",") if t.strip()]
    else:
        names = [t.strip() for t in targets if t.strip()]
    aliases = {"output_proj": "o_proj", "w1": "gate_proj", "w3": "up_proj", "w2": "down_proj"}
    valid = attention + mlp
    out: list[str] = []
    for n in names:
        n = aliases.get(n, n)
        if n not in valid:
            raise InputError(
                f"unknown LoRA target {n!r} for {arch.id}: use attention, all-linear, mlp or names from "
                f"{', '.join(valid)}"
            )
        if n not in out:
            out.append(n)
    if not out:
        raise InputError("--lora-targets is empty: use attention, all-linear or a comma list of module names")
    return tuple(out)


def _adapted_linears(
    arch: ModelArch, targets: tuple[str, ...]
) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """(attention shapes, MLP shapes) of the adapted linears in one layer; MLP shapes are per expert."""
    attn = {k: v for k, v in arch.attention_linears().items() if k in targets}
    width = (
        arch.moe_intermediate_size if arch.is_moe and arch.moe_intermediate_size else arch.intermediate_size
    )
    mlp = {k: v for k, v in arch.mlp_linears(width).items() if k in targets}
    return attn, mlp


def lora_param_count(arch: ModelArch, *, rank: int, targets: tuple[str, ...]) -> int:
    """LoRA trainable parameters: r x (d_in + d_out) per adapted matrix (Hu et al. 2021), over all
    layers; MoE expert linears are adapted in every expert (PEFT target_modules matches each expert's
    projections), shared experts and dense layers once."""
    attn, mlp = _adapted_linears(arch, targets)
    per_attn = sum(rank * (i + o) for i, o in attn.values())
    per_mlp = sum(rank * (i + o) for i, o in mlp.values())
    if arch.is_moe:
        assert arch.n_experts is not None
        shared = 1 if (arch.n_shared_experts or arch.shared_expert_intermediate_size) else 0
        shared_per = 0
        if shared:
            sw = (
                arch.shared_expert_intermediate_size
                or (arch.moe_intermediate_size or 0) * arch.n_shared_experts
            )
            shared_per = sum(rank * (i + o) for n, (i, o) in arch.mlp_linears(sw).items() if n in targets)
        dense_per = sum(
            rank * (i + o) for n, (i, o) in arch.mlp_linears(arch.intermediate_size).items() if n in targets
        )
        moe_layers = arch.n_moe_layers
        dense_layers = arch.n_layers - moe_layers
        return (
            arch.n_layers * per_attn
            + moe_layers * (arch.n_experts * per_mlp + shared_per)
            + dense_layers * dense_per
        )
    return arch.n_layers * (per_attn + per_mlp)


def _largest_layer_params(arch: ModelArch) -> int:
    """Parameters of the largest transformer layer (an MoE layer with all its experts when MoE)."""
    if arch.is_moe:
        dense = arch.model_copy(update={"first_dense_layers": 0})
        return dense.layer_params() // dense.n_layers
    return arch.layer_params() // arch.n_layers


def _largest_linear_params(arch: ModelArch) -> int:
    shapes = dict(arch.attention_linears())
    shapes.update(arch.mlp_linears(arch.intermediate_size))
    if arch.is_moe and arch.moe_intermediate_size:
        shapes.update({f"expert_{k}": v for k, v in arch.mlp_linears(arch.moe_intermediate_size).items()})
    return max(i * o for i, o in shapes.values())


def _adafactor_state_values(arch: ModelArch) -> float:
    """Adafactor (Shazeer & Stern 2018) without momentum keeps factored second moments: one row and one
    column vector per matrix (d_in + d_out values) and a full vector for 1-D parameters."""
    per_layer = sum(i + o for i, o in arch.attention_linears().values())
    width = arch.intermediate_size
    if arch.is_moe and arch.moe_intermediate_size and arch.n_experts:
        per_layer += arch.n_experts * sum(
            i + o for i, o in arch.mlp_linears(arch.moe_intermediate_size).values()
        )
    else:
        per_layer += sum(i + o for i, o in arch.mlp_linears(width).values())
    per_layer += arch.norms_per_layer * arch.hidden_size
    embeddings = (1 if arch.tied_embeddings else 2) * (arch.vocab_size + arch.hidden_size)
    return float(arch.n_layers * per_layer + embeddings + arch.hidden_size)


def estimate_memory(
    *,
    arch: ModelArch,
    method: str,
    precision: str | None = None,
    training_precision: str = "mixed",
    optimizer: str = "adamw",
    lora_rank: int = 16,
    lora_targets: str | list[str] | tuple[str, ...] = "all-linear",
    seq_len: int = 2048,
    batch_size: int = 1,
    grad_checkpointing: bool = True,
    flash_attention: bool = True,
    gpus: int = 1,
    sharding: str = "none",
    tp: int = 1,
    pp: int = 1,
    offload: str = "none",
    concurrency: int = 1,
    context_len: int | None = None,
    loss_chunking: bool = False,
    optimizer_in_backward: bool = False,
) -> MemoryEstimate:
    """Peak GPU memory per GPU and in total for one training or inference configuration.

    Inputs: `arch` (a catalog or config.json architecture); `method`; weight `precision` (default nf4
    for QLoRA, bf16 otherwise); `training_precision` mixed (fp32 master + fp32 Adam) or pure-bf16;
    `optimizer`; LoRA `lora_rank` and `lora_targets`; micro-batch `batch_size` x `seq_len` tokens per
    GPU; `grad_checkpointing`; `flash_attention` (memory-efficient attention); `gpus`, `sharding`, `tp`,
    `pp`; `offload` to CPU; inference `concurrency` x `context_len`; `loss_chunking` (chunked
    cross-entropy, torchtune) and `optimizer_in_backward` (fused step in backward frees each gradient at
    once, torchtune) for stacks that use them. Raises InputError on impossible inputs.
    """
    tb = TraceBuilder()
    method = _choose("method", method, METHODS)
    prec = _choose("precision", precision or default_precision(method), PRECISIONS)
    training_precision = _choose("training precision", training_precision, TRAINING_PRECISIONS)
    optimizer = _choose("optimizer", optimizer, OPTIMIZERS)
    sharding = _choose("sharding", sharding, SHARDINGS)
    offload = _choose("offload", offload, OFFLOADS)
    for name, val in (
        ("seq-len", seq_len),
        ("batch-size", batch_size),
        ("gpus", gpus),
        ("tp", tp),
        ("pp", pp),
        ("concurrency", concurrency),
        ("lora-rank", lora_rank),
    ):
        _positive(name, val)
    if context_len is not None:
        _positive("context-len", context_len)
    training = method != "inference"
    adapters_on = method in ("lora", "qlora")

    if gpus % (tp * pp) != 0:
        raise InputError(
            f"tp x pp = {tp * pp} must divide the number of GPUs ({gpus}): adjust --tp, --pp or --gpus"
        )
    if arch.n_heads % tp != 0:
        raise InputError(f"--tp {tp} must divide the model's {arch.n_heads} attention heads")
    if pp > arch.n_layers:
        raise InputError(f"--pp {pp} is more pipeline stages than the model's {arch.n_layers} layers")
    if method == "qlora" and prec not in QUANTIZED:
        raise InputError(
            f"QLoRA needs a quantised base (nf4, int4, int8 or fp8), not {prec}: use --method lora"
        )
    if method in ("full", "pretraining") and prec in QUANTIZED:
        raise InputError(
            f"{method} training cannot update {prec} weights: use --precision bf16, or --method qlora"
        )
    if method == "lora" and prec in QUANTIZED:
        raise InputError(f"LoRA on a {prec} base is QLoRA: use --method qlora")
    if training and training_precision == "pure-bf16" and prec == "fp32":
        raise InputError("--training-precision pure-bf16 contradicts --precision fp32: pick one")
    if adapters_on and lora_rank > arch.hidden_size:
        raise InputError(
            f"LoRA rank {lora_rank} exceeds the model's hidden size {arch.hidden_size}: use a smaller rank"
        )
    if offload == "params" and sharding not in ("zero3", "fsdp"):
        raise InputError(
            "--offload params needs --sharding zero3 or fsdp (parameters are offloaded by shard)"
        )
    if not training and sharding not in ("none", "ddp"):
        raise InputError(
            "ZeRO/FSDP sharding applies to training: for inference split the model with --tp/--pp"
        )
    if not training and offload != "none":
        raise InputError(
            "--offload applies to training: for inference use --tp/--pp or a quantised --precision"
        )
    if optimizer_in_backward and adapters_on:
        optimizer_in_backward = False  # adapter gradients are tiny; the option changes nothing that matters

    dp = gpus // (tp * pp)
    if sharding == "none" and dp > 1:
        sharding_eff = "ddp"
        tb.assume(
            "sharding_with_several_gpus",
            "ddp",
            source="--sharding none with data-parallel ranks replicates the model (DDP)",
        )
    else:
        sharding_eff = sharding
    ctx_len = context_len if context_len is not None else seq_len
    if not training and context_len is None:
        tb.assume("context_len", ctx_len, "tokens", "no --context-len given: the sequence length is used")

    # ---- parameters -------------------------------------------------------------------------
    total_params = arch.param_count()
    linear_params = arch.linear_params()
    other_params = total_params - linear_params
    tb.step(
        "params",
        "embeddings + layers + final norm (ModelArch.param_count)",
        total_params,
        "params",
        model=arch.id,
        layers=arch.n_layers,
        hidden=arch.hidden_size,
        vocab=arch.vocab_size,
    )
    w_bytes = WEIGHT_BYTES[prec]
    if prec in QUANTIZED:
        tb.assume(
            f"{prec}_bytes_per_param",
            round(w_bytes, 4),
            "B/param",
            "NF4+double quant (QLoRA paper)" if prec == "nf4" else "quantised linear weights",
        )
        tb.assume(
            "unquantized_bytes_per_param",
            UNQUANTIZED_BYTES,
            "B/param",
            "embeddings, lm_head and norms stay 16-bit under bitsandbytes/GPTQ",
        )
        weight_bytes_total = linear_params * w_bytes + other_params * UNQUANTIZED_BYTES
        tb.step(
            "weights_bytes",
            "linear_params x bytes(prec) + other_params x 2 B",
            weight_bytes_total,
            "B",
            linear_params=linear_params,
            bytes_per_linear_param=w_bytes,
            other_params=other_params,
        )
    else:
        weight_bytes_total = total_params * w_bytes
        tb.step(
            "weights_bytes",
            "params x bytes(prec)",
            weight_bytes_total,
            "B",
            params=total_params,
            bytes_per_param=w_bytes,
        )

    # pipeline stage holding the most parameters: ceil(L/pp) layers + one embedding matrix (+ final norm)
    layers_stage = math.ceil(arch.n_layers / pp)
    if pp > 1:
        emb_one = arch.vocab_size * arch.hidden_size
        stage_params = layers_stage * arch.layer_params() / arch.n_layers + emb_one + arch.hidden_size
        stage_fraction = min(1.0, stage_params / total_params)
        tb.step(
            "pp_stage_fraction",
            "(ceil(L/pp) x layer_params + V x h) / params",
            stage_fraction,
            "",
            layers_per_stage=layers_stage,
            pp=pp,
        )
    else:
        stage_fraction = 1.0
    model_split = stage_fraction / tp  # fraction of the model one GPU holds before data-parallel sharding

    # sharding factors (ZeRO paper Section 5.1: Pos, Pos+g, Pos+g+p)
    shard_w = dp if sharding_eff in ("zero3", "fsdp") else 1
    shard_g = dp if sharding_eff in ("zero2", "zero3", "fsdp") else 1
    shard_o = dp if sharding_eff in ("zero1", "zero2", "zero3", "fsdp") else 1

    weights_b = weight_bytes_total * model_split / shard_w
    gathered_b = 0.0
    if sharding_eff in ("zero3", "fsdp") and (dp > 1 or offload == "params"):
        unit = _largest_layer_params(arch)
        unit_bytes = unit * (w_bytes if prec in QUANTIZED else (2.0 if prec != "fp32" else 4.0)) / tp
        gathered_b = GATHERED_UNITS_IN_FLIGHT * unit_bytes
        if method in ("full", "pretraining"):
            gathered_b += (
                unit * (4.0 if prec == "fp32" else 2.0) / tp
            )  # its unsharded gradient before reduce-scatter
        tb.assume("gathered_units_in_flight", GATHERED_UNITS_IN_FLIGHT, "layers", "FSDP/ZeRO-3 prefetch")
        tb.step(
            "zero3_gathered",
            "units_in_flight x largest_layer_params x bytes / tp (+ its gradient when trained)",
            gathered_b,
            "B",
            largest_layer_params=unit,
            tp=tp,
        )
    cpu_b = 0.0
    if offload == "params":
        cpu_b += weights_b
        tb.step(
            "params_offloaded", "weight shard moved to CPU (ZeRO-Infinity / FSDP CPUOffload)", weights_b, "B"
        )
        weights_b = 0.0
    weights_b += gathered_b
    tb.step(
        "weights_per_gpu",
        "weights x stage_fraction / tp / shard_w + gathered",
        weights_b,
        "B",
        stage_fraction=round(stage_fraction, 6),
        tp=tp,
        dp=dp,
        sharding=sharding_eff,
    )

    # ---- gradients and optimizer (full training) ----------------------------------------------
    grads_b = opt_b = adapters_b = 0.0
    trainable = 0
    paged_b = 0.0
    mixed = training_precision == "mixed" and prec != "fp32"
    if method in ("full", "pretraining"):
        trainable = total_params
        g_bytes = w_bytes
        master = FP32_MASTER_BYTES if mixed else 0.0
        state_dtype = 4.0 if (mixed or prec == "fp32") else 2.0
        if optimizer == "adamw":
            states_b = ADAM_STATE_COUNT * state_dtype * total_params
            formula = "params x 2 states x dtype bytes"
        elif optimizer in ("adamw-8bit", "paged-adamw-8bit"):
            states_b = ADAM_STATE_COUNT * EIGHT_BIT_STATE_BYTES * total_params
            formula = "params x 2 states x 8-bit (+ block absmax)"
        elif optimizer == "sgd":
            states_b = state_dtype * total_params
            formula = "params x 1 momentum x dtype bytes"
        else:
            states_b = state_dtype * _adafactor_state_values(arch)
            formula = "(sum over matrices of rows + cols + 1-D params) x dtype bytes (factored 2nd moment)"
        tb.assume(
            "training_precision",
            training_precision,
            "",
            "mixed: 16-bit weights+grads, fp32 master + states (ZeRO paper 2+2+12 B)"
            if mixed
            else "pure 16-bit: weights, grads and optimizer states all 16-bit",
        )
        grads_full = total_params * g_bytes
        grads_b = grads_full * model_split / shard_g
        if optimizer_in_backward:
            grads_b = _largest_layer_params(arch) * g_bytes / tp
            tb.assume("optimizer_in_backward", True, "", "each gradient is applied and freed during backward")
        tb.step(
            "gradients_per_gpu",
            "params x grad bytes x stage_fraction / tp / shard_g",
            grads_b,
            "B",
            grad_bytes_per_param=g_bytes,
            shard_g=shard_g,
        )
        opt_full = master * total_params + states_b
        tb.step(
            "optimizer_bytes",
            f"fp32 master ({master} B/param) + {formula}",
            opt_full,
            "B",
            master_bytes_per_param=master,
            optimizer=optimizer,
        )
        opt_b = opt_full * model_split / shard_o
        if offload in ("optimizer", "params"):
            cpu_b += opt_b
            tb.step("optimizer_offloaded", "optimizer shard moved to CPU (ZeRO-Offload)", opt_b, "B")
            opt_b = 0.0
        if offload == "params":
            cpu_b += grads_b
            grads_b = 0.0
        if optimizer == "paged-adamw-8bit":
            paged_b = (
                ADAM_STATE_COUNT * EIGHT_BIT_STATE_BYTES * total_params * model_split / shard_o
                if opt_b
                else 0.0
            )
        tb.step(
            "optimizer_per_gpu",
            "optimizer x stage_fraction / tp / shard_o (0 when offloaded)",
            opt_b,
            "B",
            shard_o=shard_o,
            offload=offload,
        )

    targets: tuple[str, ...] = ()
    if adapters_on:
        targets = resolve_lora_targets(arch, lora_targets)
        trainable = lora_param_count(arch, rank=lora_rank, targets=targets)
        tb.step(
            "lora_params",
            "sum over adapted matrices of r x (d_in + d_out) x layers (x experts)",
            trainable,
            "params",
            rank=lora_rank,
            targets=",".join(targets),
        )
        a_bytes = LORA_ADAPTER_BYTES_MIXED if training_precision == "mixed" else 2.0
        a_state = 4.0 if training_precision == "mixed" else 2.0
        if optimizer == "adamw":
            a_opt = ADAM_STATE_COUNT * a_state
        elif optimizer in ("adamw-8bit", "paged-adamw-8bit"):
            a_opt = ADAM_STATE_COUNT * EIGHT_BIT_STATE_BYTES
        elif optimizer == "sgd":
            a_opt = a_state
        else:
            a_opt = a_state * 0.05  # factored: (r + d) per r x d matrix, a few % of the values
        per_param = a_bytes + a_bytes + a_opt
        tb.assume("training_precision", training_precision, "",
                  "mixed: fp32 adapters, grads and states" if training_precision == "mixed" else
                  "pure 16-bit adapters, grads and states")  # fmt: skip
        tb.assume("adapter_optimizer_bytes_per_param", a_opt, "B/param", optimizer)
        tb.assume(
            "lora_adapter_dtype_bytes",
            a_bytes,
            "B/param",
            "peft autocast_adapter_dtype: fp32 adapters" if a_bytes == 4 else "pure bf16 adapters",
        )
        adapters_full = trainable * per_param
        tb.step(
            "adapters_bytes",
            "lora_params x (weight + grad + optimizer bytes)",
            adapters_full,
            "B",
            lora_params=trainable,
            bytes_per_param=per_param,
        )
        adapters_b = adapters_full * model_split / shard_o
        if offload in ("optimizer", "params"):
            moved = trainable * a_opt * model_split / shard_o
            cpu_b += moved
            adapters_b -= moved
        if optimizer == "paged-adamw-8bit":
            paged_b = trainable * a_opt * model_split / shard_o
        tb.step("adapters_per_gpu", "adapters x stage_fraction / tp / shard", adapters_b, "B")

    # ---- activations ------------------------------------------------------------------------
    act_b = 0.0
    kv_b = 0.0
    tokens = batch_size * seq_len
    if training:
        per_layer = layer_bytes_per_token(arch, seq_len=seq_len, flash_attention=flash_attention)
        tb.step(
            "layer_activation_bytes_per_token",
            "attention (4h + 2 x proj outputs + 2 x o_in + lse|scores) + MLP (4h + 8f gated | 4f)",
            per_layer,
            "B/token",
            flash_attention=flash_attention,
            seq_len=seq_len,
            source="Korthikanti et al. 2022 Table 2, adapted to SwiGLU/GQA, no dropout",
        )
        if adapters_on:
            attn_ad, mlp_ad = _adapted_linears(arch, targets)
            experts_per_token = float(arch.n_active_experts or 1) if arch.is_moe else 1.0
            lora_tok = lora_bytes_per_token(attn_ad, lora_rank) + lora_bytes_per_token(
                mlp_ad, lora_rank, experts_per_token
            )
            tb.step(
                "lora_activation_bytes_per_token",
                "sum over adapted linears of 3 x d_in (dropout copy + mask) + 2r",
                lora_tok,
                "B/token",
            )
            per_layer += lora_tok
        in_flight = pp  # 1F1B: the first stage holds pp micro-batches (Narayanan et al. 2021)
        layers_held = layers_stage * in_flight if pp > 1 else arch.n_layers
        if grad_checkpointing:
            kept = checkpoint_bytes_per_token(arch) * tokens * layers_held / tp
            tb.step(
                "checkpointed_inputs",
                "layers x tokens x 2h / tp",
                kept,
                "B",
                layers=layers_held,
                tokens=tokens,
                hidden=arch.hidden_size,
                tp=tp,
            )
            recompute = per_layer * tokens / tp
            tb.step(
                "recomputed_layer",
                "one layer's activations x tokens / tp (during its backward)",
                recompute,
                "B",
            )
        else:
            kept = per_layer * tokens * layers_held / tp
            tb.step(
                "stored_activations",
                "layers x tokens x layer_bytes_per_token / tp",
                kept,
                "B",
                layers=layers_held,
                tokens=tokens,
                tp=tp,
            )
            recompute = 0.0
        logit_bytes = LOGITS_BYTES_PER_VALUE_CHUNKED if loss_chunking else LOGITS_BYTES_PER_VALUE
        tb.assume(
            "logits_bytes_per_value",
            logit_bytes,
            "B",
            "chunked cross-entropy (torchtune)"
            if loss_chunking
            else "bf16 logits + fp32 upcast + fp32 gradient (transformers loss)",
        )
        logits = tokens * arch.vocab_size * logit_bytes / tp + tokens * ACTIVATION_BYTES * arch.hidden_size
        tb.step(
            "logits",
            "tokens x vocab x bytes / tp + final hidden",
            logits,
            "B",
            tokens=tokens,
            vocab=arch.vocab_size,
            bytes_per_value=logit_bytes,
        )
        dequant = 0.0
        if method == "qlora":
            dequant = 2 * _largest_linear_params(arch) * ACTIVATION_BYTES / tp
            tb.step(
                "dequant_buffer",
                "2 x largest linear dequantised to bf16 (forward + transposed backward)",
                dequant,
                "B",
                source="bitsandbytes matmul_4bit dequantize_4bit",
            )
        # With checkpointing, the logits phase and the layer-recompute phase do not overlap.
        act_b = kept + (max(logits, recompute) if grad_checkpointing else logits + recompute) + dequant
        tb.step(
            "activations_per_gpu",
            "kept + max(logits, recomputed layer) + dequant"
            if grad_checkpointing
            else "stored + logits + dequant",
            act_b,
            "B",
        )
    else:
        kv_one = arch.kv_cache_bytes(ctx_len, KV_CACHE_BYTES_PER_VALUE)
        kv_split = min(tp, arch.n_kv_heads) if not arch.uses_mla else 1
        kv_b = kv_one * concurrency / kv_split * (layers_stage / arch.n_layers)
        tb.assume("kv_cache_bytes_per_value", KV_CACHE_BYTES_PER_VALUE, "B", "16-bit KV cache")
        tb.step(
            "kv_cache_per_sequence",
            "2 x L x kv_heads x head_dim x tokens x bytes (MLA: L x (latent + rope))",
            kv_one,
            "B",
            layers=arch.n_layers,
            kv_heads=arch.n_kv_heads,
            head_dim=arch.head_dim,
            context_tokens=ctx_len,
            source="seed 001 KV formula",
        )
        tb.step(
            "kv_cache_per_gpu",
            "per_sequence x concurrency / min(tp, kv_heads) x stage layers / L",
            kv_b,
            "B",
            concurrency=concurrency,
            tp=tp,
            pp=pp,
        )
        prefill = min(ctx_len, PREFILL_CHUNK_TOKENS)
        tb.assume("prefill_chunk_tokens", PREFILL_CHUNK_TOKENS, "tokens", "vLLM chunked prefill")
        act_b = prefill * prefill_bytes_per_token(arch) / tp + concurrency * arch.vocab_size * 4.0
        tb.step(
            "inference_activations",
            "prefill_tokens x (4h + 6f) / tp + concurrency x vocab x 4 B",
            act_b,
            "B",
            prefill_tokens=prefill,
        )

    # ---- overhead ---------------------------------------------------------------------------
    tb.assume("cuda_context_gib", CUDA_CONTEXT_GIB, "GiB", "PyTorch CUDA context + workspaces")
    context_gib = CUDA_CONTEXT_GIB + (NCCL_BUFFERS_GIB if gpus > 1 else 0.0)
    if gpus > 1:
        tb.assume("nccl_buffers_gib", NCCL_BUFFERS_GIB, "GiB", "NCCL communicator buffers")
    tb.assume(
        "allocator_fragmentation_fraction",
        ALLOCATOR_FRAGMENTATION_FRACTION,
        "",
        "PyTorch caching allocator, reserved vs allocated",
    )
    dynamic_b = act_b + grads_b + (adapters_b if adapters_on else 0.0)
    frag_b = ALLOCATOR_FRAGMENTATION_FRACTION * dynamic_b
    tb.step(
        "fragmentation",
        "fraction x (activations + gradients + adapter states)",
        frag_b,
        "B",
        fraction=ALLOCATOR_FRAGMENTATION_FRACTION,
    )
    overhead_gib = context_gib + bytes_to_gib(frag_b)
    tb.step(
        "overhead_gib", "CUDA context (+ NCCL) + fragmentation", overhead_gib, "GiB", context_gib=context_gib
    )

    breakdown = MemoryBreakdown(
        weights=bytes_to_gib(weights_b),
        gradients=bytes_to_gib(grads_b),
        optimizer=bytes_to_gib(opt_b),
        activations=bytes_to_gib(act_b),
        kv_cache=bytes_to_gib(kv_b),
        adapters=bytes_to_gib(adapters_b),
        overhead=overhead_gib,
    )
    peak = breakdown.total()
    tb.step(
        "peak_gib_per_gpu",
        "weights + gradients + optimizer + activations + kv_cache + adapters + overhead",
        peak,
        "GiB",
    )
    total = peak * gpus
    tb.step("total_gib", "peak_gib_per_gpu x gpus", total, "GiB", gpus=gpus)
    return MemoryEstimate(
        peak_gib_per_gpu=peak,
        total_gib=total,
        breakdown_gib=breakdown,
        cuda_context_gib=context_gib,
        fragmentation_gib=bytes_to_gib(frag_b),
        cpu_offload_gib_per_gpu=bytes_to_gib(cpu_b),
        paged_optimizer_gib=bytes_to_gib(paged_b),
        gpus=gpus,
        tp=tp,
        pp=pp,
        dp=dp,
        params=total_params,
        trainable_params=trainable,
        method=method,
        model_id=arch.id,
        precision=prec,
        training_precision=training_precision,
        optimizer=optimizer,
        lora_rank=lora_rank if adapters_on else None,
        lora_targets=targets,
        seq_len=seq_len,
        batch_size=batch_size,
        grad_checkpointing=grad_checkpointing,
        flash_attention=flash_attention,
        sharding=sharding_eff,
        offload=offload,
        concurrency=concurrency,
        context_len=ctx_len,
        loss_chunking=loss_chunking,
        optimizer_in_backward=optimizer_in_backward,
        **tb.fields(),
    )


def fits_gpu(estimate: MemoryEstimate, usable_memory_gib: float) -> bool:
    """True when the per-GPU peak fits a GPU's usable memory."""
    return estimate.peak_gib_per_gpu <= usable_memory_gib


def seed_rule_gb(*, params: float, method: str, adapter_overhead_gb: float | None = None) -> float:
    """Seed 001's bytes-per-parameter rule, in GB (1e9): 18 B/param full fine-tuning (and pre-training),
    2 B/param + adapter overhead for LoRA, 0.5 B/param + adapter overhead for QLoRA, 2 B/param for
    inference. Adapter overhead defaults to 9 GB (LoRA, middle of '6-12 GB') and 12 GB (QLoRA, the
    worked example). `params` is a count of parameters (e.g. 70e9)."""
    method = _choose("method", method, METHODS)
    if params <= 0:
        raise InputError(f"params must be positive (got {params})")
    gb = params * SEED_001_BYTES_PER_PARAM[method] / BYTES_PER_GB
    if method in SEED_001_ADAPTER_OVERHEAD_GB:
        gb += SEED_001_ADAPTER_OVERHEAD_GB[method] if adapter_overhead_gb is None else adapter_overhead_gb
    return gb


__all__ = [
    "MemoryBreakdown",
    "MemoryEstimate",
    "default_precision",
    "estimate_memory",
    "fits_gpu",
    "lora_param_count",
    "resolve_lora_targets",
    "seed_rule_gb",
]
