"""Parallelism overheads the MFU bands do not carry: the pipeline bubble and communication-bound steps.

    pipeline efficiency = v x m / (v x m + p - 1)        p stages, m micro-batches, v virtual stages
    comm cap (tokens/s/GPU) = tokens_per_micro_batch x bus_bandwidth
                              / (bytes gathered and reduced per parameter x N_total x (dp - 1) / dp)
    tokens/s/GPU = min(compute rate, comm cap)           (FSDP prefetch overlaps the two: a max of times)

The comm cap is for ZeRO-3 / FSDP, which all-gather every weight in the forward and again in the
backward of every micro-batch and reduce-scatter the gradients; tensor and pipeline parallelism
divide both the FLOPs and the gathered shard per GPU, so they cancel out of the cap. With NVLink
and a few thousand tokens per micro-batch the cap sits far above the compute rate (the fitted
bands' 8- to 1,024-GPU runs are unchanged); it binds on PCIe and with few tokens per micro-batch.

Data parallelism without weight sharding synchronises once per optimizer step instead:

    step sync cap (tokens/s/GPU) = tokens_per_optimizer_step x bus_bandwidth
                                   / (bytes synchronised per parameter x N_trained x (dp - 1) / dp)
    tokens_per_optimizer_step = micro-batch tokens x micro-batches per step (gradient accumulation, or
                                a pipeline's m micro-batches: 4-8 per stage when unstated)
    DDP:      the gradient all-reduce overlaps the backward (bucketed): min(compute rate, sync cap)
    ZeRO-1/2: DeepSpeed reduce-scatters the gradients and all-gathers the updated weights around the
              optimizer step, not overlapped by default: 1 / (1 / compute rate + 1 / sync cap)

DeepSpeed's ZeRO collectives (many per-module buckets, each a separate NCCL call) reach a smaller share
of the link than the large-message NCCL figure BUS_BANDWIDTH_EFFICIENCY: DEEPSPEED_BUS_EFFICIENCY, when
the framework is named deepspeed.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.catalog.schema import GpuSpec
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.units import gb_to_bytes

PIPELINE_BUBBLE_SOURCE = (
    "Narayanan et al. 2021 (Megatron-LM, SC21) sec. 2.2: bubble = (p - 1) / (v x m) of the ideal time"
)
# When the plan does not say how many micro-batches fill the pipeline: GPipe (Huang et al. 2019)
# finds the bubble "negligible when M >= 4 x K" (K stages); the high end assumes twice that batch.
PIPELINE_MICRO_BATCHES_PER_STAGE = Range(low=4.0, high=8.0)
PIPELINE_MICRO_BATCHES_SOURCE = (
    "GPipe (Huang et al. 2019): bubble negligible when micro-batches >= 4 x stages"
)


def pipeline_efficiency(*, stages: int, micro_batches: float, virtual_stages: int = 1) -> float:
    """Share of the step the pipeline is busy: v m / (v m + p - 1) (1 when p = 1)."""
    if stages < 1 or virtual_stages < 1 or micro_batches <= 0:
        raise InputError(
            f"pipeline needs stages, virtual stages >= 1 and micro-batches > 0, got {stages}, "
            f"{virtual_stages}, {micro_batches}"
        )
    vm = virtual_stages * micro_batches
    return float(vm / (vm + stages - 1))


def _pipeline_micro_batches(stages: int, micro_batches: int | None) -> Range:
    """Micro-batches per optimizer step of a pipeline: the stated count, else 4-8 per stage (GPipe)."""
    if micro_batches is not None:
        return Range(low=float(micro_batches), high=float(micro_batches))
    per = PIPELINE_MICRO_BATCHES_PER_STAGE
    return Range(low=per.low * stages, high=per.high * stages)


def pipeline_efficiency_range(*, stages: int, micro_batches: int | None, virtual_stages: int = 1) -> Range:
    """The pipeline efficiency for a stated micro-batch count, else for 4-8 micro-batches per stage."""
    if micro_batches is not None:
        e = pipeline_efficiency(stages=stages, micro_batches=micro_batches, virtual_stages=virtual_stages)
        return Range(low=e, high=e)
    per = PIPELINE_MICRO_BATCHES_PER_STAGE
    return Range(
        low=pipeline_efficiency(stages=stages, micro_batches=per.low * stages, virtual_stages=virtual_stages),
        high=pipeline_efficiency(
            stages=stages, micro_batches=per.high * stages, virtual_stages=virtual_stages
        ),
    )


# --- collective bandwidth -------------------------------------------------------------------------
# nccl-tests bus bandwidth at large sizes over the link's one-direction rate: 8x A100 SXM NVLink 3
# 230-250 of 300 GB/s (0.77-0.83); 8x H100 PCIe 35-45 of 64 GB/s (0.55-0.70).
BUS_BANDWIDTH_EFFICIENCY = Range(low=0.55, high=0.83)
BUS_BANDWIDTH_SOURCE = (
    "nccl-tests busbw reference table (docs.alayanew.com 'NCCL-tests in practice', 2026): "
    "A100 SXM 230-250 GB/s of 300, H100 PCIe 35-45 GB/s of 64"
)
# DeepSpeed ZeRO (shardings zero1 / zero2 / zero3): the collective time a step actually spends, over the
# link's one-direction rate. Low end: DeepSpeed PR #1188 (2021), 5.1B-parameter BERT on 8x A100 NVLink
# (p4d): ZeRO-3 adds ~210 ms to the forward (8.9 GB of FP16 gathers: ~42 GB/s = 0.14 of 300 GB/s) and
# ~550 ms to the backward (17.8 GB gathered and reduce-scattered: ~32 GB/s = 0.11). High end: the
# PaddleNLP PEFT benchmark's HF Trainer + DeepSpeed runs on 4x A100-80G (2023; development rows of
# bench/data/training_throughput_fresh2.yaml on Alpaca, whose lengths are published: the rate that puts
# the estimate's middle on the published figure, padding and compute in): ZeRO-2 0.18-0.21, ZeRO-3 0.20.
# DeepSpeed issue #5047 (2024) traces the gap to ZeRO-3 launching an all-gather per small module.
DEEPSPEED_BUS_EFFICIENCY = Range(low=0.11, high=0.21)
DEEPSPEED_BUS_SOURCE = (
    "DeepSpeed PR #1188 (ZeRO-3 on 8x A100 NVLink: 0.11-0.14 of the link); PaddleNLP PEFT benchmark "
    "HF Trainer + DeepSpeed ZeRO-2/3 on 4x A100 (0.18-0.21)"
)
ZERO_SHARDINGS = frozenset({"zero1", "zero2", "zero3"})
"""DeepSpeed's ZeRO stages (FSDP is PyTorch's own sharding, on NCCL's large-message rate)."""
DEEPSPEED_FRAMEWORKS = frozenset({"deepspeed"})
"""Frameworks whose ZeRO stages are DeepSpeed's (the vocabulary's 'deepspeed': HF Trainer + DeepSpeed,
Megatron-DeepSpeed)."""
GATHER_SHARDINGS = frozenset({"zero3", "fsdp"})
"""Shardings that gather every weight per micro-batch."""
STEP_SYNC_SHARDINGS = frozenset({"ddp", "zero1", "zero2"})
"""Shardings that synchronise the gradients once per optimizer step."""
EXPOSED_SYNC_SHARDINGS = frozenset({"zero1", "zero2"})
"""Step syncs that add to the step time: DeepSpeed's overlap_comm defaults to false for stages 1-2
(DeepSpeed configuration JSON docs); PyTorch DDP overlaps its bucketed all-reduce with the backward."""
ZERO_GRADIENT_REDUCE_BYTES = 2.0
"""DeepSpeed communicates gradients in the model's 16-bit dtype unless communication_data_type says
otherwise (deepspeed/runtime/config.py get_communication_data_type)."""

