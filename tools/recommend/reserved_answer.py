"""The answer to a reserved-term question on the work sized (WorkloadProfile.reserved_months_asked: "how
does that compare with paying for a year up front?", "and with a 1-year reserved commitment?", "what if we
prepay annually?"; expert review 20, R07/P07: a finance question got the on-demand month and a buy-vs-rent
block, never the reserved-year amount, and P07 listed the question as one it could not answer).

For an endpoint kept up (serving, not a batch job) the answer is, each figure a trace step:

    pick reserved usd_per_month = n_gpus x reserved usd_per_gpu_hour x 730 h (a term bills every hour)
    usd_for_the_term           = usd_per_month x term months
    pick on demand             = n_gpus x on-demand usd_per_gpu_hour x 730 h, and over the same months

The pick's reserved rate is its provider's record for that term, else its on-demand rate x (1 -
reserved_<term>_discount_fraction), the catalog estimate the buy-vs-rent block uses (tools.recommend.
buy_rent.TERMS). The cheapest ranked option of the same work on a record of that term is named beside it,
as it is what a year paid up front buys at the lowest price. None for a training job (a term outlives it)
or a term with neither a record nor an estimate.

A set-up the question names ("Should we sign a 3-year reservation for 8x H100 or stay on demand?";
WorkloadProfile.claimed_gpu x claimed_gpu_count, advisor/extract/rules_reserved_question.py) is priced
first, the same way, at its cheapest established on-demand offer (tools.recommend.price_named, as the
named set-up's check quotes it), and when the fewest of that GPU that hold the load (the ranked options')
are at most half the count named, the answer says the set-up is far more than the load needs (expert
review 20 follow-up: the pick's reservation was priced and the 8x H100 named was not)."""

from __future__ import annotations

from tools import present
from tools.errors import InputError
from tools.recommend.buy_rent import TERMS
from tools.recommend.candidates import Candidate
from tools.recommend.engine import Engine
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import price_named
from tools.recommend.risk import COMMUNITY_TIERS
from tools.units import HOURS_PER_MONTH

CLAIM = "reserved"
"""Claim prefix of the check (advisor.extract.question_answers counts the question answered by it)."""
FAR_MORE_FACTOR = 2
"""A named count at least this many times the fewest that hold the load is 'far more than the load needs'."""


def _rate(c: Candidate, eng: Engine, months: float, prefix: str = "") -> tuple[float, str] | None:
    """The pick's reserved rate for the term and where it comes from, or None."""
    if c.offer.pricing == "reserved" and c.offer.commitment_months == months:
        return c.offer.usd_per_gpu_hour, f"{c.offer.provider}'s {present.term(months)} price"
    records = [
        r
        for r in eng.catalog.prices_for(c.gpu.id)
        if r.provider == c.offer.provider and r.pricing == "reserved" and r.commitment_months == months
    ]
    if records:
        r = min(records, key=lambda r: r.usd_per_gpu_hour)
        return r.usd_per_gpu_hour, f"{r.provider}'s {present.term(months)} price"
    estimate = next((e for m, _n, e in TERMS if m == months), None)
    if estimate is None or c.offer.pricing != "on_demand":
        return None
    try:
        d = eng.catalog.estimate(estimate)
    except (InputError, KeyError, LookupError):
        return None
    eng.tb.assume(estimate, d.value, "fraction below on-demand", f"{d.source} (as of {d.as_of})")
    rate = eng.tb.step(
        f"reserved_answer_{prefix}usd_per_gpu_hour",
        "on-demand usd_per_gpu_hour x (1 - reserved discount fraction)",
        c.offer.usd_per_gpu_hour * (1 - d.value),
        "USD/GPU-hour",
        source=estimate,
        on_demand_usd_per_gpu_hour=c.offer.usd_per_gpu_hour,
        discount_fraction=d.value,
    )
    return rate, f"est. {d.value:.0%} off on-demand"


def _month(eng: Engine, name: str, c: Candidate, rate: float) -> float:
    return eng.tb.step(
        name,
        "n_gpus x usd_per_gpu_hour x 730 h (the endpoint kept up all month)",
        c.total_gpus * rate * HOURS_PER_MONTH,
        "USD/month",
        n_gpus=c.total_gpus,
        usd_per_gpu_hour=rate,
        hours_per_month=HOURS_PER_MONTH,
    )


def _term(eng: Engine, name: str, usd_per_month: float, months: float) -> float:
    return eng.tb.step(name, "usd_per_month x term months", usd_per_month * months, "USD",
                       usd_per_month=usd_per_month, months=months)  # fmt: skip


