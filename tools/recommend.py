"""The recommender: a workload profile and the catalogs in, a ranked GPU recommendation out.

    recommend(profile=..., catalog=...) -> Recommendation

Pipeline (seed 001: "whether it works" before "what it costs"):
1. Resolve unknown profile fields into named defaults (tools.defaults), each marked assumed.
2. Enumerate offers: every price record of every GPU type (provider x pricing x region), plus owned
   and colocated hardware when the user's own utilisation and horizon make buying plausible (seed
   000: >= 30% sustained utilisation over >= 12 months) or the user wants on-premises hardware.
   Reserved capacity only when a stated horizon covers its term at >= 50% utilisation. Among offers
   of the same kind (pricing, tier class, managed, cloud, EU, node sizes, fabric) only the cheapest
   is kept: the others give the same fit, time and risk at a higher price.
3. For each offer, GPU counts as offered (1, 2, 4, 8 per node) and whole-node clusters. A count is
   feasible when the per-GPU peak memory (tools.memory, sharded: ZeRO-3/FSDP for full training,
   data parallel for LoRA/QLoRA, tensor parallel for inference) is at most (1 - headroom) of usable
   memory, and tools.topology accepts the interconnect (no cross-node tensor parallelism over
   Ethernet). Per offer we keep the smallest feasible count, the largest single node, and the
   smallest count that meets the deadline. Serving with a throughput target adds replicas.
4. Constraints: eu_only keeps EU-region records only; excluded providers are dropped; a consumer
   or on-premises wish keeps consumer GPUs or owned hardware only; budget and deadline reject what
   surely misses them (low end beyond the limit). If nothing meets them, the answer says so plainly
   and shows the closest configurations.
5. Cost: wall-clock and GPU-hour ranges from the MFU range (tools.compute); cost range = GPU-hours x
   price (+ the managed premium for managed services); four TCO rows (tools.cost) per data scenario:
   dataset cached after the first pull vs pulled on every run (egress is zero same-cloud).

Ranking (lower is better; `cost` = the TCO total of the expected data scenario, mid of its range;
`hours` = wall-clock mid; `risk` = operational-risk points, below):
- objective "cheapest": cost, then hours, among options that meet the deadline.
- objective "fastest": hours, then cost, among options within budget.
- objective "balanced" (default): score = ln(cost) + 0.3 x ln(hours) + risk. A 2x speed-up is worth
  paying 2**0.3 = 23% more; one risk point weighs like e = 2.7x the cost.
Operational risk points: spot/preemptible +0.30, +0.15 per doubling of wall-clock beyond a day;
any run +0.05 per doubling beyond a week; community/marketplace tier +0.20; multi-node
+0.10 + 0.10 x log2(nodes); owned or colocated hardware +0.30 (+0.05 with dedicated ops staff);
managed service -0.05; reserved capacity +0.10 (a commitment); meeting the budget or deadline
only at the favourable end of the range +0.30 (cheapest/fastest: ranked after sure ones).
Preferred providers: when one of them has a feasible option, the primary is chosen among them.

The primary is the best by the objective; alternatives differ in a way a buyer cares about:
cheapest (>= 5% cheaper, finishing within a month), fastest (>= 5% faster), lowest operational
risk, owned hardware, and the lowest-cost option of each shortlisted provider
(RecommendSettings.compare_providers); at least two when the catalog allows.
Sensitivity (tools.sensitivity), expectation checks (tools.expectations) and infeasible advice
(tools.infeasible) re-use this engine with shared calculator caches. Every number comes from a calculator
in tools/ and its trace is kept; the recommender itself only compares, filters and sums rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tools import compute as compute_mod
from tools import memory as memory_mod
from tools import topology as topology_mod
from tools.candidates import (
    Caches,
    Layout,
    MemoryCache,
    Offer,
    gpu_counts,
    layouts_for,
    memory_fit,
    memory_method,
    topology_summary,
)
from tools.catalog.schema import GpuSpec, PriceRecord
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend_models import (
    Label,
    MemoryFit,
    Option,
    Recommendation,
    RecommendSettings,
    Rejection,
    RejectionKind,
    TcoScenario,
    TopologySummary,
)
from tools.trace import TraceBuilder
from tools.units import HOURS_PER_MONTH, bytes_to_gb

TIME_WEIGHT = 0.3
"""Balanced score exponent on wall-clock hours (see module docstring)."""
RISK_SPOT = 0.30
RISK_SPOT_PER_DOUBLING_DAY = 0.15
"""Spot risk grows with job length (seed 000: acceptable for short fine-tuning, damaging for runs
measured in weeks): +0.15 per doubling of wall-clock beyond one day."""
RISK_LONG_JOB_PER_DOUBLING_WEEK = 0.05
"""Any job: +0.05 per doubling of wall-clock beyond one week (more failures and restarts to absorb)."""
RISK_COMMUNITY = 0.20
RISK_MULTI_NODE = 0.10
RISK_OWNED = 0.30
RISK_OWNED_DEDICATED_OPS = 0.05
RISK_MANAGED = -0.05
RISK_RESERVED = 0.10
MEANINGFUL_DIFFERENCE = 0.05
"""'cheapest' / 'fastest' alternatives must beat the primary by at least 5% on their own measure."""
PRACTICAL_WALL_HOURS = 720.0
"""The 'cheapest' alternative must finish within a month (or the primary's time, if longer): a
cheaper configuration that runs for half a year is not a plan a buyer would take."""
MAX_REPLICAS = 16
"""Inference: most replicas of one configuration considered to reach a throughput target."""
RISK_LIMIT_MAYBE = 0.30
"""Balanced score: meeting the budget or deadline only at the favourable end of the range."""
COMMUNITY_TIERS = ("community", "marketplace", "spot", "interruptible")
OWNED_UTILIZATION_MIN = 0.30
"""Seed 000: below ~30% sustained utilisation the cloud premium is justified; buying is implausible."""
OWNED_HORIZON_MONTHS_MIN = 12.0
"""Owned hardware is amortised over years; under a year of use renting wins (seed 000, seed 002)."""
BF16_BYTES = 2.0
"""Bytes per parameter of the stored base model download (BF16 safetensors)."""
MANAGED_PREMIUM_ESTIMATE = "managed_premium_fraction"
DEFAULT_MANAGED_PREMIUM = 0.30
"""Seed 001: SageMaker carries roughly 30% over self-managed compute (used if the catalog lacks it)."""


def _cost() -> Any:
    """tools.cost, imported on first use (sys.modules caches it)."""
    import tools.cost

    return tools.cost


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
    deadline_status: str | None = None  # meets | maybe | misses
    budget_status: str | None = None
    score: float = 0.0

    @property
    def key(self) -> str:
        o = self.offer
        return (
            f"{self.gpu.id}x{self.layout.n_gpus * self.replicas}@{o.provider}/{o.pricing}/{o.region or '-'}"
        )

    point: str = "mid"
    replicas: int = 1

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
    def misses(self) -> bool:
        return self.deadline_status == "misses" or self.budget_status == "misses"


def _at(r: Range, point: str) -> float:
    return r.low if point == "low" else r.high if point == "high" else r.mid


@dataclass
class _GpuNotes:
    """Why a GPU type produced no usable candidate (the most informative reason wins)."""

    memory: str | None = None
    interconnect: str | None = None
    constraint: str | None = None
    throughput: str | None = None
    no_price: bool = False


@dataclass
class Outcome:
    """One engine run before sensitivity and expectation checks (also used by those re-runs)."""

    workload: ResolvedWorkload
    ranked: list[Candidate]
    primary: Candidate | None
    alternatives: list[tuple[Candidate, Label]]
    rejected: list[Rejection]
    notes: list[str]
    all_feasible: list[Candidate]
    engine: Engine
    smallest_peak_gib: float | None = None
    considered: int = 0
    notes_by_gpu: dict[str, _GpuNotes] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
class Engine:
    """State of one recommender run: the catalog, the resolved workload and per-run caches."""

    def __init__(
        self,
        w: ResolvedWorkload,
        catalog: CatalogView,
        settings: RecommendSettings,
        caches: Caches | None = None,
    ) -> None:
        self.w = w
        self.p: WorkloadProfile = w.profile
        self.catalog = catalog
        self.s = settings
        self.tb = TraceBuilder()
        self.tb.extend(w)
        self.headroom = settings.headroom_fraction
        self.tb.assume(
            "memory headroom",
            self.headroom,
            "fraction of usable memory",
            "issue 3: at least 10% of usable memory left free (allocator fragmentation, spikes)",
        )
        self.method = memory_method(w)
        self.inference = self.method == "inference"
        self.caches = caches if caches is not None else Caches()
        p = self.p
        self.mem_signature: tuple[Any, ...] = (
            w.arch.id,
            self.method,
            p.precision,
            p.seq_len,
            p.batch_size,
            p.lora_rank,
            p.concurrency,
            p.context_len,
        )
        s = settings
        self.time_signature: tuple[Any, ...] = (
            w.arch.id,
            self.method,
            p.precision,
            p.seq_len,
            w.training_tokens,
            s.active_params or w.params_for_flops,
            s.mfu,
            s.flops_factor,
            s.qlora_slowdown,
            s.attention_flops,
            p.concurrency,
            p.context_len,
            p.target_tokens_per_s,
        )
        self.mem = MemoryCache(self._estimate_memory, self.mem_signature, self.caches)
        self._time_cache = self.caches.time
        self._topo_cache = self.caches.topology
        self._egress_cache: dict[tuple[bool, float], float] = {}
        self._storage_cache: dict[str, float] = {}
        self._stored_gb: float | None = None
        self._storage_results: dict[str, Any] = {}
        self.premium = self._managed_premium()
        self.weights_total_gib = float(self.mem.get(Layout(1, 1, 1, "none")).breakdown_gib.weights)

    # --- calculators (thin wrappers; each formula lives in its tools/ module) ----------------
    def _estimate_memory(self, layout: Layout) -> Any:
        p = self.p
        kw: dict[str, Any] = dict(
            arch=self.w.arch,
            method=self.method,
            precision=p.precision,
            gpus=layout.n_gpus,
            sharding=layout.sharding,
            tp=layout.tp,
            pp=layout.pp,
        )
        if self.inference:
            kw.update(concurrency=p.concurrency or 1, context_len=p.context_len)
        else:
            kw.update(seq_len=p.seq_len or 2048, batch_size=p.batch_size or 1, grad_checkpointing=True)
            if p.lora_rank and self.method in ("lora", "qlora"):
                kw["lora_rank"] = p.lora_rank
        return memory_mod.estimate_memory(**kw)

    def training_time(self, gpu: GpuSpec, layout: Layout, scale_out: str) -> Any:
        key = (self.time_signature, gpu.id, layout.n_gpus, layout.gpus_per_node, scale_out)
        if key not in self._time_cache:
            s = self.s
            self._time_cache[key] = compute_mod.estimate_training_time(
                active_params=s.active_params or self.w.params_for_flops,
                tokens=self.w.training_tokens,
                method=self.method,  # type: ignore[arg-type]
                grad_checkpointing=True,
                gpu=gpu,
                n_gpus=layout.n_gpus,
                precision="fp8" if self.p.precision == "fp8" else "bf16",
                mfu_range=s.mfu,
                flops_factor=s.flops_factor,
                gpus_per_node=layout.gpus_per_node,
                scale_out=scale_out,  # type: ignore[arg-type]
                qlora_slowdown=s.qlora_slowdown,
                arch=self.w.arch if s.attention_flops else None,
                seq_len=self.p.seq_len if s.attention_flops else None,
            )
        return self._time_cache[key]

    def inference_perf(self, gpu: GpuSpec, n: int) -> Any:
        key = (self.time_signature, gpu.id, n)
        if key not in self._time_cache:
            p = self.p
            self._time_cache[key] = compute_mod.estimate_inference(
                arch=self.w.arch,
                gpu=gpu,
                n_gpus=n,
                precision=p.precision or "bf16",
                concurrency=p.concurrency or 1,
                context_len=p.context_len or 4096,
                target_tokens_per_s=p.target_tokens_per_s,
            )
        return self._time_cache[key]

    def topology(self, gpu: GpuSpec, layout: Layout, peak_gib: float, scale_out: str) -> Any:
        key = (
            gpu.id,
            layout.gpus_per_node,
            layout.n_gpus,
            scale_out,
            layout.sharding,
            layout.tp,
            layout.pp,
            self.method,
            round(peak_gib, 6),
            round(self.weights_total_gib, 6),
        )
        if key not in self._topo_cache:
            self._topo_cache[key] = topology_mod.plan_topology(
                gpu=gpu,
                gpus_per_node=layout.gpus_per_node,
                n_gpus=layout.n_gpus,
                peak_gib_per_gpu=peak_gib,
                weights_gib_total=self.weights_total_gib,
                method=self.method,  # type: ignore[arg-type]
                scale_out=scale_out,  # type: ignore[arg-type]
                tp=layout.tp,
                pp=layout.pp,
                sharding=layout.sharding,  # type: ignore[arg-type]
            )
        return self._topo_cache[key]

    def _managed_premium(self) -> float:
        if self.s.managed_premium_fraction is not None:
            return self.tb.assume(  # type: ignore[return-value]
                "managed-service premium", self.s.managed_premium_fraction, "fraction", "override"
            )
        try:
            est = self.catalog.estimate(MANAGED_PREMIUM_ESTIMATE)
            return float(self.tb.assume("managed-service premium", est.value, est.unit, est.source) or 0.0)
        except (InputError, KeyError, LookupError):
            return float(
                self.tb.assume("managed-service premium", DEFAULT_MANAGED_PREMIUM, "fraction", "seed 001")
                or 0.0
            )

    def egress_usd(self, same_cloud: bool, pulls: float) -> float:
        """Egress for `pulls` dataset pulls from the data's cloud (0 when same-cloud or not a cloud)."""
        key = (same_cloud, pulls)
        if key in self._egress_cache:
            return self._egress_cache[key]
        loc = self.p.data_location
        usd = 0.0
        if loc in ("aws", "gcp", "azure") and not same_cloud and self.p.dataset_gb and pulls > 0:
            kw: dict[str, Any] = {}
            if self.s.other_egress_gb_per_month is not None:
                kw["other_egress_gb_per_month"] = self.s.other_egress_gb_per_month
            res = _cost().egress_cost(
                dataset_gb=self.p.dataset_gb,
                pulls=pulls,
                schedule=self.catalog.egress_for(loc),
                same_cloud=same_cloud,
                **kw,
            )
            self.tb.extend(res, prefix=f"egress ({pulls:g} pulls): ")
            usd = float(res.total_usd)
        self._egress_cache[key] = usd
        return usd

    def stored_gb(self) -> float:
        """Dataset + one BF16 copy of the base weights + one resumable checkpoint (tools.cost)."""
        if self.s.stored_gb is not None:
            return self.s.stored_gb
        if self._stored_gb is None:
            est = self.mem.get(Layout(1, 1, 1, "none"))
            weights_gb = bytes_to_gb(float(est.params) * BF16_BYTES)
            ckpt_gb = 0.0
            if not self.inference:
                ckpt_gb = float(
                    _cost().checkpoint_size_gb(
                        total_params=float(est.params),
                        trainable_params=float(est.trainable_params),
                        method=self.method,
                    )
                )
            data_gb = 0.0 if self.inference else (self.p.dataset_gb or 0.0)
            self._stored_gb = self.tb.step(
                "stored_gb",
                "dataset_gb + base weights (BF16) + one checkpoint",
                data_gb + weights_gb + ckpt_gb,
                "GB",
                "seed 001: corpus + checkpoints + artifacts",
                dataset_gb=data_gb,
                weights_gb=weights_gb,
                checkpoint_gb=ckpt_gb,
            )
        return self._stored_gb

    def storage_usd(self, offer: Offer) -> float:
        if self.s.storage_usd_per_month is not None:
            return self.s.storage_usd_per_month
        where = offer.cloud or offer.provider
        if where in self._storage_cache:
            return self._storage_cache[where]
        price = None
        for name in (offer.cloud, offer.provider, self.p.data_location, "aws"):
            if not name:
                continue
            try:
                price = self.catalog.storage_for(name)
                break
            except (InputError, KeyError, LookupError):
                continue
        usd = 0.0
        if price is not None:
            res = _cost().storage_cost(stored_gb=self.stored_gb(), months=1.0, price=price)
            self._storage_results[where] = res
            usd = float(res.total_usd)
        self._storage_cache[where] = usd
        return usd

    def scenarios(self, offer: Offer, gpu_hours: Range, all_of_them: bool) -> tuple[TcoScenario, ...]:
        """The four TCO rows for each data scenario (the expected one first)."""
        p = self.p
        same_cloud = offer.cloud is not None and offer.cloud == p.data_location
        premium = self.premium if offer.managed else None
        runs = p.runs_per_month or 1.0
        plans: list[tuple[str, float]]
        if self.inference:
            plans = [("one month of serving", 0.0)]
        else:
            cached = ("data cached after first pull", 1.0)
            uncached = (f"data pulled every run ({runs:g} runs)", runs)
            plans = [cached, uncached] if p.data_cached is not False else [uncached, cached]
            if runs <= 1:
                plans = plans[:1]
            if not all_of_them:
                plans = plans[:1]
        storage = self.storage_usd(offer)
        out = []
        for name, pulls in plans:
            egress = self.egress_usd(same_cloud, pulls)
            key = (gpu_hours.low, gpu_hours.high, offer.usd_per_gpu_hour, storage, egress, premium)
            t = self.caches.tco.get(key)
            if t is None:
                t = self.caches.tco[key] = _cost().tco(
                    gpu_hours=gpu_hours,
                    usd_per_gpu_hour=offer.usd_per_gpu_hour,
                    storage_usd=storage,
                    egress_usd=egress,
                    managed_premium_fraction=premium,
                )
            out.append(
                TcoScenario(
                    scenario=name,
                    data_pulls=0.0 if same_cloud else pulls,
                    compute_usd=t.compute_usd,
                    storage_usd=storage,
                    egress_usd=egress,
                    managed_usd=t.managed_usd,
                    total_usd=t.total_usd,
                    same_cloud=same_cloud,
                )
            )
        return tuple(out)

    # --- offers and constraints --------------------------------------------------------------
    def offers_for(self, gpu: GpuSpec, notes: _GpuNotes, records: Sequence[PriceRecord]) -> list[Offer]:
        p = self.p
        excluded = {x.lower() for x in p.providers_excluded}
        if p.deployment_preference == "consumer" and not gpu.consumer:
            notes.constraint = "not a consumer GPU (consumer hardware requested)"
            return []
        offers: list[Offer] = []
        if p.deployment_preference != "on_prem":
            dropped_eu = dropped_excl = 0
            for r in records:
                if p.eu_only and not r.eu:
                    dropped_eu += 1
                    continue
                if r.provider.lower() in excluded:
                    dropped_excl += 1
                    continue
                if self.s.on_demand_only and (r.pricing != "on_demand" or r.tier.lower() in COMMUNITY_TIERS):
                    continue
                offers.append(Offer.from_record(r))
            if not offers and records:
                if dropped_eu and not dropped_excl:
                    notes.constraint = "no EU-region offer in the catalog (EU-only data residency)"
                elif dropped_excl and not dropped_eu:
                    notes.constraint = f"offered only by excluded providers ({', '.join(sorted(excluded))})"
                else:
                    notes.constraint = "no offer left after the EU-only and excluded-provider constraints"
            offers = self._undominated([o for o in offers if self._reserved_plausible(o)])
        offers += self.owned_offers(gpu)
        if not records and not offers:
            notes.no_price = True
        if p.deployment_preference == "on_prem" and not offers:
            notes.constraint = "no purchase price in the catalog (on-premises hardware requested)"
        return offers

    def _undominated(self, offers: list[Offer]) -> list[Offer]:
        """Drop offers a cheaper one of the same kind dominates: same pricing, tier class, managed,
        cloud, EU flag, node sizes and fabric give the same fit, time and risk, so only the price
        differs. Preferred and shortlisted providers are always kept."""
        keep_names = {x.lower() for x in (*self.p.providers_preferred, *self.s.compare_providers)}
        best: dict[tuple[Any, ...], Offer] = {}
        kept: list[Offer] = []
        for o in offers:
            if o.provider.lower() in keep_names:
                kept.append(o)
                continue
            key = (
                o.pricing,
                o.tier.lower() in COMMUNITY_TIERS,
                o.managed,
                o.cloud,
                o.eu,
                o.gpus_per_node,
                o.scale_out,
                o.deployment,
                o.commitment_months,
            )
            if key not in best or o.usd_per_gpu_hour < best[key].usd_per_gpu_hour:
                best[key] = o
        return kept + list(best.values())

    def _reserved_plausible(self, o: Offer) -> bool:
        """Reserved capacity only when the stated horizon covers the commitment and use is sustained."""
        if o.pricing != "reserved":
            return True
        horizon_stated = self.p.status_of("horizon_months") in ("stated", "inferred")
        util = self.p.utilization
        term = o.commitment_months or 1.0
        return bool(horizon_stated and (self.p.horizon_months or 0) >= term and util and util >= 0.5)

    def owned_offers(self, gpu: GpuSpec) -> list[Offer]:
        """Owned (on-premises) and colocated hardware at an amortised $/GPU-hour, when plausible."""
        p = self.p
        if gpu.purchase_price_usd is None:
            return []
        # Buying is considered on the user's own figures only, never on assumed defaults.
        known = {"stated", "inferred", None}
        util = p.utilization if p.status_of("utilization") in known else None
        horizon = (p.horizon_months or 0.0) if p.status_of("horizon_months") in known else 0.0
        plausible = util is not None and util >= OWNED_UTILIZATION_MIN and horizon >= OWNED_HORIZON_MONTHS_MIN
        if p.deployment_preference != "on_prem" and not plausible:
            return []
        out: list[Offer] = []
        kinds: tuple[str, ...] = (
            ("owned",) if p.deployment_preference == "on_prem" else ("owned", "colocation")
        )
        for kind in kinds:
            rate = owned_rate(
                self.catalog,
                gpu,
                utilization=util or OWNED_UTILIZATION_MIN,
                horizon_months=horizon or OWNED_HORIZON_MONTHS_MIN,
                colocation=kind == "colocation",
            )
            if rate is None:
                continue
            self.tb.extend(rate, prefix=f"{kind} {gpu.id}: ")
            per_node = tuple(g for g in (1, 2, 4, 8) if g <= gpu.max_gpus_per_node)
            out.append(
                Offer(
                    provider="your data centre" if kind == "owned" else "colocation",
                    gpu_id=gpu.id,
                    pricing="owned",
                    usd_per_gpu_hour=float(rate.usd_per_gpu_hour),
                    deployment="owned" if kind == "owned" else "colocation",
                    tier=kind,
                    gpus_per_node=per_node,
                    scale_out=_owned_fabric(gpu),
                    eu=True,
                    as_of=gpu.as_of,
                    source=gpu.purchase_price_source or gpu.source,
                )
            )
        return out

    # --- enumeration -------------------------------------------------------------------------
    def fit_layout(self, gpu: GpuSpec, gpn: int, nodes: int) -> tuple[Layout, Any, MemoryFit] | None:
        """First layout (in order of preference) whose per-GPU peak fits with headroom."""
        for layout in layouts_for(self.w, gpn, nodes):
            est = self.mem.get(layout)
            key = (self.mem_signature, gpu.id, self.headroom, layout)
            fit = self.caches.fit.get(key)
            if fit is None:
                fit = self.caches.fit[key] = memory_fit(est, gpu, self.headroom, layout.sharding)
            if fit.fits:
                return layout, est, fit
        return None

    def smallest_peak(self, gpu: GpuSpec, pairs: Iterable[tuple[int, int]]) -> tuple[float, Layout]:
        best: tuple[float, Layout] | None = None
        for gpn, nodes in pairs:
            for layout in layouts_for(self.w, gpn, nodes):
                peak = float(self.mem.get(layout).peak_gib_per_gpu)
                if best is None or peak < best[0]:
                    best = (peak, layout)
        assert best is not None
        return best

    def candidates_for(self, gpu: GpuSpec, offers: Sequence[Offer], notes: _GpuNotes) -> list[Candidate]:
        out: list[Candidate] = []
        for offer in offers:
            pairs = gpu_counts(offer, gpu, self.s.max_nodes)
            feasible: list[Candidate] = []
            for gpn, nodes in pairs:
                got = self.fit_layout(gpu, gpn, nodes)
                if got is None:
                    continue
                layout, _est, fit = got
                plan = self.topology(
                    gpu, layout, fit.peak_gib_per_gpu, offer.scale_out if nodes > 1 else "none"
                )
                if not plan.feasible:
                    notes.interconnect = "; ".join(str(r) for r in plan.reasons) or "interconnect unsuitable"
                    continue
                c = self.build(gpu, offer, layout, fit, topology_summary(plan, offer.scale_out))
                if c.replicas > MAX_REPLICAS:
                    notes.throughput = (
                        f"needs {c.replicas} replicas of {layout.n_gpus} GPU(s) for "
                        f"{self.p.target_tokens_per_s:,.0f} tokens/s (more than {MAX_REPLICAS})"
                    )
                    continue
                feasible.append(c)
                if not self._want_more(feasible):
                    break
            out += [self.price(c) for c in self._prune(feasible)]
            if not feasible and notes.memory is None:
                single = self.mem.get(layouts_for(self.w, 1, 1)[0])
                peak1 = float(single.peak_gib_per_gpu)
                best_peak, best_layout = self.smallest_peak(gpu, pairs)
                limit = gpu.usable_memory_gib * (1 - self.headroom)
                msg = (
                    f"needs {peak1:.1f} GiB per GPU, has {gpu.usable_memory_gib:.1f} (usable; {limit:.1f} "
                    f"with {self.headroom:.0%} headroom)"
                )
                if best_layout.n_gpus > 1 and best_peak < peak1:
                    msg += f"; even over {best_layout.n_gpus} GPUs ({best_layout.sharding}): {best_peak:.1f}"
                notes.memory = msg
        return out

    def _want_more(self, feasible: list[Candidate]) -> bool:
        """Keep enumerating larger counts only while the deadline is unmet or a full node is ahead."""
        last = feasible[-1]
        if self.p.deadline_hours and last.wall_hours.high > self.p.deadline_hours:
            return True
        return last.layout.nodes == 1

    def _prune(self, feasible: list[Candidate]) -> list[Candidate]:
        """Smallest feasible count, the largest single node, the smallest count meeting the deadline."""
        if not feasible:
            return []
        keep = {id(feasible[0]): feasible[0]}
        single = [c for c in feasible if c.layout.nodes == 1]
        if single:
            keep[id(single[-1])] = single[-1]
        if self.p.deadline_hours:
            for c in feasible:
                if c.wall_hours.high <= self.p.deadline_hours:
                    keep[id(c)] = c
                    break
            else:
                keep[id(feasible[-1])] = feasible[-1]
        return list(keep.values())

    def build(
        self, gpu: GpuSpec, offer: Offer, layout: Layout, fit: MemoryFit, topo: TopologySummary
    ) -> Candidate:
        """A candidate with its time (or throughput) and risk; `price` adds the costs."""
        n = layout.n_gpus
        decode: Range | None = None
        replicas = 1
        if self.inference:
            perf = self.inference_perf(gpu, n)
            decode = perf.decode_tokens_per_s
            target = self.p.target_tokens_per_s
            needed = perf.replicas_needed_for_target
            if target and decode is not None and decode.low < target and needed is not None:
                replicas = max(1, int(math.ceil(needed.high)))
                decode = decode.scale(replicas)
            util = self.p.utilization if self.p.utilization is not None else 1.0
            serving_hours = HOURS_PER_MONTH * util
            wall = Range(low=serving_hours, high=serving_hours)
            gpu_hours = Range(low=serving_hours * n * replicas, high=serving_hours * n * replicas)
        else:
            t = self.training_time(gpu, layout, offer.scale_out if layout.nodes > 1 else "none")
            wall, gpu_hours = t.wall_hours, t.gpu_hours
        zero = Range(low=0.0, high=0.0)
        c = Candidate(
            gpu=gpu,
            offer=offer,
            layout=layout,
            fit=fit,
            topo=topo,
            gpu_hours=gpu_hours,
            wall_hours=wall,
            cost_usd=zero,
            total_usd=zero,
            scenarios=(),
            decode_tokens_per_s=decode,
            point=self.s.range_point,
            replicas=replicas,
        )
        self._risk(c)
        if not self.inference:
            c.deadline_status = self._deadline_status(c)
        return c

    def price(self, c: Candidate) -> Candidate:
        """Expected-scenario TCO, cost range and the budget check."""
        scen = self.scenarios(c.offer, c.gpu_hours, all_of_them=False)
        exp = scen[0]
        c.scenarios = scen
        c.cost_usd = Range(
            low=exp.compute_usd.low + exp.managed_usd.low, high=exp.compute_usd.high + exp.managed_usd.high
        )
        c.total_usd = exp.total_usd
        self._limits(c)
        return c

    def _risk(self, c: Candidate) -> None:
        o = c.offer
        risk = 0.0
        days = c.wall_hours.mid / 24.0
        if o.pricing == "spot":
            risk += RISK_SPOT + RISK_SPOT_PER_DOUBLING_DAY * max(0.0, math.log2(max(days, 1e-9)))
            c.risks.append("spot capacity can be preempted: checkpoint often")
        if not self.inference and days > 7:
            risk += RISK_LONG_JOB_PER_DOUBLING_WEEK * math.log2(days / 7)
            c.risks.append(f"long run ({days:,.0f} days of wall-clock): plan checkpoints and restarts")
        if o.tier.lower() in COMMUNITY_TIERS:
            risk += RISK_COMMUNITY
            c.risks.append(f"{o.tier} tier: host reliability and availability vary")
        if c.layout.nodes > 1:
            risk += RISK_MULTI_NODE + RISK_MULTI_NODE * math.log2(c.layout.nodes)
            c.risks.append(
                f"{c.layout.nodes} nodes: needs {c.topo.interconnect_inter_required} and NCCL tuning"
            )
        if o.deployment in ("owned", "colocation"):
            risk += RISK_OWNED_DEDICATED_OPS if self.p.ops_capacity == "dedicated" else RISK_OWNED
            c.risks.append("you run the hardware: procurement lead time, failures, staff")
        if o.managed:
            risk += RISK_MANAGED
        if o.pricing == "reserved":
            risk += RISK_RESERVED
            c.risks.append(f"reserved: {o.commitment_months or 1:g}-month commitment")
        c.risk = risk

    def _deadline_status(self, c: Candidate) -> str | None:
        d = self.p.deadline_hours
        if not d:
            return None
        if c.wall_hours.high <= d:
            return "meets"
        if c.wall_hours.low > d:
            return "misses"
        c.risks.append(f"meets the {d:g} h deadline only at the high end of the MFU range")
        return "maybe"

    def _limits(self, c: Candidate) -> None:
        p = self.p
        if p.budget_usd:
            if c.total_usd.high <= p.budget_usd:
                c.budget_status = "meets"
            elif c.total_usd.low > p.budget_usd:
                c.budget_status = "misses"
            else:
                c.budget_status = "maybe"
                c.risks.append(f"may exceed the ${p.budget_usd:,.0f} budget at low MFU")

    # --- ranking -----------------------------------------------------------------------------
    def score(self, c: Candidate) -> float:
        obj = self.p.objective or "balanced"
        if self.inference:
            speed = 1.0 / max(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 1.0, 1e-9)
        else:
            speed = max(c.hours_mid, 1e-9)
        if obj == "cheapest":
            return c.cost_mid + 1e-6 * speed
        if obj == "fastest":
            return speed + 1e-9 * c.cost_mid
        maybe = RISK_LIMIT_MAYBE if c.limit_maybe else 0.0
        return math.log(max(c.cost_mid, 1e-9)) + TIME_WEIGHT * math.log(speed) + c.risk + maybe

    def rank(self, cands: list[Candidate]) -> list[Candidate]:
        """Best first; for cheapest/fastest, options that meet the limits only at one end of their
        range come after those that surely meet them."""
        strict = (self.p.objective or "balanced") != "balanced"
        for c in cands:
            c.score = self.score(c)
        return sorted(cands, key=lambda c: (strict and c.limit_maybe, c.score, c.cost_mid, c.key))


def _owned_fabric(gpu: GpuSpec) -> str:
    """Fabric assumed for owned clusters: InfiniBand for 8-GPU data-centre nodes (seed 000: +10-20% of
    cluster cost, in server_overhead_fraction), Ethernet for consumer or small boxes."""
    return "infiniband" if gpu.max_gpus_per_node >= 8 and not gpu.consumer else "ethernet"


def owned_rate(
    catalog: CatalogView, gpu: GpuSpec, *, utilization: float, horizon_months: float, colocation: bool
) -> Any:
    """Amortised $/GPU-hour of owned hardware (tools.cost.owned_usd_per_gpu_hour, catalog estimates);
    None when the GPU has no purchase price or TDP, or the catalog lacks an estimate."""
    if gpu.purchase_price_usd is None or gpu.tdp_w is None:
        return None
    try:
        est = catalog.estimate
        return _cost().owned_usd_per_gpu_hour(
            purchase_price_usd=gpu.purchase_price_usd,
            utilization=utilization,
            tdp_w=gpu.tdp_w,
            amortization_months=est("hardware_amortization_months"),
            server_overhead_fraction=est("server_overhead_fraction"),
            pue=est("pue"),
            power_usd_per_kwh=est("power_usd_per_kwh"),
            ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
            colo_usd_per_kw_month=est("colo_usd_per_kw_month") if colocation else None,
        )
    except (InputError, KeyError, LookupError):
        return None


# --------------------------------------------------------------------------------------------
def run_engine(
    w: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, caches: Caches | None = None
) -> Outcome:
    """Enumerate, check, cost and rank; no sensitivity or expectation checks (see recommend).
    `caches` shares calculator results with other runs of the same request (sensitivity)."""
    eng = Engine(w, catalog, settings, caches)
    p = eng.p
    by_gpu: dict[str, list[PriceRecord]] = {}
    for rec in catalog.prices:
        by_gpu.setdefault(rec.gpu, []).append(rec)
    notes_by_gpu: dict[str, _GpuNotes] = {}
    feasible: list[Candidate] = []
    considered = 0
    for gpu in catalog.gpus:
        notes = _GpuNotes()
        notes_by_gpu[gpu.id] = notes
        offers = eng.offers_for(gpu, notes, by_gpu.get(gpu.id, []))
        considered += len(offers)
        cands = eng.candidates_for(gpu, offers, notes)
        if p.target_tokens_per_s and eng.inference:
            slow = [
                c
                for c in cands
                if c.decode_tokens_per_s and c.decode_tokens_per_s.high < p.target_tokens_per_s
            ]
            if slow and len(slow) == len(cands):
                best = max(slow, key=lambda c: c.decode_tokens_per_s.high if c.decode_tokens_per_s else 0.0)
                rate = best.decode_tokens_per_s.high if best.decode_tokens_per_s else 0.0
                notes.throughput = (
                    f"{best.layout.n_gpus} GPU(s) decode at most {rate:,.0f} tokens/s, "
                    f"target {p.target_tokens_per_s:,.0f}"
                )
            cands = [c for c in cands if c not in slow]
        feasible += cands

    return select(eng, feasible, notes_by_gpu, considered)


def select(
    eng: Engine, feasible: list[Candidate], notes_by_gpu: dict[str, _GpuNotes], considered: int
) -> Outcome:
    """Limits, ranking, primary, alternatives and rejections over the feasible candidates."""
    p, w, catalog, settings = eng.p, eng.w, eng.catalog, eng.s
    notes_out: list[str] = []
    pool = [c for c in feasible if not c.misses]
    limit_rejections: dict[str, Rejection] = {}
    for c in feasible:
        if c.misses and c.gpu.id not in {x.gpu.id for x in pool}:
            limit_rejections.setdefault(c.gpu.id, _limit_rejection(c, p))
    if feasible and not pool:
        pool = sorted(feasible, key=lambda c: _closeness(c, p))
        which = " and ".join(
            x for x, v in (("budget", p.budget_usd), ("deadline", p.deadline_hours)) if v is not None
        )
        best = pool[0]
        notes_out.append(
            f"Nothing in the catalog meets the {which}: the closest is {best.layout.n_gpus}x "
            f"{best.gpu.name} at {best.offer.provider} ({_limit_text(best, p)}). "
            "Shown below as the closest options, not a fit."
        )
        limit_rejections = {}
        ranked = pool
    else:
        ranked = eng.rank(pool)

    primary: Candidate | None = None
    if ranked:
        preferred = {x.lower() for x in p.providers_preferred}
        pref = [c for c in ranked if c.offer.provider.lower() in preferred]
        primary = pref[0] if pref else ranked[0]
        if preferred and not pref:
            notes_out.append(
                "None of your preferred providers has a feasible offer; showing the best of the rest."
            )
    alternatives = _alternatives(primary, ranked, eng, settings.max_alternatives) if primary else []

    rejected: list[Rejection] = []
    kept = {c.gpu.id for c in ranked}
    for gpu in catalog.gpus:
        if gpu.id in kept:
            continue
        r = limit_rejections.get(gpu.id) or _gpu_rejection(gpu, notes_by_gpu[gpu.id])
        if r is not None:
            rejected.append(r)

    smallest: float | None = None
    if not feasible:
        smallest = float(eng.mem.get(layouts_for(w, 1, 1)[0]).peak_gib_per_gpu)
    return Outcome(
        workload=w,
        ranked=ranked,
        primary=primary,
        alternatives=alternatives,
        rejected=rejected,
        notes=notes_out,
        all_feasible=feasible,
        engine=eng,
        smallest_peak_gib=smallest,
        considered=considered,
        notes_by_gpu=notes_by_gpu,
    )


def rerank(base: Outcome, *, range_point: str | None = None, on_demand_only: bool = False) -> Outcome:
    """The base run's candidates ranked at another point of their ranges, or restricted to
    established on-demand offers, without recomputing anything (sensitivity to MFU and price tier)."""
    cands = [
        replace(c, point=range_point or c.point, risks=list(c.risks), why=list(c.why))
        for c in base.all_feasible
        if not on_demand_only
        or c.offer.pricing == "owned"
        or (c.offer.pricing == "on_demand" and c.offer.tier.lower() not in COMMUNITY_TIERS)
    ]
    return select(base.engine, cands, base.notes_by_gpu, base.considered)


def _closeness(c: Candidate, p: WorkloadProfile) -> float:
    ratios = [1.0]
    if p.budget_usd:
        ratios.append(c.total_usd.low / p.budget_usd)
    if p.deadline_hours and c.deadline_status is not None:
        ratios.append(c.wall_hours.low / p.deadline_hours)
    return max(ratios)


def _limit_text(c: Candidate, p: WorkloadProfile) -> str:
    parts = []
    if p.budget_usd and c.budget_status == "misses":
        parts.append(
            f"${c.total_usd.low:,.0f}-{c.total_usd.high:,.0f}, {c.total_usd.low / p.budget_usd:.1f}x the "
            f"${p.budget_usd:,.0f} budget"
        )
    if p.deadline_hours and c.deadline_status == "misses":
        parts.append(
            f"{c.wall_hours.low:,.0f}-{c.wall_hours.high:,.0f} h, {c.wall_hours.low / p.deadline_hours:.1f}x "
            f"the {p.deadline_hours:g} h deadline"
        )
    return "; ".join(parts) or "within limits"


def _limit_rejection(c: Candidate, p: WorkloadProfile) -> Rejection:
    kind: RejectionKind = "budget" if c.budget_status == "misses" else "deadline"
    return Rejection(
        gpu=c.gpu.id,
        gpu_name=c.gpu.name,
        kind=kind,
        reason=f"{c.gpu.name}: fits ({c.layout.n_gpus} GPU(s)) but misses the {kind}: {_limit_text(c, p)}",
    )


def _gpu_rejection(gpu: GpuSpec, n: _GpuNotes) -> Rejection | None:
    if n.constraint:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="constraint", reason=f"{gpu.name}: {n.constraint}"
        )
    if n.memory:
        return Rejection(gpu=gpu.id, gpu_name=gpu.name, kind="memory", reason=f"{gpu.name}: {n.memory}")
    if n.interconnect:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="interconnect", reason=f"{gpu.name}: {n.interconnect}"
        )
    if n.throughput:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="throughput", reason=f"{gpu.name}: {n.throughput}"
        )
    if n.no_price:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="no_price", reason=f"{gpu.name}: no price in the catalog"
        )
    return None


