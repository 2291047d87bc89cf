"""Two GPU types the user asks to choose between without counts ("H100s vs B200s - which is cheaper
overall?"; expert review 14, R04: listed as "a question I could not answer" beside a B200 pick and two
H100 alternatives at other tiers). Answered as both options' cost on the cheapest offer of each that meets
the constraints, with the time (or the serving speed), side by side.

Each side is the engine's own feasible candidate (tools.recommend.rank: sized by tools.memory, timed by
tools.compute, priced from the catalog), so this module only picks and compares: the lowest expected cost
(Candidate.cost_mid) among the GPU type's feasible options that are not spot, meet the deadline at least
at the fast end and hold the serving target. Spot is left out of the lead so the two are compared on the
same kind of capacity (a spot run can be taken back; expert review 14 faulted a cross-tier comparison);
the cheapest spot offer is named beside it when it is lower. Two sides within
tools.recommend.compare_setups.SAME_COST_FRACTION cost about the same."""

from __future__ import annotations

from tools import present
from tools.recommend.candidates import Candidate
from tools.recommend.compare_setups import SAME_COST_FRACTION
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome

COMPARED_TYPES = 2
"""The comparison of two GPU types says which is cheaper."""
MAX_LISTED_TYPES = 4
"""Three or four types set side by side ("H100 vs A100 vs RTX 4090? Just want the numbers"; expert review
16, R15: the pick was an L40S nobody asked about and the H100 was shown only as spot) get one line each on
like terms; a longer list is a shortlist the ranking answers."""


def _eligible(c: Candidate) -> bool:
    """A feasible option that meets the stated limits at least at its favourable end."""
    return c.deadline_status != "misses" and not c.short_of_target


TIE_FRACTION = 0.01
"""Options within 1% of the cheapest cost the same: the same GPU-hours at the same rate on more GPUs (a
compute-bound job's cost does not change with the count), so the one that finishes soonest leads."""


def _cheapest(options: list[Candidate]) -> Candidate | None:
    """The cheapest option that meets the deadline even at its slow end, else the cheapest at all; of
    options tied on cost (TIE_FRACTION), the fastest."""
    sure = [c for c in options if c.deadline_status != "maybe"] or options
    if not sure:
        return None
    low = min(c.cost_mid for c in sure)
    tied = [c for c in sure if c.cost_mid <= low * (1 + TIE_FRACTION)]
    return min(tied, key=lambda c: (c.hours_mid, c.cost_mid))


def _measure(c: Candidate, per_month: bool) -> str:
    """What the option gives besides its cost: a job's hours, or an endpoint's per-user speed."""
    if per_month and c.serving is not None:
        return f"{present.tokens_per_s_range(c.serving.per_user_tokens_per_s)} per user"
    return f"takes {present.hours_range(c.wall_hours, with_days=False)}"


def _side_text(c: Candidate, spot: Candidate | None, per_month: bool) -> str:
    per = " per month" if per_month else ""
    text = (
        f"{c.total_gpus}x {c.gpu.name} at {c.offer.provider} ({c.offer.pricing.replace('_', ' ')}): "
        f"{present.usd_range(c.cost_usd)}{per}, {_measure(c, per_month)}"
    )
    if spot is not None and spot.cost_usd.low < c.cost_usd.low:
        text += f" (spot from {present.usd(spot.cost_usd.low)} at {spot.offer.provider})"
    return text


def _name(outcome: Outcome, gid: str) -> str:
    return next((c.gpu.name for c in outcome.all_feasible if c.gpu.id == gid), gid)


def check_compared_gpu_types(outcome: Outcome) -> ExpectationCheck | None:
    """Which of two GPU types named without counts is cheaper, each on its cheapest eligible offer; None
    unless exactly two types were compared with no counts, or neither has an eligible option."""
    p = outcome.workload.profile
    if p.gpu_counts_compared:
        return None
    if COMPARED_TYPES < len(p.gpus_compared) <= MAX_LISTED_TYPES:
        return _listed_types(outcome)
    if len(p.gpus_compared) != COMPARED_TYPES:
        return None
    per_month = outcome.engine.inference and not outcome.engine.state.batch_job
    sides: list[tuple[str, Candidate | None, Candidate | None]] = []
    for gid in p.gpus_compared:
        mine = [c for c in outcome.all_feasible if c.gpu.id == gid and _eligible(c)]
        lead = _cheapest([c for c in mine if c.offer.pricing != "spot"])
        spot = min((c for c in mine if c.offer.pricing == "spot"), key=lambda c: c.cost_usd.low, default=None)
        name = _name(outcome, gid)
        sides.append((name, lead, spot))
    (name_a, a, spot_a), (name_b, b, spot_b) = sides
    claim = f"which is cheaper: {name_a} or {name_b}"
    if a is None and b is None:
        return None
    if a is None or b is None:
        ok_name, ok, ok_spot = (name_a, a, spot_a) if a is not None else (name_b, b, spot_b)
        out_name = name_b if a is not None else name_a
        assert ok is not None
        text = (
            f"Only {ok_name} meets your constraints: {_side_text(ok, ok_spot, per_month)}; no {out_name} "
            "option does."
        )
        return ExpectationCheck(claim=claim, verdict="holds", explanation=text, asked=True, leads=True)
    basis = "per month" if per_month else "per run"
    both = f"{_side_text(a, spot_a, per_month)}; {_side_text(b, spot_b, per_month)}"
    on = "on the cheapest offer of each that meets your constraints (not spot)"
    if abs(a.cost_mid - b.cost_mid) <= SAME_COST_FRACTION * max(a.cost_mid, b.cost_mid):
        head = f"About the same {basis}, {on}"
    else:
        head = f"{name_a if a.cost_mid < b.cost_mid else name_b} is cheaper {basis}, {on}"
    if not per_month:
        both += f"; {(a if a.hours_mid < b.hours_mid else b).gpu.name} finishes sooner"
    return ExpectationCheck(
        claim=claim, verdict="holds", explanation=f"{head}: {both}.", asked=True, leads=True
    )


def _listed_types(outcome: Outcome) -> ExpectationCheck | None:
    """One like-for-like line per GPU type named (MAX_LISTED_TYPES): each on its cheapest eligible offer,
    not spot, the cheapest named first in the head; None when no type has an eligible option."""
    p = outcome.workload.profile
    per_month = outcome.engine.inference and not outcome.engine.state.batch_job
    lines: list[str] = []
    leads: list[Candidate] = []
    for gid in p.gpus_compared:
        mine = [c for c in outcome.all_feasible if c.gpu.id == gid and _eligible(c)]
        lead = _cheapest([c for c in mine if c.offer.pricing != "spot"])
        spot = min((c for c in mine if c.offer.pricing == "spot"), key=lambda c: c.cost_usd.low, default=None)
        if lead is None:
            lines.append(f"no {_name(outcome, gid)} option meets your constraints")
            continue
        leads.append(lead)
        lines.append(_side_text(lead, spot, per_month))
    if not leads:
        return None
    cheapest = min(leads, key=lambda c: c.cost_mid)
    basis = "per month" if per_month else "per run"
    head = (
        f"{cheapest.gpu.name} is cheapest {basis}, on the cheapest offer of each that meets your "
        "constraints (not spot)"
    )
    names = " vs ".join(p.gpus_compared)
    return ExpectationCheck(
        claim=f"which is cheaper: {names}",
        verdict="holds",
        explanation=f"{head}: " + "; ".join(lines) + ".",
        asked=True,
        leads=True,
    )
