"""What the same rented capacity costs at other providers: a price question about a fleet the team already
runs (expert review 19, R19: "we're spending ~$40k/month on 8x H100 on-demand at AWS for training. What
would the same capacity cost at Lambda or Nebius, and with a 1-year reservation?").

No model or job is needed: the capacity is n GPUs of one type kept for some hours a month, and each
provider's monthly figure is

    usd_per_month = n_gpus x usd_per_gpu_hour x hours billed a month

- on demand bills the hours used: the hours said ("running all month" = 730 h, utilisation x 730), else
  the hours the stated spend buys at the current provider's on-demand rate (spend / (n x rate), at most
  730: a $40,000 bill for 8x H100 at $6.88 is 727 h, the whole month), else 730;
- a reserved term bills every hour of the month (730 h, a commitment), at the provider's record for that
  term, else on-demand x (1 - reserved_<term>_discount_fraction), a named catalog estimate (as the
  buy-vs-rent block prices it, tools.recommend.buy_rent); a record of another term (AWS Capacity Blocks,
  days ahead) is not the term asked.
Each provider's offer must hold the capacity in its own node shape (an 8-GPU node for 8 GPUs; n/8 of
them for more): eight single-GPU instances are not the same capacity as one 8-GPU server. A provider's
tiers (lambda and lambda-cluster, runpod-secure and runpod-community) are one provider as a user names it
(tools.recommend.candidates.provider_matches); its cheapest record that holds the capacity is priced, at
established tiers before community and marketplace floors, and never a managed service (another product)
or a worked example's reference price. Every figure is a trace step.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from tools import present
from tools.catalog.schema import PriceRecord
from tools.defaults import CatalogView
from tools.errors import InputError
from tools.recommend.candidates import provider_matches
from tools.trace import TraceBuilder, Traced
from tools.units import HOURS_PER_MONTH
from tools.vocabulary import OptionPricing

RESERVED_ESTIMATES = {12.0: "reserved_1y_discount_fraction", 36.0: "reserved_3y_discount_fraction"}
"""Catalog estimates of the discount below on-demand for the reserved terms the catalog knows (costs.yaml)."""
COMMUNITY_TIERS = ("community", "marketplace")
"""Tiers whose quotes are floors, not firm rates (tools.recommend.risk.COMMUNITY_TIERS names the same)."""
MAX_OTHER_PROVIDERS = 3
"""Providers priced when none was named ('what would it cost elsewhere?'): the cheapest few on demand."""


class CapacityLine(BaseModel):
    """One provider's monthly price for the capacity under one pricing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str = Field(description="catalog provider id, e.g. 'lambda-cluster'")
    pricing: OptionPricing
    term_months: float | None = Field(default=None, description="reserved term; None for on demand")
    usd_per_gpu_hour: float
    hours_per_month: float = Field(description="hours billed a month (730 for a reserved term)")
    usd_per_month: float
    estimate: bool = Field(default=False, description="a reserved rate estimated from on-demand")
    discount_fraction: float | None = Field(
        default=None, description="the estimate's discount below on-demand (catalog estimate); None: a record"
    )
    current: bool = Field(default=False, description="the provider and pricing the team pays now")
    vs_stated_usd_per_month: float | None = Field(
        default=None,
        description="usd_per_month - the stated monthly spend (negative: saves); None: none said",
    )
    source: str = ""


class CapacityPrices(Traced):
    """The same capacity priced at each provider asked about (module docstring)."""

    gpu: str
    gpu_name: str
    n_gpus: int
    hours_per_month: float = Field(description="on-demand hours a month the capacity is priced at")
    hours_basis: str = Field(description="where those hours come from, in words")
    stated_usd_per_month: float | None = None
    current_provider: str | None = None
    lines: tuple[CapacityLine, ...] = ()
    not_offered: tuple[str, ...] = Field(
        default=(), description="providers asked about with no price for this GPU in this shape"
    )


def _holds(r: PriceRecord, n_gpus: int) -> bool:
    """Whether the record's node shapes hold n GPUs as whole nodes of min(n, its largest node) GPUs."""
    need = min(n_gpus, max(r.gpus_per_node))
    return need in r.gpus_per_node and n_gpus % need == 0


def _records(catalog: CatalogView, gpu: str, n_gpus: int) -> list[PriceRecord]:
    return [
        r
        for r in catalog.prices_for(gpu)
        if not r.reference_only
        and not r.managed
        and r.pricing in ("on_demand", "reserved")
        and _holds(r, n_gpus)
    ]


