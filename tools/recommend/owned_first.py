"""Hardware the team already owns (WorkloadProfile.owned_gpu, owned_gpu_count): an offer at its marginal
cost (tools.cost_buy: power at the stated or default price x PUE, hosting, staff time; capital spent),
never more GPUs than they own; the primary whenever it can run the job; what renting would cost or save
against it; and, when it cannot run the job, why (the rest of the answer is what to rent or buy)."""

from __future__ import annotations

from typing import TypedDict

from tools import present
from tools.catalog.schema import Estimate, GpuSpec
from tools.compute.training_scaling import ETHERNET_STEP_TIME_FACTOR_SOURCE
from tools.cost_buy import OwnedMarginalCost, owned_marginal_usd_per_gpu_hour
from tools.defaults import CatalogView
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate, GpuNotes, Offer
from tools.recommend.models import YOURS_PROVIDER as YOURS_PROVIDER
from tools.recommend.models import YOURS_RESERVED_TIER
from tools.recommend.owned import owned_amortization_months, owned_layout
from tools.trace import TraceBuilder
from tools.units import HOURS_PER_MONTH, ms_per_token_to_tokens_per_s

"""Provider name of the hardware the team owns (buying new hardware is 'your data centre')."""
YOURS_TIER = "owned (yours)"


def power_price(catalog: CatalogView, p: WorkloadProfile) -> float | Estimate:
    """The electricity price the user stated, else the catalog's named estimate."""
    if p.power_price_usd_per_kwh is not None:
        return float(p.power_price_usd_per_kwh)
    return catalog.estimate("power_usd_per_kwh")


class OwnedCostInputs(TypedDict):
    """The catalog estimates (and stated power price) that owning a GPU costs with (tools.cost_owned)."""

    amortization_months: float | Estimate
    server_overhead_fraction: float | Estimate
    pue: Estimate
    power_usd_per_kwh: float | Estimate
    ops_usd_per_gpu_month: Estimate
    colo_usd_per_kw_month: Estimate | None


def owned_cost_inputs(catalog: CatalogView, p: WorkloadProfile, *, colocation: bool) -> OwnedCostInputs:
    """Inputs of purchase_quote and buy_vs_rent; colo only for a colocation offer (KeyError if missing)."""
    est = catalog.estimate
    return OwnedCostInputs(
        amortization_months=owned_amortization_months(catalog, p),
        server_overhead_fraction=est("server_overhead_fraction"),
        pue=est("pue"),
        power_usd_per_kwh=power_price(catalog, p),
        ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
        colo_usd_per_kw_month=est("colo_usd_per_kw_month") if colocation else None,
    )


def marginal_rate(catalog: CatalogView, gpu: GpuSpec, p: WorkloadProfile) -> OwnedMarginalCost | None:
    """tools.cost_buy.owned_marginal_usd_per_gpu_hour with the catalog's estimates; None without a TDP."""
    if gpu.tdp_w is None:
        return None
    est = catalog.estimate
    try:
        return owned_marginal_usd_per_gpu_hour(
            tdp_w=gpu.tdp_w,
            pue=est("pue"),
            power_usd_per_kwh=power_price(catalog, p),
            ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
        )
    except (InputError, KeyError, LookupError):
        return None


def yours_offer(
    catalog: CatalogView, gpu: GpuSpec, p: WorkloadProfile
) -> tuple[Offer, OwnedMarginalCost] | None:
    """The owned hardware as an offer (at most owned_gpu_count GPUs), or None when the profile owns no
    GPU of this type."""
    if p.owned_gpu != gpu.id:
        return None
    rate = reserved_rate() if p.owned_reserved else marginal_rate(catalog, gpu, p)
    if rate is None:
        return None
    count = p.owned_gpu_count or 1
    lay = owned_layout(gpu, p)  # their servers' size and network, said or assumed (expert review 18, R03/R13)
    per_node = lay.gpus_per_node
    sizes = tuple(g for g in (1, 2, 4, 8, 16) if g <= per_node) or (per_node,)
    offer = Offer(
        provider=YOURS_PROVIDER,
        gpu_id=gpu.id,
        pricing="owned",
        usd_per_gpu_hour=float(rate.usd_per_gpu_hour),
        deployment="owned",
        tier=YOURS_RESERVED_TIER if p.owned_reserved else YOURS_TIER,
        gpus_per_node=sizes,
        scale_out=lay.fabric,
        eu=True,
        as_of=gpu.as_of,
        source=RESERVED_SOURCE if p.owned_reserved else OWNED_SOURCE,
        max_gpus=count,
    )
    return offer, rate


