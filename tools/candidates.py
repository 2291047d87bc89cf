"""Candidate enumeration for the recommender: offers (price records, owned hardware) x GPU counts,
with the memory and interconnect checks that decide whether a configuration works at all.

Memory depends on the GPU count and sharding, not on the GPU type or provider, so it is computed
once per (count, sharding) and reused across every offer (seed 001: fit first, then price).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tools import cost as cost_mod
from tools.catalog.schema import GpuSpec, PriceRecord
from tools.defaults import ResolvedWorkload
from tools.ranges import Range
from tools.recommend_models import Deployment, MemoryFit, OptionPricing, TopologySummary

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
    cloud: str | None = None
    managed: bool = False
    commitment_months: float | None = None
    as_of: dt.date | None = None
    source: str = ""
    usd_per_gpu_hour_high: float | None = None
    """Top of the price spread (tools.recommend_pricing) for a floating spot, community or marketplace
    quote; None for a firm list price. `usd_per_gpu_hour` stays the quoted price."""
    price_spread_name: str = "firm"

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


@dataclass
class Caches:
    """Calculator results reused within a run and across the sensitivity re-runs of one request.

    Every key carries the inputs its calculator depends on, so a re-run with a changed input misses
    and recomputes while unchanged inputs hit (memory does not depend on price or data location).
    GPUs are keyed by id: one Caches serves one catalog. A caller may keep it across requests on the
    same catalog (recommend(caches=...)); entries are immutable results, and concurrent use at worst
    computes an entry twice. `size()` counts entries, so a long-lived holder can bound it.
    """

    memory: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Memory estimates without trace steps (numbers only); `memory_traced` for reported options."""
    memory_traced: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    time: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    topology: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    fit: dict[tuple[Any, ...], MemoryFit] = field(default_factory=dict)
    tco: TcoCache = field(default_factory=lambda: TcoCache())
    hits: int = 0
    time_untraced: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Training times without trace steps: the sweep compares hundreds of them and keeps the trace
    of the primary only (`time` holds the traced ones)."""
    tco_untraced: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    topology_untraced: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    topology_summary: dict[tuple[Any, ...], tuple[Any, TopologySummary]] = field(default_factory=dict)
    scenarios: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """TCO scenario rows (and the expected cost range) by every input they depend on."""
    signatures: dict[tuple[Any, ...], object] = field(default_factory=dict)
    """Workload signatures, each with a token made once: cache keys carry the token, not the tuple."""
    fitted: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict)
    """Per (memory signature, GPU, headroom, GPUs per node, nodes, fabric): the first layout that fits
    with its MemoryFit and topology plan, or () when none fits."""
    offers: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict)
    """Offers of a GPU type under the constraints that select them, with the notes and the trace their
    selection made (tools.recommend_engine.Engine._offers_kept)."""
    storage: dict[tuple[Any, ...], tuple[Any, Any]] = field(default_factory=dict)
    """Storage prices by the names looked up (with the catalog), and storage costs by price and GB."""
    enumerations: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    costed: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Primary-only runs' candidates costed before the budget check (tools.recommend_engine.CostedRun)
    by Engine.costing_key."""
    """Engine runs' enumerations before pricing (tools.recommend_engine.Enumeration) by
    Engine.enumeration_key: a later run differing only in cost inputs prices them again."""

    def signature_id(self, signature: tuple[Any, ...]) -> object:
        """The signature's token (dict.setdefault keeps one per signature, even across threads)."""
        got = self.signatures.get(signature)
        return got if got is not None else self.signatures.setdefault(signature, object())

    SHAPE_STORES = ("memory", "memory_traced", "fit", "fitted", "offers", "topology", "topology_untraced")
    """Stores keyed by the model's shape and the constraints (a few hundred entries per model, method and
    sequence length), not by a workload's tokens or prices: `trimmed` keeps them."""

    def trimmed(self, keep_fraction: float = 0.5) -> Caches:
        """A new Caches with this one's shape stores and workload signatures (their keys), and the newest
        `keep_fraction` of every other store (times, TCO tables, scenario rows, enumerations, costed
        runs: the latest requests', which the next turns of those conversations re-use). For a
        long-lived holder over its bound; this object is left as it was for runs still using it."""
        new = Caches()
        for name, store in vars(self).items():
            if not isinstance(store, dict):
                continue
            items = list(store.items())
            if name not in (*self.SHAPE_STORES, "signatures"):
                items = items[len(items) - int(len(items) * keep_fraction) :]
            setattr(new, name, type(store)(items))
        return new

    def size(self) -> int:
        """Entries held, over every store (an enumeration counts its candidates)."""
        runs = ("enumerations", "costed")
        held = sum(len(v) for k, v in vars(self).items() if isinstance(v, dict) and k not in runs)
        return held + sum(int(e.candidates) for k in runs for e in list(getattr(self, k).values()))


