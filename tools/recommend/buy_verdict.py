"""The plain answer to a purchase question (WorkloadProfile.buy_asked: "is it worth buying an 8x H100
server?", "would owning be cheaper than renting?"), opening the reply (expert review 19, R13).

The verdict is the buy-vs-rent block's own figures (tools.cost_buy.buy_rent_timeline via
tools.recommend.buy_rent): buying pays off when it is the cheapest basis over the horizon; otherwise it
says what buying and renting on demand cost over the horizon, and when (if ever) buying breaks even
against on-demand. At a quarterly cadence a purchase is idle most of the month, the utilisation the runs
fill (tools.recommend.purchase.purchase_utilization) is what the block was costed at, and the answer is
"No ... never breaks even". A fit check on the cards named in the question ("Yes: on 8x H100 it fits")
answers whether the job runs on them, not whether to buy them: its "Yes" is what a reader takes as "yes,
buy", so under a purchase question it is worded without it (tools.recommend.expectations)."""

from __future__ import annotations

from collections.abc import Sequence

from tools import present
from tools.cost_buy import BuyRentTimeline, RentLine
from tools.profile import WorkloadProfile
from tools.recommend.models import ExpectationCheck

ON_DEMAND = "on-demand"
"""Name prefix of the on-demand rent basis (tools.recommend.buy_rent._rents)."""


def _on_demand(t: BuyRentTimeline) -> RentLine | None:
    return next((ln for ln in t.rents if ln.basis.name.startswith(ON_DEMAND)), None)


def _use(t: BuyRentTimeline, p: WorkloadProfile) -> str:
    """'at 3% use (what your runs fill of the month)' or 'at 30% use'."""
    runs = p.runs_per_month is not None and p.status_of("runs_per_month") in ("stated", "inferred", None)
    pct = present.use(t.utilization)
    return f"at {pct} use (what your runs fill of the month)" if runs else f"at {pct} use"


def _break_even(ln: RentLine, horizon_months: int) -> str:
    if ln.break_even_month is None:
        return "it never breaks even against on-demand (owning costs more a month than renting the hours)"
    if ln.break_even_month > horizon_months:
        return (
            f"it breaks even against on-demand only at month {ln.break_even_month:,.0f}, after the "
            f"{horizon_months}-month horizon"
        )
    return f"it breaks even against on-demand at month {ln.break_even_month:,.0f}"


def buy_verdict(p: WorkloadProfile, t: BuyRentTimeline | None) -> ExpectationCheck | None:
    """The verdict on buying the timeline's GPUs when the user asked whether buying pays off; None when not
    asked, nothing was weighed, or the GPUs are already the team's (nothing to buy)."""
    if not p.buy_asked or t is None or t.owned or not t.buy_cumulative_usd:
        return None
    what = f"{t.n_gpus}x {t.gpu_name}" if t.gpu_name else f"{t.n_gpus} GPUs"
    months = t.horizon_months
    buy_total = t.buy_cumulative_usd[-1]
    od = _on_demand(t)
    cheapest = min(t.rents, key=lambda ln: ln.total_usd, default=None)
    up_front = present.usd(t.purchase_usd)
    totals = f"over {months} months buying costs {present.usd(buy_total)} ({up_front} up front)"
    kept = f"keeping your {t.kept_rental} rented " if t.kept_rental else "renting "
    if od is not None:
        totals += f" against {present.usd(od.total_usd)} {kept}{od.basis.name}"
    tail = f"; {_break_even(od, months)}" if od is not None else ""
    beats_on_demand = od is not None and od.break_even_month is not None and od.break_even_month <= months
    if t.cheapest == "buy":
        text = f"Yes, buying {what} pays off {_use(t, p)}: {totals}{tail}; buying is the cheapest over them."
        verdict = "holds"
    elif beats_on_demand and cheapest is not None:
        # cheaper than on demand, yet a reserved term (or spot) costs less still: not a plain yes or no
        text = (
            f"Buying {what} beats renting on demand {_use(t, p)} but is not the cheapest: {totals}{tail}; "
            f"{cheapest.basis.name} costs {present.usd(cheapest.total_usd)} over the same {months} months."
        )
        verdict = "tight"
    else:
        best = f" Cheapest over the horizon: {cheapest.basis.name}." if cheapest is not None else ""
        if t.kept_rental and cheapest is not None:
            best = (
                f" Renting on is cheaper: {kept}{cheapest.basis.name} costs "
                f"{present.usd(cheapest.total_usd)} over the same {months} months.{_not_needed(t)}"
            )
        text = (
            f"No: buying {what} does not pay off within {months} months {_use(t, p)}: {totals}{tail}.{best}"
        )
        verdict = "cannot_hold"
    factor = buy_total / od.total_usd if od is not None and od.total_usd > 0 else None
    return ExpectationCheck(
        claim=f"buy {what}", verdict=verdict, factor=factor, explanation=text, asked=True, leads=True
    )


def _not_needed(t: BuyRentTimeline) -> str:
    """' Your 1x NVIDIA L40S already runs this work (25.9 GiB per GPU of 44.8 usable): the other 1 GPU bought
    would not be needed.' when the rental kept has fewer GPUs than the purchase; else ''."""
    n = t.kept_n_gpus
    if n is None or n >= t.n_gpus or t.kept_peak_gib_per_gpu is None or t.kept_usable_gib_per_gpu is None:
        return ""
    extra = t.n_gpus - n
    return (
        f" Your {t.kept_rental} already runs this work ({t.kept_peak_gib_per_gpu:.1f} GiB per GPU of "
        f"{t.kept_usable_gib_per_gpu:.1f} usable): the other {extra} GPU{'s' if extra > 1 else ''} bought "
        "would not be needed."
    )


def fit_opener(tight: bool, buy_asked: bool) -> str:
    """The words before '{n}x {gpu} it fits' in a fit check on named cards: 'Yes: on', 'Yes, with tight
    memory: on'; under a purchase question no "Yes" ('On', 'With tight memory, on'): its answer is
    buy_verdict's (module docstring)."""
    if buy_asked:
        return "With tight memory, on" if tight else "On"
    return "Yes, with tight memory: on" if tight else "Yes: on"


def with_buy_verdict(
    checks: Sequence[ExpectationCheck], p: WorkloadProfile, t: BuyRentTimeline | None
) -> list[ExpectationCheck]:
    """`checks` with the purchase verdict first, when asked (buy_verdict)."""
    verdict = buy_verdict(p, t)
    return [verdict, *checks] if verdict is not None else list(checks)