OWNED_SOURCE = "marginal cost of hardware you own: power x PUE + staff time (capital already spent)"
RESERVED_SOURCE = (
    "a cloud reservation's fee is committed whatever runs on it, and the provider pays the power: "
    "using it costs nothing more"
)


def reserved_rate() -> OwnedMarginalCost:
    """The marginal cost of reserved cloud capacity the team holds: 0 (RESERVED_SOURCE)."""
    tb = TraceBuilder()
    tb.assume("reserved_capacity_usd_per_gpu_hour", 0, "USD/GPU-hour", RESERVED_SOURCE)
    return OwnedMarginalCost(
        energy_usd_per_gpu_hour=0.0,
        hosting_usd_per_gpu_hour=0.0,
        staff_usd_per_gpu_hour=0.0,
        usd_per_gpu_hour=0.0,
        power_usd_per_kwh=0.0,
        pue=1.0,
        **tb.fields(),
    )


def is_yours(c: Candidate) -> bool:
    return c.offer.provider == YOURS_PROVIDER


def own_first(ranked: list[Candidate], latency_ms_per_token: float | None = None) -> Candidate | None:
    """The best-ranked configuration on the hardware the team owns, if any can run the job. Serving with
    a per-user speed (`latency_ms_per_token`, 1000 / tokens/s): owned GPUs cost only their marginal rate,
    so when the best-ranked one meets the speed only at its fast end, the fewest owned GPUs that meet it
    at the slow end are used instead (expert review 7, P11: 2 of 8 owned H200s at 26-40 tokens/s per
    user against 30 asked, while 4 or 8 of them meet it)."""
    yours = [c for c in ranked if is_yours(c)]
    if not yours:
        return None
    best = yours[0]
    if best.serving is None:
        return _sooner_on_more(best, yours)
    if latency_ms_per_token is None:
        return best
    target = ms_per_token_to_tokens_per_s(latency_ms_per_token)
    if best.serving.per_user_tokens_per_s.low >= target:
        return best
    meets = [c for c in yours if c.serving is not None and c.serving.per_user_tokens_per_s.low >= target]
    return min(meets, key=lambda c: (c.total_gpus, c.cost_usd.mid)) if meets else best


OWNED_COST_SLACK = 0.25
"""A training job on owned GPUs uses more of them when that finishes it at least OWNED_SPEEDUP_MIN times
sooner for at most this much more marginal cost (mid of the ranges): the capital is spent, the GPUs are
idle otherwise, and a few dollars of power do not outweigh days of waiting (expert review 10, R20: 1 of 2
owned A100s used, 82-154 h, where both take 45-96 h for $5 more)."""
OWNED_SPEEDUP_MIN = 1.3


def _sooner_on_more(best: Candidate, yours: list[Candidate]) -> Candidate:
    """The owned configuration that finishes soonest within the cost slack and speed-up (training)."""
    sooner = [
        c
        for c in yours
        if c.serving is None
        and c.total_gpus > best.total_gpus
        and c.cost_usd.mid <= best.cost_usd.mid * (1 + OWNED_COST_SLACK)
        and c.wall_hours.mid * OWNED_SPEEDUP_MIN <= best.wall_hours.mid
    ]
    return min(sooner, key=lambda c: (c.wall_hours.mid, c.cost_usd.mid)) if sooner else best