def _alternatives(
    primary: Candidate, ranked: list[Candidate], eng: Engine, limit: int
) -> list[tuple[Candidate, Label]]:
    """Alternatives that differ in a way a buyer cares about, then the next best of other GPUs/providers."""
    chosen: list[tuple[Candidate, Label]] = []
    seen = {primary.key}

    def add(c: Candidate | None, label: Label) -> None:
        if c is None or c.key in seen or len(chosen) >= limit:
            return
        seen.add(c.key)
        chosen.append((c, label))

    def speed(c: Candidate) -> float:
        if eng.inference:
            return -(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 0.0)
        return c.hours_mid

    practical = max(PRACTICAL_WALL_HOURS, primary.wall_hours.high)
    in_time = [c for c in ranked if eng.inference or c.wall_hours.high <= practical] or ranked
    cheapest = min(in_time, key=lambda c: (c.cost_mid, speed(c)))
    if cheapest.cost_mid < (1 - MEANINGFUL_DIFFERENCE) * primary.cost_mid:
        add(cheapest, "cheapest")
    fastest = min(ranked, key=lambda c: (speed(c), c.cost_mid))
    if speed(fastest) < speed(primary) - MEANINGFUL_DIFFERENCE * abs(speed(primary)):
        add(fastest, "fastest")
    add(min(ranked, key=lambda c: (c.risk, c.layout.nodes, c.cost_mid)), "lowest operational risk")
    owned = [c for c in ranked if c.offer.deployment in ("owned", "colocation")]
    add(owned[0] if owned else None, "owned hardware")
    limit += len(eng.s.compare_providers)
    for name in eng.s.compare_providers:
        mine = [c for c in ranked if c.offer.provider.lower() == name.lower()]
        if mine and primary.offer.provider.lower() != name.lower():
            pick = min(mine, key=lambda c: (c.cost_mid, speed(c)))
            pick.why.append(f"on your shortlist ({name}): its lowest-cost configuration")
            add(pick, "alternative")
    if len(chosen) < 2:
        distinct = {(primary.gpu.id, primary.offer.provider)} | {
            (c.gpu.id, c.offer.provider) for c, _ in chosen
        }
        for c in ranked:
            if len(chosen) >= min(2, limit):
                break
            if (c.gpu.id, c.offer.provider) not in distinct:
                distinct.add((c.gpu.id, c.offer.provider))
                add(c, "alternative")
    return chosen


