"""FLOPs per parameter and token, the attention term and a GPU's dense peak: the constants and small
formulas tools.compute.training and tools.compute.claims share (the MFU bands: tools.compute.efficiency).

MFU means model FLOPs utilisation: useful model FLOPs (6ND-style, recompute not counted as useful
unless it is in `flops`) over the GPU's dense peak. Ranges are low-high.
"""

from __future__ import annotations

import math
from typing import Literal

from tools.catalog.schema import GpuSpec, ModelArch
from tools.errors import InputError
from tools.memory_states import WEIGHT_BYTES
from tools.trace import TraceBuilder
from tools.vocabulary import QUANTIZED, TRAINING_METHODS, TrainingMethod

GpuClass = Literal["consumer", "datacenter_pcie", "sxm", "amd", "gaudi"]

# --- FLOPs per parameter per token -------------------------------------------------------------
# Forward 2ND + backward 4ND (Kaplan et al. 2020; EleutherAI "Transformers Math 101"; seed 001).
FLOPS_PER_PARAM_TOKEN_FULL = 6.0
# LoRA/QLoRA: frozen weights need activation gradients (2ND) but no weight gradients (2ND saved):
# forward 2ND + backward 2ND (estimators.md; adapter FLOPs are < 1% at ranks <= 64 and ignored).
FLOPS_PER_PARAM_TOKEN_ADAPTER = 4.0
# Full activation recompute re-runs the forward pass once: +2ND (8ND for full training;
# EleutherAI Transformers Math 101, cli99/llm-analysis 6/8 check).
RECOMPUTE_FLOPS_PER_PARAM_TOKEN = 2.0
# PaLM (Chowdhery et al. 2022, App. B): attention adds 6 x L x H x Q x T... per token, i.e.
# 12 x layers x attention width x sequence length FLOPs per trained token (forward + backward,
# causal mask not discounted, as PaLM counts it).
ATTENTION_TRAIN_FLOPS_COEFF = 12.0
# Beyond the sequences the MFU bands were fitted on (ATTENTION_CALIBRATED_SEQ_LEN: 177 of the 181 development
# rows with a stated sequence run 2,048-8,192 tokens), each further token of context adds the FLOPs a causal
# fused kernel executes, half of PaLM's count: FlashAttention computes only the blocks on and below the
# diagonal (flash-attention benchmarks/benchmark_flash_attention.py: `// (2 if causal else 1)`; Dao 2023,
# FlashAttention-2, sec. 3.1.1). PaLM's full count times the band is what the rows calibrate up to 8k (the
# CV prefers it there to the causal count: bench/data/README.md, tim18); carried to 32k-700k it charged
# twice the executed attention, and every development row at 16k or more ran faster than the estimate
# (12 rows, 6 families, median +28%). Eager attention computes the whole score matrix: always PaLM's count.
ATTENTION_CALIBRATED_SEQ_LEN = 8192
CAUSAL_ATTENTION_TRAIN_FLOPS_COEFF = ATTENTION_TRAIN_FLOPS_COEFF / 2.0
# Attention has no weights, so LoRA saves nothing there: forward 4 x L x width x s, backward twice
# that (the 12). Full recompute re-runs the forward: 16 / 12.
ATTENTION_RECOMPUTE_FACTOR = 16.0 / 12.0

# The QLoRA slowdown and the MFU bands live in tools.compute.efficiency (fitted on published runs).