def _named(out: Outcome, months: float) -> str | None:
    """The set-up the question names, reserved for the term against on demand, and how it compares with the
    load (module docstring); None when none is named, it is the pick's, or it cannot be priced."""
    eng, pick = out.engine, out.primary
    p = eng.p
    if p.claimed_gpu is None or p.claimed_gpu_count is None or pick is None:
        return None
    n = p.claimed_gpu_count
    if pick.gpu.id == p.claimed_gpu and pick.total_gpus == n:
        return None  # the pick is the set-up named: its own figures follow
    try:
        gpu = eng.catalog.gpu(p.claimed_gpu)
    except (InputError, KeyError, LookupError):
        return None
    priced = [c for c in price_named(out, eng.catalog, gpu, n) if c.serving is not None]
    firm = [c for c in priced if c.offer.tier.lower() not in COMMUNITY_TIERS] or priced
    c = min(firm, key=lambda c: c.cost_usd.mid, default=None)
    if c is None:
        return None
    got = _rate(c, eng, months, "named_")
    if got is None:
        return None
    rate, basis = got
    per_month = _month(eng, "reserved_answer_named_usd_per_month", c, rate)
    whole = _term(eng, "reserved_answer_named_usd_for_term", per_month, months)
    od = _month(eng, "reserved_answer_named_on_demand_usd_per_month", c, c.offer.usd_per_gpu_hour)
    od_whole = _term(eng, "reserved_answer_named_on_demand_usd_for_term", od, months)
    text = (
        f"Reserved {present.term(months)} for the {n}x {gpu.name} you named: {present.usd(per_month)} a "
        f"month at {c.offer.provider} ({basis}), {present.usd(whole)} for the {present.months(months)}, "
        f"against {present.usd(od)} a month ({present.usd(od_whole)}) on demand"
    )
    holding = [
        x.total_gpus
        for x in out.all_feasible
        if x.gpu.id == gpu.id and x.serving is not None and not x.short_of_target and not x.misses
    ]
    fewest = min(holding, default=None)
    if fewest is not None and fewest * FAR_MORE_FACTOR <= n:
        text += (
            f". {n}x {gpu.name} is far more than this load needs: {fewest}x {gpu.name} "
            f"{'holds' if fewest == 1 else 'hold'} it, and the pick below is sized to it"
        )
    return text + "."


def reserved_answer(out: Outcome) -> ExpectationCheck | None:
    """The reserved-term figures of the set-up named, the pick and the cheapest reserved option (module
    docstring)."""
    eng, c = out.engine, out.primary
    months = eng.p.reserved_months_asked
    if c is None or not months or not eng.inference or eng.state.batch_job:
        return None
    named = _named(out, months)
    got = _rate(c, eng, months)
    if got is None:
        return None
    rate, basis = got
    term = present.term(months)
    per_month = _month(eng, "reserved_answer_pick_usd_per_month", c, rate)
    whole = _term(eng, "reserved_answer_pick_usd_for_term", per_month, months)
    what = f"{c.total_gpus}x {c.gpu.name} at {c.offer.provider}"
    text = (
        f"Reserved {term}: {'the pick, ' if named else ''}{what} costs {present.usd(per_month)} a month "
        f"({basis}), {present.usd(whole)} for the {present.months(months)}"
    )
    if c.offer.pricing == "on_demand":
        od = _month(eng, "reserved_answer_on_demand_usd_per_month", c, c.offer.usd_per_gpu_hour)
        od_whole = _term(eng, "reserved_answer_on_demand_usd_for_term", od, months)
        text += f", against {present.usd(od)} a month ({present.usd(od_whole)}) on demand"
    reserved = [
        r
        for r in out.ranked
        if r.offer.pricing == "reserved" and r.offer.commitment_months == months and not r.short_of_target
    ]
    best = min(reserved, key=lambda r: r.total_gpus * r.offer.usd_per_gpu_hour, default=None)
    if best is not None and best.key != c.key:
        b_month = _month(eng, "reserved_answer_cheapest_usd_per_month", best, best.offer.usd_per_gpu_hour)
        if b_month < per_month:
            b_whole = _term(eng, "reserved_answer_cheapest_usd_for_term", b_month, months)
            text += (
                f". The cheapest {term} reserved option for the same work: {best.total_gpus}x "
                f"{best.gpu.name} at {best.offer.provider}, {present.usd(b_month)} a month, "
                f"{present.usd(b_whole)} for the {present.months(months)}"
            )
    text = f"{named} {text}" if named else text
    return ExpectationCheck(
        claim=f"{CLAIM} {term}", verdict="holds", explanation=text + ".", asked=True, leads=True
    )