# --------------------------------------------------------------------------------------------
def to_option(c: Candidate, eng: Engine, label: Label, p: WorkloadProfile) -> Option:
    """A Candidate as the public Option (all TCO scenarios filled)."""
    scen = eng.scenarios(c.offer, c.gpu_hours, all_of_them=True)
    why = _why(c, label, p) + list(c.why)
    return Option(
        gpu=c.gpu.id,
        gpus_per_node=c.layout.gpus_per_node,
        nodes=c.layout.nodes * c.replicas,
        total_gpus=c.layout.n_gpus * c.replicas,
        replicas=c.replicas,
        vram_gib_per_gpu=c.gpu.usable_memory_gib,
        peak_gib_per_gpu=c.fit.peak_gib_per_gpu,
        provider=c.offer.provider,
        pricing=c.offer.pricing,
        usd_per_gpu_hour=c.offer.usd_per_gpu_hour,
        wall_hours=c.wall_hours,
        cost_usd=c.cost_usd,
        gpu_name=c.gpu.name,
        deployment=c.offer.deployment,
        tier=c.offer.tier,
        region=c.offer.region,
        eu=c.offer.eu,
        label=label,
        why=tuple(why),
        cost_basis="per_month" if p.workload == "inference" else "per_job",
        gpu_hours=c.gpu_hours,
        tco=scen,
        memory=c.fit,
        topology=c.topo,
        risks=tuple(c.risks),
        decode_tokens_per_s=c.decode_tokens_per_s,
        meets_deadline=None if c.deadline_status is None else c.deadline_status != "misses",
        meets_budget=None if c.budget_status is None else c.budget_status != "misses",
        price_as_of=c.offer.as_of,
        price_source=c.offer.source,
        score=c.score,
    )


