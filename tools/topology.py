"""Topology: GPUs and nodes required, a parallelism plan, the interconnect it needs, NCCL checklist.

Rules (seed 001 section 3 and calculation 3; seed 000 on Ethernet):
- nodes_required = ceil(total_vram_required / vram_per_node).
- Tensor parallelism (TP) only inside a scale-up domain (NVLink / Infinity Fabric node): it
  all-reduces activations in every layer and needs hundreds of GB/s. Across nodes, InfiniBand HDR
  gives ~25 GB/s per port, an order of magnitude less, so pipeline (PP) and data parallelism (DP,
  with ZeRO-3 / FSDP sharding for full training) cross nodes instead.
- Cross-node TP needs InfiniBand: "a correctness requirement, not a performance preference".
- Multi-node training needs an RDMA fabric (InfiniBand or RoCE); plain Ethernet works for data
  parallelism at a cost (15% to 10x step time, seed 000); no scale-out network means no multi-node.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from pydantic import Field

from tools.catalog.schema import GpuSpec, ScaleOut
from tools.errors import InputError
from tools.trace import TraceBuilder, Traced, TraceStep, UntracedBuilder
from tools.vocabulary import METHODS, Method, Sharding

# Share of a GPU's usable memory the weights of one TP x PP shard may take: training keeps room
# for gradients, optimizer shards and activations; inference for KV cache and runtime.
WEIGHT_SHARE_TRAINING = 0.5
WEIGHT_SHARE_INFERENCE = 0.8
WEIGHT_SHARE_SOURCE = "estimate: room for gradients/optimizer/activations (training) or KV cache (inference)"

SCALE_UP_NAMES: dict[str, str] = {
    "nvlink3": "NVLink 3 (A100, 600 GB/s per GPU)",
    "nvlink4": "NVLink 4 (H100/H200, 900 GB/s per GPU)",
    "nvlink5": "NVLink 5 (Blackwell, 1.8 TB/s per GPU)",
    "nvlink_c2c": "NVLink-C2C (CPU-GPU superchip)",
    "nvlink_bridge": "NVLink bridge (pairs of PCIe cards)",
    "infinity_fabric": "AMD Infinity Fabric",
    "roce": "on-chip RoCE Ethernet (Gaudi)",
    "pcie": "PCIe",
    "none": "PCIe (no peer link)",
}
# Links that carry tensor parallelism across a full node.
TP_CAPABLE_LINKS = frozenset({"nvlink3", "nvlink4", "nvlink5", "infinity_fabric", "roce"})
FABRIC_NAMES: dict[str, str] = {
    "infiniband": "InfiniBand",
    "roce": "RoCE (RDMA over Converged Ethernet)",
    "ethernet": "Ethernet (TCP)",
    "none": "none",
}

# Seed 001, "What I'd want answered before signing a multi-node contract", plus its NCCL advice.
NCCL_CHECKLIST_MULTI_NODE: tuple[str, ...] = (
    "GPUs per node, by GPU type: confirm {gpus_per_node}x {gpu} per node.",
    "Interconnect type and generation: InfiniBand HDR (200 Gb/s) / NDR (400 Gb/s) or Ethernet/RoCE, "
    "ports per node.",
    "Whether InfiniBand is enabled per node or cluster-wide (all {nodes} nodes on one fabric).",
    "NVLink topology within a node (`nvidia-smi topo -m`): all-to-all NVSwitch vs pairs.",
    "NCCL_SOCKET_IFNAME points at the high-speed fabric, not the management network "
    "(a wrong value silently cuts throughput, sometimes to 20%).",
    "NCCL topology detection: check NCCL_DEBUG=INFO output shows the expected rings/trees and "
    "NET/IB (not NET/Socket); set NCCL_IB_HCA if auto-detection picks the wrong adapters.",
    "Benchmark with nccl-tests all_reduce_perf across nodes before the run; compare bus bandwidth "
    "with the fabric's line rate.",
)
NCCL_CHECKLIST_SINGLE_NODE: tuple[str, ...] = (
    "NVLink topology within the node (`nvidia-smi topo -m`): all GPUs linked, not split across "
    "PCIe root complexes.",
)


class NodesRequired(Traced):
    """ceil(total / per-unit capacity), seed 001."""

    count: int
    total_gb: float
    capacity_gb: float


class TopologyPlan(Traced):
    """GPU layout, parallelism degrees, the interconnect they need, and whether it is feasible."""

    n_gpus: int
    nodes: int
    gpus_per_node: int
    tp: int
    pp: int
    dp: int
    sharding: Sharding
    interconnect_intra: str
    interconnect_intra_required: Literal["none", "pcie", "nvlink"] = Field(
        description="what the in-node parallelism needs: nvlink for TP or ZeRO-3/FSDP, pcie for DDP"
    )
    interconnect_inter_required: Literal["none", "infiniband", "infiniband_or_roce", "any"]
    interconnect_why: list[str] = Field(default_factory=list, description="why each interconnect is needed")
    scale_out: ScaleOut
    feasible: bool
    reasons: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    nccl_checklist: list[str] = Field(default_factory=list)


def nodes_required(*, total_gb: float, vram_gb_per_node: float) -> NodesRequired:
    """Seed 001: nodes_required = ceil(total_vram_required / vram_per_node).

    With a single GPU's memory as `vram_gb_per_node` it gives the GPU count (seed 001:
    ceil(1,260 / 80) = 16 GPUs). Units as the seed: marketed GB on both sides.
    """
    for name, v in (("total_gb", total_gb), ("vram_gb_per_node", vram_gb_per_node)):
        if not (isinstance(v, int | float) and math.isfinite(v) and v > 0):
            raise InputError(f"{name} must be a positive number, got {v!r}")
    tb = TraceBuilder()
    count = math.ceil(total_gb / vram_gb_per_node - 1e-9)  # 1,260/80 = 15.75 -> 16; 160/80 stays 2
    tb.step(
        "nodes_required",
        "ceil(total_vram_required / vram_per_node)",
        count,
        "count",
        "seed 001 section 3",
        total_gb=total_gb,
        vram_gb_per_node=vram_gb_per_node,
    )
    return NodesRequired(count=count, total_gb=total_gb, capacity_gb=vram_gb_per_node, **tb.fields())


def _note(tb: TraceBuilder, step: str, formula: str, output: str) -> None:
    """A trace step whose output is a word (the schema allows it; TraceBuilder.step takes numbers)."""
    if not isinstance(tb, UntracedBuilder):
        tb.steps.append(TraceStep(step=step, formula=formula, output=output))


def _pow2_at_least(x: float) -> int:
    p = 1
    while p < x:
        p *= 2
    return p


def plan_topology(
    *,
    gpu: GpuSpec,
    gpus_per_node: int,
    n_gpus: int,
    peak_gib_per_gpu: float,
    weights_gib_total: float,
    method: Method,
    scale_out: ScaleOut,
    tp: int | None = None,
    pp: int | None = None,
    sharding: Sharding | None = None,
    traced: bool = True,
) -> TopologyPlan:
    """Lay n_gpus out over nodes and choose TP / PP / DP and sharding; say what fabric it needs.

    peak_gib_per_gpu: the memory estimate per GPU under this plan (tools.memory); checked against
    the GPU's usable memory. weights_gib_total: the model weights at their stored precision, used to
    decide whether TP/PP are needed. tp/pp/sharding override the automatic choice. `traced=False`:
    the same plan with an empty trace (tools.trace.UntracedBuilder), for callers that compare plans.
    """
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if scale_out not in get_args(ScaleOut):
        raise InputError(
            f"unknown scale-out network {scale_out!r}: use one of {', '.join(get_args(ScaleOut))}"
        )
    for name, v in (("n_gpus", n_gpus), ("gpus_per_node", gpus_per_node)):
        if not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")
    if sharding is not None and sharding not in get_args(Sharding):
        raise InputError(f"unknown sharding {sharding!r}: use one of {', '.join(get_args(Sharding))}")
    for name, f in (("peak_gib_per_gpu", peak_gib_per_gpu), ("weights_gib_total", weights_gib_total)):
        if not (isinstance(f, int | float) and math.isfinite(f) and f >= 0):
            raise InputError(f"{name} must be a non-negative number, got {f!r}")
    if gpus_per_node > gpu.max_gpus_per_node:
        raise InputError(
            f"{gpus_per_node} GPUs per node exceeds the {gpu.max_gpus_per_node} a {gpu.name} node holds: "
            f"use --gpus-per-node {gpu.max_gpus_per_node} or fewer"
        )
    tb = TraceBuilder() if traced else UntracedBuilder()
    reasons: list[str] = []
    warnings: list[str] = []
    per_node = min(gpus_per_node, n_gpus)
    nodes = tb.step(
        "nodes",
        "ceil(n_gpus / gpus_per_node)",
        math.ceil(n_gpus / per_node),
        "count",
        "seed 001",
        n_gpus=n_gpus,
        gpus_per_node=per_node,
    )
    nodes = int(nodes)
    usable = gpu.usable_memory_gib
    training = method != "inference"
    share = WEIGHT_SHARE_TRAINING if training else WEIGHT_SHARE_INFERENCE
    tb.assume("weight_share_of_gpu_memory", share, "fraction", WEIGHT_SHARE_SOURCE)

    # --- tensor / pipeline parallel degrees ---------------------------------------------------
    # Full training shards weights with ZeRO-3/FSDP over DP, so only inference and frozen-base
    # methods (LoRA/QLoRA replicate the base) need TP/PP when the weights outgrow one GPU.
    shards_weights_by_dp = method in ("full", "pretraining") and (sharding in (None, "zero3", "fsdp"))
    need = weights_gib_total / (share * usable)
    tb.step(
        "weight_shards_needed",
        "weights_gib_total / (weight_share x usable_gib)",
        need,
        "shards",
        weights_gib_total=weights_gib_total,
        usable_gib=usable,
        weight_share=share,
    )
    # Model-parallel degree: the next power of two that holds the weights, at most n_gpus (the
    # per-GPU peak from tools.memory then decides whether that is enough).
    mp = 1 if (need <= 1 or shards_weights_by_dp) else min(_pow2_at_least(need), n_gpus)
    if tp is None:
        tp = min(mp, per_node)  # TP inside the node's scale-up domain only
    if pp is None:
        pp = max(1, min(math.ceil(mp / tp), n_gpus // max(tp, 1)))
    if tp < 1 or pp < 1:
        raise InputError(f"tp and pp must be >= 1, got tp={tp}, pp={pp}")
    if n_gpus % (tp * pp) != 0:
        reasons.append(
            f"{n_gpus} GPUs do not divide into tensor {tp} x pipeline {pp} groups: "
            f"use a multiple of {tp * pp} GPUs"
        )
    dp = max(1, n_gpus // (tp * pp))
    tb.step("dp", "n_gpus / (tp x pp)", dp, "replicas", n_gpus=n_gpus, tp=tp, pp=pp)

    if sharding is None:
        if dp == 1:
            sharding = "none"
        elif method in ("full", "pretraining"):
            sharding = "zero3"  # seed 001: ZeRO-3 (DeepSpeed) or FSDP shard states over the cluster
        elif method in ("lora", "qlora"):
            sharding = "ddp"
        else:
            sharding = "none"  # inference replicas share nothing

    # --- memory fit ------------------------------------------------------------------------------
    tb.step(
        "peak_vs_usable_gib",
        "peak_gib_per_gpu <= usable_memory_gib",
        peak_gib_per_gpu,
        "GiB",
        usable_memory_gib=usable,
    )
    if peak_gib_per_gpu > usable:
        reasons.append(
            f"peak {peak_gib_per_gpu:.1f} GiB per GPU exceeds the {usable:.1f} GiB a {gpu.name} "
            f"exposes: add GPUs, shard (ZeRO-3/FSDP), or use LoRA/QLoRA"
        )

    # --- interconnect -------------------------------------------------------------------------
    intra = SCALE_UP_NAMES.get(gpu.scale_up_link, gpu.scale_up_link)
    tp_cross_node = tp > per_node
    if tp > 1 and not tp_cross_node and gpu.scale_up_link not in TP_CAPABLE_LINKS:
        if training:
            warnings.append(
                f"tensor parallel {tp} over {intra}: every layer all-reduces activations over "
                f"PCIe, expect a large slowdown; prefer pipeline parallel or fewer, larger GPUs"
            )
        else:  # the serving model times these all-reduces over PCIe (tools.compute.serving_steps.link_kind)
            warnings.append(
                f"tensor parallel {tp} over {intra}: every layer all-reduces activations over PCIe; the "
                f"serving figures include that cost, and GPUs joined by NVLink or NVSwitch avoid it"
            )
    if (
        per_node > 1
        and method in ("full", "pretraining")
        and sharding in ("zero3", "fsdp")
        and gpu.scale_up_link not in TP_CAPABLE_LINKS
    ):
        warnings.append(
            "ZeRO-3/FSDP without NVLink gathers weights over PCIe every step: seed 003 reports "
            "GPU utilisation falling below 20%"
        )

    # Inside the node: TP needs NVLink-class links; ZeRO-3/FSDP gathers want them; DDP of adapters
    # and independent replicas are fine over PCIe.
    why_list: list[str] = []
    intra_required: Literal["none", "pcie", "nvlink"] = "none"
    if per_node > 1:
        if tp > 1:
            intra_required = "nvlink"
            why_list.append(
                f"tensor parallel {tp} all-reduces activations in every layer: NVLink-class "
                "bandwidth (seed 001: 900 GB/s NVLink 4 vs ~25 GB/s per InfiniBand HDR port)"
            )
        elif sharding in ("zero3", "fsdp"):
            intra_required = "nvlink"
            why_list.append(
                "ZeRO-3/FSDP gathers every layer's weights each step: NVLink keeps it off the "
                "critical path (seed 003: without it utilisation can fall below 20%)"
            )
        else:
            intra_required = "pcie"
            why_list.append(
                "data parallel replicas exchange only gradients (adapters for LoRA): PCIe is enough"
            )
    _note(tb, "interconnect_intra_required", "; ".join(why_list) or "single GPU", intra_required)

    required: Literal["none", "infiniband", "infiniband_or_roce", "any"] = "none"
    if nodes > 1:
        if tp_cross_node:
            required = "infiniband"
            why = (
                f"tensor parallel {tp} spans nodes of {per_node}: per-layer all-reduce across nodes needs "
                "InfiniBand, 'a correctness requirement, not a performance preference' (seed 001)"
            )
        elif training and (dp > 1 or sharding in ("zero3", "fsdp")):
            required = "infiniband_or_roce"
            why = (
                "data-parallel gradient all-reduce"
                f"{' and ZeRO-3 weight gathers' if sharding == 'zero3' else ''}"
                f" cross {nodes} nodes every step: needs an RDMA fabric (InfiniBand or RoCE); "
                "seed 001: 'two nodes, InfiniBand required'"
            )
        elif pp > 1:
            required = "infiniband_or_roce" if training else "any"
            why = f"pipeline parallel {pp} passes activations between nodes once per micro-batch: " + (
                "an RDMA fabric keeps bubbles short" if training else "Ethernet is enough for inference"
            )
        else:
            required = "any"
            why = "independent replicas: any network"
        _note(tb, "interconnect_inter_required", why, required)
        why_list.append(why)
        if scale_out == "none":
            reasons.append(
                f"{nodes} nodes need a scale-out network and this offer has none: "
                "choose an offer with InfiniBand or RoCE, or fit on one node"
            )
        elif tp_cross_node and scale_out != "infiniband":
            reasons.append(
                f"tensor parallelism across nodes over {FABRIC_NAMES[scale_out]} is not workable: "
                "keep TP inside a node (tp <= gpus per node) or use InfiniBand"
            )
        elif required == "infiniband_or_roce" and scale_out == "ethernet":
            warnings.append(
                "multi-node training over plain Ethernet: step time 15% to 10x slower than "
                "InfiniBand (seed 000); the time estimate uses that range"
            )
        elif tp_cross_node and scale_out == "infiniband":
            warnings.append(
                "cross-node tensor parallelism even over InfiniBand is usually a net loss "
                "(seed 001): prefer pipeline parallel across nodes"
            )
    else:
        _note(
            tb,
            "interconnect_inter_required",
            "single node: no scale-out fabric needed (seed 001 calc. 3)",
            required,
        )

    checklist: list[str] = []
    if nodes > 1:
        checklist = [
            c.format(gpus_per_node=per_node, gpu=gpu.name, nodes=nodes) for c in NCCL_CHECKLIST_MULTI_NODE
        ]
    elif per_node > 1:
        checklist = list(NCCL_CHECKLIST_SINGLE_NODE)

    return TopologyPlan(
        n_gpus=n_gpus,
        nodes=nodes,
        gpus_per_node=per_node,
        tp=tp,
        pp=pp,
        dp=dp,
        sharding=sharding,
        interconnect_intra=intra if per_node > 1 else "none (single GPU)",
        interconnect_intra_required=intra_required,
        interconnect_inter_required=required,
        interconnect_why=why_list,
        scale_out=scale_out,
        feasible=not reasons,
        reasons=reasons,
        warnings=warnings,
        nccl_checklist=checklist,
        **tb.fields(),
    )