def all_owned_line(c: Candidate, ranked: list[Candidate], p: WorkloadProfile) -> str | None:
    """Why a training plan uses fewer of the team's GPUs than they own: the most of them that run it, over
    their network, and their time (expert review 18, R13: 4 servers of 8 A100 over 100 Gb Ethernet, where
    ZeRO-3 across servers is communication-bound and one server is the surer plan). None when the plan uses
    them all or no larger owned plan was timed."""
    if c.serving is not None or not is_yours(c):
        return None
    more = [x for x in ranked if is_yours(x) and x.serving is None and x.total_gpus > c.total_gpus]
    if not more:
        return None
    top = max(more, key=lambda x: x.total_gpus)
    lay = owned_layout(c.gpu, p)
    over = f" ({lay.text()})" if top.layout.nodes > 1 else ""
    took = present.hours_range(top.wall_hours, with_days=False)
    why = (
        "no sooner at the middle of the ranges"
        if top.wall_hours.mid >= c.wall_hours.mid
        else f"not {OWNED_SPEEDUP_MIN:g}x sooner at the middle of the ranges"
        if top.wall_hours.mid * OWNED_SPEEDUP_MIN > c.wall_hours.mid
        else f"over {OWNED_COST_SLACK:.0%} more in power and staff time"
    )
    if top.layout.nodes > 1 and lay.fabric == "ethernet":
        why += f" ({ETHERNET_STEP_TIME_FACTOR_SOURCE}: the time model's range across servers)"
    return f"on {top.total_gpus} of them{over}: {took}, {why}, so {c.total_gpus} are used"


def rent_instead(
    primary: Candidate, ranked: list[Candidate], per_month: bool, reserved: bool = False
) -> str | None:
    """What renting would cost or save against the owned hardware: the cheapest rental and the
    fastest rental that is at least as cheap as twice the owned cost, in words (figures from the
    candidates' own ranges)."""
    rentals = [c for c in ranked if c.offer.deployment not in ("owned", "colocation")]
    if not rentals:
        return None
    cheap = min(rentals, key=lambda c: c.cost_mid)
    unit = " per month" if per_month else ""
    diff = cheap.cost_mid - primary.cost_mid
    verdict = f"costs ${diff:,.0f} more" if diff >= 0 else f"would save ${-diff:,.0f}"
    against = "using your reservation" if reserved else "running on your hardware"
    text = (
        f"renting instead: the cheapest rental, {cheap.total_gpus}x {cheap.gpu.name} at "
        f"{cheap.offer.provider} ({cheap.offer.pricing.replace('_', ' ')}), "
        f"{present.usd_span(cheap.total_usd)}{unit}, "
        f"{verdict} (mid of the ranges) than {against}"
    )
    if not per_month:
        text += f" and takes {present.hours_range(cheap.wall_hours, with_days=False)}"
    return text


def yours_why(c: Candidate, p: WorkloadProfile) -> list[str]:
    """Why lines of the owned-hardware option: whose hardware and what the marginal cost counts."""
    owned = p.owned_gpu_count or 1
    if p.owned_reserved:
        at = f" at {p.owned_provider}" if p.owned_provider else ""
        lines = [
            f"runs on the {owned}x {c.gpu.name} you hold reserved{at} ({c.total_gpus} used)",
            "the reservation's fee is already committed and the provider pays the power: this job adds "
            "nothing to the bill",
        ]
    else:
        lay = owned_layout(c.gpu, p)
        servers = f"{lay.text()}; " if lay.nodes > 1 else ""
        lines = [
            f"runs on the {owned}x {c.gpu.name} you own ({servers}{c.total_gpus} used)",
            f"marginal cost ${c.offer.usd_per_gpu_hour:.2f}/GPU-hour: power at {_price_said(p)} x PUE, "
            "staff time; the purchase is already spent",
        ]
    window = window_line(c, p)
    return lines + ([window] if window else [])


def _price_said(p: WorkloadProfile) -> str:
    return (
        f"${p.power_price_usd_per_kwh:.3f}/kWh (stated)"
        if p.power_price_usd_per_kwh is not None
        else "the default power price (catalog estimate; say yours)"
    )