def _why(c: Candidate, label: Label, p: WorkloadProfile) -> list[str]:
    out = [
        f"fits: {c.fit.peak_gib_per_gpu:.1f} GiB peak per GPU of {c.fit.usable_gib_per_gpu:.1f} usable "
        f"({c.fit.headroom_gib:.1f} GiB free)"
    ]
    if c.layout.nodes == 1:
        out.append("single node: no InfiniBand or multi-node NCCL set-up")
    if label == "cheapest":
        out.append(f"lowest expected total (${c.total_usd.low:,.0f}-{c.total_usd.high:,.0f})")
    elif label == "fastest":
        out.append(f"shortest wall-clock ({c.wall_hours.low:,.0f}-{c.wall_hours.high:,.0f} h)")
    elif label == "lowest operational risk":
        out.append("fewest moving parts: on-demand, single node, established tier")
    elif label == "owned hardware":
        out.append(f"amortised ${c.offer.usd_per_gpu_hour:.2f}/GPU-hour at your utilisation and horizon")
    elif label == "primary":
        out.append(f"best {p.objective or 'balanced'} choice among feasible options")
    if c.deadline_status == "meets":
        out.append(f"meets the {p.deadline_hours:g} h deadline even at low MFU")
    if c.budget_status == "meets":
        out.append(f"within the ${p.budget_usd:,.0f} budget even at low MFU")
    return out


