"""Where an offer runs against a request's "US only" / "EU only": known from the price record's region, from
the provider's published region list (the record's `areas`, sourced in tools/catalog/prices.yaml), or not
listed at all (expert review 15, R13; review 16, R10). An offer whose place is not listed is left out under
either rule, and the run's assumptions name its provider and why (expert review 20, R02)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from tools.profile import WorkloadProfile

Standing = Literal["region", "provider", "not_listed", "outside"]
"""region: the record's own region is in the area; provider: the record has no region but the provider's
region list has data centres in the area; not_listed: neither is known; outside: known to be elsewhere."""
AskedArea = Literal["us", "eu"]

US_REGION = re.compile(
    r"^(?:us[-_]|usgov|(?:east|west|central|northcentral|southcentral|westcentral)us\d*$)", re.I
)
"""Region names of the US in the price records: AWS and GCP 'us-east-1', 'us-central1'; Azure 'eastus',
'westus2', 'southcentralus' (the clouds' region lists)."""

_AREA_WORD = {"us": "US", "eu": "EU"}
_ARTICLE = {"us": "a", "eu": "an"}


def outside_us(region: str | None, eu: bool) -> bool:
    """A price record known to be outside the US by its own fields: an EU record, or a region name that is
    not a US one. A record with no region is not known to be outside."""
    if eu:
        return True
    return region is not None and US_REGION.match(region) is None


def standing(region: str | None, eu: bool, areas: Sequence[str], area: AskedArea) -> Standing:
    """How a record (or offer) stands against the asked area: its region first, else its provider's list."""
    if area == "eu":
        if eu:
            return "region"
        if region is not None:
            return "outside"
    else:
        if eu:
            return "outside"
        if region is not None:
            return "region" if US_REGION.match(region) else "outside"
    if not areas:
        return "not_listed"
    return "provider" if area in areas else "outside"


def asked_area(p: WorkloadProfile) -> AskedArea | None:
    """The area a request keeps its offers in: EU only (data residency) before US only; None: any."""
    if p.eu_only:
        return "eu"
    return "us" if p.us_only else None


def allowed(region: str | None, eu: bool, areas: Sequence[str], p: WorkloadProfile) -> bool:
    """Whether a price record may serve the request. Under EU only or US only it is kept when its place is
    known to meet the rule: priced in a region of the area, or of a provider whose sourced region list has
    data centres there (RunPod: RO, SE, NL, CZ, FR and US; CoreWeave: Spain and US; Lambda: US;
    tools/catalog/prices.yaml areas): the team launches in one of them, and the option says so and that this
    GPU's stock per location is not listed (region_note). Expert review 19, R12/P12: leaving them out picked
    8x H100 at Nebius for $22,484 a month where RunPod's EU data centres hold the load for about half, and
    ignored "on RunPod (EU data centre)". A provider with no region list stays out under either rule: the
    place is never assumed. Expert review 20, R02: a marketplace with no listed region (spheron spot) was the
    cheapest alternative of a production SLO whose "Hosting shall be in the United States"; a buyer checks
    a residency rule before an offer is shown, as under EU only, and the run's assumptions name the providers
    left out and why (offers.OfferSelector.record_constraints)."""
    area = asked_area(p)
    if area is None:
        return True
    return standing(region, eu, areas, area) in ("region", "provider")


def region_note(
    *, provider: str, region: str | None, eu: bool, areas: Sequence[str], deployment: str, p: WorkloadProfile
) -> str | None:
    """The option's region in words under a US-only or EU-only request (None: no such request, or hardware
    the team places itself)."""
    area = asked_area(p)
    if area is None or deployment in ("owned", "colocation"):
        return None
    word = _AREA_WORD[area]
    s = standing(region, eu, areas, area)
    if s == "region":
        return f"{word} region {region}" if region else f"{word} region"
    if s == "provider":
        return (
            f"{word} data centres on {provider}'s published region list (catalog areas): choose "
            f"{_ARTICLE[area]} {word} location at launch; this GPU's stock per location is not listed"
        )
    return (
        f"region not listed: the catalog has no region list for {provider}; confirm it can host this in "
        f"{_ARTICLE[area]} {word} region"
    )


COMMUNITY_EU_NOTE = (
    "community cloud under EU residency: the host is a third party's machine in one of the provider's EU "
    "locations, not a data-centre partner's; check that your data-processing terms cover such hosts"
)
"""Said of a community-tier offer kept under EU only (RunPod Community Cloud: third parties' machines; Secure
Cloud runs in vetted partners' data centres, docs.runpod.io/hosting/partner-requirements): residency holds by
location, the contract behind the host is the buyer's to check."""


def community_eu_note(tier_is_community: bool, deployment: str, p: WorkloadProfile) -> str | None:
    """COMMUNITY_EU_NOTE for a community or marketplace tier under EU only; None otherwise."""
    if not tier_is_community or asked_area(p) != "eu" or deployment in ("owned", "colocation"):
        return None
    return COMMUNITY_EU_NOTE


def region_known(
    region: str | None, eu: bool, areas: Sequence[str], deployment: str, p: WorkloadProfile
) -> bool:
    """Whether the offer's place is known to meet the asked area (owned and colocated hardware: where the
    team put it)."""
    area = asked_area(p)
    if area is None or deployment in ("owned", "colocation"):
        return True
    return standing(region, eu, areas, area) in ("region", "provider")


def reaches_elsewhere(areas: Sequence[str], deployment: str, p: WorkloadProfile) -> bool:
    """Whether an offer may be placed in the asked place outside the US and the EU (region_asked): its
    provider's sourced region list has data centres outside them (area 'other'), or the team places the
    hardware itself. True when no such place was asked."""
    if p.region_asked is None or deployment in ("owned", "colocation"):
        return True
    return "other" in areas


def elsewhere_note(
    *, provider: str, region: str | None, eu: bool, areas: Sequence[str], deployment: str, p: WorkloadProfile
) -> str | None:
    """The option against a place asked for outside the US and the EU ('hosted in Japan'; expert review
    18, R19, where the place was dropped silently), in words; None when no place was asked or the team
    places the hardware itself. The catalog records US and EU locations only, so the place itself is never
    confirmed: the note says what the provider's region list holds and that the place is to be checked."""
    place = p.region_asked
    if place is None or deployment in ("owned", "colocation"):
        return None
    if region is not None or eu:
        where = "an EU region" if eu else f"region {region}"
        return f"not in {place}: this price is for {where}; ask {provider} for a {place} location"
    if "other" in areas:
        return (
            f"{place}: {provider}'s published region list (catalog areas) has data centres outside the US "
            f"and the EU, but the catalog does not record which or this GPU's stock there: confirm {place} "
            "at launch"
        )
    return (
        f"{place} not confirmed: the catalog lists no data centre outside the US and the EU for {provider}; "
        f"ask whether it can host this in {place}"
    )
