"""The offers of a GPU type a run considers: the catalog's price records under the user's constraints
(EU only, excluded or required providers, excluded pricing, deployment preference, on-demand only),
each with its price spread, the cheapest of each kind, reserved capacity when plausible, and owned or
colocated hardware.

Required providers and excluded pricing are hard constraints: an offer they rule out is never
enumerated, so it can be neither the pick nor an alternative (WorkloadProfile.providers_required,
pricing_excluded)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tools.catalog.schema import GpuSpec, PriceRecord
from tools.profile import WorkloadProfile
from tools.recommend.candidates import GpuNotes, Offer, provider_matches
from tools.recommend.owned import (
    OWNED_HORIZON_MONTHS_MIN,
    OWNED_UTILIZATION_MIN,
    owned_amortization_months,
    owned_fabric,
    owned_node_sizes,
    owned_rate,
    owned_utilization,
)
from tools.recommend.owned_first import yours_offer
from tools.recommend.regions import US_REGION, asked_area, outside_us  # noqa: F401 (re-exported)
from tools.recommend.regions import allowed as region_allowed
from tools.recommend.regions import standing as region_standing
from tools.recommend.risk import COMMUNITY_TIERS
from tools.recommend.spread import price_spread
from tools.recommend.state import Part
from tools.trace import TraceBuilder

RESERVED_UTILIZATION_MIN = 0.5
"""Reserved capacity bills every hour of its term: it is weighed only when use is sustained, at least half
the month (seed 000: reserved/committed terms suit steady, predictable load)."""


class OfferSelector(Part):
    """Selects a run's offers per GPU type (through the caches: runs with the same constraints share them)."""

    def offers_for(self, gpu: GpuSpec, notes: GpuNotes, records: Sequence[PriceRecord]) -> list[Offer]:
        p = self.p
        excluded = sorted({x.lower() for x in p.providers_excluded})
        required = sorted({x.lower() for x in p.providers_required})
        if p.deployment_preference == "consumer" and not gpu.consumer:
            notes.constraint = "not a consumer GPU (consumer hardware requested)"
            return []
        offers: list[Offer] = []
        if p.deployment_preference != "on_prem":
            dropped = dict.fromkeys(_DROP_REASONS, 0)
            shortlisted = self.s.compare_providers
            for r in records:
                if r.reference_only and not provider_matches(r.provider, shortlisted):
                    continue  # a worked example's quote, not a provider a buyer can sign with
                if not region_allowed(r.region, r.eu, r.areas, p) and not _chosen_unlisted(r, required, p):
                    # outside the asked area by the record's region or its provider's sourced region list
                    dropped["EU-only" if p.eu_only else "US-only"] += 1
                    continue
                if provider_matches(r.provider, excluded):
                    dropped["excluded-provider"] += 1
                    continue
                if required and not provider_matches(r.provider, required):
                    dropped["required-provider"] += 1
                    continue
                if pricing_ruled_out(r.pricing, r.tier, p.pricing_excluded):
                    dropped["excluded-pricing"] += 1
                    continue
                if self.s.on_demand_only and (r.pricing != "on_demand" or r.tier.lower() in COMMUNITY_TIERS):
                    continue
                offers.append(self.offer_from_record(r))
            if not offers and records:
                notes.constraint = _dropped_note(dropped, excluded, required, p.pricing_excluded)
            offers = self._undominated([o for o in offers if self._reserved_plausible(o)])
        if not required and "owned" not in p.pricing_excluded:
            offers += self.owned_offers(gpu)
        if not required:
            yours = yours_offer(self.catalog, gpu, p)
            if yours is not None:
                self.tb.extend(yours[1], prefix=f"your {gpu.id} (marginal): ")
                offers.append(yours[0])
        if not records and not offers:
            notes.no_price = True
        if p.deployment_preference == "on_prem" and not offers:
            notes.constraint = "no purchase price in the catalog (on-premises hardware requested)"
        return offers

    def record_constraints(self) -> None:
        """Say in the run's assumptions that the user's hard constraints on providers and pricing were
        applied (the report's assumption list and the trace show them with the user's words)."""
        p = self.p
        if p.providers_required:
            self.tb.assume(
                "constraint applied: required providers",
                ", ".join(p.providers_required),
                "",
                f"{_said(p, 'providers_required')}offers from other providers and owned hardware are never "
                "picked or listed",
            )
        area = asked_area(p)
        if area is not None:
            # the same rule both ways (regions.allowed): a provider with no region list is left out, named
            # a required one is kept, marked "region not listed" (_chosen_unlisted)
            unlisted = sorted(
                {r.provider for r in self.catalog.prices if _unlisted(r)} - set(p.providers_required)
            )
            left_out = ", ".join(unlisted) if unlisted else "none"
            word, field = ("EU", "eu_only") if area == "eu" else ("US", "us_only")
            rule = "residency" if area == "eu" else "a US location"
            self.tb.assume(
                f"constraint applied: {word} only",
                f"{word} regions and providers' listed {word} data centres",
                "",
                f"{_said(p, field)}kept: offers priced in {'an' if area == 'eu' else 'a'} {word} region, and "
                f"providers whose sourced region list (tools/catalog/prices.yaml areas) has {word} data "
                f"centres, chosen at launch; left out: {left_out} (no published region list, so {rule} "
                f"cannot be confirmed) and providers listed outside the {word}",
            )
        if p.pricing_excluded:
            self.tb.assume(
                "constraint applied: pricing excluded",
                ", ".join(k.replace("_", "-") for k in p.pricing_excluded),
                "",
                f"{_said(p, 'pricing_excluded')}offers at that pricing are never picked or listed",
            )

    def offer_from_record(self, r: PriceRecord) -> Offer:
        """A price record as an Offer with its price spread (tools.recommend.spread: firm for list
        on-demand and reserved prices and negotiated rates; a named fraction above a spot, community or
        marketplace quote)."""
        o = Offer.from_record(r)
        spread = price_spread(
            self.catalog, pricing=r.pricing, tier=r.tier, tb=self.tb, negotiated=r.negotiated
        )
        if spread.fraction <= 0:
            return o
        high = spread.high(o.usd_per_gpu_hour)
        return replace(o, usd_per_gpu_hour_high=high, price_spread_name=spread.name)

    def _undominated(self, offers: list[Offer]) -> list[Offer]:
        """Drop offers a cheaper one of the same kind dominates: same pricing, tier class, managed,
        cloud, EU flag, node sizes and fabric give the same fit, time and risk, so only the price
        differs. Preferred and shortlisted providers are always kept."""
        keep_names = (*self.p.providers_preferred, *self.p.providers_required, *self.s.compare_providers)
        area = asked_area(self.p)  # a listed region is not dominated by a cheaper 'region not listed' one
        best: dict[tuple[Any, ...], Offer] = {}
        kept: list[Offer] = []
        for o in offers:
            if provider_matches(o.provider, keep_names):
                kept.append(o)
                continue
            key = (
                o.pricing,
                o.tier.lower() in COMMUNITY_TIERS,
                o.managed,
                o.cloud,
                o.eu,
                region_standing(o.region, o.eu, o.areas, area) if area else None,
                o.gpus_per_node,
                o.scale_out,
                o.deployment,
                o.commitment_months,
            )
            if key not in best or o.usd_per_gpu_hour_mid < best[key].usd_per_gpu_hour_mid:
                best[key] = o
        return kept + list(best.values())

    def _reserved_plausible(self, o: Offer) -> bool:
        """Reserved capacity only when the stated horizon (or a reserved term asked about) covers the
        commitment and use is sustained, or when the user rules out both on-demand and spot ("reserved
        only")."""
        if o.pricing != "reserved" or {"on_demand", "spot"} <= set(self.p.pricing_excluded):
            return True
        horizon_stated = self.p.status_of("horizon_months") in ("stated", "inferred")
        util = self.p.utilization
        term = o.commitment_months or 1.0
        long_enough = horizon_stated and (self.p.horizon_months or 0) >= term
        # "and with a year paid up front?": a term asked about is one the user would commit to (review 20)
        long_enough = long_enough or (self.p.reserved_months_asked or 0) >= term
        return bool(long_enough and util and util >= RESERVED_UTILIZATION_MIN)

    def owned_offers(self, gpu: GpuSpec) -> list[Offer]:
        """Owned (on-premises) and colocated hardware at an amortised $/GPU-hour, when plausible."""
        p = self.p
        if gpu.purchase_price_usd is None:
            return []
        # Buying is considered on the user's own figures only, never on assumed defaults.
        known = {"stated", "inferred", None}
        util = p.utilization if p.status_of("utilization") in known else None
        horizon = (p.horizon_months or 0.0) if p.status_of("horizon_months") in known else 0.0
        # one utilisation for the amortised rate and the hours a serving month bills (issue 16); buying
        # is weighed whenever the stated horizon is a year or more (the utilisation then stated or named)
        util = owned_utilization(p, self.inference)
        plausible = util >= OWNED_UTILIZATION_MIN and horizon >= OWNED_HORIZON_MONTHS_MIN
        if p.deployment_preference != "on_prem" and not plausible:
            return []
        out: list[Offer] = []
        kinds: tuple[str, ...] = (
            ("owned",) if p.deployment_preference == "on_prem" or not plausible else ("owned", "colocation")
        )
        if p.colocation:  # "we have no data centre, we'd need colocation": bought hardware is colocated
            kinds = ("colocation",)
        for kind in kinds:
            rate = owned_rate(
                self.catalog,
                gpu,
                utilization=util,
                horizon_months=horizon or OWNED_HORIZON_MONTHS_MIN,
                colocation=kind == "colocation",
                power_usd_per_kwh=p.power_price_usd_per_kwh,
                amortization_months=owned_amortization_months(self.catalog, p),
            )
            if rate is None:
                continue
            self.tb.extend(rate, prefix=f"{kind} {gpu.id}: ")
            per_node = owned_node_sizes(gpu)
            out.append(
                Offer(
                    provider="your data centre" if kind == "owned" else "colocation",
                    gpu_id=gpu.id,
                    pricing="owned",
                    usd_per_gpu_hour=float(rate.usd_per_gpu_hour),
                    deployment="owned" if kind == "owned" else "colocation",
                    tier=kind,
                    gpus_per_node=per_node,
                    scale_out=owned_fabric(gpu),
                    eu=True,
                    as_of=gpu.as_of,
                    source=gpu.purchase_price_source or gpu.source,
                )
            )
        return out

    def offers_kept(
        self, gpu: GpuSpec, notes: GpuNotes, records: Sequence[PriceRecord], tb: TraceBuilder
    ) -> list[Offer]:
        """`offers_for` through the caches: offers depend on the catalog, the GPU, the constraints
        (excluded, preferred and required providers, excluded pricing, EU only, deployment preference),
        the stated utilisation and horizon (owned hardware, reserved capacity) and the settings that
        filter offers, so runs that
        share these share one list. The notes offers_for sets and the trace it records are kept with
        it and given to `notes` and `tb` on every use, as if offers_for had run."""
        p, s = self.p, self.s
        key = (
            id(self.catalog),
            gpu.id,
            tuple(p.providers_excluded),
            tuple(p.providers_preferred),
            tuple(p.providers_required),
            tuple(p.pricing_excluded),
            p.eu_only,
            p.us_only,
            p.deployment_preference,
            p.colocation,
            p.utilization,
            p.status_of("utilization"),
            p.horizon_months,
            p.status_of("horizon_months"),
            p.ops_capacity,
            p.owned_gpu,
            p.owned_gpu_count,
            p.owned_reserved,
            p.power_price_usd_per_kwh,
            self.inference,
            tuple(s.compare_providers),
            s.on_demand_only,
        )
        got = self.caches.offers.get(key)
        if got is None or got[0] is not self.catalog:
            made, main = TraceBuilder(), self.tb
            self.tb = made
            try:
                offers = self.offers_for(gpu, notes, records)
            finally:
                self.tb = main
            got = self.caches.offers[key] = (self.catalog, tuple(offers), replace(notes), made)
        _catalog, kept, kept_notes, kept_trace = got
        vars(notes).update(vars(kept_notes))
        tb.extend(kept_trace)
        return list(kept)