# --------------------------------------------------------------------------------------------
def recommend(
    *, profile: WorkloadProfile, catalog: CatalogView, settings: RecommendSettings | None = None
) -> Recommendation:
    """Recommend GPU configurations for a workload (see the module docstring for the method).

    Returns a Recommendation whose `primary` is None when nothing in the catalog can run the
    workload; then `rejected` says why per GPU type and `infeasible_advice` what would make it fit.
    Raises InputError for a profile the engine cannot size (no model, unknown model id).
    """
    from tools.expectations import check_expectations
    from tools.infeasible import infeasible_advice
    from tools.sensitivity import run_sensitivity

    settings = settings or RecommendSettings()
    w = resolve_workload(profile=profile, catalog=catalog)
    out = run_engine(w, catalog, settings)
    eng = out.engine
    p = w.profile
    primary = to_option(out.primary, eng, "primary", p) if out.primary else None
    alternatives = tuple(to_option(c, eng, label, p) for c, label in out.alternatives)
    sensitivity = (
        run_sensitivity(workload=w, catalog=catalog, settings=settings, base=out)
        if settings.sensitivity and out.primary
        else ()
    )
    checks = check_expectations(workload=w, catalog=catalog, settings=settings, outcome=out)
    advice = (
        infeasible_advice(workload=w, catalog=catalog, settings=settings, outcome=out)
        if out.primary is None
        else ()
    )
    tb = eng.tb
    if out.primary is not None:
        trace_primary(eng, out.primary, tb)
    workload_class, deployment_advice = _classify(eng, out.primary)
    as_of = catalog.as_of_dates()
    return Recommendation(
        profile=p,
        primary=primary,
        alternatives=alternatives,
        rejected=tuple(out.rejected),
        sensitivity=tuple(sensitivity),
        expectation_checks=tuple(checks),
        infeasible_advice=tuple(advice),
        notes=tuple(out.notes),
        workload_class=workload_class,
        deployment_advice=deployment_advice,
        candidates_considered=out.considered,
        catalog_as_of=dict(as_of) if as_of else {},
        **tb.fields(),
    )