class TcoCache(dict[tuple[Any, ...], Any]):
    """Traced tools.cost.tco tables keyed by their inputs (gpu_hours low, high, usd_per_gpu_hour,
    storage_usd, egress_usd, managed premium or None, then optionally usd_per_gpu_hour_high). `get`
    computes a missing table from its key: the sweep prices candidates with untraced tables and asks
    here only for the ones it reports."""

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        if key not in self:
            low, high, rate, storage, egress, premium, *rest = key
            self[key] = cost_mod.tco(
                gpu_hours=Range(low=low, high=high),
                usd_per_gpu_hour=rate,
                storage_usd=storage,
                egress_usd=egress,
                managed_premium_fraction=premium,
                usd_per_gpu_hour_high=rest[0] if rest else None,
            )
        return self[key]


@dataclass
class MemoryCache:
    """estimate_memory results keyed by (workload signature, n_gpus, sharding, tp, pp): shared by
    every GPU type and offer. `get`: numbers only (no trace steps); `traced`: with its trace, for the
    calculation appendix. `compute(layout, traced)` runs tools.memory."""

    compute: Callable[[Layout, bool], Any]
    signature: tuple[Any, ...]
    caches: Caches

    def __post_init__(self) -> None:
        self._sig = self.caches.signature_id(self.signature)

    def get(self, layout: Layout) -> Any:
        key = (self._sig, layout.n_gpus, layout.sharding, layout.tp, layout.pp)
        store = self.caches.memory
        if key in store:
            self.caches.hits += 1
            return store[key]
        est = self.compute(layout, False)
        store[key] = est
        return est

    def traced(self, layout: Layout) -> Any:
        key = (self._sig, layout.n_gpus, layout.sharding, layout.tp, layout.pp)
        store = self.caches.memory_traced
        if key not in store:
            store[key] = self.compute(layout, True)
        return store[key]


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
        return [Layout(n, gpus_per_node, nodes, "none", tp=tp, pp=n // tp)]
    if n == 1:
        return [Layout(1, 1, 1, "none")]
    if method in ("full", "pretraining"):
        return [Layout(n, gpus_per_node, nodes, "zero3")]
    return [Layout(n, gpus_per_node, nodes, "ddp"), Layout(n, gpus_per_node, nodes, "zero3")]


def memory_fit(est: Any, gpu: GpuSpec, headroom_fraction: float, sharding: str) -> MemoryFit:
    """A MemoryEstimate against one GPU's usable memory."""
    b = est.breakdown_gib
    breakdown = {
        k: float(getattr(b, k))
        for k in ("weights", "gradients", "optimizer", "activations", "kv_cache", "adapters", "overhead")
        if hasattr(b, k)
    }
    return MemoryFit(
        peak_gib_per_gpu=float(est.peak_gib_per_gpu),
        usable_gib_per_gpu=gpu.usable_memory_gib,
        headroom_gib=gpu.usable_memory_gib - float(est.peak_gib_per_gpu),
        required_headroom_fraction=headroom_fraction,
        sharding=sharding,
        breakdown_gib=breakdown,
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
