"""Training compute and time (tools.compute.estimate_training_time's model):

    flops          = k x N_active x D  (+ attention term when the architecture is given)
                     k = 6 full / pretraining, 4 LoRA / QLoRA, +2 with full activation recompute
    gpu_hours      = flops / (peak_flops x MFU x scaling_efficiency x goodput) x qlora_slowdown / 3600
    wall_hours     = gpu_hours / n_gpus
    gpu_hours_at_peak = flops / peak_flops / 3600   (seed 001's figure: MFU = 100%, a lower bound)

Each factor is a named, sourced constant (here or in tools.compute.flops). Ranges are low-high; the
low end of a time is the high end of an efficiency.
"""

from __future__ import annotations

from pydantic import Field

from tools.catalog.schema import GpuSpec, ModelArch, ScaleOut
from tools.compute.flops import (
    ATTENTION_RECOMPUTE_FACTOR,
    MFU_SOURCES,
    QLORA_DEQUANT_SLOWDOWN,
    QLORA_DEQUANT_SLOWDOWN_SOURCE,
    GpuClass,
    attention_flops_per_token,
    check_positive,
    check_training_method,
    gpu_class_of,
    method_class,
    mfu_range_for,
    peak_tflops,
    training_flops_factor,
)
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, UntracedBuilder
from tools.units import seconds_to_hours, tflops_to_flops
from tools.vocabulary import Framework, Precision, TrainingMethod

_UNITY = Range(low=1.0, high=1.0)
"""The factor 1 as a range (no goodput loss, no slowdown, one GPU): frozen, so shared."""

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
    # PLACEHOLDER (wt-timecli): the time-model branch (wt-time) defines these three; its merge replaces them
    framework: Framework | None = Field(default=None, description="training stack; None = generic band")
    tokens_per_s_per_gpu: Range = Field(description="training tokens per second per GPU (low = slow end)")
    narrowing: list[str] = Field(default_factory=list, description="what would narrow the range, in words")


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


def estimate_training_time(
    *,
    active_params: float,
    tokens: float,
    method: TrainingMethod,
    grad_checkpointing: bool,
    gpu: GpuSpec,
    n_gpus: int,
    precision: Precision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
    gpus_per_node: int | None = None,
    scale_out: ScaleOut = "infiniband",
    scaling_efficiency: Range | None = None,
    qlora_slowdown: Range | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    framework: Framework | None = None,  # PLACEHOLDER (wt-timecli): recorded, not yet in the arithmetic
    batch_size: int | None = None,  # PLACEHOLDER (wt-timecli): recorded, not yet in the arithmetic
    traced: bool = True,
) -> TrainingTime:
    """GPU-hours and wall-clock hours of a training run, as Ranges, plus seed 001's 100%-MFU bound.

    active_params: parameters used per token (MoE: active, not total). tokens: dataset tokens x
    epochs. flops_factor overrides k (seed 001 uses 6 even for QLoRA). With `arch` and `seq_len`
    the PaLM attention term is added to the FLOPs (the 6ND rule omits it). QLoRA's dequantisation
    slowdown multiplies time, not FLOPs. `traced=False`: the same numbers with an empty trace and no
    assumptions (UntracedBuilder), for callers that only compare figures.
    """
    method = check_training_method(method)
    check_positive(active_params=active_params, tokens=tokens)
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
        check_positive(flops_factor=flops_factor)
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
        check_positive(seq_len=seq_len)
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
            f"mfu_{cls}_{method_class(method)}",
            f"{mfu.low:.2f}-{mfu.high:.2f}",
            "fraction of peak",
            MFU_SOURCES[(cls, method_class(method))],
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
        # PLACEHOLDER (wt-timecli) from here to the closing bracket: wt-time's merge replaces it
        framework=framework,
        tokens_per_s_per_gpu=Range(
            low=tokens / (gpu_hours.high * 3600), high=tokens / (gpu_hours.low * 3600)
        ),
        narrowing=_narrowing_placeholder(framework=framework, batch_size=batch_size),
        **tb.fields(),
    )


def _narrowing_placeholder(*, framework: Framework | None, batch_size: int | None) -> list[str]:
    """PLACEHOLDER (wt-timecli): what would narrow the range; wt-time's model replaces this function."""
    out = []
    if framework is None:
        out.append("the training framework you use (hf, deepspeed, axolotl, unsloth, megatron, ...)")
    if batch_size is None:
        out.append("the micro-batch size per GPU")
    out.append("tokens/s per GPU measured over a few hundred steps of your own run")
    return out
