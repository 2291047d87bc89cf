"""The state one recommender run shares between its parts: the resolved workload, the catalog, the
settings, the caches and the trace builder (swapped while a GPU type is enumerated, so that its steps
can be kept with the enumeration and replayed by a later run).
"""

from __future__ import annotations

from typing import Any

from tools.defaults import CatalogView, ResolvedWorkload
from tools.profile import WorkloadProfile
from tools.recommend.caches import COST_ONLY_FIELDS, Caches
from tools.recommend.candidates import memory_method
from tools.recommend.models import RecommendSettings
from tools.recommend.score import JOB_SETUP_HOURS
from tools.trace import TraceBuilder


class RunState:
    """One run's inputs, caches and trace; the parts of the run (tools.recommend.engine) read it."""

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
        self.batch_job = self.inference and bool(w.profile.generation_tokens)
        """A batch generation job (profile.generation_tokens): timed and priced per job, not per month."""
        if not self.inference and (w.profile.objective or "balanced") == "balanced":
            self.tb.assume(
                "set-up per run charged in the balanced ranking",
                JOB_SETUP_HOURS,
                "h on every GPU",
                "provision, pull image and model, load, save checkpoint; ranks only, not in the costs",
            )
        self.caches = caches if caches is not None else Caches()
        self._enumeration_key: tuple[Any, ...] | None = None  # the run's inputs do not change

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


class Part:
    """A part of one run (calculators, pricing, offers, enumeration): the run's inputs as attributes and
    its trace builder, which is the RunState's (a part that swaps it swaps it for every part)."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.w = state.w
        self.p = state.p
        self.catalog = state.catalog
        self.s = state.s
        self.headroom = state.headroom
        self.method = state.method
        self.inference = state.inference
        self.caches = state.caches

    @property
    def tb(self) -> TraceBuilder:
        return self.state.tb

    @tb.setter
    def tb(self, tb: TraceBuilder) -> None:
        self.state.tb = tb
