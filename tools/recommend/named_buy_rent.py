"""Buy versus rent of the set-up the user names ("evaluating buying 4x H100 SXM vs renting ... Which is
cheaper overall?", expert review 13, R02/P02: the timeline was made for a different pick, 8x RTX A6000,
and the named 4x H100 was never costed). The named GPUs (claimed_gpu x claimed_gpu_count) are sized,
timed and priced by the engine's own path (tools.recommend.expectations.price_named) and the same
timeline as the pick's (tools.recommend.buy_rent.buy_vs_rent_for: purchase quote and running cost
against renting those GPUs on demand, reserved and spot) is made for them; this module only chooses the
set-up."""

from __future__ import annotations

from tools.cost_buy import BuyRentTimeline
from tools.defaults import CatalogView
from tools.recommend.buy_rent import buy_vs_rent_for, wanted
from tools.recommend.candidates import Candidate
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import offers_that_run


def named_buy_vs_rent(
    outcome: Outcome, catalog: CatalogView, kept: Candidate | None = None
) -> BuyRentTimeline | None:
    """The buy-vs-rent timeline of the named set-up when buying is weighed (buy_rent.wanted) and those
    GPUs run the work; None otherwise (the pick's own timeline then stands)."""
    p = outcome.engine.p
    if p.claimed_gpu is None or p.claimed_gpu_count is None or p.owned_gpu or not wanted(p):
        return None
    priced = offers_that_run(outcome, catalog, p.claimed_gpu, p.claimed_gpu_count)
    if not priced:
        return None
    rented = min(priced, key=lambda c: c.cost_mid)  # the rental that runs it; its GPUs are the ones bought
    return buy_vs_rent_for(rented, outcome.engine, p, rented, kept)