def window_line(c: Candidate, p: WorkloadProfile) -> str | None:
    """Whether the job ends before the reservation or lease does: months left x 730 h (tools.units)
    against the option's wall-clock range. None when no term left was said."""
    if p.owned_months_left is None or (c.serving is not None and c.serving.job_hours is None):
        return None  # an endpoint runs for as long as the term: no job end to compare
    left_hours = p.owned_months_left * HOURS_PER_MONTH
    low, high = c.wall_hours.low, c.wall_hours.high
    months = f"{present.months(p.owned_months_left)} left ({left_hours:,.0f} h)"
    run = f"the job needs {low:,.0f}-{high:,.0f} h"
    if high <= left_hours:
        return f"it finishes before the term ends: {run}, {months}"
    if low > left_hours:
        return f"it does not finish before the term ends: {run}, {months}"
    return (
        f"it finishes before the term ends only near the fast end of the range: {run}, {months}; "
        "time a training step on it to know which end you are at"
    )


def not_fit_note(
    p: WorkloadProfile, catalog: CatalogView, notes: dict[str, GpuNotes], fits: bool
) -> str | None:
    """When the team owns GPUs that cannot run the job: which and why, and what the answer shows instead."""
    if not p.owned_gpu or fits:
        return None
    try:
        name = catalog.gpu(p.owned_gpu).name
    except (InputError, KeyError, LookupError):
        return (
            f"Your {p.owned_gpu_count or 1}x {p.owned_gpu.upper()} is not in the GPU catalog, so I cannot "
            f"size the job on it. {RENT_OR_BUY_INSTEAD}"
        )
    n = notes.get(p.owned_gpu)
    # the limit that binds the configurations the team owns, before the memory of a smaller one
    why = (n.constraint or n.throughput or n.interconnect or n.memory) if n else None
    owned = p.owned_gpu_count or 1
    load_said = p.deadline_hours is not None or p.target_tokens_per_s is not None
    # (unless the memory note is the owned count's own: expert review 7, R19's 16 A100s that need 73.6 GiB
    # each over all 16 were said to miss "the stated deadline or throughput")
    if n is not None and why == n.memory and owned > 1 and load_said and n.memory_gpus < owned:
        # the memory note is a smaller configuration's; the owned count was rejected by the load it must
        # carry (a rate or a deadline), which a single note does not say
        why = f"on the {owned} you own it misses the stated deadline or throughput"
    reason = f": {why}" if why else ""
    owned_n = p.owned_gpu_count or 1
    return f"Your {owned_n}x {name} cannot run this workload as described{reason}. {RENT_OR_BUY_INSTEAD}"


RENT_OR_BUY_INSTEAD = "The options below are what to rent or buy instead."


def least_rental_text(
    primary: Candidate, ranked: list[Candidate], per_month: bool, shown: list[Candidate] | None = None
) -> str:
    """The not-fit note's last sentence once the pick is known: the fewest rented GPUs that fit (then the
    lower cost), the answer to "if not, what's the minimum to rent?" (expert review 11, R09: the note said
    'the options below' while the question was listed as one the reply could not answer)."""
    rentals = [c for c in ranked if c.offer.deployment not in ("owned", "colocation")]
    if not rentals:
        return RENT_OR_BUY_INSTEAD
    # the pick when it has the fewest GPUs (one price for one rental), else the lowest cost of the fewest
    least = min(rentals, key=lambda c: (c.total_gpus, c is not primary, c.cost_usd.mid))
    # "listed below" only when it is (expert review 16, R06: "1x H100 ... (listed below)" was below as 8x
    # H100 at the same cost); otherwise its own time says what it is
    listed = shown is None or any(c is least for c in shown)
    where = " (the pick below)" if least is primary else (" (listed below)" if listed else "")
    unit = " per month" if per_month else ""
    own_time = not (per_month or listed or least is primary)
    took = f", {present.hours_range(least.wall_hours, with_days=False)}" if own_time else ""
    return (
        f"The fewest GPUs to rent that fit: {least.total_gpus}x {least.gpu.name} at {least.offer.provider} "
        f"({least.offer.pricing.replace('_', ' ')}), {present.usd_range(least.cost_usd)}{unit}{took}{where}."
    )
