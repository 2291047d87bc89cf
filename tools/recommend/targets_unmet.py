"""When no serving option meets every stated target within the budget, say so before the pick and name the
nearest options (expert review 13, R18: "first token under 1 s, at least 30 tokens/s per user, $8k/month, EU,
no community hosts" got 2x H200 at nebius, short of both targets at its slow end, presented as a pick).

A stated per-user speed or time to first token is met at the fast end of the predicted range, with the slow
end named as a risk (tools.recommend.serving_plan). When the pick holds a stated target only at the fast end
and no option within the budget holds them all at the slow end, the note says so plainly and names:
- the cheapest option that holds every target even at the slow end, over the budget: found by re-running the
  engine with the targets held at the slow end (the way serving_plan already holds a percentile target:
  latency_percentile set) and no budget;
- the pick itself as the option within the budget that relaxes a target, naming which and by how much.
"""

from __future__ import annotations

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.caches import Caches
from tools.recommend.candidates import Candidate
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine
from tools.recommend.serving_plan import latency_is_floor
from tools.units import ms_per_token_to_tokens_per_s

SLOW_END_PERCENTILE = 99.0
"""Any percentile makes serving_plan hold the targets at the slow end of the range (every request arriving
at once); the value itself is not used for a percentile target here (no answer time is stated with it)."""


def _targets_missed(c: Candidate, p: WorkloadProfile) -> list[str]:
    """The stated serving targets the option holds only at the fast end, each with its slow-end figure."""
    plan = c.serving
    if plan is None or plan.why_not or plan.job_hours is not None:
        return []
    missed = []
    if plan.latency_at_risk and p.latency_ms_per_token and not latency_is_floor(p):
        wanted = present.number(ms_per_token_to_tokens_per_s(p.latency_ms_per_token))
        slow = plan.replica.per_user_tokens_per_s.low
        low = present.tokens_per_s_range(Range(low=slow, high=slow))
        missed.append(f"the {wanted} tokens/s per user ({low} at the slow end)")
    if plan.ttft_at_risk and p.ttft_target_s:
        slow_s = plan.replica.time_to_first_token_s.high
        slow = present.sig2(slow_s)
        missed.append(f"the {p.ttft_target_s:g} s to the first token ({slow} s at the slow end)")
    return missed


def _holds_all(c: Candidate, p: WorkloadProfile) -> bool:
    return c.serving is not None and not c.serving.why_not and not _targets_missed(c, p)


def _summary(c: Candidate) -> str:
    """'3x NVIDIA H200 SXM 141GB at nebius: 31.0 - 49.8 tokens/s per user, 0.06-0.9 s to the first token'."""
    assert c.serving is not None
    t = c.serving.replica
    first = t.time_to_first_token_s
    return (
        f"{c.total_gpus}x {c.gpu.name} at {c.offer.provider} "
        f"({present.tokens_per_s_range(t.per_user_tokens_per_s)} per user, "
        f"{present.sig2_span(first)} s to the first token)"
    )


def unmet_targets_note(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    out: Outcome,
    caches: Caches | None = None,
) -> str | None:
    """The plain line that no option meets every target within the budget, with the nearest options; None
    when the pick holds every stated target at the slow end, there is no budget, or it is not serving."""
    p = w.profile
    c = out.primary
    if p.workload != "inference" or c is None or not p.budget_usd or c.budget_status == "misses":
        return None
    missed = _targets_missed(c, p)
    if not missed:
        return None
    if any(_holds_all(x, p) and x.budget_status == "meets" for x in out.all_feasible):
        return None  # an option within the budget holds them all: the ranking's choice, not this note's
    budget = present.usd(p.budget_usd)
    relaxed = " and ".join(missed)
    head = f"No option within your {budget} budget meets every target at the slow end of its range."
    pick = f"Within the budget, the pick below ({present.usd_range(c.cost_usd)} per month) relaxes {relaxed}."
    # an option within the budget that relaxes fewer targets than the pick is the nearer one: named too
    fewer = [
        (len(_targets_missed(x, p)), x.cost_mid, x.key, x)
        for x in out.all_feasible
        if x.budget_status == "meets" and 0 < len(_targets_missed(x, p)) < len(missed)
    ]
    if fewer:
        x = min(fewer)[3]
        pick += (
            f" {_summary(x)}, {present.usd_range(x.cost_usd)} per month, relaxes only "
            f"{' and '.join(_targets_missed(x, p))}."
        )
    # the percentile marked assumed: it holds the targets at the slow end, every prompt at once (not the
    # steady-arrival percentile of a stated one, tools/recommend/ttft_target.py)
    held = p.with_values("assumed", latency_percentile=SLOW_END_PERCENTILE, budget_usd=None)
    try:
        out2 = run_engine(resolve_workload(profile=held, catalog=catalog), catalog, settings, caches)
    except InputError:
        return f"{head} {pick}"
    meets = [x for x in out2.all_feasible if _holds_all(x, p)]
    if not meets:
        return f"{head} Nothing here meets them all at any price. {pick}"
    best = min(meets, key=lambda x: (x.cost_mid, x.key))
    return (
        f"{head} Nearest: {_summary(best)} meets every target for {present.usd_range(best.cost_usd)} per "
        f"month, over the budget. {pick}"
    )