def _firm_first(r: PriceRecord) -> tuple[int, float]:
    return (1 if r.tier.lower() in COMMUNITY_TIERS else 0, r.usd_per_gpu_hour)


def capacity_prices(
    catalog: CatalogView,
    *,
    gpu: str,
    n_gpus: int,
    providers: Sequence[str] = (),
    current_provider: str | None = None,
    current_pricing: OptionPricing | None = None,
    stated_usd_per_month: float | None = None,
    utilization: float | None = None,
    reserved_term_months: float | None = None,
    excluded: Sequence[str] = (),
) -> CapacityPrices:
    """The capacity (n_gpus of `gpu`) priced a month at the current provider and each provider asked about
    (none asked: the cheapest MAX_OTHER_PROVIDERS others on demand, none of `excluded`), on demand and on the
    reserved term asked (reserved_term_months; None: 12). Raises InputError for an unknown GPU or a count
    below 1."""
    if n_gpus < 1:
        raise InputError(f"a GPU count of at least 1 is needed, not {n_gpus}")
    spec = catalog.gpu(gpu)
    tb = TraceBuilder()
    records = _records(catalog, spec.id, n_gpus)
    term = reserved_term_months or 12.0

    def provider_records(name: str) -> list[PriceRecord]:
        return [r for r in records if provider_matches(r.provider, [name])]

    # the current provider's on-demand rate: what the stated spend is read against
    current_od = None
    if current_provider is not None:
        ods = [r for r in provider_records(current_provider) if r.pricing == "on_demand"]
        current_od = min(ods, key=_firm_first, default=None)
    hours, basis = _hours(tb, n_gpus, utilization, stated_usd_per_month, current_od, current_pricing)

    names = list(dict.fromkeys([*([current_provider] if current_provider else []), *providers]))
    if not providers:  # 'what would it cost elsewhere?': the cheapest others on demand
        others = sorted(
            (r for r in records if r.pricing == "on_demand" and r.tier.lower() not in COMMUNITY_TIERS),
            key=lambda r: r.usd_per_gpu_hour,
        )
        for r in others:
            if len(names) >= MAX_OTHER_PROVIDERS + (1 if current_provider else 0):
                break
            if not any(provider_matches(r.provider, [n]) for n in names) and not provider_matches(
                r.provider, excluded
            ):
                names.append(r.provider)
    lines: list[CapacityLine] = []
    missing: list[str] = []
    for name in names:
        mine = provider_records(name)
        od = min((r for r in mine if r.pricing == "on_demand"), key=_firm_first, default=None)
        if od is None:
            missing.append(name)
            continue
        is_current = current_provider is not None and provider_matches(od.provider, [current_provider])
        lines.append(
            _line(
                tb,
                od,
                n_gpus,
                hours,
                stated_usd_per_month,
                current=is_current and current_pricing != "reserved",
            )
        )
        reserved = min(
            (r for r in mine if r.pricing == "reserved" and r.commitment_months == term),
            key=_firm_first,
            default=None,
        )
        line = _reserved_line(tb, catalog, od, reserved, n_gpus, term, stated_usd_per_month)
        if line is not None:
            lines.append(line.model_copy(update={"current": is_current and current_pricing == "reserved"}))
    return CapacityPrices(
        gpu=spec.id,
        gpu_name=spec.name,
        n_gpus=n_gpus,
        hours_per_month=hours,
        hours_basis=basis,
        stated_usd_per_month=stated_usd_per_month,
        current_provider=current_provider,
        lines=tuple(lines),
        not_offered=tuple(missing),
        trace=tuple(tb.steps),
        assumptions=tuple(tb.assumptions),
    )


def _hours(
    tb: TraceBuilder,
    n_gpus: int,
    utilization: float | None,
    stated_usd_per_month: float | None,
    current_od: PriceRecord | None,
    current_pricing: OptionPricing | None,
) -> tuple[float, str]:
    """On-demand hours a month (module docstring) and their basis in words."""
    if utilization is not None:
        hours = tb.step(
            "capacity_hours_per_month", "utilization x 730 h", utilization * HOURS_PER_MONTH, "h/month",
            utilization=utilization,
        )  # fmt: skip
        return hours, "730 h (all month)" if utilization >= 1.0 else f"{hours:,.0f} h (your use of the month)"
    if stated_usd_per_month is not None and current_od is not None and current_pricing in (None, "on_demand"):
        implied = tb.step(
            "capacity_hours_per_month_implied",
            "stated_usd_per_month / (n_gpus x current on-demand usd_per_gpu_hour), at most 730 h",
            min(HOURS_PER_MONTH, stated_usd_per_month / (n_gpus * current_od.usd_per_gpu_hour)),
            "h/month",
            stated_usd_per_month=stated_usd_per_month,
            n_gpus=n_gpus,
            usd_per_gpu_hour=current_od.usd_per_gpu_hour,
            provider=current_od.provider,
        )
        spend, where = present.usd(stated_usd_per_month), current_od.provider
        rate = f"{n_gpus} x {present.usd_rate(current_od.usd_per_gpu_hour)}"
        if implied >= HOURS_PER_MONTH:
            return implied, f"730 h (all month; your {spend} is more than {where}'s on-demand price, {rate})"
        return implied, f"{implied:,.0f} h (what your {spend} buys at {where} on demand, {rate})"
    tb.assume("capacity_hours_per_month", HOURS_PER_MONTH, "h/month", "the capacity kept all month (730 h)")
    return HOURS_PER_MONTH, "730 h (all month, assumed: say your hours)"