# One RDMA NIC per GPU, as in the reference nodes: DGX A100 8x ConnectX-6 HDR 200 Gb/s; DGX H100 /
# DGX B200 8x ConnectX-7 400 Gb/s (torchtitan's Grand Teton hosts: "400 Gb/s per GPU").
SCALE_OUT_GB_PER_S_PER_GPU_HOPPER_ON = 50.0
SCALE_OUT_GB_PER_S_PER_GPU_OTHER = 25.0
SCALE_OUT_SOURCE = (
    "DGX A100 (8x HDR 200 Gb/s) and DGX H100/B200 (8x NDR 400 Gb/s) user guides: one NIC per GPU"
)

# Bytes moved per parameter per micro-batch under ZeRO-3 / FSDP: the forward and backward all-gathers
# of the stored weights (2 x bytes per weight) plus the gradient reduce-scatter of the trained ones.
STEP_SYNC_SOURCE = (
    "ring all-reduce / reduce-scatter + all-gather of the trained weights once per optimizer step "
    "(PyTorch DDP; ZeRO (Rajbhandari et al. 2020) stages 1-2)"
)
FSDP_SOURCE = (
    "ZeRO (Rajbhandari et al. 2020) stage 3 / PyTorch FSDP (Zhao et al. 2023): 2 gathers + 1 reduce-scatter"
)
GRADIENT_REDUCE_BYTES = 4.0
"""FP32 gradient reduce-scatter (torchtitan / FSDP2 mixed precision reduce_dtype=float32)."""


