"""A purchase option in words: price per GPU and per server, total, lead time and the monthly
equivalent (tools.cost_buy.purchase_quote with the catalog's estimates and the stated power price)."""

from __future__ import annotations

from tools.cost_buy import PurchaseQuote, purchase_quote
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.engine import Engine
from tools.recommend.owned import owned_utilization
from tools.recommend.owned_first import owned_cost_inputs


def quote_for(c: Candidate, eng: Engine, p: WorkloadProfile) -> PurchaseQuote | None:
    """The purchase quote of a buy option's configuration, or None without a purchase price or TDP."""
    gpu = c.gpu
    if gpu.purchase_price_usd is None or gpu.tdp_w is None:
        return None
    try:
        return purchase_quote(
            n_gpus=c.layout.n_gpus * c.replicas,
            gpus_per_server=c.layout.gpus_per_node,
            purchase_price_usd=gpu.purchase_price_usd,
            tdp_w=gpu.tdp_w,
            utilization=owned_utilization(p, eng.inference),
            price_source=gpu.purchase_price_source or gpu.source,
            **owned_cost_inputs(eng.catalog, p, colocation=c.offer.deployment == "colocation"),
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