def _line(
    tb: TraceBuilder,
    r: PriceRecord,
    n_gpus: int,
    hours: float,
    stated: float | None,
    *,
    current: bool,
) -> CapacityLine:
    per_month = tb.step(
        f"capacity_usd_per_month[{r.provider}, on demand]",
        "n_gpus x usd_per_gpu_hour x hours_per_month",
        n_gpus * r.usd_per_gpu_hour * hours,
        "USD/month",
        source=f"{r.source} (as of {r.as_of})",
        n_gpus=n_gpus,
        usd_per_gpu_hour=r.usd_per_gpu_hour,
        hours_per_month=hours,
    )
    return CapacityLine(
        provider=r.provider,
        pricing="on_demand",
        usd_per_gpu_hour=r.usd_per_gpu_hour,
        hours_per_month=hours,
        usd_per_month=per_month,
        current=current,
        vs_stated_usd_per_month=_vs(tb, r.provider, "on demand", per_month, stated),
        source=f"{r.source} (as of {r.as_of})",
    )


def _vs(tb: TraceBuilder, provider: str, how: str, per_month: float, stated: float | None) -> float | None:
    if stated is None:
        return None
    return tb.step(
        f"capacity_vs_stated_usd_per_month[{provider}, {how}]",
        "usd_per_month - stated_usd_per_month",
        per_month - stated,
        "USD/month",
        usd_per_month=per_month,
        stated_usd_per_month=stated,
    )


def _reserved_line(
    tb: TraceBuilder,
    catalog: CatalogView,
    od: PriceRecord,
    reserved: PriceRecord | None,
    n_gpus: int,
    term: float,
    stated: float | None,
) -> CapacityLine | None:
    """The reserved line at the provider's record for the term, else the catalog's estimate below its
    on-demand rate; None when neither exists (a term the catalog has no estimate for)."""
    how = f"reserved {term:g} months"
    if reserved is not None:
        rate, provider, discount = reserved.usd_per_gpu_hour, reserved.provider, None
        source = f"{reserved.source} (as of {reserved.as_of})"
    else:
        name = RESERVED_ESTIMATES.get(term)
        if name is None:
            return None
        try:
            d = catalog.estimate(name)
        except (InputError, KeyError, LookupError):
            return None
        tb.assume(name, d.value, "fraction below on-demand", f"{d.source} (as of {d.as_of})")
        rate = tb.step(
            f"capacity_usd_per_gpu_hour[{od.provider}, {how}]",
            "on-demand usd_per_gpu_hour x (1 - reserved discount fraction)",
            od.usd_per_gpu_hour * (1 - float(d.value)),
            "USD/GPU-h",
            source=f"{name}: {d.source} (as of {d.as_of})",
            usd_per_gpu_hour=od.usd_per_gpu_hour,
            discount_fraction=float(d.value),
        )
        provider, discount = od.provider, float(d.value)
        source = f"{name}: {d.source} (as of {d.as_of})"
    per_month = tb.step(
        f"capacity_usd_per_month[{provider}, {how}]",
        "n_gpus x usd_per_gpu_hour x 730 h (a term bills every hour)",
        n_gpus * rate * HOURS_PER_MONTH,
        "USD/month",
        n_gpus=n_gpus,
        usd_per_gpu_hour=rate,
        hours_per_month=HOURS_PER_MONTH,
    )
    return CapacityLine(
        provider=provider,
        pricing="reserved",
        term_months=term,
        usd_per_gpu_hour=rate,
        hours_per_month=HOURS_PER_MONTH,
        usd_per_month=per_month,
        estimate=discount is not None,
        discount_fraction=discount,
        vs_stated_usd_per_month=_vs(tb, provider, how, per_month, stated),
        source=source,
    )