def ring_bus_bandwidth_gb_per_s(
    *,
    gpu: GpuSpec,
    n_gpus: int,
    gpus_per_node: int,
    generation_hopper_on: bool,
    sharding: str | None = None,
    framework: str | None = None,
) -> Range:
    """Collective bus bandwidth per GPU (GB/s): the scale-up link's one-direction rate inside a node;
    across nodes, the smaller of that and the node's NICs (one per GPU), each x the collective efficiency
    of the sharding (NCCL's large-message share; DeepSpeed ZeRO's lower one)."""
    link = (gpu.scale_up_bandwidth_gb_per_s or 32.0) / 2.0  # catalog: bidirectional; unknown: PCIe 4
    if n_gpus > gpus_per_node:
        nic = (
            SCALE_OUT_GB_PER_S_PER_GPU_HOPPER_ON if generation_hopper_on else SCALE_OUT_GB_PER_S_PER_GPU_OTHER
        )
        link = min(link, nic * gpus_per_node)
    e, _ = bus_efficiency(sharding, framework)
    return Range(low=link * e.low, high=link * e.high)


def fsdp_bytes_per_param(*, method: str, weight_bytes: float, sharding: str = "fsdp") -> float:
    """Bytes per parameter moved per micro-batch: 2 weight gathers, + the gradient reduce-scatter when
    every weight trains (full / pretraining; FP32 under FSDP, 16-bit under DeepSpeed's ZeRO-3, `sharding`
    zero3); adapters' gradients are negligible."""
    grad_bytes = ZERO_GRADIENT_REDUCE_BYTES if sharding in ZERO_SHARDINGS else GRADIENT_REDUCE_BYTES
    grads = grad_bytes if method in ("full", "pretraining") else 0.0
    return 2.0 * weight_bytes + grads


def step_sync_bytes_per_param(*, method: str, weight_bytes: float, sharding: str) -> float:
    """Bytes per parameter synchronised per optimizer step without weight sharding (0 for adapters, whose
    gradients are < 1% of the weights): DDP all-reduces the FP32 gradients (a ring all-reduce moves 2x);
    ZeRO-1/2 reduce-scatter the 16-bit gradients and all-gather the updated 16-bit weights."""
    if method not in ("full", "pretraining"):
        return 0.0
    if sharding == "ddp":
        return 2.0 * GRADIENT_REDUCE_BYTES
    return ZERO_GRADIENT_REDUCE_BYTES + weight_bytes


def bus_efficiency(sharding: str | None, framework: str | None) -> tuple[Range, str]:
    """Share of the link's one-direction rate the collectives reach, with its source: DeepSpeed's when
    the run names DeepSpeed and a ZeRO stage; NCCL's large-message share otherwise (a plan's 'zero3'
    stands for "ZeRO-3 or FSDP" until the framework is named)."""
    if sharding in ZERO_SHARDINGS and framework in DEEPSPEED_FRAMEWORKS:
        return DEEPSPEED_BUS_EFFICIENCY, DEEPSPEED_BUS_SOURCE
    return BUS_BANDWIDTH_EFFICIENCY, BUS_BANDWIDTH_SOURCE


def comm_cap_tokens_per_s(
    *,
    tokens_per_micro_batch: float,
    bus_gb_per_s: float,
    bytes_per_param: float,
    total_params: float,
    dp: int,
) -> float | None:
    """tokens/s per GPU the collectives allow for `tokens_per_micro_batch` tokens between two of them
    (a micro-batch for gathers, an optimizer step for a step sync); None when nothing moves (dp = 1)."""
    if dp <= 1 or bytes_per_param <= 0:
        return None
    moved_bytes = bytes_per_param * total_params * (dp - 1) / dp
    return float(tokens_per_micro_batch * gb_to_bytes(bus_gb_per_s) / moved_bytes)


@dataclass(frozen=True)
class ParallelLimits:
    """What parallelism does to a step beyond the MFU band."""

    pipeline: Range
    """busy share of the pipeline (1 without pipeline stages)"""
    comm_cap: Range | None
    """tokens/s per GPU the collectives allow (None: nothing binds)"""
    comm_exposed: bool
    """True: the collectives add to the compute time (harmonic); False: they overlap it (min)"""


