"""A claimed time for a batch generation job (issue 12, evals v10: "generate 5M synthetic dialogues with
Llama 3.3 70B ... How many days will that take on the box? Our guess is a week.").

The training claim check (expectations.check_claimed_speed) times tokens to learn from; a batch job
(profile.generation_tokens) is timed by its serving plan instead (tools.recommend.serving_plan: the tokens
over the configuration's offline output throughput, job_hours). The claim is checked against the fastest
feasible plan on the claimed GPU at the claimed count (replicas of a smaller plan fill the count, their
throughput adding up as in serving_plan): it holds when even the slow end of the range finishes in time,
is tight when only the fast end does, and cannot hold otherwise; the same verdicts as the deadline check.
"""

from __future__ import annotations

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload
from tools.ranges import Range
from tools.recommend.models import ExpectationCheck, RecommendSettings
from tools.recommend.outcome import Outcome


def check_claimed_batch(
    w: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> ExpectationCheck | None:
    """'This batch job takes H hours on k x GPU' against the job hours of that configuration's serving plan;
    None when the profile has no claimed time for a batch generation job."""
    del catalog, settings  # the same signature as the other claim checks (expectations.check_expectations)
    p = w.profile
    if p.claimed_hours is None or p.workload != "inference" or not p.generation_tokens:
        return None
    n = p.claimed_gpu_count
    # (hours, configuration) of each feasible batch plan on the claimed GPU, at the claimed count: a plan of
    # fewer GPUs whose tensor-parallel group divides the count runs count/group replicas, its throughput
    # scaled by replicas as serving_plan._job scales it (the job's hours by the same factor)
    timed: list[tuple[Range, str]] = []
    for c in outcome.all_feasible:
        if c.serving is None or c.serving.job_hours is None:
            continue
        if p.claimed_gpu is not None and c.gpu.id != p.claimed_gpu:
            continue
        if n is not None and n % c.layout.n_gpus:
            continue
        share = c.total_gpus / n if n is not None else 1.0
        hours = Range(low=c.wall_hours.low * share, high=c.wall_hours.high * share)
        timed.append((hours, f"{n or c.total_gpus}x {c.gpu.name}"))
    on = f"{n}x {p.claimed_gpu}" if n is not None else str(p.claimed_gpu or "the recommended GPUs")
    claim = f"{present.count(p.generation_tokens)} tokens generated in {p.claimed_hours:g} h on {on}"
    if not timed:
        return ExpectationCheck(
            claim=claim, verdict="unknown", explanation="No feasible configuration of that hardware to time."
        )
    h, cfg = min(timed, key=lambda t: t[0].low)
    span = f"{h.low:,.0f}-{h.high:,.0f} h"
    if h.high <= p.claimed_hours:
        return ExpectationCheck(
            claim=claim,
            verdict="holds",
            factor=h.high / p.claimed_hours,
            explanation=f"Yes: {cfg} generates it in about {span}, within {p.claimed_hours:g} h.",
        )
    if h.low <= p.claimed_hours:
        return ExpectationCheck(
            claim=claim,
            verdict="tight",
            factor=h.high / p.claimed_hours,
            explanation=f"Only at the fast end: {cfg} takes about {span}; at the slow end it is "
            f"{h.high / p.claimed_hours:.1f}x the {p.claimed_hours:g} h.",
        )
    return ExpectationCheck(
        claim=claim,
        verdict="cannot_hold",
        factor=h.low / p.claimed_hours,
        explanation=f"No: {cfg} needs about {span}, {h.low / p.claimed_hours:.1f}x the {p.claimed_hours:g} h "
        "at best.",
    )
