"""Buy versus rent for the pick's configuration (issue 16): evaluated whenever the stated horizon is a
year or more, the user wants on-premises hardware or owns GPUs. The same GPUs bought (purchase quote,
running cost at the one owned utilisation) against renting them on demand, on 1- and 3-year reserved
terms and on spot, month by month with the break-even month (tools.cost_buy.buy_rent_timeline).
When the pick runs on the GPUs the team already owns, nothing is bought: their marginal running cost
(power x PUE, staff; tools.cost_buy.owned_marginal_usd_per_gpu_hour) against renting the same GPUs.
When the GPU bought is offered by no one for rent (Intel Gaudi 3 in the catalog), the rent lines are
the best-ranked rented option (another GPU) doing the same work, its rates moved onto the bought GPUs
by the GPU-hours each needs (serving: the GPUs each needs for the stated load), and the timeline names
that set-up (`rented_instead`); buy vs rent is still answered, never dropped for want of a price.

Rates: the cheapest on-demand and spot record of the GPU at an established tier (community and
marketplace quotes are floors, not rates); reserved: the cheapest record of that term, else on-demand x
(1 - reserved_<term>_discount_fraction), a named catalog estimate."""

from __future__ import annotations

from tools.catalog.schema import PriceRecord
from tools.cost_buy import BuyRentTimeline, RentBasis, buy_rent_timeline
from tools.cost_owned import owned_usd_per_gpu_hour
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.engine import Engine
from tools.recommend.owned import DEFAULT_HORIZON_MONTHS as DEFAULT_HORIZON_MONTHS
from tools.recommend.owned import OWNED_HORIZON_MONTHS_MIN, answer_horizon_months, owned_utilization
from tools.recommend.owned_first import is_yours, power_price
from tools.recommend.purchase import purchase_price, purchase_utilization, quote_for
from tools.recommend.risk import COMMUNITY_TIERS
from tools.recommend.score import unmeasured
from tools.units import HOURS_PER_MONTH

TERMS = (
    (12.0, "reserved 1 year", "reserved_1y_discount_fraction"),
    (36.0, "reserved 3 years", "reserved_3y_discount_fraction"),
)


def wanted(p: WorkloadProfile) -> bool:
    """Buy vs rent is evaluated: a stated horizon of a year or more, an on-premises wish, owned GPUs, or a
    purchase question over any horizon ('is it worth buying?', WorkloadProfile.buy_asked)."""
    if p.owned_reserved and p.deployment_preference != "on_prem":
        return False  # reserved cloud capacity: nothing to buy, its fee is already committed
    if p.buy_asked:
        return True
    said = p.status_of("horizon_months") in ("stated", "inferred", None)
    horizon = (p.horizon_months or 0.0) if said else 0.0
    return horizon >= OWNED_HORIZON_MONTHS_MIN or p.deployment_preference == "on_prem" or bool(p.owned_gpu)


def one_off_rental(c: Candidate, p: WorkloadProfile, inference: bool) -> bool:
    """A one-off training job rented because the team's own GPUs cannot run it: no purchase is weighed
    unless buying was asked (a horizon said, 'buy or rent?', an on-premises wish) or runs recur (runs per
    month said). Owning GPUs makes the own-vs-rent timeline relevant, not a multi-year purchase of the rented
    set-up (expert review 13, R07: a 10-22 h QLoRA job got a 36-month block, 'cheapest over the horizon:
    reserved 1 year')."""
    if inference or is_yours(c) or p.deployment_preference == "on_prem" or p.buy_asked:
        return False
    # no provenance (a profile built in code, as wanted() reads it) counts as said
    said = p.status_of("horizon_months") in ("stated", "inferred", None) and bool(p.horizon_months)
    runs_said = p.status_of("runs_per_month") in ("stated", "inferred", None)
    recurring = runs_said and (p.runs_per_month or 0.0) > 1.0
    return not said and not recurring


def firm_on_demand(c: Candidate, eng: Engine) -> PriceRecord | None:
    """The on-demand rate a purchase of c's GPUs is weighed against: the cheapest record at an established
    tier (community and marketplace quotes are floors, not rates; a managed service is another product)."""
    records = [r for r in eng.catalog.prices_for(c.gpu.id) if not r.reference_only]
    firm = [r for r in records if r.tier.lower() not in COMMUNITY_TIERS and not r.managed]
    return min((r for r in firm if r.pricing == "on_demand"), key=lambda r: r.usd_per_gpu_hour, default=None)


