"""The written rules that make a primary and its alternatives mean something to a buyer (issue 16):

1. No displayed option is dominated: when another configuration at no more operational risk costs no
   more and takes no longer (serves no slower), it is the pick instead. The balanced ranking charges a
   set-up cost the displayed cost leaves out, which let an option be picked over one cheaper and faster.
2. Consumer cards and community or marketplace clouds are not the primary for production serving
   unless the user asked for consumer hardware or named a consumer card.
3. No alternative that costs more than COST_MULTIPLE_LIMIT x the primary.
4. 'fastest' only when at least MEANINGFUL_SPEEDUP x as fast as the primary.
5. 'lowest operational risk' is not a managed ML service unless the team has no ops capacity or named
   that provider as preferred (a managed service for an 8B model is a premium, not a lower risk).
6. No alternative that is an already listed set-up (same GPU, count, pricing, deployment, tier class)
   at another provider: those are listed as 'also offered by' with their prices.
7. Buying new hardware is not an alternative when the team's own hardware runs the job.
"""

from __future__ import annotations

from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate, provider_matches
from tools.recommend.risk import COMMUNITY_TIERS

COST_MULTIPLE_LIMIT = 10.0
"""Issue 16: no alternative that costs many times the primary for little gain (e.g. > 10x a sub-$100 job)."""
MEANINGFUL_SPEEDUP = 1.25
"""'fastest' must finish in at most 1/1.25 = 80% of the primary's time (or serve 1.25x its rate)."""
RISK_TOLERANCE = 1e-9


def _speed(c: Candidate, inference: bool) -> float:
    """Lower is faster: wall-clock hours, or minus the aggregate decode rate for serving."""
    if inference:
        return -(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 0.0)
    return c.hours_mid


def dominates(a: Candidate, b: Candidate, inference: bool) -> bool:
    """a costs no more, is no slower and carries no more risk than b, and is better in cost or speed."""
    if (
        a.risk > b.risk + RISK_TOLERANCE
        or a.cost_mid > b.cost_mid
        or _speed(a, inference) > _speed(b, inference)
    ):
        return False
    return a.cost_mid < b.cost_mid or _speed(a, inference) < _speed(b, inference)


def undominated(primary: Candidate, ranked: list[Candidate], inference: bool) -> Candidate:
    """Rule 1: the best-ranked candidate that dominates the primary, repeatedly, else the primary."""
    pick = primary
    for _ in range(len(ranked)):
        better = next((c for c in ranked if c is not pick and dominates(c, pick, inference)), None)
        if better is None:
            return pick
        pick = better
    return pick


def consumer_or_community(c: Candidate) -> bool:
    return c.gpu.consumer or c.offer.tier.lower() in COMMUNITY_TIERS


def production_primary(
    primary: Candidate, ranked: list[Candidate], p: WorkloadProfile, consumer_named: bool
) -> Candidate:
    """Rule 2: for serving, the best-ranked option on data-centre cards at an established tier when the
    pick is a consumer card or a community cloud and the user did not ask for one."""
    if p.deployment_preference == "consumer" or consumer_named or not consumer_or_community(primary):
        return primary
    return next((c for c in ranked if not consumer_or_community(c)), primary)


def same_setup(a: Candidate, b: Candidate) -> bool:
    """Rule 6: the same GPU, count, pricing and deployment (only the provider or region differs)."""
    return (
        a.gpu.id == b.gpu.id
        and a.total_gpus == b.total_gpus
        and a.offer.pricing == b.offer.pricing
        and a.offer.deployment == b.offer.deployment
        and (a.offer.tier.lower() in COMMUNITY_TIERS) == (b.offer.tier.lower() in COMMUNITY_TIERS)
    )


def too_costly(c: Candidate, primary: Candidate) -> bool:
    """Rule 3."""
    return primary.cost_mid > 0 and c.cost_mid > COST_MULTIPLE_LIMIT * primary.cost_mid


def meaningfully_faster(c: Candidate, primary: Candidate, inference: bool) -> bool:
    """Rule 4."""
    if inference:
        return -_speed(c, True) >= MEANINGFUL_SPEEDUP * -_speed(primary, True)
    return c.hours_mid * MEANINGFUL_SPEEDUP <= primary.hours_mid


def low_risk_allowed(c: Candidate, p: WorkloadProfile) -> bool:
    """Rule 5."""
    if not c.offer.managed:
        return True
    named = p.providers_preferred  # 'must be on AWS' is a constraint, not a wish for SageMaker
    return p.ops_capacity == "none" or provider_matches(c.offer.provider, named)


def also_offered(primary: Candidate, ranked: list[Candidate], per_month: bool, limit: int = 3) -> str | None:
    """Rule 6's list: the primary's set-up at other providers, cheapest first, with their prices."""
    seen: set[str] = {primary.offer.provider}
    same = []
    for c in sorted(ranked, key=lambda c: c.cost_mid):
        if c.offer.provider not in seen and same_setup(c, primary):
            seen.add(c.offer.provider)
            same.append(c)
    if not same:
        return None
    unit = "/month" if per_month else ""
    parts = [
        f"{c.offer.provider} (${c.total_usd.low:,.0f}-{c.total_usd.high:,.0f}{unit})" for c in same[:limit]
    ]
    return "also offered by " + ", ".join(parts)
