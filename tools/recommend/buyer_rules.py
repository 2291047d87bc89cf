"""The written rules that make a primary and its alternatives mean something to a buyer (issue 16):

1. The primary is not dominated: when another configuration at no more operational risk costs no
   more and takes no longer (serves no slower), it is the pick instead. The balanced ranking charges a
   set-up cost the displayed cost leaves out, which let an option be picked over one cheaper and faster.
   For the primary, cost is that same cost with the set-up (tools.recommend.score.ranked_cost_usd): on
   the displayed cost alone, 8 GPUs finishing a 20-minute LoRA run in 3 minutes 'dominate' one GPU,
   and the half hour of provisioning and model loading every GPU bills undoes the sub-hour rule.
   An alternative dominated by a displayed option is dropped unless it differs from each option that
   dominates it in what the risk points leave out and a buyer weighs, the GPU type (availability,
   maturity) or the provider class (hyperscaler, GPU cloud, managed, community, owned), costs at most
   DOMINATED_COST_MULTIPLE x the primary and is not MEANINGFUL_SPEEDUP x slower than what dominates it
   (a near-equal option on another GPU or provider class, not one far behind on both).
2. Consumer cards and community or marketplace clouds are not the primary for production serving
   unless the user asked for consumer hardware or named a consumer card; nor is spot capacity for an
   endpoint (a batch generation job may run on spot: a preemption costs a restart, not an outage). Asked for
   the cheapest, a batch job may also run on community or marketplace capacity when the whole job run twice
   still meets the deadline (tools.recommend.rank.restart_fits); a cheaper option passed over is named
   with the reason in one sentence (expert review 11, R07).
3. No alternative that costs more than COST_MULTIPLE_LIMIT x the primary.
4. 'fastest' only when at least MEANINGFUL_SPEEDUP x as fast as the primary.
5. 'lowest operational risk' is not a managed ML service unless the team has no ops capacity or named
   that provider as preferred (a managed service for an 8B model is a premium, not a lower risk); nor is it
   ever a community or marketplace host, whose reliability varies by host (expert review 13, R18: a
   runpod-community option labelled so in the same reply that demoted community hosts).
6. No alternative that is an already listed set-up (same GPU, count, pricing, deployment, provider class)
   at another provider: those are listed as 'also offered by' with their prices.
7. Buying new hardware is not an alternative when the team's own hardware runs the job.
8. When nothing meets the deadline, the options shown are compared with the closest one: plans up to
   CLOSEST_SLOWDOWN x its wall-clock count as plans (otherwise only those within a month, or within the
   primary's own time).
9. When the data sits in a cloud the primary is not on, the best option on that cloud is shown ('the
   user's cloud' constraint alternative: the data's account, no egress), exempt from rule 1.
"""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate, provider_matches
from tools.recommend.risk import COMMUNITY_TIERS
from tools.recommend.score import ranked_cost_usd

COST_MULTIPLE_LIMIT = 10.0
"""Issue 16: no alternative that costs many times the primary for little gain (e.g. > 10x a sub-$100 job)."""
MEANINGFUL_SPEEDUP = 1.25
"""'fastest' must finish in at most 1/1.25 = 80% of the primary's time (or serve 1.25x its rate)."""
RISK_TOLERANCE = 1e-9
DOMINATED_COST_MULTIPLE = 1.5
"""Rule 1: a dominated alternative of another GPU type or provider class may cost up to half as much
again as the primary (the premium a buyer may pay for a more available GPU or a provider class they
trust); beyond that it is dominated for nothing a buyer weighs."""
CLOSEST_SLOWDOWN = 2.5
"""Rule 8: when nothing meets the deadline, alternatives up to 2.5x the closest option's wall-clock."""
USERS_CLOUDS = ("aws", "gcp", "azure")


def _speed(c: Candidate, inference: bool) -> float:
    """Lower is faster: wall-clock hours, or minus the aggregate decode rate for serving."""
    if inference:
        return -(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 0.0)
    return c.hours_mid


def dominates(a: Candidate, b: Candidate, inference: bool, *, with_setup: bool = False) -> bool:
    """a costs no more, is no slower and carries no more risk than b, and is better in cost or speed.
    `with_setup`: cost with the set-up charge (choosing the primary), and a training run on several GPUs
    never dominates one on a single GPU; else the displayed cost (what a buyer compares between the options
    shown side by side)."""
    if with_setup:
        if not inference and a.total_gpus > 1 and b.total_gpus == 1:
            return False  # one GPU spares a distributed set-up (score.MULTI_GPU_TRAINING_SETUP): a trade-off
        cost_a, cost_b = ranked_cost_usd(a, inference), ranked_cost_usd(b, inference)
    else:
        cost_a, cost_b = a.cost_mid, b.cost_mid
    if a.risk > b.risk + RISK_TOLERANCE or cost_a > cost_b or _speed(a, inference) > _speed(b, inference):
        return False
    return cost_a < cost_b or _speed(a, inference) < _speed(b, inference)


def undominated(primary: Candidate, ranked: list[Candidate], inference: bool) -> Candidate:
    """Rule 1: the best-ranked candidate that dominates the primary, repeatedly, else the primary."""
    pick = primary
    for _ in range(len(ranked)):
        better = next(
            (c for c in ranked if c is not pick and dominates(c, pick, inference, with_setup=True)), None
        )
        if better is None:
            return pick
        pick = better
    return pick


