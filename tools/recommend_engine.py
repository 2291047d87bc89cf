"""Engine of the recommender (tools.recommend): candidates, their checks, costs, risk and score.

One `Engine` per run holds the resolved workload, the catalog, the settings and the calculator
caches (shared with the sensitivity re-runs of the same request). Every number comes from a
calculator in tools/ (memory, compute, topology, cost); this module only wires them together,
compares and filters. The ranking rules and risk points are documented in tools/recommend.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from tools import cost as cost_mod
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
    provider_matches,
    topology_summary,
)
from tools.catalog.schema import GpuSpec, PriceRecord
from tools.compute import inference as compute_inference
from tools.compute import training as compute_training
from tools.defaults import CatalogView, ResolvedWorkload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend_models import (
    Label,
    MemoryFit,
    RecommendSettings,
    Rejection,
    TcoScenario,
    TopologySummary,
)
from tools.recommend_pricing import price_spread
from tools.trace import TraceBuilder
from tools.units import HOURS_PER_MONTH, bytes_to_gb

TIME_WEIGHT = 0.3
"""Balanced score exponent on wall-clock hours (see module docstring)."""
MIN_SCORED_WALL_HOURS = 1.0
"""Balanced score: a run shorter than an hour counts as an hour. Provisioning, pulling the image and
the base model and loading it take tens of minutes whatever the GPU count, so finishing a 40-minute
LoRA run in 5 minutes on 8 GPUs is no gain worth ranking a bigger configuration first for."""
JOB_SETUP_HOURS = 0.5
"""Balanced score: every training run is charged half an hour of set-up on all of its GPUs (provision,
pull the image and the base model, load it, write the final checkpoint), billed while the GPUs do no
training. The cost figures leave it out (it varies by team); the ranking needs it, or a 40-minute job
looks as cheap on 8 GPUs as on 1 (seed 000: over-provisioning fine-tuning is the common mistake)."""
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
ALWAYS_ON_SOURCE = (
    "an endpoint on rented GPUs pays for every hour it holds them, busy or idle, unless it scales to zero "
    "(provider per-hour billing); utilisation still sets owned hardware's amortised rate"
)
OWNED_UTILIZATION_MIN = 0.30
"""Seed 000: below ~30% sustained utilisation the cloud premium is justified; buying is implausible."""
OWNED_HORIZON_MONTHS_MIN = 12.0
"""Owned hardware is amortised over years; under a year of use renting wins (seed 000, seed 002)."""
BF16_BYTES = 2.0
"""Bytes per parameter of the stored base model download (BF16 safetensors)."""
MANAGED_PREMIUM_ESTIMATE = "managed_premium_fraction"
DEFAULT_MANAGED_PREMIUM = 0.30
"""Seed 001: SageMaker carries roughly 30% over self-managed compute (used if the catalog lacks it)."""


_ZERO_RANGE = Range(low=0.0, high=0.0)  # frozen: shared by every unpriced candidate

COST_ONLY_FIELDS = frozenset({"data_location", "data_cached", "runs_per_month", "dataset_gb", "budget_usd"})
"""Profile fields the engine reads only when pricing a candidate (storage, egress, TCO scenarios, the
budget check, owned hardware's use), never when enumerating, fitting or timing it."""


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
    def misses(self) -> bool:
        return self.deadline_status == "misses" or self.budget_status == "misses"


EnumeratedGpu = tuple[list["Candidate"], "GpuNotes", int, TraceBuilder]
"""One GPU type's enumeration: its candidates before pricing (read-only: pricing works on copies), its
notes, how many offers it had, and the trace steps and assumptions enumerating it recorded."""


@dataclass
class Enumeration:
    """A run's enumeration of the catalog before pricing, per GPU type (Engine.enumeration_key says
    what it depends on). A run with the same key (another request, or a sensitivity variant, whose
    workload differs only in COST_ONLY_FIELDS) prices these candidates instead of enumerating again, and
    replays their trace, so its result is the same as enumerating."""

    catalog: Any
    per_gpu: dict[str, EnumeratedGpu]
    candidates: int = 0
    """Candidates held, plus one (what Caches.size counts for it), set when it is stored."""


@dataclass
class CostedRun:
    """A primary-only run's candidates after costing and before the budget check, per GPU type, with
    its enumeration and the owned-hardware note costing left. A sensitivity run whose workload differs
    from it only in the budget (a later turn's variant after the user gives one) applies its own
    budget check to copies of these instead of pricing every candidate again: the budget is the one
    input price() reads after the costs."""

    enumeration: Enumeration
    per_gpu: dict[str, list[Candidate]]
    owned_idle_note: str | None
    candidates: int = 0


class _Timed(Protocol):
    @property
    def layout(self) -> Layout: ...
    @property
    def wall_hours(self) -> Range: ...


_T = TypeVar("_T", bound=_Timed)


@dataclass(frozen=True)
class _Counted:
    """A training GPU count of one offer that fits and whose interconnect works, timed, before its
    Candidate is built: enumeration and pruning read only its layout and wall-clock, so only the
    counts kept are built (the same candidates as building every count and pruning them)."""

    layout: Layout
    fit: MemoryFit
    plan: Any
    wall_hours: Range


def _unpriced_copy(c: Candidate) -> Candidate:
    """A candidate as build() left it, its lists copied (price and ranking append to them)."""
    return c.copy(risks=list(c.risks), why=list(c.why))


def _at(r: Range, point: str) -> float:
    return r.low if point == "low" else r.high if point == "high" else r.mid


@dataclass
class GpuNotes:
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
    notes_by_gpu: dict[str, GpuNotes] = field(default_factory=dict)


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
        if not self.inference and (w.profile.objective or "balanced") == "balanced":
            self.tb.assume(
                "set-up per run charged in the balanced ranking",
                JOB_SETUP_HOURS,
                "h on every GPU",
                "provision, pull image and model, load, save checkpoint; ranks only, not in the costs",
            )
        self.caches = caches if caches is not None else Caches()
        p = self.p
        self.mem_signature: tuple[Any, ...] = (
            w.arch,  # the architecture itself, not its id: keys stay exact across requests
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
            w.arch,
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
        self._time_sig = self.caches.signature_id(self.time_signature)
        self._mem_sig = self.caches.signature_id(self.mem_signature)
        self._layouts: dict[tuple[int, int], list[Layout]] = {}
        self._sweeps: dict[tuple[Any, ...], tuple[list[_Counted], bool, str | None]] = {}
        self.mem = MemoryCache(self._estimate_memory, self.mem_signature, self.caches)
        self._time_cache = self.caches.time
        self._topo_cache = self.caches.topology
        self._egress_cache: dict[tuple[bool, float], float] = {}
        self._storage_cache: dict[str, float] = {}
        self._stored_gb: float | None = None
        self._storage_results: dict[str, Any] = {}
        self._scenario_basis: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.premium = self._managed_premium()
        self.unpriced: dict[str, list[Candidate]] = {}
        """Per GPU type, its candidates before pricing (copies): a run that differs only in cost inputs
        (data location, caching, runs per month) re-prices them instead of enumerating again."""
        self.enumerated: dict[str, tuple[GpuNotes, int]] = {}
        """Per GPU type, its notes after enumeration and how many offers it had (see `unpriced`)."""
        self.enumeration = Enumeration(catalog, {})
        self._costed_sink: dict[str, list[Candidate]] | None = None
        self._enumeration_key: tuple[Any, ...] | None = None  # the run's inputs do not change
        """This run's enumeration (filled GPU by GPU by `enumerate_gpu` or `repriced`)."""
        self.weights_total_gib = float(self.mem.get(Layout(1, 1, 1, "none")).breakdown_gib.weights)
        self._serving_hours: dict[bool, float] = {}
        self._owned_rates: dict[tuple[Any, ...], Any] = {}
        self.owned_idle_note: str | None = None
        """Why owned hardware was left out (its runs would leave it idle), for the recommendation's notes."""

    def serving_hours(self, offer: Offer) -> float:
        """Hours a month one serving GPU is paid for. Rented: all HOURS_PER_MONTH (endpoint kept up all
        month) unless settings.serving_scales_to_zero, then HOURS_PER_MONTH x utilisation. Owned and
        colocated: HOURS_PER_MONTH x utilisation, since their amortised rate is per busy hour."""
        busy_only = offer.deployment in ("owned", "colocation") or bool(self.s.serving_scales_to_zero)
        got = self._serving_hours.get(busy_only)
        if got is not None:
            return got
        util = self.p.utilization if self.p.utilization is not None else 1.0
        if busy_only:
            got = self.tb.step(
                "serving_hours_per_month_busy",
                "HOURS_PER_MONTH x utilization",
                HOURS_PER_MONTH * util,
                "h",
                "owned: amortised rate per busy hour; rented: scale-to-zero endpoint",
                hours_per_month=HOURS_PER_MONTH,
                utilization=util,
            )
        else:
            self.tb.assume("endpoint kept up all month", HOURS_PER_MONTH, "h per month", ALWAYS_ON_SOURCE)
            got = HOURS_PER_MONTH
        self._serving_hours[busy_only] = got
        return got

    def idle_endpoint_note(self, offer: Offer) -> str | None:
        """Serving on rented GPUs billed all month while the profile says they are busy less than that,
        and the user said nothing about scaling: what idles and what would lower the cost (a ratio, no
        new figure). None otherwise."""
        util = self.p.utilization
        if (
            not self.inference
            or util is None
            or util >= 1.0
            or offer.deployment in ("owned", "colocation")
            or self.s.serving_scales_to_zero is not None
        ):
            return None
        return (
            f"endpoint kept up all month ({HOURS_PER_MONTH:g} h billed) but busy {util:.0%} of the time: it "
            f"idles {1 - util:.0%} of the hours you pay for; scale-to-zero or a shared endpoint would bill "
            f"about {util:.0%} of this compute cost"
        )

    # --- calculators (thin wrappers; each formula lives in its tools/ module) ----------------
    def _estimate_memory(self, layout: Layout, traced: bool) -> Any:
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
        return memory_mod.estimate_memory(**kw, traced=traced)

    def training_time(self, gpu: GpuSpec, layout: Layout, scale_out: str, traced: bool = True) -> Any:
        """tools.compute's training time; `traced=False` for the sweep (same numbers, no trace steps)."""
        key = (self._time_sig, gpu.id, layout.n_gpus, layout.gpus_per_node, scale_out)
        cache = self._time_cache if traced else self.caches.time_untraced
        if key not in cache:
            s = self.s
            cache[key] = compute_training.estimate_training_time(
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
                traced=traced,
            )
        return cache[key]

    def inference_perf(self, gpu: GpuSpec, n: int, pp: int = 1) -> Any:
        key = (self._time_sig, gpu.id, n, pp)
        if key not in self._time_cache:
            p = self.p
            self._time_cache[key] = compute_inference.estimate_inference(
                arch=self.w.arch,
                gpu=gpu,
                n_gpus=n,
                precision=p.precision or "bf16",
                concurrency=p.concurrency or 1,
                context_len=p.context_len or 4096,
                target_tokens_per_s=p.target_tokens_per_s,
                pipeline_stages=pp,
            )
        return self._time_cache[key]

    def topology(
        self, gpu: GpuSpec, layout: Layout, peak_gib: float, scale_out: str, traced: bool = True
    ) -> Any:
        """tools.topology's plan; `traced=False` for the sweep (the same plan, no trace steps)."""
        key = (
            gpu.id,
            layout.gpus_per_node,
            layout.n_gpus,
            scale_out,
            layout.sharding,
            layout.tp,
            layout.pp,
            self.method,
            peak_gib,
            self.weights_total_gib,
        )
        cache = self._topo_cache if traced else self.caches.topology_untraced
        if key not in cache:
            cache[key] = topology_mod.plan_topology(
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
                traced=traced,
            )
        return cache[key]

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
        loc, gb = self.p.data_location, self.p.dataset_gb
        usd = 0.0
        if egress_possible(self.p) and loc and gb and not same_cloud and pulls > 0:
            kw: dict[str, Any] = {}
            if self.s.other_egress_gb_per_month is not None:
                kw["other_egress_gb_per_month"] = self.s.other_egress_gb_per_month
            res = cost_mod.egress_cost(
                dataset_gb=gb,
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
                    cost_mod.checkpoint_size_gb(
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
        names = (offer.cloud, offer.provider, self.p.data_location, "aws")
        found = self.caches.storage.get(names)  # (catalog, price or None): lookups cost exceptions
        if found is None or found[0] is not self.catalog:
            price = None
            for name in names:
                if not name:
                    continue
                try:
                    price = self.catalog.storage_for(name)
                    break
                except (InputError, KeyError, LookupError):
                    continue
            found = self.caches.storage[names] = (self.catalog, price)
        price = found[1]
        usd = 0.0
        if price is not None:
            stored_gb = self.stored_gb()
            cost_key = (id(price), stored_gb)
            kept = self.caches.storage.get(cost_key)
            if kept is None or kept[0] is not price:
                kept = self.caches.storage[cost_key] = (
                    price,
                    cost_mod.storage_cost(stored_gb=stored_gb, months=1.0, price=price),
                )
            res = kept[1]
            self._storage_results[where] = res
            usd = float(res.total_usd)
        self._storage_cache[where] = usd
        return usd

    def _scenario_inputs(
        self, offer: Offer, all_of_them: bool
    ) -> tuple[float, float | None, bool, tuple[tuple[str, float, float], ...]]:
        """What an offer's TCO rows take besides its GPU-hours and rate: (storage USD, managed premium
        or None, same cloud, (scenario, pulls, egress USD) per data scenario). The same for every offer
        of one cloud, provider and management (`scenarios` keeps them per run)."""
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
        egress_by_plan = tuple((name, pulls, self.egress_usd(same_cloud, pulls)) for name, pulls in plans)
        return storage, premium, same_cloud, egress_by_plan

    def scenarios(self, offer: Offer, gpu_hours: Range, all_of_them: bool) -> tuple[TcoScenario, ...]:
        """The four TCO rows for each data scenario (the expected one first)."""
        basis_key = (offer.cloud, offer.provider, offer.managed, all_of_them)
        basis = self._scenario_basis.get(basis_key)
        if basis is None:
            basis = self._scenario_basis[basis_key] = self._scenario_inputs(offer, all_of_them)
        storage, premium, same_cloud, egress_by_plan = basis
        # the rows depend on nothing else: shared by every candidate (and re-run) with the same inputs
        cache_key = (
            gpu_hours.low,
            gpu_hours.high,
            offer.usd_per_gpu_hour,
            storage,
            premium,
            same_cloud,
            egress_by_plan,
            offer.usd_per_gpu_hour_high,
        )
        hit: tuple[TcoScenario, ...] | None = self.caches.scenarios.get(cache_key)
        if hit is not None:
            return hit
        out = []
        for name, pulls, egress in egress_by_plan:
            key = tco_key(gpu_hours, offer, storage, egress, premium)
            t = self.caches.tco_untraced.get(key)
            if t is None:  # the traced table of a reported option: caches.tco.get(key)
                t = self.caches.tco_untraced[key] = cost_mod.tco(
                    gpu_hours=gpu_hours,
                    usd_per_gpu_hour=offer.usd_per_gpu_hour,
                    storage_usd=storage,
                    egress_usd=egress,
                    managed_premium_fraction=premium,
                    traced=False,
                    usd_per_gpu_hour_high=offer.usd_per_gpu_hour_high,
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
        self.caches.scenarios[cache_key] = result = tuple(out)
        return result

    # --- offers and constraints --------------------------------------------------------------
    def offers_for(self, gpu: GpuSpec, notes: GpuNotes, records: Sequence[PriceRecord]) -> list[Offer]:
        p = self.p
        excluded = sorted({x.lower() for x in p.providers_excluded})
        if p.deployment_preference == "consumer" and not gpu.consumer:
            notes.constraint = "not a consumer GPU (consumer hardware requested)"
            return []
        offers: list[Offer] = []
        if p.deployment_preference != "on_prem":
            dropped_eu = dropped_excl = 0
            shortlisted = self.s.compare_providers
            for r in records:
                if r.reference_only and not provider_matches(r.provider, shortlisted):
                    continue  # a worked example's quote, not a provider a buyer can sign with
                if p.eu_only and not r.eu:
                    dropped_eu += 1
                    continue
                if provider_matches(r.provider, excluded):
                    dropped_excl += 1
                    continue
                if self.s.on_demand_only and (r.pricing != "on_demand" or r.tier.lower() in COMMUNITY_TIERS):
                    continue
                offers.append(self.offer_from_record(r))
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

    def offer_from_record(self, r: PriceRecord) -> Offer:
        """A price record as an Offer with its price spread (tools.recommend_pricing: firm for list
        on-demand and reserved prices and negotiated rates; a named fraction above a spot, community or
        marketplace quote)."""
        o = Offer.from_record(r)
        spread = price_spread(
            self.catalog, pricing=r.pricing, tier=r.tier, tb=self.tb, negotiated=r.negotiated
        )
        if spread.fraction <= 0:
            return o
        high = spread.high(o.usd_per_gpu_hour)
        return replace(o, usd_per_gpu_hour_high=high, price_spread_name=spread.name)

    def _undominated(self, offers: list[Offer]) -> list[Offer]:
        """Drop offers a cheaper one of the same kind dominates: same pricing, tier class, managed,
        cloud, EU flag, node sizes and fabric give the same fit, time and risk, so only the price
        differs. Preferred and shortlisted providers are always kept."""
        keep_names = (*self.p.providers_preferred, *self.s.compare_providers)
        best: dict[tuple[Any, ...], Offer] = {}
        kept: list[Offer] = []
        for o in offers:
            if provider_matches(o.provider, keep_names):
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
            if key not in best or o.usd_per_gpu_hour_mid < best[key].usd_per_gpu_hour_mid:
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
            per_node = owned_node_sizes(gpu)
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
        for layout in self.layouts(gpn, nodes):
            est = self.mem.get(layout)
            key = (self._mem_sig, gpu.id, self.headroom, layout)
            fit = self.caches.fit.get(key)
            if fit is None:
                fit = self.caches.fit[key] = memory_fit(est, gpu, self.headroom, layout.sharding)
            if fit.fits:
                return layout, est, fit
        return None

    def layouts(self, gpn: int, nodes: int) -> list[Layout]:
        """tools.candidates.layouts_for, once per count in a run (read-only lists)."""
        got = self._layouts.get((gpn, nodes))
        if got is None:
            got = self._layouts[(gpn, nodes)] = layouts_for(self.w, gpn, nodes)
        return got

    def topology_summary(self, plan: Any, scale_out: str) -> TopologySummary:
        """tools.candidates.topology_summary, once per plan. Keyed by the plan's id, and the entry holds
        the plan itself: while it is cached no other object can take that id (caches may be shared)."""
        key = (id(plan), scale_out)
        got = self.caches.topology_summary.get(key)
        if got is None or got[0] is not plan:
            got = self.caches.topology_summary[key] = (plan, topology_summary(plan, scale_out))
        return got[1]

    def smallest_peak(self, gpu: GpuSpec, pairs: Iterable[tuple[int, int]]) -> tuple[float, Layout]:
        best: tuple[float, Layout] | None = None
        for gpn, nodes in pairs:
            for layout in layouts_for(self.w, gpn, nodes):
                peak = float(self.mem.get(layout).peak_gib_per_gpu)
                if best is None or peak < best[0]:
                    best = (peak, layout)
        assert best is not None
        return best

    def _training_counts(
        self, gpu: GpuSpec, pairs: list[tuple[int, int]], scale_out: str
    ) -> tuple[list[_Counted], bool, str | None]:
        """The training sweep of one GPU type over `pairs` (its counts that fit memory and whose
        interconnect works, timed, until `_want_more` stops): (counted, whether some count fits memory,
        the last interconnect reason met or None). It depends on the GPU, the pairs and the offer's
        scale-out fabric only, so offers of one GPU type that share them share one sweep per run."""
        key = (gpu.id, tuple(pairs), scale_out)
        got = self._sweeps.get(key)
        if got is not None:
            return got
        counted: list[_Counted] = []
        memory_fits = False
        interconnect: str | None = None
        fitted_store = self.caches.fitted
        for gpn, nodes in pairs:
            fabric = scale_out if nodes > 1 else "none"
            # the fitting layout and its topology depend on the memory signature, not on time or price
            fitted_key = (self._mem_sig, gpu.id, self.headroom, gpn, nodes, fabric)
            fitted = fitted_store.get(fitted_key)
            if fitted is None:
                found = self.fit_layout(gpu, gpn, nodes)
                if found is None:
                    fitted = fitted_store[fitted_key] = ()
                else:
                    layout, _est, fit = found
                    plan = self.topology(gpu, layout, fit.peak_gib_per_gpu, fabric, traced=False)
                    fitted = fitted_store[fitted_key] = (layout, fit, plan)
            if not fitted:
                continue
            memory_fits = True
            layout, fit, plan = fitted
            if not plan.feasible:
                interconnect = "; ".join(str(r) for r in plan.reasons) or "interconnect unsuitable"
                continue
            t = self.training_time(gpu, layout, fabric, traced=False)
            counted.append(_Counted(layout, fit, plan, t.wall_hours))
            if not self._want_more(counted):
                break
        got = self._sweeps[key] = (counted, memory_fits, interconnect)
        return got

    def candidates_for(self, gpu: GpuSpec, offers: Sequence[Offer], notes: GpuNotes) -> list[Candidate]:
        pending: list[Candidate] = []
        for offer in offers:
            pairs = gpu_counts(offer, gpu, self.s.max_nodes)
            feasible: list[Candidate] = []
            counted: list[_Counted] = []
            memory_fits = False  # some count fits memory (then a rejection names the other reason)
            if not self.inference:  # training: time the counts now, build a candidate only if kept
                counted, memory_fits, interconnect = self._training_counts(gpu, pairs, offer.scale_out)
                if interconnect is not None:
                    notes.interconnect = interconnect
                pairs_left: list[tuple[int, int]] = []
            else:
                pairs_left = pairs
            for gpn, nodes in pairs_left:
                got = self.fit_layout(gpu, gpn, nodes)
                if got is None:
                    continue
                memory_fits = True
                layout, _est, fit = got
                plan = self.topology(
                    gpu, layout, fit.peak_gib_per_gpu, offer.scale_out if nodes > 1 else "none", traced=False
                )
                if not plan.feasible:
                    notes.interconnect = "; ".join(str(r) for r in plan.reasons) or "interconnect unsuitable"
                    continue
                c = self.build(gpu, offer, layout, fit, self.topology_summary(plan, offer.scale_out))
                if c.replicas > MAX_REPLICAS:
                    notes.throughput = (
                        f"needs {c.replicas} replicas of {layout.n_gpus} GPU(s) for "
                        f"{self.p.target_tokens_per_s:,.0f} tokens/s (more than {MAX_REPLICAS})"
                    )
                    continue
                slow = self._too_slow_per_sequence(gpu, c)
                if slow:
                    notes.throughput = slow
                    continue
                feasible.append(c)
                if not self._want_more(feasible):
                    break
            if counted:
                feasible = [
                    self.build(gpu, offer, k.layout, k.fit, self.topology_summary(k.plan, offer.scale_out))
                    for k in self._prune(counted)
                ]
                pending += feasible
            else:
                pending += self._prune(feasible)
            if not feasible and not memory_fits and notes.memory is None:
                single = self.mem.get(layouts_for(self.w, 1, 1)[0])
                peak1 = float(single.peak_gib_per_gpu)
                best_peak, best_layout = self.smallest_peak(gpu, pairs)
                limit = gpu.usable_memory_gib * (1 - self.headroom)
                msg = (
                    f"needs {peak1:.1f} GiB per GPU, has {gpu.usable_memory_gib:.1f} (usable; {limit:.1f} "
                    f"with {self.headroom:.0%} headroom)"
                )
                if best_layout.n_gpus > 1 and best_peak < peak1:
                    how = (
                        f"tensor parallel {best_layout.tp}"
                        + (f" x pipeline {best_layout.pp}" if best_layout.pp > 1 else "")
                        if self.inference
                        else best_layout.sharding
                    )
                    msg += f"; even over {best_layout.n_gpus} GPUs ({how}): {best_peak:.1f}"
                notes.memory = msg
        return pending

    def enumerate_gpu(
        self, gpu: GpuSpec, records: Sequence[PriceRecord]
    ) -> tuple[list[Candidate], GpuNotes, int]:
        """One GPU type's offers and candidates, priced: (candidates, notes, offers considered). The
        trace steps and assumptions that enumerating records go to a TraceBuilder kept in
        `enumeration` (then appended to this run's trace, in the same order as before pricing), so a run
        that re-prices these candidates replays them."""
        notes = GpuNotes()
        main, sub = self.tb, TraceBuilder()
        offers = self._offers_kept(gpu, notes, records, sub)
        self.tb = sub
        try:
            pending = self.candidates_for(gpu, offers, notes)
        finally:
            self.tb = main
        main.extend(sub)
        entry: EnumeratedGpu = ([_unpriced_copy(c) for c in pending], replace(notes), len(offers), sub)
        self._keep(gpu, entry)
        return [c for c in map(self.price, pending) if c.dropped is None], notes, len(offers)

    def _offers_kept(
        self, gpu: GpuSpec, notes: GpuNotes, records: Sequence[PriceRecord], tb: TraceBuilder
    ) -> list[Offer]:
        """`offers_for` through the caches: offers depend on the catalog, the GPU, the constraints
        (excluded and preferred providers, EU only, deployment preference), the stated utilisation and
        horizon (owned hardware, reserved capacity) and the settings that filter offers, so runs that
        share these share one list. The notes offers_for sets and the trace it records are kept with
        it and given to `notes` and `tb` on every use, as if offers_for had run."""
        p, s = self.p, self.s
        key = (
            id(self.catalog),
            gpu.id,
            tuple(p.providers_excluded),
            tuple(p.providers_preferred),
            p.eu_only,
            p.deployment_preference,
            p.utilization,
            p.status_of("utilization"),
            p.horizon_months,
            p.status_of("horizon_months"),
            p.ops_capacity,
            tuple(s.compare_providers),
            s.on_demand_only,
        )
        got = self.caches.offers.get(key)
        if got is None or got[0] is not self.catalog:
            made, main = TraceBuilder(), self.tb
            self.tb = made
            try:
                offers = self.offers_for(gpu, notes, records)
            finally:
                self.tb = main
            got = self.caches.offers[key] = (self.catalog, tuple(offers), replace(notes), made)
        _catalog, kept, kept_notes, kept_trace = got
        vars(notes).update(vars(kept_notes))
        tb.extend(kept_trace)
        return list(kept)

    def repriced(self, base: Engine | Enumeration, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """`base`'s candidates of one GPU type priced under this run's cost inputs, with its notes and
        offer count (its enumeration's trace replayed first): for a run whose workload differs from
        `base`'s only in what price() reads."""
        entry = (base.enumeration if isinstance(base, Engine) else base).per_gpu[gpu.id]
        unpriced, notes, offers, sub = entry
        self.tb.extend(sub)
        cands = [c for c in (self.price(_unpriced_copy(c)) for c in unpriced) if c.dropped is None]
        self._keep(gpu, entry)
        return cands, replace(notes), offers

    def _keep(self, gpu: GpuSpec, entry: EnumeratedGpu) -> None:
        self.enumeration.per_gpu[gpu.id] = entry
        self.unpriced[gpu.id] = entry[0]
        self.enumerated[gpu.id] = (entry[1], entry[2])

    def enumeration_key(self) -> tuple[Any, ...]:
        """Everything enumeration reads: the catalog, the resolved profile's values and statuses except
        COST_ONLY_FIELDS (price() alone reads those), the architecture, the FLOPs parameter count and the
        settings (but whether sensitivity runs). Two runs with the same key enumerate the same candidates."""
        if self._enumeration_key is not None:
            return self._enumeration_key
        p = self.p
        statuses = tuple(
            sorted((f, prov.status) for f, prov in p.provenance.items() if f not in COST_ONLY_FIELDS)
        )
        self._enumeration_key = (
            id(self.catalog),
            p.model_dump_json(exclude=set(COST_ONLY_FIELDS) | {"provenance"}),
            statuses,
            self.w.arch,
            self.w.params_for_flops,
            self.s.model_dump_json(exclude={"sensitivity"}),
        )
        return self._enumeration_key

    def costing_key(self) -> tuple[Any, ...]:
        """Everything price() reads but the budget: the enumeration key and the other cost inputs with
        their statuses."""
        p = self.p
        inputs = tuple(
            (f, getattr(p, f), p.status_of(f)) for f in sorted(COST_ONLY_FIELDS) if f != "budget_usd"
        )
        return (self.enumeration_key(), inputs)

    def stored_costing(self) -> CostedRun | None:
        """A primary-only run's costed candidates with this run's costing key, or None."""
        got: CostedRun | None = self.caches.costed.get(self.costing_key())
        return got if got is not None and got.enumeration.catalog is self.catalog else None

    def start_costing(self) -> None:
        """Keep a copy of every candidate price() costs from now on, before its budget check."""
        self._costed_sink = {}

    def store_costing(self) -> None:
        """Keep this run's costed candidates in the caches for runs that differ only in the budget."""
        sink, self._costed_sink = self._costed_sink, None
        if sink is not None:
            run = CostedRun(self.enumeration, sink, self.owned_idle_note)
            run.candidates = sum(len(v) for v in sink.values()) + 1
            self.caches.costed[self.costing_key()] = run

    def limited(self, run: CostedRun, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """`run`'s costed candidates of one GPU type with this run's budget check (copies), its notes and
        offer count (its enumeration's trace replayed first, as `repriced` does)."""
        entry = run.enumeration.per_gpu[gpu.id]
        _unpriced, notes, offers, sub = entry
        self.tb.extend(sub)
        self._keep(gpu, entry)
        cands = []
        for kept in run.per_gpu.get(gpu.id, ()):
            c = kept.copy(risks=list(kept.risks), why=list(kept.why))
            self._limits(c)
            cands.append(c)
        return cands, replace(notes), offers

    def stored_enumeration(self) -> Enumeration | None:
        """An enumeration with this run's key kept in the caches (by an earlier run), or None."""
        got: Enumeration | None = self.caches.enumerations.get(self.enumeration_key())
        return got if got is not None and got.catalog is self.catalog else None

    def store_enumeration(self) -> None:
        """Keep this run's enumeration in the caches for later runs with the same key."""
        enum = self.enumeration
        enum.candidates = sum(len(v[0]) for v in enum.per_gpu.values()) + 1
        self.caches.enumerations[self.enumeration_key()] = enum

    def _target_hours(self) -> float | None:
        """Wall-clock a larger cluster should bring the job within: the deadline, or, without one, a
        month (PRACTICAL_WALL_HOURS) so a long job (pre-training) is also offered on enough nodes to
        finish in weeks rather than only on one node for months. None for serving."""
        if self.inference:
            return None
        return self.p.deadline_hours or PRACTICAL_WALL_HOURS

    def _too_slow_per_sequence(self, gpu: GpuSpec, c: Candidate) -> str | None:
        """Serving with a latency target (ms per output token, per user): why this count cannot meet it
        even at the fast end of the decode range, or None. Meeting it only at the fast end is a risk."""
        latency = self.p.latency_ms_per_token
        if not self.inference or not latency:
            return None
        per_seq = self.inference_perf(gpu, c.layout.n_gpus, c.layout.pp).decode_tokens_per_s_per_sequence
        need = 1000.0 / latency
        if per_seq.high < need:
            return (
                f"decodes {per_seq.low:,.0f}-{per_seq.high:,.0f} tokens/s per sequence on {c.layout.n_gpus} "
                f"GPU(s) at {self.p.concurrency or 1} concurrent sequences; the {latency:g} ms/token "
                f"latency target needs {need:,.0f}"
            )
        if per_seq.low < need:
            c.risks.append(
                f"meets the {latency:g} ms/token latency target only at the fast end of the decode range"
            )
            c.risk += RISK_LIMIT_MAYBE
        return None

    def _want_more(self, feasible: Sequence[_Timed]) -> bool:
        """Keep enumerating larger counts while the target wall-clock is unmet or a full node is ahead."""
        last = feasible[-1]
        target = self._target_hours()
        if target and last.wall_hours.high > target:
            return True
        return last.layout.nodes == 1

    def _prune(self, feasible: list[_T]) -> list[_T]:
        """Smallest feasible count, the largest single node, the smallest count meeting the target
        wall-clock (the deadline, else a month)."""
        if not feasible:
            return []
        keep = {id(feasible[0]): feasible[0]}
        single = [c for c in feasible if c.layout.nodes == 1]
        if single:
            keep[id(single[-1])] = single[-1]
        target = self._target_hours()
        if target:
            for c in feasible:
                if c.wall_hours.high <= target:
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
            perf = self.inference_perf(gpu, n, layout.pp)
            decode = perf.decode_tokens_per_s
            target = self.p.target_tokens_per_s
            needed = perf.replicas_needed_for_target
            if target and decode is not None and decode.low < target and needed is not None:
                replicas = max(1, int(math.ceil(needed.high)))
                decode = decode.scale(replicas)
            serving_hours = self.serving_hours(offer)
            wall = Range(low=serving_hours, high=serving_hours)
            gpu_hours = Range(low=serving_hours * n * replicas, high=serving_hours * n * replicas)
        else:
            t = self.training_time(gpu, layout, offer.scale_out if layout.nodes > 1 else "none", traced=False)
            wall, gpu_hours = t.wall_hours, t.gpu_hours
        zero = _ZERO_RANGE
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
        idle = self.idle_endpoint_note(offer)
        if idle:
            c.risks.append(idle)
        if not self.inference:
            c.deadline_status = self._deadline_status(c)
        return c

    def price(self, c: Candidate) -> Candidate:
        """Expected-scenario TCO, cost range and the budget check."""
        self._cost(c)
        if c.dropped is None:
            sink = self._costed_sink
            if sink is not None:  # kept before the budget check (see CostedRun)
                sink.setdefault(c.gpu.id, []).append(c.copy(risks=list(c.risks), why=list(c.why)))
            self._limits(c)
        return c

    def _cost(self, c: Candidate) -> None:
        """price() without the budget check: owned hardware's use, TCO scenarios and cost ranges."""
        if c.offer.deployment in ("owned", "colocation") and not self.inference:
            self._owned_use(c)
            if c.dropped is not None:
                return
        scen = self.scenarios(c.offer, c.gpu_hours, all_of_them=False)
        exp = scen[0]
        c.scenarios = scen
        managed = exp.managed_usd
        c.cost_usd = (
            exp.compute_usd  # self-managed: adding the zero premium changes no value
            if managed.low == 0.0 and managed.high == 0.0
            else Range(low=exp.compute_usd.low + managed.low, high=exp.compute_usd.high + managed.high)
        )
        c.total_usd = exp.total_usd

    def _owned_use(self, c: Candidate) -> None:
        """Owned training hardware against the use its runs imply (tools.classify.implied_utilization):
        the amortised rate and the plausibility test use the lower of the stated and implied
        utilisation; a large gap is said in the option's risks; hardware the runs would leave idle below
        OWNED_UTILIZATION_MIN is dropped unless the user asked for on-premises hardware."""
        p = self.p
        known = ("stated", "inferred", None)
        if p.runs_per_month is None or p.status_of("runs_per_month") not in known:
            return
        util = (p.utilization if p.status_of("utilization") in known else None) or OWNED_UTILIZATION_MIN
        horizon = (p.horizon_months or 0.0) if p.status_of("horizon_months") in known else 0.0
        from tools.classify import implied_utilization

        chk = implied_utilization(
            runs_per_month=p.runs_per_month,
            wall_hours_low=c.wall_hours.low,
            wall_hours_high=c.wall_hours.high,
            stated_utilization=util,
        )
        c.owned_check = chk
        eff = chk.effective_utilization
        if eff < OWNED_UTILIZATION_MIN and p.deployment_preference != "on_prem":
            c.dropped = chk.note or f"the runs fill {eff:.1%} of the hardware's month"
            if self.owned_idle_note is None:
                self.owned_idle_note = f"{c.layout.n_gpus}x {c.gpu.name} {c.offer.deployment}: {c.dropped}"
            return
        if eff < util and eff > 0:
            key = (c.gpu.id, eff, horizon, c.offer.deployment)
            rate = self._owned_rates.get(key)
            if rate is None:
                rate = self._owned_rates[key] = owned_rate(
                    self.catalog,
                    c.gpu,
                    utilization=eff,
                    horizon_months=horizon or OWNED_HORIZON_MONTHS_MIN,
                    colocation=c.offer.deployment == "colocation",
                )
            if rate is not None:
                c.offer = replace(c.offer, usd_per_gpu_hour=float(rate.usd_per_gpu_hour))
        if chk.note:
            c.risks = [*c.risks, chk.note]

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
        c.risks.extend(c.topo.notes)  # topology warnings: PCIe tensor parallel, Ethernet all-reduce
        if o.tier.lower() in COMMUNITY_TIERS:
            risk += RISK_COMMUNITY
            c.risks.append(f"{o.tier} tier: host reliability and availability vary")
        if c.layout.nodes > 1:
            risk += RISK_MULTI_NODE + RISK_MULTI_NODE * math.log2(c.layout.nodes)
            fabric = c.topo.interconnect_inter_required
            need = "any scale-out fabric" if fabric in ("any", "none", "") else fabric.replace("_", " ")
            c.risks.append(f"{c.layout.nodes} nodes: needs {need} and NCCL tuning")
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
        cost = c.cost_mid
        if not self.inference:
            speed = max(speed, MIN_SCORED_WALL_HOURS)
            cost += c.layout.n_gpus * c.replicas * JOB_SETUP_HOURS * c.offer.usd_per_gpu_hour_mid
        maybe = RISK_LIMIT_MAYBE if c.limit_maybe else 0.0
        return math.log(max(cost, 1e-9)) + TIME_WEIGHT * math.log(speed) + c.risk + maybe

    def rank(self, cands: list[Candidate]) -> list[Candidate]:
        """Best first; for cheapest/fastest, options that meet the limits only at one end of their
        range come after those that surely meet them."""
        strict = (self.p.objective or "balanced") != "balanced"
        for c in cands:
            c.score = self.score(c)
        return sorted(cands, key=lambda c: (strict and c.limit_maybe, c.score, c.cost_mid, c.key))


EGRESS_CLOUDS = ("aws", "gcp", "azure")
"""Data locations whose provider charges egress on a pull (tools.catalog's egress schedules)."""


def egress_possible(p: WorkloadProfile) -> bool:
    """Whether any dataset pull can cost egress: the data sits in a cloud with an egress schedule and
    has a size. When not, how often it is pulled (data_cached, runs_per_month) costs nothing."""
    return p.data_location in EGRESS_CLOUDS and bool(p.dataset_gb)


def tco_key(
    gpu_hours: Range, offer: Offer, storage_usd: float, egress_usd: float, premium: float | None
) -> tuple[Any, ...]:
    """Key of a TCO table in Caches.tco / tco_untraced (tools.candidates.TcoCache reads it back)."""
    return (
        gpu_hours.low,
        gpu_hours.high,
        offer.usd_per_gpu_hour,
        storage_usd,
        egress_usd,
        premium,
        offer.usd_per_gpu_hour_high,
    )


def owned_node_sizes(gpu: GpuSpec) -> tuple[int, ...]:
    """GPUs per server a buyer can actually purchase. SXM and OAM modules are sold mounted on 8-GPU
    baseboards (HGX, AMD UBB, Gaudi 3 HLB: the catalog's form_factor says so), so one owns them 8 at a
    time; bridged PCIe pairs (H100 NVL) come in twos; other PCIe cards one by one."""
    form = gpu.form_factor.lower()
    if "baseboard" in form or "ubb" in form:
        sizes: tuple[int, ...] = (8,)
    elif "pairs" in form:
        sizes = (2, 4, 8)
    else:
        sizes = (1, 2, 4, 8)
    return tuple(g for g in sizes if g <= gpu.max_gpus_per_node) or (gpu.max_gpus_per_node,)


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
        return cost_mod.owned_usd_per_gpu_hour(
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
