"""Serving sizing at each replica's share of the load (issue 14 / expert review 10, R04): a layout is
admitted when it holds its weights and one request (tools.recommend.calculators.prefilter_memory); the
serving plan (tools.recommend.serving_plan) decides how many replicas hold the users, and the memory fit is
the estimate at the load the plan puts on each replica (tools.memory through Calculators.serving_memory),
made again within what fits where the memory estimate with its headroom holds fewer sequences than the
serving model's KV cap."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tools.catalog.schema import GpuSpec
from tools.profile import WorkloadProfile
from tools.recommend.calculators import Calculators
from tools.recommend.candidates import Candidate, Layout, Offer, memory_fit
from tools.recommend.models import MemoryFit
from tools.recommend.serving_plan import ServingPlan, percentile_answer, plan_serving, with_latency_cap

MAX_REPLICAS = 16
"""Inference: most replicas of one configuration considered to reach a throughput target."""


def with_fewest_gpus(kept: list[Candidate], feasible: list[Candidate]) -> list[Candidate]:
    """`kept` (the pruned counts of one offer) and the feasible candidate with the fewest GPUs in all
    (replicas included; the faster per user of a tie): a replica carries its share of the users, so fewer
    GPUs per replica can take more replicas, and the cheapest count of an offer may lie between its
    smallest and its largest (R13: 2x B200 in one replica against 5 replicas of one)."""
    if not feasible:
        return kept
    fewest = min(feasible, key=lambda c: (c.total_gpus, -_per_user_low(c)))
    return kept if any(c is fewest for c in kept) else [*kept, fewest]


def _per_user_low(c: Candidate) -> float:
    """The slow end of a serving candidate's per-user tokens/s (0 without a plan)."""
    return c.serving.per_user_tokens_per_s.low if c.serving is not None else 0.0


class ServingLoad:
    """One run's serving plans with their memory at the per-replica load."""

    def __init__(self, calc: Calculators, p: WorkloadProfile, headroom: float) -> None:
        self.calc = calc
        self.p = p
        self.headroom = headroom

    def plan(
        self, gpu: GpuSpec, offer: Offer, layout: Layout, fit: MemoryFit
    ) -> tuple[ServingPlan, MemoryFit]:
        """The serving plan of `layout` (tools.recommend.serving_plan) and its memory fit at the load the
        plan puts on each replica (stated or not): `fit` is only the pre-filter's, weights and one
        request (Calculators.prefilter_memory). Where the memory estimate with its headroom holds fewer
        sequences than the serving model's KV cap, the plan is made again within what fits."""
        n = layout.n_gpus
        latency = self.p.latency_ms_per_token

        def serve(conc: int) -> Any:
            return self.calc.serving(gpu, n, conc, pp=layout.pp, dp=layout.dp)

        stated = self.p.concurrency is not None and self.p.status_of("concurrency") != "assumed"
        # the plan picks each replica's load (a batch job; a rate target with no users stated) or splits the
        # users over replicas
        sized = bool(self.p.generation_tokens) or (bool(self.p.target_tokens_per_s) and not stated)
        # an offer of a fixed number of GPUs (the team's own) holds no more replicas than fit in it
        max_reps = MAX_REPLICAS if offer.max_gpus is None else max(1, offer.max_gpus // n)
        if self.p.max_gpus:  # the user's cap on GPUs bounds the replicas too (a spare one included)
            max_reps = min(max_reps, max(1, self.p.max_gpus // n))
        answer = percentile_answer(self.p)  # a p95 answer time binds the load too (expert review 11, R08)
        plan = with_latency_cap(serve, plan_serving(serve, self.p, n, max_reps, stated), latency, answer)
        if plan.why_not is not None:
            return plan, fit
        per = max(plan.per_replica_concurrency, plan.sized_for or 0)  # memory for the load it is sized for
        at_load = self.fit_at(gpu, layout, per)
        cap = None if at_load.fits else self.memory_cap(gpu, layout, 1, per)
        if cap is not None:
            # the serving model's KV capacity is above what the memory estimate, with its headroom, lets
            # the GPUs hold (expert review 2026-11-27: "fits: 203.0 GiB peak per GPU of 179.1 usable")
            if sized:
                # a replica runs at most `cap` sequences whatever load the plan asked of it (expert review
                # 7, P15: 127 asked, 48 served, memory sized at 127 called a fit)
                def capped(conc: int) -> Any:
                    return serve(min(conc, cap))

                planned = plan_serving(capped, self.p, n, max_reps, stated)
                plan = with_latency_cap(capped, planned, latency, answer)
                plan = replace(plan, per_replica_concurrency=min(plan.per_replica_concurrency, cap),
                               sized_for=min(plan.sized_for, cap) if plan.sized_for else None)  # fmt: skip
            else:
                # the users are split over replicas, each holding at most `cap`: more replicas, or none
                def capped(conc: int) -> Any:
                    t = serve(conc)
                    return t.model_copy(update={"max_concurrency": min(t.max_concurrency, cap)})

                planned = plan_serving(capped, self.p, n, max_reps, stated)
                plan = with_latency_cap(capped, planned, latency, answer)
            per = max(plan.per_replica_concurrency, plan.sized_for or 0)
            at_load = self.fit_at(gpu, layout, per)
        if not at_load.fits and plan.why_not is None:
            # a load that does not fit is never a fit (negative free memory shown as one)
            plan = replace(plan, why_not=f"{per} sequences per replica need "
                           f"{at_load.judged_gib:.1f} GiB per GPU, more than fits")  # fmt: skip
        return plan, at_load

    def fit_at(self, gpu: GpuSpec, layout: Layout, concurrency: int) -> MemoryFit:
        """The memory fit of one replica of `layout` holding `concurrency` sequences."""
        est = self.calc.serving_memory(layout, concurrency)
        return memory_fit(est, gpu, self.headroom, layout.sharding)

    def memory_cap(self, gpu: GpuSpec, layout: Layout, low: int, high: int) -> int | None:
        """The most sequences per replica in [low, high) whose serving memory fits with the headroom
        (memory grows with the sequences held); None when even `low` does not fit."""

        def fits(conc: int) -> bool:
            est = self.calc.serving_memory(layout, conc)
            return memory_fit(est, gpu, self.headroom, layout.sharding).fits

        if not fits(low):
            return None
        lo, hi = low, high - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo
