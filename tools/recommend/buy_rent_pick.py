"""Purchase or rental as the pick, ranked on the buy-vs-rent block's own figures: the total cost over the
answer's one horizon (tools.recommend.owned.answer_horizon_months) at the utilisation the runs imply
(tools.recommend.purchase.purchase_utilization). A purchase the user asked about ('what if we bought our own
16 H100s instead of renting?', WorkloadProfile.buy_what_if) or one the engine ranked first among rentals stays
the pick only while buying costs less over the horizon than renting the same GPUs on demand; otherwise the
best rental is the pick and the purchase is shown below it, and both say why in the block's figures (expert
review 18, R17: 4 runs a year, 3% use, "breaks even at never", yet the purchase was the pick).

A wish or rule to own (deployment_preference on_prem without buy_what_if: "we'd rather buy than rent",
"nothing may leave our data centre") keeps the purchase first: the block then says what renting would cost."""

from __future__ import annotations

from tools import present
from tools.cost_buy import BuyRentTimeline, RentLine
from tools.defaults import CatalogView
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.outcome import Outcome
from tools.recommend.owned_first import is_yours
from tools.recommend.price_named import price_named
from tools.recommend.risk import COMMUNITY_TIERS

ON_DEMAND = "on-demand"
"""The rent basis a purchase is ranked against: no commitment, like the rental that replaces it."""


def rent_wins(
    primary: Candidate | None, timeline: BuyRentTimeline | None, p: WorkloadProfile
) -> RentLine | None:
    """The on-demand rent line that costs less over the horizon than buying the pick's GPUs, when the pick is
    a purchase the user did not require and the block is about those GPUs; else None. GPUs nobody rents
    (BuyRentTimeline.rented_instead) are weighed against the rental that does the same work: a what-if
    purchase of 8 RTX 5090s that renting 8 B200s beats gives way too (expert review 18, R17 with no count)."""
    if primary is None or timeline is None or timeline.owned:
        return None
    if primary.offer.deployment not in ("owned", "colocation") or is_yours(primary):
        return None
    if timeline.gpu_name != primary.gpu.name or timeline.n_gpus != primary.total_gpus:
        return None
    if p.deployment_preference == "on_prem" and not p.buy_what_if:
        return None
    od = next((ln for ln in timeline.rents if ln.basis.name.startswith(ON_DEMAND)), None)
    if od is None or od.total_usd >= timeline.buy_cumulative_usd[-1]:
        return None
    return od


def same_gpus_rented(
    bought: Candidate, run: Outcome, catalog: CatalogView
) -> tuple[Candidate, Outcome] | None:
    """The rental that replaces a purchase: the same GPUs and count rented on demand at an established tier
    (the block's rent side), the cheapest; priced at that count when the run's ranking kept other counts
    (tools.recommend.price_named); else the run's best rental that is not spot."""

    def same(cands: list[Candidate]) -> list[Candidate]:
        return [
            c
            for c in cands
            if c.gpu.id == bought.gpu.id
            and c.total_gpus == bought.total_gpus
            and c.offer.deployment not in ("owned", "colocation")
            and c.offer.pricing == "on_demand"
            and c.offer.tier.lower() not in COMMUNITY_TIERS
        ]

    found = same(list(run.ranked)) or same(price_named(run, catalog, bought.gpu, bought.total_gpus))
    if found:
        return min(found, key=lambda c: c.cost_usd.mid), run
    rented = (c for c in run.ranked if c.offer.deployment not in ("owned", "colocation"))
    best = next((c for c in rented if c.offer.pricing != "spot"), None)
    return (best, run) if best is not None else None


def _use_said(timeline: BuyRentTimeline, p: WorkloadProfile) -> str:
    known = ("stated", "inferred", None)
    if p.runs_per_month is not None and p.status_of("runs_per_month") in known:
        return f"{present.use(timeline.utilization)} use (what your runs fill)"
    if p.utilization is not None and p.status_of("utilization") in known:
        return f"{present.use(timeline.utilization)} use"
    return f"{present.use(timeline.utilization)} use (assumed: say how often you run it)"


def _pays_off(line: RentLine, horizon_months: int) -> str:
    if line.break_even_month is None:
        return "buying never pays off at this use"
    month = f"{line.break_even_month:,.0f}"
    return f"buying pays off only at month {month}, after the {horizon_months}-month horizon"


def rent_pick_line(line: RentLine, timeline: BuyRentTimeline, p: WorkloadProfile) -> str:
    """The rental pick's reason, in the block's figures."""
    gpus = f"{timeline.n_gpus}x {timeline.gpu_name}"
    rent, buy = present.usd(line.total_usd), present.usd(timeline.buy_cumulative_usd[-1])
    pays = _pays_off(line, timeline.horizon_months)
    rented = (
        f"{timeline.rented_instead} (no one rents {gpus}) for the same work"
        if timeline.rented_instead
        else gpus
    )
    bought = gpus if timeline.rented_instead else "them"
    return (
        f"rent, not buy: over {timeline.horizon_months} months at {_use_said(timeline, p)}, renting {rented} "
        f"on demand costs {rent} against {buy} to buy and run {bought}; {pays}"
    )


def bought_line(line: RentLine, timeline: BuyRentTimeline) -> str:
    """The purchase's reason for standing below the rental, in the same figures."""
    instead = f" {timeline.rented_instead} for the same work" if timeline.rented_instead else ""
    return (
        f"to buy, if you still want to own them: {present.usd(timeline.buy_cumulative_usd[-1])} over "
        f"{timeline.horizon_months} months against {present.usd(line.total_usd)} renting{instead} on demand"
    )
