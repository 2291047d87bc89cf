"""Whether a profile's uptime target is the production-endpoint assumption rather than a stated figure
(expert review 16, R10: advisor/extract/rules_availability.py reads 'public API', 'production endpoint' ...
as 99.9% with PRODUCTION_ASSUMED in the evidence). An assumed uptime's spare replica gives way to a stated
GPU cap (tools.recommend.serving_plan.plan_serving); a stated one does not."""

from __future__ import annotations

from tools.profile import WorkloadProfile

PRODUCTION_ASSUMED = "assumed for a production endpoint"
"""The evidence words of an uptime read from production wording, not from a stated figure."""


def uptime_assumed(p: WorkloadProfile) -> bool:
    """Whether the profile's uptime target is the production-endpoint assumption (no figure stated)."""
    prov = p.provenance.get("availability_target")
    return prov is not None and PRODUCTION_ASSUMED in (prov.evidence or "")
