"""Price spread of an offer: how far above its quoted price a floating price may be when the job runs.

Issue 3: each option's cost range comes "from the MFU range and the price spread". A list on-demand or
reserved price is what the run pays (0 spread); a spot, community or marketplace quote is a snapshot or
a floor ("spot H100 from $1.03/h", seed 000), so the cost range's high end uses the quoted price raised
by a named, sourced fraction (catalog estimates `price_spread_*_fraction`, editable in a price file).
The quoted price stays the option's `usd_per_gpu_hour` and the low end of its range.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.defaults import CatalogView
from tools.errors import InputError
from tools.trace import TraceBuilder

SPREAD_SPOT = "price_spread_spot_fraction"
SPREAD_MARKETPLACE = "price_spread_marketplace_fraction"
SPREAD_COMMUNITY = "price_spread_community_fraction"
FIRM_PRICE_SPREAD = 0.0
FIRM_PRICE_SOURCE = (
    "issue 3: a list on-demand or reserved price is the rate the run pays (0% spread); spot, community and "
    "marketplace quotes carry a spread (price_spread_*_fraction)"
)
MARKETPLACE_TIERS = ("marketplace",)
COMMUNITY_TIERS = ("community", "interruptible")

_FALLBACK: dict[str, tuple[float, str]] = {
    SPREAD_SPOT: (0.67, "shared/references/prices.md: spot can rise to on-demand, 1/(1-0.40) = 1.67x"),
    SPREAD_MARKETPLACE: (1.56, "shared/references/prices.md: Vast.ai H100 median $6.15 -> $2.40 in 2 weeks"),
    SPREAD_COMMUNITY: (0.30, "shared/references/prices.md: RunPod H100 community $2.69 vs secure $3.49"),
}
"""Used only when a catalog lacks the estimate (a synthetic or user catalog); the bundled costs.yaml has
all three with sources and dates."""


@dataclass(frozen=True)
class PriceSpread:
    """The spread applied to one (pricing, tier): its fraction and the estimate it came from."""

    fraction: float
    name: str
    """Estimate name, or 'firm' for a list price."""

    def high(self, usd_per_gpu_hour: float) -> float:
        """Top of the price range: quoted x (1 + fraction)."""
        return usd_per_gpu_hour * (1.0 + self.fraction)


FIRM = PriceSpread(FIRM_PRICE_SPREAD, "firm")


def spread_names(pricing: str, tier: str) -> tuple[str, ...]:
    """The spread estimates that apply to a pricing model and product tier (none: a firm price)."""
    t = tier.lower()
    names: list[str] = []
    if pricing in ("reserved", "owned"):  # a committed rate is locked for its term; owned is amortised
        return ()
    if pricing == "spot":
        names.append(SPREAD_SPOT)
    if t in MARKETPLACE_TIERS:
        names.append(SPREAD_MARKETPLACE)
    elif t in COMMUNITY_TIERS:
        names.append(SPREAD_COMMUNITY)
    return tuple(names)


NEGOTIATED_PRICE_SOURCE = (
    "a rate agreed with the provider (negotiated: true; every record of a --prices file unless it says "
    "false) is what the run pays, spot or not: 0% spread"
)


def price_spread(
    catalog: CatalogView, *, pricing: str, tier: str, tb: TraceBuilder, negotiated: bool = False
) -> PriceSpread:
    """The widest spread that applies (a spot price on a marketplace floats like a marketplace price),
    each estimate used recorded as an assumption in `tb`; owned hardware, list prices and negotiated
    rates are firm."""
    if negotiated:
        tb.assume("price spread (negotiated rate)", FIRM_PRICE_SPREAD, "fraction", NEGOTIATED_PRICE_SOURCE)
        return FIRM
    names = spread_names(pricing, tier)
    if not names:
        tb.assume("price spread (list on-demand, reserved)", FIRM_PRICE_SPREAD, "fraction", FIRM_PRICE_SOURCE)
        return FIRM
    best = FIRM
    for name in names:
        try:
            est = catalog.estimate(name)
            value, unit, source = float(est.value), est.unit, f"{est.source} (as of {est.as_of})"
        except (InputError, KeyError, LookupError):
            value, source = _FALLBACK[name]
            unit = "fraction above the quoted price"
        tb.assume(name, value, unit, source)
        if value > best.fraction:
            best = PriceSpread(value, name)
    return best
