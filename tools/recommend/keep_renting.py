"""What the team rents now, as the rent side of a purchase question (expert review 20, R18: "Currently
renting 1x L40S on RunPod" then "Would buying a server with 2 L40S be cheaper over 3 years than keeping
renting?" was weighed against renting 2x L40S, $57,290 over 36 months, where keeping the one L40S costs
$28,656 on demand and $11,879 reserved: buying looked $24k cheaper and was $4-21k dearer).

"Keeping renting" is the set-up said (WorkloadProfile.current_gpu x current_gpu_count), sized and priced on
the engine's own path (tools.recommend.price_named); when it runs the work and differs from the GPUs bought,
the buy-vs-rent timeline's rent lines are its rates moved onto the bought GPUs by the GPUs (serving) or
GPU-hours (jobs) each needs (tools.recommend.buy_rent.buy_vs_rent_for, `kept`), so every total is what
keeping the current rental costs over the horizon. A set-up that cannot run the work (too little memory, or
short of a stated target) is no rent side: the purchase is then weighed against renting the GPUs bought."""

from __future__ import annotations

from tools.defaults import CatalogView
from tools.recommend.candidates import Candidate, provider_matches
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import offers_that_run
from tools.recommend.risk import COMMUNITY_TIERS


def current_rental(outcome: Outcome, catalog: CatalogView) -> Candidate | None:
    """The set-up the team rents now, priced on demand where it runs the work (at its provider when said,
    an established tier first); None without a purchase question, a fleet said, or a set-up that runs it."""
    p = outcome.engine.p
    if not p.buy_asked or p.current_gpu is None or p.current_gpu_count is None or p.owned_gpu:
        return None
    runs = offers_that_run(outcome, catalog, p.current_gpu, p.current_gpu_count)
    if not runs:
        return None
    now = [p.current_provider] if p.current_provider else []
    here = [c for c in runs if now and provider_matches(c.offer.provider, now)]

    def key(c: Candidate) -> tuple[bool, float]:
        return (c.offer.tier.lower() in COMMUNITY_TIERS, c.cost_mid)

    return min(here or runs, key=key)