def provider_class(c: Candidate) -> str:
    """owned | managed | community | hyperscaler | gpu-cloud: the kind of provider a buyer weighs."""
    o = c.offer
    if o.deployment in ("owned", "colocation"):
        return "owned"
    if o.managed:
        return "managed"
    if o.tier.lower() in COMMUNITY_TIERS:
        return "community"
    return "hyperscaler" if o.tier.lower() == "hyperscaler" else "gpu-cloud"


def shadowed(c: Candidate, shown: list[Candidate], primary: Candidate, inference: bool) -> bool:
    """Rule 1 for alternatives: a displayed option dominates c and c adds nothing a buyer weighs (same
    GPU type and provider class as an option that dominates it, more than DOMINATED_COST_MULTIPLE x the
    primary's cost, or meaningfully slower than an option that dominates it)."""
    over = [x for x in shown if dominates(x, c, inference)]
    if not over:
        return False
    if c.cost_mid > DOMINATED_COST_MULTIPLE * primary.cost_mid:
        return True
    if any(meaningfully_faster(x, c, inference) for x in over):
        return True  # far behind on time as well as cost: not a choice, whatever the GPU or provider
    return any(x.gpu.id == c.gpu.id and provider_class(x) == provider_class(c) for x in over)


def practical_hours(primary: Candidate, month_hours: float) -> float:
    """Rule 8: the longest wall-clock an alternative may take to count as a plan."""
    if primary.misses:
        return max(month_hours, CLOSEST_SLOWDOWN * primary.wall_hours.high)
    return max(month_hours, primary.wall_hours.high)


def users_cloud(primary: Candidate, pool: list[Candidate], p: WorkloadProfile) -> Candidate | None:
    """Rule 9: the best-ranked option on the cloud where the data is, when the primary is elsewhere
    (spot, managed services the user did not ask for and community tiers left out)."""
    where = p.data_location
    said = p.status_of("data_location") in ("stated", "inferred")
    if not said or where not in USERS_CLOUDS or primary.offer.cloud == where or not p.dataset_gb:
        return None
    return next(
        (
            c
            for c in pool
            if c.offer.cloud == where
            and c.offer.pricing != "spot"
            and provider_class(c) not in ("community", "owned")
            and low_risk_allowed(c, p)
        ),
        None,
    )


def consumer_or_community(c: Candidate) -> bool:
    return c.gpu.consumer or c.offer.tier.lower() in COMMUNITY_TIERS


def not_for_production(c: Candidate, endpoint: bool) -> bool:
    """Rule 2's test: a consumer card or a community cloud; for an endpoint (serving around the clock, not
    a batch job) also spot capacity, which the provider may take back at any moment: a preempted replica
    is an outage, not a restart."""
    return consumer_or_community(c) or (endpoint and c.offer.pricing == "spot")


def production_primary(
    primary: Candidate,
    ranked: list[Candidate],
    p: WorkloadProfile,
    consumer_named: bool,
    endpoint: bool = True,
) -> Candidate:
    """Rule 2: for serving, the best-ranked option on data-centre cards at an established tier (and, for an
    endpoint, not on spot) when the pick is not and the user did not ask for consumer hardware."""
    if p.deployment_preference == "consumer" or consumer_named or not not_for_production(primary, endpoint):
        return primary
    return next((c for c in ranked if not not_for_production(c, endpoint)), primary)


def same_setup(a: Candidate, b: Candidate) -> bool:
    """Rule 6: the same GPU, count, pricing, deployment and provider class (only the provider or region
    differs). A hyperscaler and a GPU cloud, or a secure and a community tier, are different set-ups to a
    buyer (contracts, support, host reliability)."""
    return (
        a.gpu.id == b.gpu.id
        and a.total_gpus == b.total_gpus
        and a.offer.pricing == b.offer.pricing
        and a.offer.deployment == b.offer.deployment
        and provider_class(a) == provider_class(b)
    )


def too_costly(c: Candidate, primary: Candidate) -> bool:
    """Rule 3."""
    return primary.cost_mid > 0 and c.cost_mid > COST_MULTIPLE_LIMIT * primary.cost_mid


def meaningfully_faster(c: Candidate, primary: Candidate, inference: bool) -> bool:
    """Rule 4."""
    if inference:
        return -_speed(c, True) >= MEANINGFUL_SPEEDUP * -_speed(primary, True)
    return c.hours_mid * MEANINGFUL_SPEEDUP <= primary.hours_mid


def lower_risk(c: Candidate, primary: Candidate) -> bool:
    """'lowest operational risk' only for an option with fewer risk points than the primary, or as
    many on fewer nodes (the primary's own set-up elsewhere is no lower-risk alternative)."""
    if c.risk < primary.risk - RISK_TOLERANCE:
        return True
    return abs(c.risk - primary.risk) <= RISK_TOLERANCE and c.layout.nodes < primary.layout.nodes


def low_risk_allowed(c: Candidate, p: WorkloadProfile) -> bool:
    """Rule 5 (managed services); fillers are held to it too."""
    if not c.offer.managed:
        return True
    named = p.providers_preferred  # 'must be on AWS' is a constraint, not a wish for SageMaker
    return p.ops_capacity == "none" or provider_matches(c.offer.provider, named)


def low_risk_label_allowed(c: Candidate, p: WorkloadProfile) -> bool:
    """Rule 5 for the 'lowest operational risk' label itself: no community or marketplace host, ever."""
    return c.offer.tier.lower() not in COMMUNITY_TIERS and low_risk_allowed(c, p)


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
    # the cost the option summaries show (compute), '$2.85-3.10' for a $3 job, not '$3-3'
    parts = [f"{c.offer.provider} ({present.usd_span(c.cost_usd, unit)})" for c in same[:limit]]
    return "also offered by " + ", ".join(parts)
