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
"""

from __future__ import annotations

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
# One RDMA NIC per GPU, as in the reference nodes: DGX A100 8x ConnectX-6 HDR 200 Gb/s; DGX H100 /
# DGX B200 8x ConnectX-7 400 Gb/s (torchtitan's Grand Teton hosts: "400 Gb/s per GPU").
SCALE_OUT_GB_PER_S_PER_GPU_HOPPER_ON = 50.0
SCALE_OUT_GB_PER_S_PER_GPU_OTHER = 25.0
SCALE_OUT_SOURCE = (
    "DGX A100 (8x HDR 200 Gb/s) and DGX H100/B200 (8x NDR 400 Gb/s) user guides: one NIC per GPU"
)

# Bytes moved per parameter per micro-batch under ZeRO-3 / FSDP: the forward and backward all-gathers
# of the stored weights (2 x bytes per weight) plus the gradient reduce-scatter of the trained ones.
FSDP_SOURCE = (
    "ZeRO (Rajbhandari et al. 2020) stage 3 / PyTorch FSDP (Zhao et al. 2023): 2 gathers + 1 reduce-scatter"
)
GRADIENT_REDUCE_BYTES = 4.0
"""FP32 gradient reduce-scatter (torchtitan / FSDP2 mixed precision reduce_dtype=float32)."""


def ring_bus_bandwidth_gb_per_s(
    *, gpu: GpuSpec, n_gpus: int, gpus_per_node: int, generation_hopper_on: bool
) -> Range:
    """Collective bus bandwidth per GPU (GB/s): the scale-up link's one-direction rate inside a node;
    across nodes, the smaller of that and the node's NICs (one per GPU), each x the NCCL efficiency."""
    link = (gpu.scale_up_bandwidth_gb_per_s or 32.0) / 2.0  # catalog: bidirectional; unknown: PCIe 4
    if n_gpus > gpus_per_node:
        nic = (
            SCALE_OUT_GB_PER_S_PER_GPU_HOPPER_ON if generation_hopper_on else SCALE_OUT_GB_PER_S_PER_GPU_OTHER
        )
        link = min(link, nic * gpus_per_node)
    e = BUS_BANDWIDTH_EFFICIENCY
    return Range(low=link * e.low, high=link * e.high)


def fsdp_bytes_per_param(*, method: str, weight_bytes: float) -> float:
    """Bytes per parameter moved per micro-batch: 2 weight gathers, + the gradient reduce-scatter when
    every weight trains (full / pretraining); adapters' gradients are negligible."""
    grads = GRADIENT_REDUCE_BYTES if method in ("full", "pretraining") else 0.0
    return 2.0 * weight_bytes + grads


def comm_cap_tokens_per_s(
    *,
    tokens_per_micro_batch: float,
    bus_gb_per_s: float,
    bytes_per_param: float,
    total_params: float,
    dp: int,
) -> float | None:
    """tokens/s per GPU the gathers allow; None when nothing is gathered (dp = 1)."""
    if dp <= 1:
        return None
    moved_bytes = bytes_per_param * total_params * (dp - 1) / dp
    return float(tokens_per_micro_batch * gb_to_bytes(bus_gb_per_s) / moved_bytes)


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
) -> tuple[Range, Range | None]:
    """(pipeline efficiency, comm cap on tokens/s per GPU or None), with their trace and assumptions."""
    for name, v in (("tensor_parallel", tensor_parallel), ("pipeline_stages", pipeline_stages)):
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
    if sharding not in ("zero3", "fsdp") or dp <= 1 or tokens_per_micro_batch is None:
        return pipe, None
    bus = ring_bus_bandwidth_gb_per_s(
        gpu=gpu, n_gpus=n_gpus, gpus_per_node=gpus_per_node, generation_hopper_on=hopper_on
    )
    tb.assume(
        "collective_bus_efficiency",
        f"{BUS_BANDWIDTH_EFFICIENCY.low}-{BUS_BANDWIDTH_EFFICIENCY.high}",
        "x link rate",
        BUS_BANDWIDTH_SOURCE,
    )
    if n_gpus > gpus_per_node:
        tb.assume("scale_out_per_gpu", "400 Gb/s (Hopper on), 200 Gb/s (others)", "", SCALE_OUT_SOURCE)
    per_param = fsdp_bytes_per_param(method=method, weight_bytes=weight_bytes)
    caps = [
        comm_cap_tokens_per_s(
            tokens_per_micro_batch=tokens_per_micro_batch,
            bus_gb_per_s=b,
            bytes_per_param=per_param,
            total_params=total_params,
            dp=dp,
        )
        for b in (bus.low, bus.high)
    ]
    cap = Range(low=float(caps[0] or 0.0), high=float(caps[1] or 0.0))
    tb.step(
        "comm_cap_tokens_per_s_per_gpu",
        "tokens_per_micro_batch x bus_bandwidth / (bytes_per_param x N_total x (dp - 1) / dp)",
        cap.mid,
        "tokens/s",
        FSDP_SOURCE,
        tokens_per_micro_batch=tokens_per_micro_batch,
        bus_gb_per_s_low=bus.low,
        bus_gb_per_s_high=bus.high,
        bytes_per_param=per_param,
        total_params=total_params,
        dp=dp,
        low=cap.low,
        high=cap.high,
    )
    return pipe, cap