def _classify(eng: Engine, primary: Candidate | None) -> tuple[str | None, str | None]:
    """Seed 000's workload class and deployment model (tools.classify), recorded in the trace.
    The deployment model needs the user's own utilisation figure; without it, None."""
    from tools.classify import classify_workload, deployment_model

    p = eng.p
    hours = primary.wall_hours.mid if primary is not None and not eng.inference else None
    workload_class: str | None = None
    advice: str | None = None
    try:
        cls = classify_workload(
            dataset_tokens=eng.w.training_tokens or None,
            duration_hours=hours,
            method=eng.method,
            from_scratch=p.workload == "pretraining",
        )
        eng.tb.extend(cls, prefix="classify: ")
        workload_class = f"{cls.workload} ({cls.infrastructure_class.replace('_', '-')}-class infrastructure)"
    except InputError:
        pass
    if p.utilization is not None and p.status_of("utilization") != "assumed":
        known = p.status_of("horizon_months") != "assumed"
        dep = deployment_model(
            utilization=p.utilization,
            horizon_months=p.horizon_months if known else None,
            ops_capacity=p.ops_capacity if p.status_of("ops_capacity") != "assumed" else None,
            job_hours=hours,
        )
        eng.tb.extend(dep, prefix="deployment: ")
        lean = f", leaning {dep.leaning}" if dep.leaning else ""
        advice = f"{dep.model}{lean}: " + "; ".join(dep.reasons)
    return workload_class, advice


