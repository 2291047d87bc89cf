"""FLOPs per parameter and token, the MFU bands, a GPU's dense peak and the QLoRA slowdown: the
constants and small formulas tools.compute.training and tools.compute.claims share.

MFU means model FLOPs utilisation: useful model FLOPs (6ND-style, recompute not counted as useful
unless it is in `flops`) over the GPU's dense peak. Ranges are low-high.
"""

from __future__ import annotations

import math
from typing import Literal

from tools.catalog.schema import GpuSpec, ModelArch
from tools.errors import InputError
from tools.memory_states import WEIGHT_BYTES
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.vocabulary import QUANTIZED, TRAINING_METHODS, TrainingMethod

GpuClass = Literal["consumer", "datacenter_pcie", "sxm", "amd", "gaudi"]
MethodClass = Literal["pretraining", "fine_tuning"]

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
# Attention has no weights, so LoRA saves nothing there: forward 4 x L x width x s, backward twice
# that (the 12). Full recompute re-runs the forward: 16 / 12.
ATTENTION_RECOMPUTE_FACTOR = 16.0 / 12.0

# --- QLoRA dequantisation slowdown (time, relative to 16-bit LoRA on the same card) ---------------
# Seed 004: QLoRA "2-3x slower"; RahulSChand/gpu_poor applies 1.75-3x. A named range, not FLOPs.
QLORA_DEQUANT_SLOWDOWN = Range(low=1.75, high=3.0)
QLORA_DEQUANT_SLOWDOWN_SOURCE = "seed 004 (2-3x slower than 16-bit LoRA); RahulSChand/gpu_poor (1.75-3x)"

# --- MFU per GPU class and method class ------------------------------------------------------------
# Pretraining (cluster-measured, large well-tuned stacks): PaLM paper Table 3 (MT-NLG 30.2%, Gopher
# 32.5%, PaLM 46.2%), Llama 3 405B on 16k H100 38-43%, Megatron-LM on A100 41.5% (22B) - 56% (530B+).
# Fine-tuning stacks (HF Trainer / PEFT / DeepSpeed, short runs, small batches): 25-45%
# (estimators.md). Other classes are engineering estimates scaled from these, named as such.
MFU_RANGES: dict[tuple[GpuClass, MethodClass], Range] = {
    ("sxm", "pretraining"): Range(low=0.30, high=0.56),
    ("sxm", "fine_tuning"): Range(low=0.25, high=0.45),
    ("datacenter_pcie", "pretraining"): Range(low=0.25, high=0.45),
    ("datacenter_pcie", "fine_tuning"): Range(low=0.20, high=0.40),
    ("consumer", "pretraining"): Range(low=0.20, high=0.40),
    ("consumer", "fine_tuning"): Range(low=0.20, high=0.40),
    ("amd", "pretraining"): Range(low=0.20, high=0.40),
    ("amd", "fine_tuning"): Range(low=0.15, high=0.35),
    ("gaudi", "pretraining"): Range(low=0.20, high=0.40),
    ("gaudi", "fine_tuning"): Range(low=0.15, high=0.35),
}
MFU_SOURCES: dict[tuple[GpuClass, MethodClass], str] = {
    (
        "sxm",
        "pretraining",
    ): "PaLM Table 3 (30.2-46.2%); Llama 3 paper (38-43% on H100); Megatron-LM (41.5-56%)",
    ("sxm", "fine_tuning"): "estimators.md: fine-tuning stacks usually 25-45%",
    (
        "datacenter_pcie",
        "pretraining",
    ): "estimate: SXM band less ~5-10 pts (lower power cap, PCIe collectives)",
    ("datacenter_pcie", "fine_tuning"): "estimate: SXM fine-tuning band less ~5 pts (lower power cap)",
    ("consumer", "pretraining"): "estimate: single consumer card, small batches, no NVLink",
    ("consumer", "fine_tuning"): "estimate: consumer cards reach 20-40% of dense peak in PEFT stacks",
    (
        "amd",
        "pretraining",
    ): "estimate: ROCm stacks reach a lower share of peak than CUDA ones (2024-25 reports)",
    ("amd", "fine_tuning"): "estimate: ROCm fine-tuning stacks, below the CUDA band",
    ("gaudi", "pretraining"): "estimate: Gaudi stacks reach a lower share of the 1,835 TFLOPS peak",
    ("gaudi", "fine_tuning"): "estimate: Gaudi fine-tuning stacks, below the CUDA band",
}

# Bytes per stored weight value: one table for the whole engine, tools.memory_states.WEIGHT_BYTES
# (nf4 with double quantisation 0.516 B, QLoRA paper; GPTQ int4 g128 0.52 B; int8/fp8 1 B).
BYTES_PER_WEIGHT: dict[str, float] = WEIGHT_BYTES
QUANTISED_WEIGHT_FORMATS = frozenset(QUANTIZED)
# TF32 tensor-core peak is half the BF16 dense peak on A100/H100 (NVIDIA datasheets).
TF32_FRACTION_OF_BF16 = 0.5


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


def method_class(method: TrainingMethod) -> MethodClass:
    """pretraining or fine_tuning: the MFU band's column."""
    return "pretraining" if method == "pretraining" else "fine_tuning"


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


def mfu_range_for(*, gpu: GpuSpec, method: TrainingMethod) -> Range:
    """The named MFU band for this GPU's class and the method's class."""
    return MFU_RANGES[(gpu_class_of(gpu), method_class(method))]


def peak_tflops(*, gpu: GpuSpec, precision: str, tb: TraceBuilder | None = None) -> float:
    """Dense tensor peak for the compute precision: FP8 peak for fp8, TF32 (half BF16) for fp32,
    BF16 otherwise (int4/nf4 weights are dequantised to BF16 for the matmuls)."""
    if precision not in BYTES_PER_WEIGHT:
        raise InputError(f"unknown precision {precision!r}: use one of {', '.join(BYTES_PER_WEIGHT)}")
    if precision == "fp8" and gpu.fp8_dense_tflops is not None:
        value, why = gpu.fp8_dense_tflops, "fp8_dense_tflops (datasheet)"
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
    """k in k x N x D: 6 full/pretraining, 4 LoRA/QLoRA, +2 with full activation recompute."""
    base = FLOPS_PER_PARAM_TOKEN_ADAPTER if method in ("lora", "qlora") else FLOPS_PER_PARAM_TOKEN_FULL
    return base + (RECOMPUTE_FLOPS_PER_PARAM_TOKEN if grad_checkpointing else 0.0)


def attention_flops_per_token(*, arch: ModelArch, seq_len: int) -> float:
    """PaLM App. B attention term: 12 x layers x attention width x seq_len per trained token."""
    width = arch.n_heads * (
        (arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0) if arch.uses_mla else arch.head_dim
    )
    return ATTENTION_TRAIN_FLOPS_COEFF * arch.n_layers * width * seq_len
