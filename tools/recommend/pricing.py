"""What a candidate costs: serving hours billed, the managed premium, storage, egress, the TCO rows of
each data scenario (tools.cost), owned hardware's use (tools.classify) and the budget check.
The price spread of an offer is in tools.recommend.spread."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tools import cost as cost_mod
from tools import present
from tools.classify import implied_utilization
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.caches import tco_key
from tools.recommend.calculators import Calculators
from tools.recommend.candidates import Candidate, Layout, Offer
from tools.recommend.models import TcoScenario
from tools.recommend.offers import RESERVED_UTILIZATION_MIN
from tools.recommend.owned import (
    OWNED_HORIZON_MONTHS_MIN,
    OWNED_UTILIZATION_MIN,
    owned_amortization_months,
    owned_rate,
    owned_utilization,
)
from tools.recommend.owned_first import YOURS_PROVIDER
from tools.recommend.risk import budget_runs
from tools.recommend.state import Part, RunState
from tools.units import HOURS_PER_MONTH, bytes_to_gb

ALWAYS_ON_SOURCE = (
    "an endpoint on rented GPUs pays for every hour it holds them, busy or idle, unless it scales to zero "
    "(provider per-hour billing); utilisation still sets owned hardware's amortised rate"
)
BF16_BYTES = 2.0
"""Bytes per parameter of the stored base model download (BF16 safetensors)."""
MANAGED_PREMIUM_ESTIMATE = "managed_premium_fraction"
DEFAULT_MANAGED_PREMIUM = 0.30
"""Seed 001: SageMaker carries roughly 30% over self-managed compute (used if the catalog lacks it)."""


EGRESS_CLOUDS = ("aws", "gcp", "azure")
"""Data locations whose provider charges egress on a pull (tools.catalog's egress schedules)."""


def egress_possible(p: WorkloadProfile) -> bool:
    """Whether any dataset pull can cost egress: the data sits in a cloud with an egress schedule and
    has a size. When not, how often it is pulled (data_cached, runs_per_month) costs nothing."""
    return p.data_location in EGRESS_CLOUDS and bool(p.dataset_gb)


class Pricer(Part):
    """Costs of one run's candidates (per-run caches of storage, egress and scenario inputs)."""

    def __init__(self, state: RunState, calc: Calculators) -> None:
        super().__init__(state)
        self.calc = calc
        self._egress_cache: dict[tuple[bool, float], float] = {}
        self._storage_cache: dict[str, float] = {}
        self._stored_gb: float | None = None
        self.storage_results: dict[str, Any] = {}
        """Storage cost results by cloud or provider (the primary's trace reads them)."""
        self._scenario_basis: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.premium = self._managed_premium()
        self._serving_hours: dict[tuple[bool, bool], float] = {}
        self._owned_rates: dict[tuple[Any, ...], Any] = {}
        self.owned_idle_note: str | None = None
        """Why owned hardware was left out (its runs would leave it idle), for the recommendation's notes."""
        self.costed_sink: dict[str, list[Candidate]] | None = None
        """Copies of the candidates price() costs, before their budget check (see caches.CostedRun)."""

    def serving_hours(self, offer: Offer) -> float:
        """Hours a month one serving GPU is paid for. Rented: all HOURS_PER_MONTH (endpoint kept up all
        month) unless settings.serving_scales_to_zero, then HOURS_PER_MONTH x utilisation. Owned and
        colocated: HOURS_PER_MONTH x utilisation, since their amortised rate is per busy hour."""
        owned = offer.deployment in ("owned", "colocation")
        busy_only = owned or bool(self.s.serving_scales_to_zero) or self._scheduled(offer)
        got = self._serving_hours.get((busy_only, owned))
        if got is not None:
            return got
        util = self.p.utilization if self.p.utilization is not None else 1.0
        if owned:  # the utilisation the owned rate was amortised at (applied once, issue 16)
            util = owned_utilization(self.p, True)
        if busy_only:
            got = self.tb.step(
                "serving_hours_per_month_busy",
                "HOURS_PER_MONTH x utilization",
                HOURS_PER_MONTH * util,
                "h",
                "owned: amortised rate per busy hour; rented: scale-to-zero endpoint, or stopped outside the "
                "stated hours",
                hours_per_month=HOURS_PER_MONTH,
                utilization=util,
            )
        else:
            self.tb.assume("endpoint kept up all month", HOURS_PER_MONTH, "h per month", ALWAYS_ON_SOURCE)
            got = HOURS_PER_MONTH
        self._serving_hours[(busy_only, owned)] = got
        return got

    def _scheduled(self, offer: Offer) -> bool:
        """Serving needed only in stated hours on rented GPUs that bill by the hour (a commitment bills
        every hour of its term whatever the schedule)."""
        by_the_hour = offer.pricing != "reserved" and offer.commitment_months is None
        return bool(self.p.serving_scheduled) and by_the_hour

    def idle_endpoint_note(self, offer: Offer) -> str | None:
        """Serving on rented GPUs billed all month while the profile says they are busy less than that,
        and the user said nothing about scaling: what idles and what would lower the cost (a ratio, no
        new figure). None otherwise."""
        util = self.p.utilization
        if (
            not self.inference
            or self.state.batch_job
            or util is None
            or util >= 1.0
            or offer.deployment in ("owned", "colocation")
            or self.s.serving_scales_to_zero is not None
        ):
            return None
        if self._scheduled(offer):
            return (
                f"billed for the stated hours only ({util:.0%} of the month): stop the instances outside "
                "them (a scheduled start and stop; a cold start re-loads the model)"
            )
        return (
            f"endpoint kept up all month ({HOURS_PER_MONTH:g} h billed) but busy {util:.0%} of the time: it "
            f"idles {1 - util:.0%} of the hours you pay for; scale-to-zero or a shared endpoint would bill "
            f"about {util:.0%} of this compute cost"
        )

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
            est = self.calc.mem.get(Layout(1, 1, 1, "none"))
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
            self.storage_results[where] = res
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
        if self.state.batch_job:
            plans = [("one generation job", 0.0)]
        elif self.inference:
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

    def price(self, c: Candidate) -> Candidate:
        """Expected-scenario TCO, cost range and the budget check."""
        self._cost(c)
        if c.dropped is None:
            sink = self.costed_sink
            if sink is not None:  # kept before the budget check (see CostedRun)
                sink.setdefault(c.gpu.id, []).append(c.copy(risks=list(c.risks), why=list(c.why)))
            self.limits(c)
        return c

    def _cost(self, c: Candidate) -> None:
        """price() without the budget check: owned hardware's use, TCO scenarios and cost ranges."""
        bought = c.offer.deployment in ("owned", "colocation") and c.offer.provider != YOURS_PROVIDER
        if bought and (not self.inference or self.state.batch_job):  # a batch job's runs imply a use too
            self._owned_use(c)
            if c.dropped is not None:
                return
        if c.offer.pricing == "reserved" and not self.inference:
            self._reserved_use(c)
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

    def _reserved_use(self, c: Candidate) -> None:
        """Reserved training capacity bills every hour of its term, so it is dropped when the stated runs
        fill less than RESERVED_UTILIZATION_MIN of the month (tools.classify.implied_utilization), unless
        the user ruled out both on-demand and spot ("reserved only")."""
        p = self.p
        known = ("stated", "inferred", None)
        if p.runs_per_month is None or p.status_of("runs_per_month") not in known:
            return
        if {"on_demand", "spot"} <= set(p.pricing_excluded):
            return
        chk = implied_utilization(
            runs_per_month=p.runs_per_month,
            wall_hours_low=c.wall_hours.low,
            wall_hours_high=c.wall_hours.high,
            stated_utilization=1.0,
        )
        if chk.implied_utilization < RESERVED_UTILIZATION_MIN:
            c.dropped = (
                f"reserved capacity bills every hour of its term; these runs ({p.runs_per_month:g} a month) "
                f"fill {chk.implied_utilization:.1%} of it"
            )

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
                    power_usd_per_kwh=p.power_price_usd_per_kwh,
                    amortization_months=owned_amortization_months(self.catalog, p),
                )
            if rate is not None:
                c.offer = replace(c.offer, usd_per_gpu_hour=float(rate.usd_per_gpu_hour))
        if chk.note:
            c.risks = [*c.risks, chk.note]

    def capex_usd(self, c: Candidate) -> float | None:
        """What buying the candidate's GPUs costs once (a capex budget's measure, expert review 7, R02):
        GPUs x price per GPU, the catalog's with the server overhead (tools/cost_owned.py) or the user's
        stated price, whole server; None for a rental or a GPU without a purchase price."""
        p = self.p
        if c.offer.deployment not in ("owned", "colocation") or c.offer.provider == YOURS_PROVIDER:
            return None
        n = c.layout.n_gpus * c.replicas
        if p.purchase_usd_per_gpu is not None and p.purchase_gpu in (None, c.gpu.id):
            return n * p.purchase_usd_per_gpu
        if c.gpu.purchase_price_usd is None:
            return None
        overhead = self.catalog.estimate("server_overhead_fraction").value
        return n * c.gpu.purchase_price_usd * (1 + overhead)

    def limits(self, c: Candidate) -> None:
        """The budget check: meets | maybe | misses (the 'maybe' said in the risks). A capex budget is
        held against the purchase (rentals have none to hold it to)."""
        p = self.p
        if p.budget_usd and p.budget_capex:
            bought = c.capex_usd = self.capex_usd(c)
            if bought is not None:
                c.budget_status = "meets" if bought <= p.budget_usd else "misses"
            return
        if p.budget_usd:
            # the purchase of a buy option, kept so its reason never calls an amount above the budget
            # "within" it (expert review 14, R03: an $812,500 purchase "within the $600,000 budget")
            c.capex_usd = self.capex_usd(c)
            # a campaign of runs ("12 LoRA runs ... $2,000 total"): the budget holds all of them (review 10)
            runs = budget_runs(p, self.inference)
            total = c.total_usd.scale(runs)
            if total.high <= p.budget_usd:
                c.budget_status = "meets"
            elif total.low > p.budget_usd:
                c.budget_status = "misses"
            else:
                c.budget_status = "maybe"
                c.risks.append(f"may exceed the {present.usd(p.budget_usd)} budget at low MFU")