# Bytes per stored weight value: one table for the whole engine, tools.memory_states.WEIGHT_BYTES
# (nf4 with double quantisation 0.516 B, QLoRA paper; GPTQ int4 g128 0.52 B; int8/fp8 1 B).
BYTES_PER_WEIGHT: dict[str, float] = WEIGHT_BYTES
QUANTISED_WEIGHT_FORMATS = frozenset(QUANTIZED)
# TF32 tensor-core peak is half the BF16 dense peak on A100/H100 (NVIDIA datasheets).
TF32_FRACTION_OF_BF16 = 0.5
FP8_WEIGHT_ONLY = "FP8 weights, BF16 compute (weight-only W8A16)"
FP8_WEIGHT_ONLY_SOURCE = (
    "no FP8 tensor cores before compute capability 8.9 (Ada, Hopper): FP8 checkpoints run as weight-only "
    "W8A16, the weights dequantised to BF16 inside the matmul (vLLM FP8 Marlin, vllm-project/vllm PR "
    "#5975; vLLM docs, FP8 W8A8), so compute runs at the BF16 peak while weights are held and read at 1 byte "
    "each; MoE layers need an engine with FP8 Marlin MoE kernels (vllm-project/vllm issue #17579)"
)
"""What FP8 means on a GPU the catalog gives no FP8 peak (fp8_dense_tflops None: Ampere and older): expert
review 18, R20 picked 4x A100 for an FP8 model with no word of it."""


def fp8_weight_only(gpu: GpuSpec, precision: str) -> bool:
    """FP8 weights on a GPU with no FP8 tensor cores: weight-only kernels, BF16 compute
    (FP8_WEIGHT_ONLY_SOURCE)."""
    return precision == "fp8" and gpu.fp8_dense_tflops is None


def gpu_class_of(gpu: GpuSpec) -> GpuClass:
    """consumer / datacenter_pcie / sxm / amd / gaudi, from vendor, consumer flag and form factor."""
    if gpu.vendor == "amd":
        return "amd"
    if gpu.vendor == "intel":
        return "gaudi"
    if gpu.consumer:
        return "consumer"
    if "pcie" in gpu.form_factor.lower():
        return "datacenter_pcie"
    return "sxm"


def check_training_method(method: str) -> TrainingMethod:
    """The method, or an InputError listing the training methods."""
    if method not in TRAINING_METHODS:
        raise InputError(f"unknown training method {method!r}: use one of {', '.join(TRAINING_METHODS)}")
    return method  # type: ignore[return-value]


def check_positive(**values: float) -> None:
    """InputError naming the first value that is not a finite number > 0."""
    for name, v in values.items():
        if not (isinstance(v, int | float) and math.isfinite(v) and v > 0):
            raise InputError(f"{name} must be a positive number, got {v!r}")


def peak_tflops(*, gpu: GpuSpec, precision: str, tb: TraceBuilder | None = None) -> float:
    """Dense tensor peak for the compute precision: FP8 peak for fp8, TF32 (half BF16) for fp32,
    BF16 otherwise (int4/nf4 weights are dequantised to BF16 for the matmuls)."""
    if precision not in BYTES_PER_WEIGHT:
        raise InputError(f"unknown precision {precision!r}: use one of {', '.join(BYTES_PER_WEIGHT)}")
    if precision == "fp8" and gpu.fp8_dense_tflops is not None:
        value, why = gpu.fp8_dense_tflops, "fp8_dense_tflops (datasheet)"
    elif fp8_weight_only(gpu, precision):
        value, why = gpu.bf16_dense_tflops, f"no FP8 units: {FP8_WEIGHT_ONLY}, bf16_dense_tflops (datasheet)"
        if tb is not None:
            tb.assume("fp8_compute", FP8_WEIGHT_ONLY, "", FP8_WEIGHT_ONLY_SOURCE)
    elif precision == "fp32":
        value, why = (
            gpu.bf16_dense_tflops * TF32_FRACTION_OF_BF16,
            "TF32 = 0.5 x BF16 dense (NVIDIA datasheets)",
        )
    else:
        value, why = gpu.bf16_dense_tflops, "bf16_dense_tflops (datasheet, dense not 2:4 sparse)"
    if tb is not None:
        tb.step(
            "peak_tflops_per_gpu",
            f"{gpu.id} {precision}: {why}",
            value,
            "TFLOPS",
            gpu.source,
            precision=precision,
        )
    return value


