"""The age of a buy option's catalog purchase price, said as a risk (expert review 15, R02: 8x A100 40GB
"to buy" at $10,000 per GPU from 2023-24 press reports led a procurement answer with no word on the price's
age or on the part being an older generation)."""

from __future__ import annotations

import datetime as dt

from tools.defaults import CatalogView
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.purchase import purchase_price

PURCHASE_PRICE_STALE_MONTHS = 12
"""A catalog purchase price older than this is flagged. NVIDIA has brought out a new data-centre generation
about yearly (A100 2020, H100 2022, H200 2024, B200 2025: tools/catalog/gpus.yaml datasheet dates), and a
part's street price moves with each; a year-old figure may be for a part that is no longer sold new. No
NVIDIA end-of-life notice was found to cite (searched 2026-11-28), so only the price's age is judged."""

_DAYS_PER_MONTH = 365.25 / 12


def catalog_date(catalog: CatalogView) -> dt.date | None:
    """The catalog's own date: its newest rental price (a fixed reference, so answers do not change with
    the day they are asked)."""
    dates = [r.as_of for r in catalog.prices]
    return max(dates) if dates else None


def price_age_months(as_of: dt.date, reference: dt.date) -> float:
    """Whole-calendar months from a price's date to the reference date (never negative)."""
    return max(0.0, (reference - as_of).days / _DAYS_PER_MONTH)


def purchase_age_note(c: Candidate, catalog: CatalogView, p: WorkloadProfile) -> str | None:
    """A risk line when a buy is priced from a catalog figure older than PURCHASE_PRICE_STALE_MONTHS (or one
    with no date); None for a price the user stated, or a recent one."""
    price = purchase_price(c, p)
    if price is None or price[1]:
        return None
    gpu = c.gpu
    reference = catalog_date(catalog)
    as_of = gpu.purchase_price_as_of
    if as_of is None:
        return (
            f"purchase price of the {gpu.name} has no date in the catalog: get a current vendor quote, and "
            "check it is still sold new (older generations go out of production)"
        )
    if reference is None:
        return None
    months = price_age_months(as_of, reference)
    if months <= PURCHASE_PRICE_STALE_MONTHS:
        return None
    return (
        f"purchase price of the {gpu.name} dates from {as_of:%b %Y} ({months:.0f} months before the "
        f"catalog's {reference:%b %Y} prices): get a current vendor quote and lead time, and check the part "
        "is still sold new - an older generation may be end of life"
    )
