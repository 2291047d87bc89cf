"""What renting buys within a stated budget when the pick runs on the team's own GPUs (expert review 13, R19:
"How long would that take on our cards, and would renting be meaningfully faster for under $500?" after an
owned-hardware answer got the previous reply word for word, the $500 'understood' and never compared).

A budget stated beside owned GPUs that already run the job is a budget for renting: the line names the
fastest rental within it (its whole cost range under the budget) and, when faster, the fastest that fits only
at the low end of its cost range, each with its wall-clock and cost against the owned run and how many times
faster it is (the ratio of the middles of the wall-clock ranges; 'meaningfully' is
tools.recommend.buyer_rules.MEANINGFUL_SPEEDUP, the rule behind 'fastest')."""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.buyer_rules import MEANINGFUL_SPEEDUP
from tools.recommend.candidates import Candidate
from tools.recommend.outcome import Outcome
from tools.recommend.owned_first import is_yours


def _rented(c: Candidate) -> bool:
    return not is_yours(c) and c.offer.deployment not in ("owned", "colocation")


def _line(c: Candidate, owned: Candidate) -> str:
    """'8x NVIDIA B200 at lambda-cluster, 6.6 - 15 h, $353 - $801: about 21x faster than your 2x ... (161 -
    301 h)' (speed-up: owned wall-clock mid / rental wall-clock mid)."""
    speedup = owned.hours_mid / c.hours_mid if c.hours_mid > 0 else 0.0
    faster = (
        f"about {present.number(round(speedup))}x faster than"
        if speedup >= MEANINGFUL_SPEEDUP
        else "not meaningfully faster than"
    )
    return (
        f"{c.total_gpus}x {c.gpu.name} at {c.offer.provider} ({c.offer.pricing.replace('_', ' ')}), "
        f"{present.hours_range(c.wall_hours, with_days=False)}, {present.usd_range(c.cost_usd)}: "
        f"{faster} your "
        f"{owned.total_gpus}x {owned.gpu.name} ({present.hours_range(owned.wall_hours, with_days=False)}, "
        f"{present.usd_range(owned.cost_usd)})"
    )


def rent_within_budget_note(out: Outcome, p: WorkloadProfile, inference: bool) -> str | None:
    """The renting-within-budget line, or None when the pick is not on the team's own GPUs, no budget was
    said, or it is serving (a monthly budget there is the endpoint's, not a one-off rental's)."""
    owned = out.primary
    said = p.status_of("budget_usd") in ("stated", "inferred")
    if owned is None or not is_yours(owned) or inference or not p.budget_usd or not said:
        return None
    budget = present.usd(p.budget_usd)
    rentals = [c for c in out.all_feasible if _rented(c)]
    if not rentals:
        return None
    order = lambda c: (c.hours_mid, c.cost_mid, c.key)  # noqa: E731 - fastest, then cheapest
    sure = min((c for c in rentals if c.budget_status == "meets"), key=order, default=None)
    maybe = min((c for c in rentals if c.budget_status == "maybe"), key=order, default=None)
    parts = []
    if sure is not None:
        parts.append(f"Renting within {budget}: {_line(sure, owned)}; within the budget.")
    if maybe is not None and (sure is None or maybe.hours_mid * MEANINGFUL_SPEEDUP <= sure.hours_mid):
        lead = "Faster" if sure is not None else f"Renting for under {budget}"
        parts.append(
            f"{lead}: {_line(maybe, owned)}; within {budget} only at the low end of its cost range"
            + ("." if sure is not None else f"; no rental is sure to stay under {budget}.")
        )
    if not parts:
        cheapest = min(rentals, key=lambda c: (c.cost_mid, c.hours_mid, c.key))
        parts.append(f"No rental fits {budget}: the cheapest is {_line(cheapest, owned)}.")
    return " ".join(parts)