def training_flops_factor(*, method: TrainingMethod, grad_checkpointing: bool) -> float:
    """HARDWARE FLOPs factor: 6 full/pretraining, 4 LoRA/QLoRA, +2 with full activation recompute.
    The time model does not use it (see model_flops_factor); it says what the GPU actually executes."""
    base = FLOPS_PER_PARAM_TOKEN_ADAPTER if method in ("lora", "qlora") else FLOPS_PER_PARAM_TOKEN_FULL
    return base + (RECOMPUTE_FLOPS_PER_PARAM_TOKEN if grad_checkpointing else 0.0)


def model_flops_factor(method: TrainingMethod) -> float:
    """k in k x N x D for MODEL FLOPs: 6 full/pretraining, 4 LoRA/QLoRA. Activation recompute is not
    counted: the efficiency bands are model-FLOPs utilisations of runs that already paid for it."""
    return FLOPS_PER_PARAM_TOKEN_ADAPTER if method in ("lora", "qlora") else FLOPS_PER_PARAM_TOKEN_FULL


def flops_factor_step(tb: TraceBuilder, method: TrainingMethod, flops_factor: float | None) -> float:
    """k of the training estimate, traced: model_flops_factor(method), or the caller's override."""
    if flops_factor is None:
        k = model_flops_factor(method)
        formula = "6 (full/pretraining) or 4 (LoRA/QLoRA: no weight gradients); recompute is in the MFU band"
        src = "Kaplan et al. 2020; EleutherAI Transformers Math 101; model-FLOPs convention of the MFU bands"
    else:
        check_positive(flops_factor=flops_factor)
        k, formula, src = flops_factor, "caller's override", "caller"
    tb.step("flops_factor", formula, k, "FLOPs/(param x token)", src, method=method)
    return k


def attention_width(arch: ModelArch) -> int:
    """heads x query/key head dim (MLA: nope + rope parts)."""
    if arch.uses_mla:
        return arch.n_heads * ((arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0))
    return arch.n_heads * arch.head_dim


def attention_flops(
    *, n_layers: int, attention_width: int, seq_len: float, causal_kernel: bool = True
) -> float:
    """PaLM App. B attention term: 12 x layers x attention width x seq_len per trained token; with a fused
    causal kernel (FlashAttention, SDPA) the context beyond ATTENTION_CALIBRATED_SEQ_LEN adds 6 x layers x
    width per token, the causal FLOPs."""
    calibrated = min(seq_len, ATTENTION_CALIBRATED_SEQ_LEN) if causal_kernel else seq_len
    beyond = seq_len - calibrated
    return (
        n_layers
        * attention_width
        * (ATTENTION_TRAIN_FLOPS_COEFF * calibrated + CAUSAL_ATTENTION_TRAIN_FLOPS_COEFF * beyond)
    )


def blended_peak_tflops(
    *, precision_peak_tflops: float, bf16_peak_tflops: float, dense_flops: float, attention_flops: float
) -> float:
    """The peak a token's FLOPs see when the linear layers run at the compute precision's peak and the
    attention core (QK^T, softmax x V) at the BF16 peak: FP8 training recipes convert nn.Linear only
    (torchao convert_to_float8_training "swaps torch.nn.Linear with Float8Linear", used by torchtitan;
    Transformer Engine's FP8 recipes in Megatron / NeMo keep dot-product attention in BF16 unless
    fp8_dot_product_attention is set). Harmonic blend: (dense + attn) / (dense/peak + attn/bf16_peak).
    Equal to the precision's peak for BF16 or without the attention term."""
    if attention_flops <= 0 or precision_peak_tflops == bf16_peak_tflops:
        return precision_peak_tflops
    total = dense_flops + attention_flops
    return total / (dense_flops / precision_peak_tflops + attention_flops / bf16_peak_tflops)


def attention_flops_per_token(*, arch: ModelArch, seq_len: int) -> float:
    """PaLM App. B attention term for a catalog architecture."""
    return attention_flops(n_layers=arch.n_layers, attention_width=attention_width(arch), seq_len=seq_len)