def _rents(c: Candidate, eng: Engine) -> list[RentBasis]:
    records = [r for r in eng.catalog.prices_for(c.gpu.id) if not r.reference_only]
    out: list[RentBasis] = []
    od = firm_on_demand(c, eng)
    if od is not None:
        out.append(
            RentBasis(
                name=f"on-demand ({od.provider})",
                usd_per_gpu_hour=od.usd_per_gpu_hour,
                source=f"{od.source} (as of {od.as_of})",
            )
        )
    for months, name, estimate in TERMS:
        rec = min(
            (r for r in records if r.pricing == "reserved" and r.commitment_months == months),
            key=lambda r: r.usd_per_gpu_hour,
            default=None,
        )
        if rec is not None:
            out.append(
                RentBasis(
                    name=f"{name} ({rec.provider})",
                    usd_per_gpu_hour=rec.usd_per_gpu_hour,
                    commitment=True,
                    term_months=months,
                    source=f"{rec.source} (as of {rec.as_of})",
                )
            )
        elif od is not None:
            try:
                d = eng.catalog.estimate(estimate)
            except (InputError, KeyError, LookupError):
                continue
            eng.tb.assume(estimate, d.value, "fraction below on-demand", f"{d.source} (as of {d.as_of})")
            out.append(
                RentBasis(
                    name=f"{name} (est. {d.value:.0%} off on-demand)",
                    usd_per_gpu_hour=od.usd_per_gpu_hour * (1 - d.value),
                    commitment=True,
                    term_months=months,
                    source=f"{estimate}: {d.source} (as of {d.as_of})",
                )
            )
    spot_ok = not eng.inference and "spot" not in eng.p.pricing_excluded  # no spot for an endpoint
    spot = min(
        (r for r in records if r.pricing == "spot" and spot_ok),
        key=lambda r: r.usd_per_gpu_hour,
        default=None,
    )
    if spot is not None:
        out.append(
            RentBasis(
                name=f"spot ({spot.provider})",
                usd_per_gpu_hour=spot.usd_per_gpu_hour,
                source=f"{spot.source} (as of {spot.as_of})",
            )
        )
    return out


def _own_vs_rent(c: Candidate, eng: Engine, p: WorkloadProfile) -> BuyRentTimeline | None:
    """The team's own GPUs at their marginal cost (the candidate's rate) against renting the same GPUs."""
    rents = _rents(c, eng)
    if not rents:
        return None
    util = owned_utilization(p, eng.inference)
    n = c.total_gpus
    try:
        running = eng.tb.step(
            "own_running_usd_per_month",
            "marginal_usd_per_gpu_hour x 730 x utilization x n_gpus (purchase already spent)",
            c.offer.usd_per_gpu_hour * HOURS_PER_MONTH * util * n,
            "USD/month",
            marginal_usd_per_gpu_hour=c.offer.usd_per_gpu_hour,
            utilization=util,
            n_gpus=n,
        )
        timeline = buy_rent_timeline(
            n_gpus=n,
            horizon_months=answer_horizon_months(p),
            utilization=util,
            purchase_usd=0.0,
            running_usd_per_month=running,
            rents=rents,
            owned=True,
        )
    except (InputError, KeyError, LookupError):
        return None
    eng.tb.extend(timeline, prefix="your hardware vs rent: ")
    return timeline.model_copy(update={"gpu_name": c.gpu.name})


def _gpu_hours(c: Candidate, eng: Engine) -> float:
    """GPU-hours the candidate spends on the work (an unmeasured GPU's at the slow end, as ranked);
    serving: the GPUs that carry the stated load."""
    if eng.inference and not eng.state.batch_job:
        return float(c.total_gpus)
    hours = c.wall_hours.high if unmeasured(c, eng.inference) else c.wall_hours.mid
    return hours * c.total_gpus


def _rented_instead(
    c: Candidate, rented: Candidate | None, eng: Engine
) -> tuple[list[RentBasis], str | None]:
    """The rent lines of another GPU's rented option for the same work as c: each rate per rented
    GPU-hour x (the rented option's GPU-hours / c's GPU-hours) = a rate per GPU-hour of c's GPUs."""
    if rented is None or rented.gpu.id == c.gpu.id:
        return [], None
    return _moved_rents(c, rented, eng)