_DROP_REASONS = ("EU-only", "US-only", "excluded-provider", "required-provider", "excluded-pricing")
"""The constraints that remove price records, as the note on a GPU type left without offers names them."""
PREEMPTIBLE_TIERS = ("spot", "interruptible")
"""Tiers whose capacity can be taken back: ruled out with spot pricing whatever their pricing field says."""


def pricing_ruled_out(pricing: str, tier: str, excluded: Sequence[str]) -> bool:
    """Whether a price record's pricing is one the user ruled out ('no spot' also rules out
    interruptible tiers)."""
    return pricing in excluded or ("spot" in excluded and tier.lower() in PREEMPTIBLE_TIERS)


def _unlisted(r: PriceRecord) -> bool:
    """A provider's record with no published place: no region, not EU, no sourced region list (a worked
    example's quote is no provider)."""
    return not r.eu and r.region is None and not r.areas and not r.reference_only


def _chosen_unlisted(r: PriceRecord, required: Sequence[str], p: WorkloadProfile) -> bool:
    """Whether a record with no published place is kept under EU or US only because the user requires its
    provider ("We only use Spheron, US regions only"): their choice, shown marked "region not listed" with
    a request to confirm the location (regions.region_note), not an empty answer."""
    area = asked_area(p)
    return (
        area is not None
        and provider_matches(r.provider, required)
        and region_standing(r.region, r.eu, r.areas, area) == "not_listed"
    )