def trace_primary(eng: Engine, c: Candidate, tb: TraceBuilder) -> None:
    """Append the primary's own calculations (memory, time or throughput, topology, TCO) to the
    recommendation's trace: the report's calculation appendix reads them."""
    tb.extend(eng.mem.get(c.layout), prefix="memory: ")
    scale_out = c.offer.scale_out if c.layout.nodes > 1 else "none"
    if eng.inference:
        tb.extend(eng.inference_perf(c.gpu, c.layout.n_gpus), prefix="throughput: ")
    else:
        tb.extend(eng.training_time(c.gpu, c.layout, scale_out), prefix="time: ")
    tb.extend(eng.topology(c.gpu, c.layout, c.fit.peak_gib_per_gpu, scale_out), prefix="topology: ")
    stored = eng._storage_results.get(c.offer.cloud or c.offer.provider)
    if stored is not None:
        tb.extend(stored, prefix=f"storage ({c.offer.provider}): ")
    for scen in c.scenarios:
        premium = eng.premium if c.offer.managed else None
        key = (
            c.gpu_hours.low,
            c.gpu_hours.high,
            c.offer.usd_per_gpu_hour,
            scen.storage_usd,
            scen.egress_usd,
            premium,
        )
        t = eng.caches.tco.get(key)
        if t is not None:
            tb.extend(t, prefix=f"tco ({scen.scenario}): ")


