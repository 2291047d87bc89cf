"""A price question about capacity the team already rents (expert review 19, R19/P19): "we're spending ~$40k/
month on 8x H100 on-demand at AWS. What would the same capacity cost at Lambda or Nebius, and with a 1-year
reservation?" is answered with each provider's monthly figure (tools/capacity_price.py on the bundled
catalog), with or without a model to size: the question is about the capacity, not a job. Asked whenever the
profile holds the fleet (WorkloadProfile.current_gpu and current_gpu_count, advisor/extract/
rules_current_fleet.py); the turn carries the figures (Turn.capacity) and the reply opens with them. A
fleet said with neither its bill nor a price question ("currently renting 1x L40S") is not priced
elsewhere: nothing was asked about it."""

from __future__ import annotations

import re

from tools.capacity_price import CapacityPrices, capacity_prices
from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.profile import WorkloadProfile

_SAID = ("stated", "inferred")


def capacity_for(profile: WorkloadProfile) -> CapacityPrices | None:
    """The same-capacity prices for the fleet the profile describes, or None without one (or for a GPU or
    count the catalog cannot price)."""
    gpu, n = profile.current_gpu, profile.current_gpu_count
    if gpu is None or n is None:
        return None
    asked = profile.providers_asked or profile.reserved_months_asked
    if profile.current_usd_per_month is None and not asked:
        # "Currently renting 1x L40S on RunPod" with no bill and no price asked: the fleet is context (the
        # rent side of a purchase question, tools.recommend.keep_renting), not a question (review 20, R18)
        return None
    util = profile.utilization if profile.status_of("utilization") in _SAID else None
    required = profile.providers_required
    # "all training must run in our AWS account ... we spend $40k a month on 8x H100 there": the provider
    # the team must stay on is where the fleet runs, and the only one priced unless others are named
    current = profile.current_provider or (required[0] if len(required) == 1 else None)
    try:
        return capacity_prices(
            load_catalog(),
            gpu=gpu,
            n_gpus=n,
            providers=profile.providers_asked or required,
            current_provider=current,
            current_pricing=profile.current_pricing,
            stated_usd_per_month=profile.current_usd_per_month,
            utilization=util,
            reserved_term_months=profile.reserved_months_asked,
            excluded=profile.providers_excluded,
        )
    except (InputError, KeyError, LookupError):
        return None


CAPACITY_Q = re.compile(
    r"\b(?:cost|price|pay|charge|cheaper|save|compare)\w*\b|\b(?:same|equivalent|comparable)\s+capacity\b",
    re.I,
)
"""A question the capacity block answers ('what would the same capacity cost at Lambda or Nebius?')."""

CAPACITY_FIELDS = frozenset(
    {"current_gpu", "current_gpu_count", "current_provider", "current_pricing", "current_usd_per_month",
     "providers_asked", "reserved_months_asked"}
)  # fmt: skip
"""The profile fields the capacity block answers: a turn that changes one of them is shown the block."""