def _said(p: WorkloadProfile, field: str) -> str:
    """'stated: "<the user's words>"; ' for a constraint's source, or '' without evidence."""
    prov = p.provenance.get(field)
    return f'{prov.status}: "{prov.evidence}"; ' if prov and prov.evidence else ""


def _dropped_note(
    dropped: dict[str, int], excluded: Sequence[str], required: Sequence[str], pricing: Sequence[str]
) -> str:
    """Why a GPU type has no offer left, naming the constraints that removed its records."""
    hit = [name for name, n in dropped.items() if n]
    if hit == ["EU-only"]:
        return (
            "no offer in the EU in the catalog (EU-only data residency: an EU region or a provider's listed "
            "EU data centres)"
        )
    if hit == ["US-only"]:
        return (
            "no offer in the US in the catalog (US regions only: a US region or a provider's listed US data "
            "centres)"
        )
    if hit == ["excluded-provider"]:
        return f"offered only by excluded providers ({', '.join(sorted(excluded))})"
    if hit == ["required-provider"]:
        return f"not offered by the required providers ({', '.join(required)})"
    if hit == ["excluded-pricing"]:
        return f"offered only at excluded pricing ({', '.join(k.replace('_', '-') for k in pricing)})"
    names = hit or ["EU-only", "excluded-provider"]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"no offer left after the {listed} constraints"
