"""The reply's words for a spare serving replica (N+1 for an uptime target; tools.recommend.serving_plan
plans it), and the assumption behind an uptime the user did not state as a figure.

Expert review 16, R10: "public API on Mixtral 8x7B, 500 requests/min at peak" got one B200 with no spare; a
buyer expects a production endpoint to survive one node failing or being upgraded. The rules extractor
(advisor/extract/rules_availability.py) reads 'public API', 'customer-facing', 'production endpoint/API/
service/traffic', 'in production' and a bare 'SLA' as HA_AVAILABILITY (99.9%) when no uptime is stated,
with PRODUCTION_ASSUMED in the evidence; spare_note then names the figure as an assumption the buyer can
drop ("say if one replica is fine"). A batch generation job never gets a spare (serving_plan.needs_spare).
"""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.serving_plan import ServingPlan, downtime_minutes_per_month
from tools.recommend.uptime_assumed import PRODUCTION_ASSUMED, uptime_assumed

__all__ = ["PRODUCTION_ASSUMED", "spare_note", "uptime_assumed"]


def spare_note(plan: ServingPlan | None, p: WorkloadProfile) -> str | None:
    """Why the plan runs a spare replica, in words (N+1 for the uptime target), why it has none where the
    assumed one did not fit the GPU cap, or None."""
    if plan is not None and plan.spare_left_out and p.availability_target is not None:
        return (
            f"no spare replica: the {present.availability(p.availability_target)} uptime assumed for a "
            "production endpoint needs one more, which your GPU limit leaves no room for; one replica "
            "failing or being upgraded takes the endpoint down"
        )
    if plan is None or not plan.spare_replicas or p.availability_target is None:
        return None
    need, r = plan.replicas - plan.spare_replicas, plan.replicas
    load = f"the {plan.concurrency:,} concurrent requests" if plan.concurrency else "the target load"
    carry = "the other carries" if need == 1 else f"the other {need} carry"
    uptime = present.availability(p.availability_target)
    minutes = downtime_minutes_per_month(p.availability_target)
    target = f"the {uptime} uptime target"
    if uptime_assumed(p):
        evidence = p.provenance["availability_target"].evidence or ""
        said = evidence.split(" -> ")[0]
        target = (
            f"a production endpoint ({said}: {uptime} uptime assumed, the level a public endpoint is held "
            "to; say if one replica is fine and the spare goes)"
        )
    return (
        f"{r} replicas for {target} (N+1 redundancy): "
        f"any one can fail or be upgraded while {carry} {load} at the figures shown; "
        f"{uptime} allows {minutes:,.0f} min of downtime a month, less than replacing a node takes"
    )