def parallel_limits(
    *,
    tb: TraceBuilder,
    gpu: GpuSpec,
    method: str,
    n_gpus: int,
    gpus_per_node: int,
    hopper_on: bool,
    sharding: str | None,
    tensor_parallel: int,
    pipeline_stages: int,
    pipeline_micro_batches: int | None,
    virtual_stages: int,
    total_params: float,
    weight_bytes: float,
    tokens_per_micro_batch: float | None,
    gradient_accumulation_steps: int = 1,
    framework: str | None = None,
) -> ParallelLimits:
    """The pipeline efficiency and the collectives' cap on tokens/s per GPU, with their trace and
    assumptions. `total_params`: the parameters gathered or synchronised."""
    for name, v in (
        ("tensor_parallel", tensor_parallel),
        ("pipeline_stages", pipeline_stages),
        ("gradient_accumulation_steps", gradient_accumulation_steps),
    ):
        if not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")
    pipe = Range(low=1.0, high=1.0)
    if pipeline_stages > 1:
        pipe = pipeline_efficiency_range(
            stages=pipeline_stages, micro_batches=pipeline_micro_batches, virtual_stages=virtual_stages
        )
        if pipeline_micro_batches is None:
            per = PIPELINE_MICRO_BATCHES_PER_STAGE
            tb.assume(
                "pipeline_micro_batches_per_stage",
                f"{per.low:g}-{per.high:g}",
                "x stages",
                PIPELINE_MICRO_BATCHES_SOURCE,
            )
        tb.step(
            "pipeline_efficiency",
            "v x m / (v x m + p - 1)",
            pipe.mid,
            "fraction",
            PIPELINE_BUBBLE_SOURCE,
            stages=pipeline_stages,
            micro_batches=pipeline_micro_batches or 0,
            virtual_stages=virtual_stages,
            low=pipe.low,
            high=pipe.high,
        )
    dp = max(1, n_gpus // (tensor_parallel * pipeline_stages))
    gathers = sharding in GATHER_SHARDINGS
    syncs = sharding in STEP_SYNC_SHARDINGS
    if not (gathers or syncs) or dp <= 1 or tokens_per_micro_batch is None:
        return ParallelLimits(pipe, None, False)
    tokens_between_range: Range | None = None
    if gathers:
        deepspeed = sharding in ZERO_SHARDINGS and framework in DEEPSPEED_FRAMEWORKS
        per_param = fsdp_bytes_per_param(
            method=method, weight_bytes=weight_bytes, sharding=str(sharding) if deepspeed else "fsdp"
        )
        tokens_between = tokens_per_micro_batch
        formula = "tokens_per_micro_batch x bus_bandwidth / (bytes_per_param x N_total x (dp - 1) / dp)"
        source = FSDP_SOURCE
    else:
        per_param = step_sync_bytes_per_param(
            method=method, weight_bytes=weight_bytes, sharding=str(sharding)
        )
        # once per optimizer step: every micro-batch of the step in between, the pipeline's too (a pipeline
        # runs m micro-batches per step; unstated, the same 4-8 per stage as its bubble)
        tokens_between = tokens_per_micro_batch * gradient_accumulation_steps
        if pipeline_stages > 1:
            per_step = _pipeline_micro_batches(pipeline_stages, pipeline_micro_batches)
            tokens_between_range = Range(
                low=tokens_per_micro_batch * max(gradient_accumulation_steps, per_step.low),
                high=tokens_per_micro_batch * max(gradient_accumulation_steps, per_step.high),
            )
        formula = "tokens_per_optimizer_step x bus_bandwidth / (bytes_per_param x N x (dp - 1) / dp)"
        source = STEP_SYNC_SOURCE
    if per_param <= 0:
        return ParallelLimits(pipe, None, False)
    bus = ring_bus_bandwidth_gb_per_s(
        gpu=gpu,
        n_gpus=n_gpus,
        gpus_per_node=gpus_per_node,
        generation_hopper_on=hopper_on,
        sharding=sharding,
        framework=framework,
    )
    efficiency, efficiency_source = bus_efficiency(sharding, framework)
    tb.assume(
        "collective_bus_efficiency", f"{efficiency.low}-{efficiency.high}", "x link rate", efficiency_source
    )
    if n_gpus > gpus_per_node:
        tb.assume("scale_out_per_gpu", "400 Gb/s (Hopper on), 200 Gb/s (others)", "", SCALE_OUT_SOURCE)
    between = tokens_between_range or Range(low=tokens_between, high=tokens_between)
    caps = [
        comm_cap_tokens_per_s(
            tokens_per_micro_batch=t,
            bus_gb_per_s=b,
            bytes_per_param=per_param,
            total_params=total_params,
            dp=dp,
        )
        for t, b in ((between.low, bus.low), (between.high, bus.high))
    ]
    cap = Range(low=float(caps[0] or 0.0), high=float(caps[1] or 0.0))
    exposed = sharding in EXPOSED_SYNC_SHARDINGS
    tb.step(
        "comm_cap_tokens_per_s_per_gpu",
        formula,
        cap.mid,
        "tokens/s",
        source,
        tokens_between_collectives=between.mid,
        bus_gb_per_s_low=bus.low,
        bus_gb_per_s_high=bus.high,
        bytes_per_param=per_param,
        total_params=total_params,
        dp=dp,
        exposed=int(exposed),
        low=cap.low,
        high=cap.high,
    )
    return ParallelLimits(pipe, cap, exposed)
