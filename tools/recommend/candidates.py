"""What the recommender enumerates and compares: offers (price records, owned hardware), parallel
layouts of a GPU count, and candidates (an offer at a count, with its checks, ranges and ranking
figures), with the memory and interconnect checks that decide whether a configuration works at all.

Memory depends on the GPU count and sharding, not on the GPU type or provider, so it is computed
once per (count, sharding) and reused across every offer (seed 001: fit first, then price).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tools.catalog.schema import GpuSpec, PriceRecord
from tools.defaults import ResolvedWorkload
from tools.ranges import Range
from tools.recommend import memory_rule
from tools.recommend.models import Deployment, FitStatus, MemoryFit, TcoScenario, TopologySummary
from tools.recommend.option_id import OptionId
from tools.vocabulary import OptionPricing

NODE_COUNTS = (2, 4, 8, 16, 32, 64)
"""Multi-node cluster sizes considered (whole nodes of the offer's largest GPUs-per-node)."""


@dataclass(frozen=True)
class Offer:
    """A way to get one GPU type: a provider's price record, or owned hardware at an amortised rate."""

    provider: str
    gpu_id: str
    pricing: OptionPricing
    usd_per_gpu_hour: float
    deployment: Deployment
    tier: str
    gpus_per_node: tuple[int, ...]
    scale_out: str
    region: str | None = None
    eu: bool = False
    areas: tuple[str, ...] = ()
    """Where the provider has data centres (its sourced region list) for a record with no region."""
    cloud: str | None = None
    managed: bool = False
    commitment_months: float | None = None
    as_of: dt.date | None = None
    source: str = ""
    usd_per_gpu_hour_high: float | None = None
    """Top of the price spread (tools.recommend.spread) for a floating spot, community or marketplace
    quote; None for a firm list price. `usd_per_gpu_hour` stays the quoted price."""
    price_spread_name: str = "firm"
    max_gpus: int | None = None
    """Most GPUs the offer can provide (hardware the team owns); None: as many nodes as enumerated."""

    @property
    def usd_per_gpu_hour_mid(self) -> float:
        """Middle of the price range (the quoted price when firm): what offers are compared on."""
        high = self.usd_per_gpu_hour_high
        return self.usd_per_gpu_hour if high is None else (self.usd_per_gpu_hour + high) / 2

    @classmethod
    def from_record(cls, r: PriceRecord) -> Offer:
        if r.managed:
            deployment: Deployment = "managed"
        elif r.tier in ("bare_metal", "bare-metal", "dedicated"):
            deployment = "bare_metal"
        else:
            deployment = "cloud"
        return cls(
            provider=r.provider,
            gpu_id=r.gpu,
            pricing=r.pricing,
            usd_per_gpu_hour=r.usd_per_gpu_hour,
            deployment=deployment,
            tier=r.tier,
            gpus_per_node=tuple(sorted(set(r.gpus_per_node))),
            scale_out=r.scale_out,
            region=r.region,
            eu=r.eu,
            areas=r.areas,
            cloud=r.cloud,
            managed=r.managed,
            commitment_months=r.commitment_months,
            as_of=r.as_of,
            source=r.source,
        )


@dataclass(frozen=True)
class Layout:
    """How a GPU count is used: sharding / tensor / pipeline parallel degrees."""

    n_gpus: int
    gpus_per_node: int
    nodes: int
    sharding: str
    tp: int = 1
    pp: int = 1
    offload: str = "none"
    """CPU offload (tools.memory OFFLOADS): only the what-would-fit note of owned hardware sets it."""
    dp: int = 1
    """Inference: engine copies on the layout's GPUs, each tp x pp of them serving its own share of the
    requests (n_gpus = dp x tp x pp; vLLM `--data-parallel-size`, or one server per GPU group)."""


@dataclass
class GpuNotes:
    """Why a GPU type produced no usable candidate (the most informative reason wins)."""

    memory: str | None = None
    memory_gpus: int = 1
    """How many GPUs the memory note's per-GPU need is over (the largest count sharded)."""
    interconnect: str | None = None
    constraint: str | None = None
    throughput: str | None = None
    no_price: bool = False


# --------------------------------------------------------------------------------------------
@dataclass
class Candidate:
    """One offer at one GPU count, with its checks, ranges and ranking figures."""

    gpu: GpuSpec
    offer: Offer
    layout: Layout
    fit: MemoryFit
    topo: TopologySummary
    gpu_hours: Range
    wall_hours: Range
    cost_usd: Range
    total_usd: Range
    scenarios: tuple[TcoScenario, ...]
    decode_tokens_per_s: Range | None = None
    risk: float = 0.0
    risks: list[str] = field(default_factory=list)
    why: list[str] = field(default_factory=list)
    deadline_status: FitStatus | None = None
    deadline_soft: bool = False  # a preferred deadline (WorkloadProfile.deadline_soft): a miss is no reject
    budget_status: FitStatus | None = None
    capex_usd: float | None = None  # the purchase a capex budget is held to (tools/recommend/pricing.py)
    score: float = 0.0

    @property
    def key(self) -> OptionId:
        """The configuration's identity (Option.key of the option it becomes)."""
        o = self.offer
        return OptionId.of(
            gpu=self.gpu.id,
            total_gpus=self.total_gpus,
            provider=o.provider,
            pricing=o.pricing,
            region=o.region,
        )

    @property
    def total_gpus(self) -> int:
        """GPUs of the configuration, replicas included."""
        return self.layout.n_gpus * self.replicas

    point: str = "mid"
    replicas: int = 1
    serving: Any = None
    """Serving: the tools.recommend.serving_plan.ServingPlan behind `replicas` and the throughput."""
    owned_check: Any = None
    """tools.classify.UtilizationCheck of an owned training candidate (runs per month stated)."""
    dropped: str | None = None
    """Why price() ruled the candidate out (owned hardware the runs would leave idle)."""

    def copy(self, **changes: Any) -> Candidate:
        """dataclasses.replace(self, **changes) without re-running __init__ (a plain dataclass: the same
        object, several times faster; sensitivity copies every candidate of a run several times)."""
        new = object.__new__(Candidate)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def cost_mid(self) -> float:
        """Expected total at the ranking point (mid, or an end of the range for sensitivity)."""
        return _at(self.total_usd, self.point)

    @property
    def hours_mid(self) -> float:
        return _at(self.wall_hours, self.point)

    @property
    def limit_maybe(self) -> bool:
        """Meets the budget or deadline only at the favourable end of its range."""
        return self.deadline_status == "maybe" or self.budget_status == "maybe"

    @property
    def short_of_target(self) -> bool:
        """Serving: reaches the aggregate tokens/s target not even at the fast end (per-user bound)."""
        return self.serving is not None and self.serving.target_status == "short"

    @property
    def misses(self) -> bool:
        """Misses a limit surely: the budget, or a deadline that is a limit (a preferred one is no limit)."""
        return (self.deadline_status == "misses" and not self.deadline_soft) or self.budget_status == "misses"


def _at(r: Range, point: str) -> float:
    return r.low if point == "low" else r.high if point == "high" else r.mid


def memory_method(w: ResolvedWorkload) -> str:
    """tools.memory's method name for the workload."""
    p = w.profile
    if p.workload == "inference":
        return "inference"
    if p.workload in ("pretraining", "continual_pretraining"):
        return "pretraining"
    return p.method or "lora"


def layouts_for(w: ResolvedWorkload, gpus_per_node: int, nodes: int) -> list[Layout]:
    """Parallel layouts to try for a GPU count, cheapest in communication first.

    Inference: tensor parallel within a node, pipeline across nodes. Full fine-tuning/pre-training:
    ZeRO-3/FSDP over all GPUs (seed 001). LoRA/QLoRA: plain data parallel (each GPU a full copy of
    the frozen base), then ZeRO-3/FSDP when the copy does not fit.
    """
    n = gpus_per_node * nodes
    method = memory_method(w)
    if method == "inference":
        tp = gpus_per_node
        while tp > 1 and w.arch.n_heads % tp:
            tp //= 2
        if n // tp > w.arch.n_layers:  # a pipeline stage needs at least one layer (tools.memory._plan)
            return []
        full = Layout(n, gpus_per_node, nodes, "none", tp=tp, pp=n // tp)
        if nodes > 1:
            return [full]
        # one node may also run several smaller engine copies: a small model gains little from tensor
        # parallelism (expert review 15, R07; Lambda's vLLM 0.5.4 Llama 3.1 8B FP8, 320 prompts: 3,400
        # tokens/s on 1x H100 against 3,932 on 8x H100 TP8, bench/data/serving_throughput_fresh3.yaml)
        copies = [Layout(n, gpus_per_node, 1, "none", tp=t, pp=1, dp=n // t) for t in _smaller_tps(tp)]
        return [full, *copies]
    if n == 1:
        return [Layout(1, 1, 1, "none")]
    if method in ("full", "pretraining"):
        return [Layout(n, gpus_per_node, nodes, "zero3")]
    return [Layout(n, gpus_per_node, nodes, "ddp"), Layout(n, gpus_per_node, nodes, "zero3")]


def _smaller_tps(tp: int) -> list[int]:
    """Tensor-parallel sizes below `tp` that divide it (engine copies per node), largest first."""
    return [t for t in range(tp - 1, 0, -1) if tp % t == 0]


def memory_fit(est: Any, gpu: GpuSpec, headroom_fraction: float, sharding: str) -> MemoryFit:
    """A MemoryEstimate against one GPU's usable memory: judged on tensors + CUDA context, shown as the card
    would show it (tools.recommend.memory_rule, the one place for the rule)."""
    b = est.breakdown_gib
    breakdown = {
        k: float(getattr(b, k))
        for k in ("weights", "gradients", "optimizer", "activations", "kv_cache", "adapters", "overhead")
        if hasattr(b, k)
    }
    shown = memory_rule.shown_peak_gib(est, gpu.usable_memory_gib)
    if "overhead" in breakdown:  # the reserve as the card shows it: the lines add up to the peak shown
        breakdown["overhead"] += shown - float(est.peak_gib_per_gpu)
    return MemoryFit(
        peak_gib_per_gpu=shown,
        usable_gib_per_gpu=gpu.usable_memory_gib,
        headroom_gib=gpu.usable_memory_gib - shown,
        need_gib_per_gpu=memory_rule.need_gib(est),
        required_headroom_fraction=headroom_fraction,
        sharding=sharding,
        breakdown_gib=breakdown,
        peak_phase=getattr(est, "peak_phase", None),
        memory_basis=getattr(est, "memory_basis", None),
    )


def topology_summary(plan: Any, scale_out: str) -> TopologySummary:
    """tools.topology's TopologyPlan as the recommender's summary."""
    return TopologySummary(
        nodes=int(plan.nodes),
        gpus_per_node=int(plan.gpus_per_node),
        tp=int(plan.tp),
        pp=int(plan.pp),
        dp=int(plan.dp),
        sharding=str(plan.sharding),
        interconnect_intra=str(plan.interconnect_intra),
        interconnect_inter=scale_out if int(plan.nodes) > 1 else "none",
        interconnect_inter_required=str(plan.interconnect_inter_required),
        notes=tuple(str(r) for r in (*plan.reasons, *getattr(plan, "warnings", ()))),
        nccl_checklist=tuple(str(c) for c in plan.nccl_checklist),
    )


def gpu_counts(offer: Offer, gpu: GpuSpec, max_nodes: int) -> list[tuple[int, int]]:
    """(gpus_per_node, nodes) pairs an offer can provide, smallest first."""
    per_node = [g for g in offer.gpus_per_node if 0 < g <= gpu.max_gpus_per_node] or [1]
    pairs = [(g, 1) for g in per_node]
    if offer.scale_out != "none":
        top = max(per_node)
        pairs += [(top, k) for k in NODE_COUNTS if k <= max_nodes]
    if offer.max_gpus is not None:
        pairs = [(g, k) for g, k in pairs if g * k <= offer.max_gpus]
        # every whole node of a capped offer (the team's own GPUs: 3 servers of 8 are 24, which the
        # power-of-two node counts above skip)
        whole = offer.max_gpus // max(per_node)
        if offer.scale_out != "none" and 2 <= whole <= max_nodes:
            pairs.append((max(per_node), whole))
    return sorted(set(pairs), key=lambda p: (p[0] * p[1], p[1]))


@functools.lru_cache(maxsize=1024)
def _provider_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def provider_matches(provider: str, names: Iterable[str]) -> bool:
    """Whether a catalog provider id is one the user named: the same id ignoring case and
    punctuation ('vastai' = 'vast-ai'), or its family, the part before the first '-' ('runpod'
    covers runpod-community and runpod-secure, 'aws' covers aws-sagemaker, 'lambda' covers
    lambda-cluster). The extractor writes provider names as a user says them ('RunPod', 'Lambda'),
    not as the price catalog splits them by tier."""
    full = _provider_key(provider)
    family = _provider_key(provider.split("-", 1)[0])
    return any(_provider_key(n) in (full, family) for n in names if _provider_key(n))


def log2(n: float) -> float:
    return math.log2(n) if n > 0 else 0.0
