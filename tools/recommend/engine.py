"""One recommender run's engine: the parts (calculators, pricing, offers, enumeration) over one shared
RunState, and the cache sinks that keep its enumeration and costed candidates for later runs.

Every number comes from a calculator in tools/ (memory, compute, topology, cost); the engine only
wires them together, compares and filters. The ranking rules and risk points are documented in the
tools.recommend package docstring.
"""

from __future__ import annotations

from collections.abc import Sequence

from tools.catalog.schema import GpuSpec, PriceRecord
from tools.defaults import CatalogView, ResolvedWorkload
from tools.recommend.caches import Caches, CostedRun, Enumeration, MemoryCache
from tools.recommend.calculators import Calculators
from tools.recommend.candidates import Candidate, GpuNotes
from tools.recommend.enumerate import Enumerator
from tools.recommend.models import RecommendSettings
from tools.recommend.offers import OfferSelector
from tools.recommend.pricing import Pricer
from tools.recommend.state import Part, RunState


class Engine(Part):
    """State of one recommender run: the catalog, the resolved workload, per-run caches and its parts."""

    def __init__(
        self,
        w: ResolvedWorkload,
        catalog: CatalogView,
        settings: RecommendSettings,
        caches: Caches | None = None,
    ) -> None:
        super().__init__(RunState(w, catalog, settings, caches))
        self.calc = Calculators(self.state)
        self.pricer = Pricer(self.state, self.calc)
        self.offers = OfferSelector(self.state)
        self.offers.record_constraints()
        self.enumerator = Enumerator(self.state, self.calc, self.pricer, self.offers)

    @property
    def mem(self) -> MemoryCache:
        """The run's memory estimates (tools.memory through the caches)."""
        return self.calc.mem

    @property
    def enumeration(self) -> Enumeration:
        return self.enumerator.enumeration

    @property
    def enumerated(self) -> dict[str, tuple[GpuNotes, int]]:
        return self.enumerator.enumerated

    @property
    def owned_idle_note(self) -> str | None:
        return self.pricer.owned_idle_note

    def enumerate_gpu(
        self, gpu: GpuSpec, records: Sequence[PriceRecord]
    ) -> tuple[list[Candidate], GpuNotes, int]:
        """One GPU type's offers and candidates, priced (tools.recommend.enumerate.Enumerator)."""
        return self.enumerator.enumerate_gpu(gpu, records)

    def repriced(self, base: Enumeration, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """A kept enumeration's candidates of one GPU type priced under this run's cost inputs."""
        return self.enumerator.repriced(base, gpu)

    def limited(self, run: CostedRun, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """A kept costed run's candidates of one GPU type with this run's budget check."""
        return self.enumerator.limited(run, gpu)

    def stored_costing(self) -> CostedRun | None:
        """A primary-only run's costed candidates with this run's costing key, or None."""
        got: CostedRun | None = self.caches.costed.get(self.state.costing_key())
        return got if got is not None and got.enumeration.catalog is self.catalog else None

    def start_costing(self) -> None:
        """Keep a copy of every candidate price() costs from now on, before its budget check."""
        self.pricer.costed_sink = {}

    def store_costing(self) -> None:
        """Keep this run's costed candidates in the caches for runs that differ only in the budget."""
        sink, self.pricer.costed_sink = self.pricer.costed_sink, None
        if sink is not None:
            run = CostedRun(self.enumeration, sink, self.pricer.owned_idle_note)
            run.candidates = sum(len(v) for v in sink.values()) + 1
            self.caches.costed[self.state.costing_key()] = run

    def stored_enumeration(self) -> Enumeration | None:
        """An enumeration with this run's key kept in the caches (by an earlier run), or None."""
        got: Enumeration | None = self.caches.enumerations.get(self.state.enumeration_key())
        return got if got is not None and got.catalog is self.catalog else None

    def store_enumeration(self) -> None:
        """Keep this run's enumeration in the caches for later runs with the same key."""
        enum = self.enumeration
        enum.candidates = sum(len(v[0]) for v in enum.per_gpu.values()) + 1
        self.caches.enumerations[self.state.enumeration_key()] = enum