def evaluate_configuration(
    *,
    profile: WorkloadProfile,
    catalog: CatalogView,
    gpu: str,
    provider: str,
    gpus: int = 1,
    pricing: str | None = None,
    settings: RecommendSettings | None = None,
) -> Option:
    """One named configuration ("1x H100 at provider X") through the engine's fit, time and TCO path.

    Returns the Option even when it does not fit (then `memory.fits` is False and `risks` says so),
    so a user's own proposal can be shown next to the recommendation. Raises InputError when the
    provider has no price for that GPU (and pricing model).
    """
    settings = settings or RecommendSettings()
    w = resolve_workload(profile=profile, catalog=catalog)
    eng = Engine(w, catalog, settings)
    spec = catalog.gpu(gpu)
    records = [
        r
        for r in catalog.prices_for(spec.id)
        if r.provider.lower() == provider.lower() and (pricing is None or r.pricing == pricing)
    ]
    if not records:
        raise InputError(
            f"no {pricing or 'any'} price for {spec.name} at '{provider}' in the catalog; "
            "add it with a price file (--prices)"
        )
    offer = Offer.from_record(records[0])
    per_node = max([g for g in offer.gpus_per_node if g <= gpus] or [min(offer.gpus_per_node)])
    nodes = max(1, math.ceil(gpus / per_node))
    got = eng.fit_layout(spec, per_node, nodes)
    if got is None:
        layout = layouts_for(w, per_node, nodes)[-1]
        fit = memory_fit(eng.mem.get(layout), spec, eng.headroom, layout.sharding)
    else:
        layout, _est, fit = got
    scale_out = offer.scale_out if nodes > 1 else "none"
    plan = eng.topology(spec, layout, fit.peak_gib_per_gpu, scale_out)
    c = eng.price(eng.build(spec, offer, layout, fit, topology_summary(plan, offer.scale_out)))
    if not fit.fits:
        c.risks.insert(
            0, f"does not fit: needs {fit.peak_gib_per_gpu:.1f} GiB per GPU, has {fit.usable_gib_per_gpu:.1f}"
        )
    if not plan.feasible:
        c.risks.insert(0, "; ".join(str(r) for r in plan.reasons))
    c.score = eng.score(c)
    return to_option(c, eng, "alternative", w.profile)
