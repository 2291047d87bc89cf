"""A budget is a ceiling, not a quantity to trade for speed (expert review 13, R11: "~20 users, budget max
$2000/month" picked 8x RTX 4090 at $1,986-2,581, over the budget at its slow end, while 2x A100 80GB at
$1,737-2,259 was listed, cheaper at both ends and fast enough for the 20 users).

The balanced score (tools.recommend.score) weighs 0.3 x log(speed) against log(cost): 69% more tokens/s
than anyone asked for paid for a 14% higher cost and a larger chance of breaking the budget. Rule: when
the pick may exceed a stated running budget (budget_status 'maybe': within it only at the favourable end of
its cost range), the best-ranked option that is cheaper at both ends of its range, carries no more risk
points, reaches the throughput or speed target (not short_of_target), is no less fit for production
(tools.recommend.buyer_rules rule 2) and is not excluded by a deadline is the pick instead. The extra speed
of the dearer option is still shown as an alternative ('fastest')."""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.buyer_rules import RISK_TOLERANCE, not_for_production
from tools.recommend.candidates import Candidate


def cheaper_within_budget(
    primary: Candidate, ranked: list[Candidate], p: WorkloadProfile, endpoint: bool
) -> Candidate:
    """The pick under the rule above; `primary` when the rule does not apply or nothing qualifies."""
    if not p.budget_usd or p.budget_capex or primary.budget_status != "maybe":
        return primary
    unfit = not_for_production(primary, endpoint)
    for c in ranked:
        if c is primary or c.short_of_target or c.budget_status not in ("meets", "maybe"):
            continue
        if _target(c) == "maybe" and _target(primary) != "maybe":
            continue  # reaches the speed asked for only at its fast end, where the pick surely does
        if c.deadline_status == "misses" or (
            c.deadline_status == "maybe" and primary.deadline_status == "meets"
        ):
            continue
        if c.risk > primary.risk + RISK_TOLERANCE:
            continue
        if not unfit and not_for_production(c, endpoint):
            continue
        if c.total_usd.low <= primary.total_usd.low and c.total_usd.high < primary.total_usd.high:
            return c
    return primary


def _target(c: Candidate) -> str | None:
    return c.serving.target_status if c.serving is not None else None


def say_budget_pick(primary: Candidate, passed_over: Candidate, p: WorkloadProfile) -> None:
    """Why the pick is not the better-ranked, faster option, in one sentence."""
    o = passed_over.offer
    line = (
        f"put first over the faster {passed_over.total_gpus}x {passed_over.gpu.name} at {o.provider} "
        f"({present.usd_range(passed_over.total_usd)}, listed below): this one costs less at both ends of "
        f"its range, so it is likelier to stay within your {present.usd(p.budget_usd)} budget, and it still "
        "reaches the speed asked for (or assumed)"
    )
    if line not in primary.why:
        primary.why.append(line)
