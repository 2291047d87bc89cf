"""Compute: training FLOPs and time, inference throughput, and a physics check for claims.

Training time model (each factor a named, sourced constant below):

    flops          = k x N_active x D  (+ attention term when the architecture is given)
                     k = 6 full / pretraining, 4 LoRA / QLoRA, +2 with full activation recompute
    gpu_hours      = flops / (peak_flops x MFU x scaling_efficiency x goodput) x qlora_slowdown / 3600
    wall_hours     = gpu_hours / n_gpus
    gpu_hours_at_peak = flops / peak_flops / 3600   (seed 001's figure: MFU = 100%, a lower bound)

Inference model (roofline): prefill is compute-bound (2 x N_active FLOPs per token at a prefill
MFU); decode is bandwidth-bound: each step reads the weights once plus every sequence's KV cache,
so step time = bytes / (memory bandwidth x efficiency), unless the step's FLOPs take longer.

MFU means model FLOPs utilisation: useful model FLOPs (6ND-style, recompute not counted as useful
unless it is in `flops`) over the GPU's dense peak. Ranges are low-high; the low end of a time is
the high end of an efficiency.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from pydantic import Field

from tools import present
from tools.catalog.schema import GpuSpec, ModelArch
from tools.errors import InputError
from tools.memory_states import UNQUANTIZED_BYTES, WEIGHT_BYTES, stored_weight_bytes
from tools.memory_types import QUANTIZED
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import SECONDS_PER_HOUR, gb_to_bytes, seconds_to_hours, tflops_to_flops

_UNITY = Range(low=1.0, high=1.0)
"""The factor 1 as a range (no goodput loss, no slowdown, one GPU): frozen, so shared."""


class UntracedBuilder(TraceBuilder):
    """A TraceBuilder that records nothing: `step` and `assume` return their value as usual, so a
    calculator run with it computes exactly the same numbers through the same code, without building
    trace steps. For callers that only compare numbers (the recommender's sweep over hundreds of
    candidates); the result then has an empty trace. Never for a result that is shown or reported."""

    def step(
        self,
        step: str,
        formula: str,
        output: float,
        unit: str = "",
        source: str = "",
        **inputs: float | int | str | bool | None,
    ) -> float:
        return output

    def assume(
        self, name: str, value: float | int | str | bool | None, unit: str = "", source: str = ""
    ) -> float | int | str | bool | None:
        return value

    def extend(self, other: Traced | TraceBuilder, prefix: str = "") -> None:
        return None


TrainingMethod = Literal["full", "lora", "qlora", "pretraining"]
ComputePrecision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"]
GpuClass = Literal["consumer", "datacenter_pcie", "sxm", "amd", "gaudi"]
MethodClass = Literal["pretraining", "fine_tuning"]
ScaleOut = Literal["infiniband", "roce", "ethernet", "none"]
Verdict = Literal["impossible", "implausible", "plausible"]

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

# Pretraining runs lose time to failures, restarts, checkpoint writes and evaluation. Llama 3 paper:
# "higher than 90% effective training time" over 54 days with 466 interruptions.
PRETRAINING_GOODPUT = Range(low=0.85, high=0.95)
PRETRAINING_GOODPUT_SOURCE = "Llama 3 paper (>90% effective training time); low end allows less mature stacks"

# --- Multi-GPU scaling efficiency (throughput of n GPUs / n x one GPU) ---------------------------
SCALING_INTRA_NODE_FAST = Range(low=0.90, high=0.98)
SCALING_INTRA_NODE_FAST_SOURCE = "estimate: DDP/FSDP inside an NVLink / Infinity Fabric node"
# Seed 004's 13B LoRA table on A100 PCIe: 2 GPUs 1,550 vs 2 x 850 tok/s (0.91), 4 GPUs 2,800 vs
# 4 x 850 (0.82); "efficiency typically drops 10-20% per added GPU".
SCALING_INTRA_NODE_PCIE = Range(low=0.80, high=0.92)
SCALING_INTRA_NODE_PCIE_SOURCE = "seed 004 13B LoRA scaling table (0.91 at 2, 0.82 at 4 GPUs over PCIe)"
SCALING_INTER_NODE_RDMA = Range(low=0.85, high=0.95)
SCALING_INTER_NODE_RDMA_SOURCE = "estimate: data-parallel all-reduce over InfiniBand / RoCE, 2-16 nodes"
# Seed 000: Ethernet step-time degradation from ~15% (small) to ~10x (large all-reduce-heavy jobs).
ETHERNET_STEP_TIME_FACTOR = Range(low=1.15, high=10.0)
ETHERNET_STEP_TIME_FACTOR_SOURCE = "seed 000: Ethernet step-time degradation 15% to ~10x vs InfiniBand"
FAST_SCALE_UP_LINKS = frozenset({"nvlink3", "nvlink4", "nvlink5", "nvlink_c2c", "infinity_fabric", "roce"})

# --- Inference --------------------------------------------------------------------------------------
# Prefill and compute-bound decode reach a share of dense peak similar to training matmuls.
INFERENCE_MFU = Range(low=0.30, high=0.60)
INFERENCE_MFU_SOURCE = "estimate: vLLM / TensorRT-LLM prefill on long prompts reaches ~40-60% of dense peak"
# Decode kernels reach 55-85% of the datasheet memory bandwidth (STREAM-like copies reach ~90%).
DECODE_BANDWIDTH_EFFICIENCY = Range(low=0.55, high=0.85)
DECODE_BANDWIDTH_EFFICIENCY_SOURCE = "estimate: decode kernels achieve 55-85% of datasheet HBM bandwidth"

# Bytes per stored weight value: one table for the whole engine, tools.memory_states.WEIGHT_BYTES
# (nf4 with double quantisation 0.516 B, QLoRA paper; GPTQ int4 g128 0.52 B; int8/fp8 1 B).
BYTES_PER_WEIGHT: dict[str, float] = WEIGHT_BYTES
QUANTISED_WEIGHT_FORMATS = frozenset(QUANTIZED)
# TF32 tensor-core peak is half the BF16 dense peak on A100/H100 (NVIDIA datasheets).
TF32_FRACTION_OF_BF16 = 0.5


class TrainingTime(Traced):
    """Training compute and time for one run. Hours are Ranges (low = optimistic)."""

    flops: float = Field(description="total training FLOPs")
    flops_per_token: float
    flops_factor: float = Field(description="k in k x N x D")
    tokens: float
    active_params: float
    method: TrainingMethod
    n_gpus: int
    peak_tflops_per_gpu: float
    gpu_class: GpuClass
    mfu: Range = Field(description="the MFU band used (before slowdown/scaling/goodput)")
    effective_mfu: Range = Field(description="MFU x scaling x goodput / QLoRA slowdown")
    scaling_efficiency: Range
    gpu_hours: Range
    wall_hours: Range
    gpu_hours_at_peak: float = Field(description="100% MFU, one GPU: the theoretical lower bound (seed 001)")
    wall_hours_at_peak: float


class InferenceEstimate(Traced):
    """Serving throughput of one replica (n_gpus working together) and GPUs for a target rate."""

    n_gpus: int
    concurrency: int
    context_len: int
    prompt_tokens: int
    weight_bytes_read_per_step: float
    kv_bytes_read_per_step: float
    prefill_tokens_per_s: Range
    time_to_first_token_s: Range
    decode_tokens_per_s: Range = Field(description="aggregate over all concurrent sequences")
    decode_tokens_per_s_per_sequence: Range
    decode_bound: Literal["memory_bandwidth", "compute"]
    gpus_needed_for_target: Range | None = Field(default=None, description="integer-valued GPU counts")
    replicas_needed_for_target: Range | None = None


class MaxTokens(Traced):
    """How many tokens a GPU budget can train on."""

    tokens_at_peak: float = Field(description="at 100% MFU: no run can do more")
    tokens: Range = Field(description="at the MFU band")


class ClaimCheck(Traced):
    """Does a claimed 'D tokens in H hours on n GPUs' fit within physics and observed MFU?"""

    required_flops: float
    available_flops_at_peak: float
    implied_mfu: float = Field(description="required / available at peak; > 1 is impossible")
    exceeds_peak_by: float | None = Field(description="factor over the 100%-MFU bound, None when under it")
    mfu_band: Range
    verdict: Verdict
    message: str


# --- helpers ----------------------------------------------------------------------------------------


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


def _method_class(method: TrainingMethod) -> MethodClass:
    return "pretraining" if method == "pretraining" else "fine_tuning"


def _check_method(method: str) -> TrainingMethod:
    if method not in get_args(TrainingMethod):
        raise InputError(
            f"unknown training method {method!r}: use one of {', '.join(get_args(TrainingMethod))}"
        )
    return method  # type: ignore[return-value]


def _check_positive(**values: float) -> None:
    for name, v in values.items():
        if not (isinstance(v, int | float) and math.isfinite(v) and v > 0):
            raise InputError(f"{name} must be a positive number, got {v!r}")


def mfu_range_for(*, gpu: GpuSpec, method: TrainingMethod) -> Range:
    """The named MFU band for this GPU's class and the method's class."""
    return MFU_RANGES[(gpu_class_of(gpu), _method_class(method))]


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


def scaling_efficiency_for(
    *, gpu: GpuSpec, n_gpus: int, gpus_per_node: int, scale_out: ScaleOut, method: TrainingMethod
) -> tuple[Range, list[tuple[str, str, str]]]:
    """Multi-GPU scaling efficiency and the (name, value, source) assumptions it rests on."""
    used: list[tuple[str, str, str]] = []
    if n_gpus == 1:
        return _UNITY, used
    fast = gpu.scale_up_link in FAST_SCALE_UP_LINKS
    if fast:
        intra = SCALING_INTRA_NODE_FAST
        used.append(("scaling_intra_node_fast", f"{intra.low}-{intra.high}", SCALING_INTRA_NODE_FAST_SOURCE))
    else:
        intra = SCALING_INTRA_NODE_PCIE
        used.append(("scaling_intra_node_pcie", f"{intra.low}-{intra.high}", SCALING_INTRA_NODE_PCIE_SOURCE))
    if method == "pretraining" and fast:
        # The pretraining MFU band is measured on whole clusters: fast-fabric scaling losses are in it.
        intra = Range(low=1.0, high=1.0)
        used.append(("scaling_in_pretraining_mfu", "1.0", "pretraining MFU band is cluster-measured"))
    if n_gpus <= gpus_per_node:
        return intra, used
    if scale_out in ("infiniband", "roce"):
        inter = SCALING_INTER_NODE_RDMA if method != "pretraining" else Range(low=1.0, high=1.0)
        used.append(("scaling_inter_node_rdma", f"{inter.low}-{inter.high}", SCALING_INTER_NODE_RDMA_SOURCE))
    else:
        f = ETHERNET_STEP_TIME_FACTOR
        inter = Range(low=1.0 / f.high, high=1.0 / f.low)
        used.append(("ethernet_step_time_factor", f"{f.low}-{f.high}", ETHERNET_STEP_TIME_FACTOR_SOURCE))
    return Range(low=intra.low * inter.low, high=intra.high * inter.high), used


def attention_flops_per_token(*, arch: ModelArch, seq_len: int) -> float:
    """PaLM App. B attention term: 12 x layers x attention width x seq_len per trained token."""
    width = arch.n_heads * (
        (arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0) if arch.uses_mla else arch.head_dim
    )
    return ATTENTION_TRAIN_FLOPS_COEFF * arch.n_layers * width * seq_len


# --- training ---------------------------------------------------------------------------------------


def estimate_training_time(
    *,
    active_params: float,
    tokens: float,
    method: TrainingMethod,
    grad_checkpointing: bool,
    gpu: GpuSpec,
    n_gpus: int,
    precision: ComputePrecision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
    gpus_per_node: int | None = None,
    scale_out: ScaleOut = "infiniband",
    scaling_efficiency: Range | None = None,
    qlora_slowdown: Range | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    traced: bool = True,
) -> TrainingTime:
    """GPU-hours and wall-clock hours of a training run, as Ranges, plus seed 001's 100%-MFU bound.

    active_params: parameters used per token (MoE: active, not total). tokens: dataset tokens x
    epochs. flops_factor overrides k (seed 001 uses 6 even for QLoRA). With `arch` and `seq_len`
    the PaLM attention term is added to the FLOPs (the 6ND rule omits it). QLoRA's dequantisation
    slowdown multiplies time, not FLOPs. `traced=False`: the same numbers with an empty trace and no
    assumptions (UntracedBuilder), for callers that only compare figures.
    """
    method = _check_method(method)
    _check_positive(active_params=active_params, tokens=tokens)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    per_node = gpus_per_node or min(n_gpus, gpu.max_gpus_per_node)
    if per_node < 1:
        raise InputError(f"gpus_per_node must be >= 1, got {gpus_per_node!r}")
    tb = TraceBuilder() if traced else UntracedBuilder()

    if flops_factor is None:
        k = training_flops_factor(method=method, grad_checkpointing=grad_checkpointing)
        formula = "6 (full/pretraining) or 4 (LoRA/QLoRA: no weight gradients) + 2 if full recompute"
        src = "Kaplan et al. 2020; EleutherAI Transformers Math 101; estimators.md"
    else:
        _check_positive(flops_factor=flops_factor)
        k = flops_factor
        formula = "caller's override"
        src = "caller"
    tb.step(
        "flops_factor",
        formula,
        k,
        "FLOPs/(param x token)",
        src,
        method=method,
        grad_checkpointing=grad_checkpointing,
    )
    per_token = tb.step(
        "dense_flops_per_token",
        "k x N_active",
        k * active_params,
        "FLOPs/token",
        k=k,
        active_params=active_params,
    )
    if arch is not None and seq_len is not None:
        _check_positive(seq_len=seq_len)
        attn = attention_flops_per_token(arch=arch, seq_len=seq_len)
        if grad_checkpointing and flops_factor is None:
            attn *= ATTENTION_RECOMPUTE_FACTOR
        per_token = tb.step(
            "flops_per_token",
            "k x N_active + 12 x layers x attn_width x seq_len",
            per_token + attn,
            "FLOPs/token",
            "PaLM (Chowdhery et al. 2022) App. B",
            attention_flops_per_token=attn,
            seq_len=seq_len,
        )
    flops = tb.step(
        "training_flops",
        "flops_per_token x tokens",
        per_token * tokens,
        "FLOPs",
        flops_per_token=per_token,
        tokens=tokens,
    )

    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    peak_flops = tflops_to_flops(peak)
    at_peak = tb.step(
        "gpu_hours_at_peak",
        "flops / (peak_flops x 3600)",
        seconds_to_hours(flops / peak_flops),
        "GPU-hours",
        "seed 001: divides by peak (MFU = 100%): theoretical lower bound",
        flops=flops,
        peak_tflops=peak,
    )

    cls = gpu_class_of(gpu)
    if mfu_range is None:
        mfu = mfu_range_for(gpu=gpu, method=method)
        tb.assume(
            f"mfu_{cls}_{_method_class(method)}",
            f"{mfu.low:.2f}-{mfu.high:.2f}",
            "fraction of peak",
            MFU_SOURCES[(cls, _method_class(method))],
        )
    else:
        if not (mfu_range.low > 0 and mfu_range.high <= 1):
            raise InputError(f"mfu_range must lie in (0, 1], got {mfu_range.low}-{mfu_range.high}")
        mfu = mfu_range
        tb.assume("mfu", f"{mfu.low:.2f}-{mfu.high:.2f}", "fraction of peak", "caller")

    if scaling_efficiency is None:
        scaling, used = scaling_efficiency_for(
            gpu=gpu, n_gpus=n_gpus, gpus_per_node=per_node, scale_out=scale_out, method=method
        )
        for name, value, source in used:
            tb.assume(name, value, "fraction", source)
    else:
        scaling = scaling_efficiency
        tb.assume("scaling_efficiency", f"{scaling.low}-{scaling.high}", "fraction", "caller")
    tb.step(
        "scaling_efficiency",
        "throughput(n) / (n x throughput(1))",
        scaling.mid,
        "fraction",
        n_gpus=n_gpus,
        gpus_per_node=per_node,
        scale_out=scale_out,
        low=scaling.low,
        high=scaling.high,
    )

    goodput = _UNITY
    if method == "pretraining":
        goodput = PRETRAINING_GOODPUT
        tb.assume(
            "pretraining_goodput", f"{goodput.low}-{goodput.high}", "fraction", PRETRAINING_GOODPUT_SOURCE
        )
    slowdown = _UNITY
    if method == "qlora":
        slowdown = qlora_slowdown or QLORA_DEQUANT_SLOWDOWN
        tb.assume(
            "qlora_dequant_slowdown",
            f"{slowdown.low}-{slowdown.high}",
            "x LoRA time",
            QLORA_DEQUANT_SLOWDOWN_SOURCE if qlora_slowdown is None else "caller",
        )

    eff = Range(
        low=mfu.low * scaling.low * goodput.low / slowdown.high,
        high=mfu.high * scaling.high * goodput.high / slowdown.low,
    )
    tb.step(
        "effective_mfu",
        "mfu x scaling_efficiency x goodput / qlora_slowdown",
        eff.mid,
        "fraction",
        mfu_low=mfu.low,
        mfu_high=mfu.high,
        goodput_low=goodput.low,
        goodput_high=goodput.high,
        slowdown_low=slowdown.low,
        slowdown_high=slowdown.high,
        low=eff.low,
        high=eff.high,
    )
    gpu_hours = Range(low=at_peak / eff.high, high=at_peak / eff.low)
    tb.step(
        "gpu_hours_low",
        "gpu_hours_at_peak / effective_mfu_high",
        gpu_hours.low,
        "GPU-hours",
        gpu_hours_at_peak=at_peak,
        effective_mfu_high=eff.high,
    )
    tb.step(
        "gpu_hours_high",
        "gpu_hours_at_peak / effective_mfu_low",
        gpu_hours.high,
        "GPU-hours",
        gpu_hours_at_peak=at_peak,
        effective_mfu_low=eff.low,
    )
    wall = gpu_hours.scale(1.0 / n_gpus)
    tb.step("wall_hours_low", "gpu_hours_low / n_gpus", wall.low, "h", n_gpus=n_gpus)
    tb.step("wall_hours_high", "gpu_hours_high / n_gpus", wall.high, "h", n_gpus=n_gpus)

    return TrainingTime(
        flops=flops,
        flops_per_token=per_token,
        flops_factor=k,
        tokens=tokens,
        active_params=active_params,
        method=method,
        n_gpus=n_gpus,
        peak_tflops_per_gpu=peak,
        gpu_class=cls,
        mfu=mfu,
        effective_mfu=eff,
        scaling_efficiency=scaling,
        gpu_hours=gpu_hours,
        wall_hours=wall,
        gpu_hours_at_peak=at_peak,
        wall_hours_at_peak=at_peak / n_gpus,
        **tb.fields(),
    )


def _available_flops_at_peak(
    *, gpu: GpuSpec, precision: str, n_gpus: int, hours: float, tb: TraceBuilder
) -> float:
    """FLOPs that n_gpus can do in `hours` at 100% MFU (dense datasheet peak; seed 001's bound)."""
    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    return tb.step(
        "available_flops_at_peak",
        "n_gpus x peak_flops x hours x 3600",
        n_gpus * tflops_to_flops(peak) * hours * SECONDS_PER_HOUR,
        "FLOPs",
        n_gpus=n_gpus,
        peak_tflops=peak,
        hours=hours,
    )


def max_training_tokens(
    *,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: ComputePrecision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
) -> MaxTokens:
    """Tokens n GPUs can train on in `hours`: at 100% MFU (a hard bound) and at the MFU band."""
    method = _check_method(method)
    _check_positive(hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    tb = TraceBuilder()
    k = flops_factor or training_flops_factor(method=method, grad_checkpointing=grad_checkpointing)
    tb.step(
        "flops_factor",
        "6 full / 4 LoRA-QLoRA (+2 recompute) or override",
        k,
        "FLOPs/(param x token)",
        method=method,
        grad_checkpointing=grad_checkpointing,
    )
    available = _available_flops_at_peak(gpu=gpu, precision=precision, n_gpus=n_gpus, hours=hours, tb=tb)
    at_peak = tb.step(
        "tokens_at_peak",
        "available_flops / (k x N_active)",
        available / (k * active_params),
        "tokens",
        k=k,
        active_params=active_params,
    )
    mfu = mfu_range or mfu_range_for(gpu=gpu, method=method)
    tb.assume(
        "mfu",
        f"{mfu.low:.2f}-{mfu.high:.2f}",
        "fraction of peak",
        "caller" if mfu_range else MFU_SOURCES[(gpu_class_of(gpu), _method_class(method))],
    )
    slowdown = QLORA_DEQUANT_SLOWDOWN if method == "qlora" else Range(low=1.0, high=1.0)
    if method == "qlora":
        tb.assume(
            "qlora_dequant_slowdown", f"{slowdown.low}-{slowdown.high}", "x", QLORA_DEQUANT_SLOWDOWN_SOURCE
        )
    tokens = Range(low=at_peak * mfu.low / slowdown.high, high=at_peak * mfu.high / slowdown.low)
    tb.step(
        "tokens_at_mfu_band",
        "tokens_at_peak x mfu / qlora_slowdown",
        tokens.mid,
        "tokens",
        low=tokens.low,
        high=tokens.high,
    )
    return MaxTokens(tokens_at_peak=at_peak, tokens=tokens, **tb.fields())


def check_claim(
    *,
    tokens: float,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: ComputePrecision = "bf16",
    flops_factor: float | None = None,
) -> ClaimCheck:
    """Physics check of a claim 'trains `tokens` in `hours` on n x gpu'.

    implied MFU = required FLOPs / (n x peak x hours). Above 1 the claim is impossible (by that
    factor); above the MFU band's high end it is implausible; otherwise plausible. The FLOPs use the
    cheapest honest count (no recompute unless stated), so the verdict is generous to the claim.
    """
    method = _check_method(method)
    _check_positive(tokens=tokens, hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    tb = TraceBuilder()
    k = flops_factor or training_flops_factor(method=method, grad_checkpointing=grad_checkpointing)
    required = tb.step(
        "required_flops",
        "k x N_active x tokens",
        k * active_params * tokens,
        "FLOPs",
        k=k,
        active_params=active_params,
        tokens=tokens,
    )
    available = _available_flops_at_peak(gpu=gpu, precision=precision, n_gpus=n_gpus, hours=hours, tb=tb)
    implied = tb.step(
        "implied_mfu",
        "required_flops / available_flops_at_peak",
        required / available,
        "fraction of peak",
        required_flops=required,
        available_flops=available,
    )
    band = mfu_range_for(gpu=gpu, method=method)
    tb.assume(
        "mfu",
        f"{band.low:.2f}-{band.high:.2f}",
        "fraction of peak",
        MFU_SOURCES[(gpu_class_of(gpu), _method_class(method))],
    )
    # QLoRA runs slower than its FLOPs suggest: the plausible ceiling is the band's high / slowdown.
    ceiling = band.high / (QLORA_DEQUANT_SLOWDOWN.low if method == "qlora" else 1.0)
    claim = f"{present.count(tokens)} tokens in {hours:g} h on {n_gpus}x {gpu.name}"
    if implied > 1.0:
        verdict: Verdict = "impossible"
        exceeds: float | None = implied
        msg = (
            f"{claim} is impossible: it needs {implied:.1f}x the GPUs' peak FLOPs even at 100% MFU "
            f"({present.scientific(required)} FLOPs needed, {present.scientific(available)} available)."
        )
    elif implied > ceiling:
        verdict, exceeds = "implausible", None
        msg = f"{claim} implies {implied:.0%} MFU, above the {ceiling:.0%} that such runs reach in practice."
    else:
        verdict, exceeds = "plausible", None
        msg = (
            f"{claim} implies {implied:.0%} MFU, within what such runs reach ({band.low:.0%}-{ceiling:.0%})."
        )
    tb.steps.append(
        TraceStep(
            step="verdict",
            formula="impossible if implied_mfu > 1; implausible if > mfu_high",
            inputs={"implied_mfu": implied, "mfu_high": ceiling},
            output=verdict,
        )
    )
    return ClaimCheck(
        required_flops=required,
        available_flops_at_peak=available,
        implied_mfu=implied,
        exceeds_peak_by=exceeds,
        mfu_band=band,
        verdict=verdict,
        message=msg,
        **tb.fields(),
    )


# --- inference --------------------------------------------------------------------------------------


def weight_bytes(*, arch: ModelArch, precision: str) -> float:
    """Bytes of all weights: quantised formats apply to the layers' linear weights only; embeddings,
    head and norms stay 16-bit (bitsandbytes / GPTQ / AWQ practice)."""
    if precision not in BYTES_PER_WEIGHT:
        raise InputError(f"unknown precision {precision!r}: use one of {', '.join(BYTES_PER_WEIGHT)}")
    return stored_weight_bytes(arch, precision)  # the formula lives in tools.memory_states


def _moe_fraction_touched(*, arch: ModelArch, tokens_per_step: int) -> float:
    """Expected share of routed experts a decode step reads with `tokens_per_step` tokens routed
    independently and uniformly: 1 - (1 - k/E)^B."""
    assert arch.n_experts is not None
    k = arch.n_active_experts or arch.n_experts
    return 1.0 - (1.0 - k / arch.n_experts) ** tokens_per_step


def estimate_inference(
    *,
    arch: ModelArch,
    gpu: GpuSpec,
    n_gpus: int,
    precision: ComputePrecision,
    concurrency: int,
    context_len: int,
    prompt_tokens: int | None = None,
    target_tokens_per_s: float | None = None,
    kv_precision: Literal["bf16", "fp16", "fp8", "fp32"] = "bf16",
    inference_mfu: Range | None = None,
    bandwidth_efficiency: Range | None = None,
    pipeline_stages: int = 1,
) -> InferenceEstimate:
    """Prefill and decode throughput of one replica of `n_gpus` GPUs: tensor parallel inside each of
    `pipeline_stages` pipeline stages (n_gpus / pipeline_stages GPUs per stage).

    Decode step time = max(bytes read / (n x bandwidth x eff), FLOPs / (n x peak x mfu)), where
    bytes = pipeline_stages x weights read once per step (MoE: the experts the step's tokens touch)
    + concurrency x KV cache of `context_len` tokens (the worst case, at the end of each sequence).
    Pipeline parallelism does not shorten a token's trip through the model: with the concurrent
    sequences split into pp micro-batches, each stage reads its 1/pp of the weights once per
    micro-batch, pp times per step, so the weights cost pp x W over all GPUs' bandwidth (tensor
    parallelism across the same GPUs would read W once). pp = 1 is the tensor-parallel case.
    """
    for name, v in (
        ("n_gpus", n_gpus),
        ("concurrency", concurrency),
        ("context_len", context_len),
        ("pipeline_stages", pipeline_stages),
    ):
        if not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")
    if n_gpus % pipeline_stages:
        raise InputError(f"pipeline_stages ({pipeline_stages}) must divide n_gpus ({n_gpus})")
    prompt = prompt_tokens if prompt_tokens is not None else context_len
    if not isinstance(prompt, int) or prompt < 1:
        raise InputError(f"prompt_tokens must be a whole number >= 1, got {prompt!r}")
    if target_tokens_per_s is not None:
        _check_positive(target_tokens_per_s=target_tokens_per_s)
    tb = TraceBuilder()
    mfu = inference_mfu or INFERENCE_MFU
    eff = bandwidth_efficiency or DECODE_BANDWIDTH_EFFICIENCY
    tb.assume(
        "inference_mfu",
        f"{mfu.low}-{mfu.high}",
        "fraction of peak",
        "caller" if inference_mfu else INFERENCE_MFU_SOURCE,
    )
    tb.assume(
        "decode_bandwidth_efficiency",
        f"{eff.low}-{eff.high}",
        "fraction of datasheet",
        "caller" if bandwidth_efficiency else DECODE_BANDWIDTH_EFFICIENCY_SOURCE,
    )

    active = float(arch.active_param_count())
    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    replica_flops = n_gpus * tflops_to_flops(peak)
    width = arch.n_heads * (
        (arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0) if arch.uses_mla else arch.head_dim
    )

    # Prefill: 2 x N_active per token plus causal attention 2 x layers x width x prompt (avg s/2 keys,
    # QK and AV each 2 x width FLOPs per key).
    prefill_per_token = tb.step(
        "prefill_flops_per_token",
        "2 x N_active + 2 x layers x attn_width x prompt",
        2 * active + 2 * arch.n_layers * width * prompt,
        "FLOPs/token",
        "Kaplan et al. 2020 (2N forward)",
        active_params=active,
        prompt_tokens=prompt,
    )
    prefill = Range(
        low=replica_flops * mfu.low / prefill_per_token, high=replica_flops * mfu.high / prefill_per_token
    )
    tb.step(
        "prefill_tokens_per_s",
        "n_gpus x peak_flops x mfu / prefill_flops_per_token",
        prefill.mid,
        "tokens/s",
        n_gpus=n_gpus,
        peak_tflops=peak,
        low=prefill.low,
        high=prefill.high,
    )
    ttft = Range(low=prompt / prefill.high, high=prompt / prefill.low)
    tb.step(
        "time_to_first_token_s",
        "prompt_tokens / prefill_tokens_per_s",
        ttft.mid,
        "s",
        low=ttft.low,
        high=ttft.high,
    )

    # Decode: bytes per step.
    w_total = weight_bytes(arch=arch, precision=precision)
    if not arch.tied_embeddings:  # the input embedding is a row lookup, not a full read
        quantised = precision in QUANTISED_WEIGHT_FORMATS
        emb_bytes = UNQUANTIZED_BYTES if quantised else BYTES_PER_WEIGHT[precision]
        w_total -= arch.vocab_size * arch.hidden_size * emb_bytes
    if arch.is_moe and arch.n_experts and arch.n_active_experts and arch.n_active_experts < arch.n_experts:
        total_p, active_p = float(arch.param_count()), active
        e, k = arch.n_experts, arch.n_active_experts
        routed_total = (total_p - active_p) * e / (e - k)
        frac = _moe_fraction_touched(arch=arch, tokens_per_step=concurrency)
        read_share = ((total_p - routed_total) + routed_total * frac) / total_p
        tb.assume(
            "moe_routing", "uniform, independent per token", "", "estimate: 1 - (1 - k/E)^B experts touched"
        )
        w_read = tb.step(
            "weight_bytes_read_per_step",
            "weight_bytes x (shared + routed x (1-(1-k/E)^B)) / total",
            w_total * read_share,
            "bytes",
            weight_bytes=w_total,
            experts=e,
            active_experts=k,
            concurrency=concurrency,
            routed_fraction_touched=frac,
        )
    else:
        w_read = tb.step(
            "weight_bytes_read_per_step", "all weights once per step", w_total, "bytes", precision=precision
        )
    kv_bytes_value = BYTES_PER_WEIGHT[kv_precision]
    kv_per_seq = arch.kv_cache_bytes(context_len, kv_bytes_value)
    kv_read = tb.step(
        "kv_bytes_read_per_step",
        "concurrency x kv_cache_bytes(context_len)",
        concurrency * kv_per_seq,
        "bytes",
        "seed 001: 2 x layers x kv_heads x head_dim x tokens x bytes",
        concurrency=concurrency,
        context_len=context_len,
        kv_bytes_per_value=kv_bytes_value,
    )
    bw = n_gpus * gb_to_bytes(1000 * gpu.memory_bandwidth_tb_per_s)  # TB/s -> bytes/s (1 TB = 1000 GB)
    step_bytes = pipeline_stages * w_read + kv_read
    mem_s = Range(low=step_bytes / (bw * eff.high), high=step_bytes / (bw * eff.low))
    tb.step(
        "decode_step_memory_s",
        "(pipeline_stages x weight_bytes + kv_bytes) / (n_gpus x bandwidth x efficiency)",
        mem_s.mid,
        "s",
        bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        n_gpus=n_gpus,
        pipeline_stages=pipeline_stages,
        low=mem_s.low,
        high=mem_s.high,
    )
    decode_flops = concurrency * (2 * active + 4 * arch.n_layers * width * context_len)
    cmp_s = Range(
        low=decode_flops / (replica_flops * mfu.high), high=decode_flops / (replica_flops * mfu.low)
    )
    tb.step(
        "decode_step_compute_s",
        "concurrency x (2 N_active + 4 x layers x width x context) / (peak x mfu)",
        cmp_s.mid,
        "s",
        decode_flops=decode_flops,
        low=cmp_s.low,
        high=cmp_s.high,
    )
    step = Range(low=max(mem_s.low, cmp_s.low), high=max(mem_s.high, cmp_s.high))
    bound: Literal["memory_bandwidth", "compute"] = (
        "memory_bandwidth" if mem_s.mid >= cmp_s.mid else "compute"
    )
    tb.step(
        "decode_step_s",
        "max(memory time, compute time); bound = " + bound,
        step.mid,
        "s",
        low=step.low,
        high=step.high,
    )
    per_seq = Range(low=1.0 / step.high, high=1.0 / step.low)
    agg = per_seq.scale(concurrency)
    tb.step(
        "decode_tokens_per_s",
        "concurrency / decode_step_s",
        agg.mid,
        "tokens/s",
        concurrency=concurrency,
        low=agg.low,
        high=agg.high,
    )

    gpus_needed = replicas = None
    if target_tokens_per_s is not None:
        replicas = Range(
            low=math.ceil(target_tokens_per_s / agg.high), high=math.ceil(target_tokens_per_s / agg.low)
        )
        gpus_needed = replicas.scale(n_gpus)
        tb.step(
            "gpus_needed_for_target",
            "ceil(target / decode_tokens_per_s) x n_gpus",
            gpus_needed.high,
            "GPUs",
            target_tokens_per_s=target_tokens_per_s,
            n_gpus=n_gpus,
            low=gpus_needed.low,
            high=gpus_needed.high,
        )

    return InferenceEstimate(
        n_gpus=n_gpus,
        concurrency=concurrency,
        context_len=context_len,
        prompt_tokens=prompt,
        weight_bytes_read_per_step=w_read,
        kv_bytes_read_per_step=kv_read,
        prefill_tokens_per_s=prefill,
        time_to_first_token_s=ttft,
        decode_tokens_per_s=agg,
        decode_tokens_per_s_per_sequence=per_seq,
        decode_bound=bound,
        gpus_needed_for_target=gpus_needed,
        replicas_needed_for_target=replicas,
        **tb.fields(),
    )
