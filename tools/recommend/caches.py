"""The caches of the recommender: calculator results, TCO tables and whole enumerations, kept within
a run, across the sensitivity re-runs of one request and (by a caller) across requests on one catalog.

Every key carries the inputs its result depends on (RunState.enumeration_key and costing_key for the
enumerations and costed runs), so a run with a changed input misses and recomputes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tools import cost as cost_mod
from tools.ranges import Range
from tools.recommend.candidates import Candidate, GpuNotes, Layout, Offer
from tools.recommend.models import MemoryFit, TopologySummary
from tools.trace import TraceBuilder

COST_ONLY_FIELDS = frozenset(
    {"data_location", "data_cached", "runs_per_month", "dataset_gb", "budget_usd", "runs_total"}
)
"""Profile fields the engine reads only when pricing a candidate (storage, egress, TCO scenarios, the
budget check, owned hardware's use), never when enumerating, fitting or timing it."""


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
    selection made (tools.recommend.offers.OfferSelector.offers_kept)."""
    storage: dict[tuple[Any, ...], tuple[Any, Any]] = field(default_factory=dict)
    """Storage prices by the names looked up (with the catalog), and storage costs by price and GB."""
    enumerations: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    costed: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Primary-only runs' candidates costed before the budget check (CostedRun) by
    RunState.costing_key."""
    """Engine runs' enumerations before pricing (Enumeration) by
    RunState.enumeration_key: a later run differing only in cost inputs prices them again."""

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
        key = (self._sig, layout.n_gpus, layout.sharding, layout.tp, layout.pp, layout.offload)
        store = self.caches.memory
        if key in store:
            self.caches.hits += 1
            return store[key]
        est = self.compute(layout, False)
        store[key] = est
        return est

    def traced(self, layout: Layout) -> Any:
        key = (self._sig, layout.n_gpus, layout.sharding, layout.tp, layout.pp, layout.offload)
        store = self.caches.memory_traced
        if key not in store:
            store[key] = self.compute(layout, True)
        return store[key]


EnumeratedGpu = tuple[list[Candidate], GpuNotes, int, TraceBuilder]
"""One GPU type's enumeration: its candidates before pricing (read-only: pricing works on copies), its
notes, how many offers it had, and the trace steps and assumptions enumerating it recorded."""


@dataclass
class Enumeration:
    """A run's enumeration of the catalog before pricing, per GPU type (RunState.enumeration_key says
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


def tco_key(
    gpu_hours: Range, offer: Offer, storage_usd: float, egress_usd: float, premium: float | None
) -> tuple[Any, ...]:
    """Key of a TCO table in Caches.tco / tco_untraced (TcoCache reads it back)."""
    return (
        gpu_hours.low,
        gpu_hours.high,
        offer.usd_per_gpu_hour,
        storage_usd,
        egress_usd,
        premium,
        offer.usd_per_gpu_hour_high,
    )
