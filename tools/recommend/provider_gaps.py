"""A GPU the user named at a provider that does not list it (expert review 14, R11: "one L4 vs one L40S on
GCP": the L40S was priced at runpod-secure with no word that GCP has no L40S). The answer says so first and
names the nearest offers of that GPU elsewhere: the cheapest on-demand offers on established tiers (a
community host is no endpoint, tools.recommend.buyer_rules rule 2) that the other rules of the request
allow (EU only, excluded providers), with their price per GPU-hour and, for serving, per month at the
count named (price per GPU-hour x GPUs x 730 h, the price-sheet month, tools/units.py)."""

from __future__ import annotations

from tools import present
from tools.catalog.schema import PriceRecord
from tools.defaults import CatalogView
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import provider_matches
from tools.recommend.models import ExpectationCheck
from tools.recommend.regions import allowed as region_allowed
from tools.recommend.risk import COMMUNITY_TIERS
from tools.units import HOURS_PER_MONTH  # the price-sheet month, 730 h

NEAREST_SHOWN = 2
"""Offers of the missing GPU named, at most (one per provider, cheapest first)."""


def _named_counts(p: WorkloadProfile) -> list[tuple[str, int]]:
    """The GPU types the user named, each with the count said beside it (1 when none was)."""
    out: list[tuple[str, int]] = []
    if len(p.gpus_compared) == len(p.gpu_counts_compared):
        out.extend(zip(p.gpus_compared, p.gpu_counts_compared, strict=True))
    else:
        out.extend((g, 1) for g in p.gpus_compared)
    for g in p.gpus_wanted:
        if g not in {x for x, _ in out}:
            said = p.claimed_gpu_count if p.claimed_gpu == g else None  # "on 1x L40S at GCP"
            out.append((g, said or 1))
    if p.claimed_gpu and p.claimed_gpu not in {x for x, _ in out}:  # "on a single L40S in Google Cloud"
        out.append((p.claimed_gpu, p.claimed_gpu_count or 1))
    return out


def _elsewhere(r: PriceRecord, p: WorkloadProfile) -> bool:
    """An established on-demand offer the request's other provider and region rules allow."""
    return (
        r.pricing == "on_demand"
        and r.tier.lower() not in COMMUNITY_TIERS
        and not r.reference_only
        and region_allowed(r.region, r.eu, r.areas, p)
        and not (p.providers_excluded and provider_matches(r.provider, p.providers_excluded))
    )


def provider_gap_check(p: WorkloadProfile, catalog: CatalogView, per_month: bool) -> ExpectationCheck | None:
    """For each named GPU that none of the required providers lists: that, and the nearest offers of it
    elsewhere (module docstring); None when every named GPU is listed there or no provider is required."""
    required = list(p.providers_required)
    if not required:
        return None
    lines: list[str] = []
    for gid, n in _named_counts(p):
        try:
            gpu = catalog.gpu(gid)
        except InputError:
            continue
        records = list(catalog.prices_for(gpu.id))
        if any(provider_matches(r.provider, required) for r in records):
            continue
        best: dict[str, PriceRecord] = {}
        for r in sorted((r for r in records if _elsewhere(r, p)), key=lambda r: r.usd_per_gpu_hour):
            best.setdefault(r.provider, r)
        offers = list(best.values())[:NEAREST_SHOWN]
        where = " or ".join(required)
        line = f"{where} does not offer the {gpu.name} (no {where} price for it in the catalog)"
        if offers:
            shown = [
                f"{r.provider} at {present.usd(r.usd_per_gpu_hour)} per GPU-hour"
                + (f" ({present.usd(r.usd_per_gpu_hour * n * HOURS_PER_MONTH)} per month for {n}x)"
                   if per_month else "")
                for r in offers
            ]  # fmt: skip
            line += "; the nearest offers of it: " + "; ".join(shown)
        lines.append(line)
    if not lines:
        return None
    return ExpectationCheck(
        claim=f"the GPUs you named at {' or '.join(required)}",
        verdict="cannot_hold",
        explanation=". ".join(lines) + ".",
        asked=True,
        leads=True,
    )
