"""A purchase option in words: price per GPU and per server, total, lead time and the monthly
equivalent (tools.cost_buy.purchase_quote with the catalog's estimates and the stated power price)."""

from __future__ import annotations

from tools.classify import implied_utilization
from tools.cost_buy import PurchaseQuote, purchase_quote
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.engine import Engine
from tools.recommend.owned import owned_utilization
from tools.recommend.owned_first import owned_cost_inputs

STATED_PRICE_SOURCE = "your stated price, server included"


def purchase_price(c: Candidate, p: WorkloadProfile) -> tuple[float, bool] | None:
    """The price per GPU a purchase is costed at, and whether it is the user's own figure: the price they
    stated for this GPU ("buy an 8x H100 server (~$250k)": $31,250 with the server, expert review 7, R20),
    else the catalog's (to which the server overhead is added); None without either."""
    if p.purchase_usd_per_gpu is not None and p.purchase_gpu in (None, c.gpu.id):
        return p.purchase_usd_per_gpu, True
    return (c.gpu.purchase_price_usd, False) if c.gpu.purchase_price_usd is not None else None


def purchase_utilization(c: Candidate, eng: Engine, p: WorkloadProfile) -> float:
    """The one utilisation a purchase is costed at, in its quote and its buy-vs-rent block alike (expert
    review 18, R17: '30% use' and '3% use' in one reply): the owned utilisation; for training or a batch job
    with a known cadence, no more than the runs fill on these GPUs (tools.classify.implied_utilization:
    min(stated, implied)): '60% busy' beside runs that fill 1% of the month is costed at 1%, as the options
    were (pricing.Pricer._owned_use)."""
    util = owned_utilization(p, eng.inference)
    known = ("stated", "inferred", None)
    endpoint = eng.inference and not eng.state.batch_job
    if endpoint or p.runs_per_month is None or p.status_of("runs_per_month") not in known:
        return util
    chk = implied_utilization(
        runs_per_month=p.runs_per_month,
        wall_hours_low=c.wall_hours.low,
        wall_hours_high=c.wall_hours.high,
        stated_utilization=util,
    )
    return max(chk.effective_utilization, MIN_WORK_UTILIZATION)


MIN_WORK_UTILIZATION = 0.001
"""Floor of the utilisation a buy-vs-rent timeline is costed at (it must lie in (0, 1])."""


def quote_for(c: Candidate, eng: Engine, p: WorkloadProfile) -> PurchaseQuote | None:
    """The purchase quote of a buy option's configuration, or None without a purchase price or TDP."""
    gpu = c.gpu
    price = purchase_price(c, p)
    if price is None or gpu.tdp_w is None:
        return None
    try:
        inputs = owned_cost_inputs(eng.catalog, p, colocation=c.offer.deployment == "colocation")
        if price[1]:
            inputs["server_overhead_fraction"] = 0.0  # the stated price is the whole server's
        return purchase_quote(
            n_gpus=c.layout.n_gpus * c.replicas,
            gpus_per_server=c.layout.gpus_per_node,
            purchase_price_usd=price[0],
            tdp_w=gpu.tdp_w,
            utilization=purchase_utilization(c, eng, p),
            price_source=STATED_PRICE_SOURCE if price[1] else (gpu.purchase_price_source or gpu.source),
            **inputs,
        )
    except (InputError, KeyError, LookupError):
        return None


def purchase_lines(c: Candidate, eng: Engine, p: WorkloadProfile) -> list[str]:
    """The purchase price, lead time and monthly equivalent of a buy option, in words."""
    q = quote_for(c, eng, p)
    if q is None:
        return []
    eng.tb.extend(q, prefix=f"purchase {c.key.text()}: ")
    servers = f"{q.servers} server{'s' if q.servers > 1 else ''} of {q.gpus_per_server}"
    lead = f"{q.lead_time_weeks:g} weeks" if q.lead_time_weeks is not None else "not known (ask the vendor)"
    return [
        f"purchase: ${q.usd_per_gpu:,.0f} per GPU ({q.price_source}); {servers} at ${q.usd_per_server:,.0f} "
        f"each with chassis, CPUs and network; ${q.usd_total:,.0f} in all; lead time {lead}",
        f"monthly equivalent ${q.monthly_equivalent_usd:,.0f}: the purchase over {q.amortization_months:g} "
        f"months, power x PUE, staff{', colocation' if c.offer.deployment == 'colocation' else ''}, "
        f"at {q.utilization:.0%} use",
    ]