def _moved_rents(c: Candidate, rented: Candidate, eng: Engine) -> tuple[list[RentBasis], str | None]:
    """`rented`'s rent lines as rates per GPU-hour of c's GPUs (_rented_instead), and its set-up in words."""
    rents = _rents(rented, eng)
    mine = _gpu_hours(c, eng)
    if not rents or mine <= 0:
        return [], None
    ratio = eng.tb.step(
        "rented_gpu_hours_per_bought_gpu_hour",
        "rented option's GPU-hours for the work / bought option's GPU-hours for the same work",
        _gpu_hours(rented, eng) / mine,
        "ratio",
        rented=f"{rented.total_gpus}x {rented.gpu.id}",
        bought=f"{c.total_gpus}x {c.gpu.id}",
    )
    setup = f"{rented.total_gpus}x {rented.gpu.name}"
    moved = [
        r.model_copy(
            update={
                "usd_per_gpu_hour": r.usd_per_gpu_hour * ratio,
                "source": f"{r.source}; {setup} for the same work ({ratio:.2f} of its GPU-hours per "
                "bought one)",
            }
        )
        for r in rents
    ]
    return moved, setup


def _colocated(c: Candidate, p: WorkloadProfile) -> bool:
    """Whether the GPUs bought would be colocated: a colocation offer, or the team said it has no site of its
    own (WorkloadProfile.colocation)."""
    return c.offer.deployment == "colocation" or bool(p.colocation)


def buy_vs_rent_for(
    c: Candidate,
    eng: Engine,
    p: WorkloadProfile,
    rented: Candidate | None = None,
    kept: Candidate | None = None,
) -> BuyRentTimeline | None:
    """The timeline for the candidate's GPUs, or None when not wanted or without a purchase price or
    TDP, or with no rental price for that GPU and no other rented option (`rented`, the best-ranked one)
    to compare with. `kept`: the set-up the team rents now (tools.recommend.keep_renting); when it differs
    from c's GPUs, the rent lines are what keeping it costs."""
    if not wanted(p) or one_off_rental(c, p, eng.inference):
        return None
    if is_yours(c):
        return _own_vs_rent(c, eng, p)
    quote = quote_for(c, eng, p)
    rents = _rents(c, eng)
    instead: str | None = None
    kept_setup: str | None = None
    if kept is not None and (kept.gpu.id, kept.total_gpus) != (c.gpu.id, c.total_gpus):
        # "cheaper than keeping renting?": the rental they have is the rent side (expert review 20, R18)
        moved, kept_setup = _moved_rents(c, kept, eng)
        rents = moved or rents
        kept_setup = kept_setup if moved else None
    if not rents:  # nobody rents this GPU: the same work on the best rented option
        rents, instead = _rented_instead(c, rented, eng)
    price = purchase_price(c, p)
    if quote is None or not rents or c.gpu.tdp_w is None or price is None:
        return None
    util = purchase_utilization(c, eng, p)
    est = eng.catalog.estimate
    try:
        owned = owned_usd_per_gpu_hour(
            purchase_price_usd=price[0],
            utilization=util,
            tdp_w=c.gpu.tdp_w,
            amortization_months=est("hardware_amortization_months"),
            # a stated price is the whole server's
            server_overhead_fraction=0.0 if price[1] else est("server_overhead_fraction"),
            pue=est("pue"),
            power_usd_per_kwh=power_price(eng.catalog, p),
            ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
            # colocated hardware pays the facility per kW (expert review 18, P06: "we have no data centre,
            # we would need colocation" left it out of the TCO)
            colo_usd_per_kw_month=est("colo_usd_per_kw_month") if _colocated(c, p) else None,
        )
        running = (
            owned.energy_usd_per_gpu_month + owned.ops_usd_per_gpu_month + owned.colo_usd_per_gpu_month
        ) * quote.n_gpus
        timeline = buy_rent_timeline(
            n_gpus=quote.n_gpus,
            horizon_months=answer_horizon_months(p),
            utilization=util,
            purchase_usd=quote.usd_total,
            running_usd_per_month=running,
            rents=rents,
        )
    except (InputError, KeyError, LookupError):
        return None
    eng.tb.extend(quote, prefix="buy vs rent purchase: ")
    eng.tb.extend(timeline, prefix="buy vs rent: ")
    update: dict[str, object] = {"rented_instead": instead, "gpu_name": c.gpu.name, "quote": quote}
    if kept is not None and kept_setup is not None:
        update |= {
            "kept_rental": kept_setup,
            "kept_peak_gib_per_gpu": kept.fit.peak_gib_per_gpu,
            "kept_usable_gib_per_gpu": kept.fit.usable_gib_per_gpu,
            "kept_n_gpus": kept.total_gpus,
        }
    return timeline.model_copy(update=update)
