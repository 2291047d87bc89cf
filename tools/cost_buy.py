"""Hardware the team already owns, buying new hardware, and buy versus rent month by month.

Marginal cost of hardware already owned, per GPU-hour it is busy (capital already spent, so 0):
    energy  = tdp_kw x node_power_factor x pue x usd_per_kwh              (full draw while busy)
    hosting = tdp_kw x node_power_factor x colo_usd_per_kw_month / 730    (colocated; 0 in your own site)
    staff   = ops_usd_per_gpu_month / 730                                  (staff time, pro rata)
A purchase quote: price per GPU (catalog), a server = GPUs per server x price x (1 + server overhead),
its monthly equivalent = capex / amortisation months + power + hosting + staff (tools.cost_owned).
Buy vs rent over a horizon (cumulative USD by month, utilisation applied once):
    buy      = purchase up front + (energy at u + hosting + staff) x months
    on-demand and spot = rate x 730 x u x GPUs x months        (billed only for busy hours)
    reserved = rate x 730 x GPUs x months                       (a commitment bills every hour)
    a term longer than the horizon bills the whole term: rate x 730 x GPUs x term_months (no resale assumed,
    as a purchase spread over a shorter horizon assumes none)
    break-even month = purchase / (rent per month - running per month), None when never.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from tools.catalog.schema import Estimate
from tools.cost_owned import (
    NODE_POWER_PER_GPU_TDP,
    NODE_POWER_SOURCE,
    _num,
    _val,
    energy_usd_per_gpu_hour,
    it_kw_per_gpu,
    owned_usd_per_gpu_hour,
)
from tools.errors import InputError
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import HOURS_PER_MONTH

SUNK_CAPITAL_SOURCE = (
    "hardware you already own: its purchase is spent whatever you run, so a job's marginal cost leaves it out"
)
ONSITE_HOSTING_SOURCE = (
    "your own site: space and cooling are already paid; energy (x PUE) is the marginal cost"
)
STAFF_TIME_SOURCE = "ops_usd_per_gpu_month spread over the month's hours: staff time a busy GPU-hour takes"
LEAD_TIME_SOURCE = "no order lead time with a vendor and date was found (tools/catalog/reference, 'missing')"


class OwnedMarginalCost(Traced):
    """What one busy GPU-hour of hardware already owned costs: energy, hosting and staff time."""

    energy_usd_per_gpu_hour: float
    hosting_usd_per_gpu_hour: float
    staff_usd_per_gpu_hour: float
    usd_per_gpu_hour: float = Field(description="energy + hosting + staff; capital left out (spent)")
    power_usd_per_kwh: float
    pue: float


def owned_marginal_usd_per_gpu_hour(
    *,
    tdp_w: float,
    pue: float | Estimate,
    power_usd_per_kwh: float | Estimate,
    ops_usd_per_gpu_month: float | Estimate,
    colo_usd_per_kw_month: float | Estimate | None = None,
    node_power_factor: float = NODE_POWER_PER_GPU_TDP,
) -> OwnedMarginalCost:
    """Marginal $/GPU-hour of owned hardware (module docstring); colocated when colo is given."""
    if not (math.isfinite(tdp_w) and tdp_w > 0):
        raise InputError(f"tdp_w must be positive, got {tdp_w!r}")
    tb = TraceBuilder()
    pue_v = _val(tb, "pue", pue, "ratio")
    kwh = _val(tb, "power_usd_per_kwh", power_usd_per_kwh, "USD/kWh")
    ops = _val(tb, "ops_usd_per_gpu_month", ops_usd_per_gpu_month, "USD/GPU-month")
    tb.assume("capital_usd", 0, "USD (sunk)", SUNK_CAPITAL_SOURCE)
    tb.assume("node_power_per_gpu_tdp", round(node_power_factor, 3), "x TDP", NODE_POWER_SOURCE)
    it_kw = it_kw_per_gpu(tdp_w, node_power_factor)
    energy = tb.step(
        "energy_usd_per_gpu_hour",
        "tdp_kw x node_power_factor x pue x usd_per_kwh",
        energy_usd_per_gpu_hour(it_kw, pue_v, kwh),
        "USD/GPU-hour",
        tdp_w=tdp_w,
        node_power_factor=node_power_factor,
        pue=pue_v,
        power_usd_per_kwh=kwh,
    )
    hosting = 0.0
    if colo_usd_per_kw_month is None:
        tb.assume("hosting_usd_per_gpu_hour", 0, "USD", ONSITE_HOSTING_SOURCE)
    else:
        colo = _val(tb, "colo_usd_per_kw_month", colo_usd_per_kw_month, "USD/kW-month")
        hosting = tb.step(
            "hosting_usd_per_gpu_hour",
            "it_kw x colo_usd_per_kw_month / 730",
            it_kw * colo / HOURS_PER_MONTH,
            "USD/GPU-hour",
            it_kw=it_kw,
            colo_usd_per_kw_month=colo,
        )
    staff = tb.step(
        "staff_usd_per_gpu_hour",
        "ops_usd_per_gpu_month / 730",
        ops / HOURS_PER_MONTH,
        "USD/GPU-hour",
        STAFF_TIME_SOURCE,
        ops_usd_per_gpu_month=ops,
    )
    total = tb.step(
        "owned_marginal_usd_per_gpu_hour",
        "energy + hosting + staff (capital spent)",
        energy + hosting + staff,
        "USD/GPU-hour",
        energy=energy,
        hosting=hosting,
        staff=staff,
    )
    return OwnedMarginalCost(
        energy_usd_per_gpu_hour=energy,
        hosting_usd_per_gpu_hour=hosting,
        staff_usd_per_gpu_hour=staff,
        usd_per_gpu_hour=total,
        power_usd_per_kwh=kwh,
        pue=pue_v,
        **tb.fields(),
    )


class PurchaseQuote(Traced):
    """What buying a configuration costs up front and per month."""

    n_gpus: int
    gpus_per_server: int
    servers: int
    usd_per_gpu: float
    usd_per_server: float = Field(description="GPUs x price x (1 + server overhead)")
    usd_total: float
    lead_time_weeks: float | None = Field(default=None, description="None: not known")
    monthly_equivalent_usd: float = Field(description="capex / life + power + hosting + staff, all GPUs")
    amortization_months: float
    utilization: float
    price_source: str = ""


def purchase_quote(
    *,
    n_gpus: int,
    gpus_per_server: int,
    purchase_price_usd: float,
    tdp_w: float,
    utilization: float,
    amortization_months: float | Estimate,
    server_overhead_fraction: float | Estimate,
    pue: float | Estimate,
    power_usd_per_kwh: float | Estimate,
    ops_usd_per_gpu_month: float | Estimate,
    colo_usd_per_kw_month: float | Estimate | None = None,
    price_source: str = "",
    lead_time_weeks: float | None = None,
) -> PurchaseQuote:
    """Purchase price per GPU and per server, total, lead time and monthly equivalent (tools.cost_owned)."""
    if n_gpus < 1 or gpus_per_server < 1:
        raise InputError("n_gpus and gpus_per_server must be >= 1")
    owned = owned_usd_per_gpu_hour(
        purchase_price_usd=purchase_price_usd,
        utilization=utilization,
        tdp_w=tdp_w,
        amortization_months=amortization_months,
        server_overhead_fraction=server_overhead_fraction,
        pue=pue,
        power_usd_per_kwh=power_usd_per_kwh,
        ops_usd_per_gpu_month=ops_usd_per_gpu_month,
        colo_usd_per_kw_month=colo_usd_per_kw_month,
    )
    tb = TraceBuilder()
    tb.extend(owned, prefix="owned: ")
    overhead = _num(server_overhead_fraction)
    months = _num(amortization_months)
    per_gpu = min(gpus_per_server, n_gpus)
    servers = math.ceil(n_gpus / per_gpu)
    server = tb.step(
        "usd_per_server",
        "gpus_per_server x purchase_price x (1 + server_overhead)",
        per_gpu * purchase_price_usd * (1 + overhead),
        "USD",
        price_source,
        gpus_per_server=per_gpu,
        purchase_price_usd=purchase_price_usd,
        server_overhead_fraction=overhead,
    )
    total = tb.step(
        "purchase_usd_total", "servers x usd_per_server", servers * server, "USD", servers=servers
    )
    monthly = tb.step(
        "monthly_equivalent_usd",
        "owned_usd_per_gpu_month x n_gpus",
        owned.total_usd_per_gpu_month * n_gpus,
        "USD/month",
        owned_usd_per_gpu_month=owned.total_usd_per_gpu_month,
        n_gpus=n_gpus,
    )
    if lead_time_weeks is None:
        tb.assume("lead_time_weeks", "unknown", "", LEAD_TIME_SOURCE)
    return PurchaseQuote(
        n_gpus=n_gpus,
        gpus_per_server=per_gpu,
        servers=servers,
        usd_per_gpu=purchase_price_usd,
        usd_per_server=server,
        usd_total=total,
        lead_time_weeks=lead_time_weeks,
        monthly_equivalent_usd=monthly,
        amortization_months=float(months),
        utilization=utilization,
        price_source=price_source,
        **tb.fields(),
    )


class RentBasis(BaseModel):
    """One way to rent the same GPUs: a name, a rate and whether it bills every hour (a commitment)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="e.g. 'on-demand (lambda)', 'reserved 1 year', 'spot'")
    usd_per_gpu_hour: float = Field(gt=0)
    commitment: bool = Field(default=False, description="reserved: every hour of the term is billed")
    term_months: float | None = Field(
        default=None, gt=0, description="a commitment's term in months (12, 36); None: no term or not known"
    )
    source: str = ""


class RentLine(BaseModel):
    """Cumulative cost of one rent basis by month, and when buying overtakes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    basis: RentBasis
    usd_per_month: float
    cumulative_usd: tuple[float, ...]
    break_even_month: float | None = Field(description="month buying becomes cheaper; None: never")
    committed_usd: float | None = Field(
        default=None,
        description="a term longer than the horizon: every month of the term is billed (rate x 730 x GPUs x "
        "term), what choosing this basis costs; None: the term ends within the horizon",
    )

    @property
    def total_usd(self) -> float:
        """What choosing this basis costs for the horizon: the committed term when it outlasts it."""
        return max(self.cumulative_usd[-1], self.committed_usd or 0.0)


class BuyRentTimeline(Traced):
    """Buy vs every rent basis over a horizon, month 0..horizon (cumulative USD)."""

    n_gpus: int
    horizon_months: int
    utilization: float
    purchase_usd: float
    running_usd_per_month: float
    buy_cumulative_usd: tuple[float, ...]
    rents: tuple[RentLine, ...]
    cheapest: str = Field(description="'buy' or the rent basis cheapest at the horizon")
    owned: bool = Field(
        default=False,
        description="hardware the team already owns: no purchase; 'buy' is running it at its marginal cost",
    )
    rented_instead: str | None = Field(
        default=None,
        description="the GPU bought is not offered for rent: the rented set-up the rent lines price for the "
        "same work, e.g. '32x NVIDIA B200 (HGX, 180GB)'; None: the same GPUs rented",
    )
    gpu_name: str | None = Field(
        default=None, description="the GPU bought or owned, e.g. 'NVIDIA H100 SXM5 80GB'"
    )
    kept_rental: str | None = Field(
        default=None,
        description="the set-up the team rents now, which the rent lines price keeping (tools.recommend."
        "keep_renting), e.g. '1x NVIDIA L40S'; None: the GPUs bought, rented",
    )
    kept_n_gpus: int | None = Field(default=None, description="GPUs in the kept rental")
    kept_peak_gib_per_gpu: float | None = Field(default=None, description="the work's peak on a kept GPU")
    kept_usable_gib_per_gpu: float | None = Field(default=None, description="usable memory of a kept GPU")
    quote: PurchaseQuote | None = Field(
        default=None,
        exclude=True,  # its figures and trace are in the recommendation's trace ('buy vs rent purchase: ')
        description="the purchase behind purchase_usd (per GPU, per server, lead time); None: owned",
    )


def buy_rent_timeline(
    *,
    n_gpus: int,
    horizon_months: float,
    utilization: float,
    purchase_usd: float,
    running_usd_per_month: float,
    rents: list[RentBasis],
    owned: bool = False,
) -> BuyRentTimeline:
    """Cumulative buy and rent costs by month (module docstring); utilisation applied once: rented
    on-demand/spot hours = 730 x u, reserved hours = 730, owned running cost already at u. owned: the
    GPUs are already the team's (purchase_usd must be 0): running them against renting the same GPUs."""
    if not (0 < utilization <= 1):
        raise InputError(f"utilization must lie in (0, 1], got {utilization!r}")
    if owned and purchase_usd != 0:
        raise InputError("hardware already owned has no purchase: purchase_usd must be 0")
    if horizon_months <= 0 or n_gpus < 1:
        raise InputError("horizon_months must be positive and n_gpus >= 1")
    h = max(1, math.ceil(horizon_months))
    tb = TraceBuilder()
    months = range(h + 1)
    buy = tuple(purchase_usd + running_usd_per_month * m for m in months)
    tb.steps.append(
        TraceStep(
            step="buy_cumulative_usd_at_horizon",
            formula="purchase + running_per_month x months",
            inputs={
                "purchase_usd": purchase_usd,
                "running_usd_per_month": running_usd_per_month,
                "months": h,
            },
            output=buy[-1],
            unit="USD",
        )
    )
    lines = []
    for r in rents:
        hours = HOURS_PER_MONTH if r.commitment else HOURS_PER_MONTH * utilization
        per_month = tb.step(
            f"rent_usd_per_month ({r.name})",
            "rate x hours_billed x n_gpus"
            + (" (commitment: every hour)" if r.commitment else " (busy hours)"),
            r.usd_per_gpu_hour * hours * n_gpus,
            "USD/month",
            r.source,
            usd_per_gpu_hour=r.usd_per_gpu_hour,
            hours_billed=hours,
            n_gpus=n_gpus,
        )
        margin = per_month - running_usd_per_month
        be = purchase_usd / margin if margin > 0 else None
        tb.steps.append(
            TraceStep(
                step=f"break_even_month ({r.name})",
                formula="purchase / (rent per month - running per month)",
                inputs={"purchase_usd": purchase_usd, "margin_usd_per_month": margin},
                output=be if be is not None else "never: owning costs more per month",
                unit="months",
            )
        )
        committed = None
        if r.commitment and r.term_months is not None and r.term_months > h:
            committed = tb.step(
                f"committed_usd ({r.name})",
                "rent per month x term_months (the term outlasts the horizon; every month of it is billed)",
                per_month * r.term_months,
                "USD",
                r.source,
                rent_usd_per_month=per_month,
                term_months=r.term_months,
                horizon_months=h,
            )
        lines.append(
            RentLine(
                basis=r,
                usd_per_month=per_month,
                cumulative_usd=tuple(per_month * m for m in months),
                break_even_month=be,
                committed_usd=committed,
            )
        )
    finals = {"buy": buy[-1], **{ln.basis.name: ln.total_usd for ln in lines}}
    cheapest = min(finals, key=lambda k: finals[k])
    return BuyRentTimeline(
        n_gpus=n_gpus,
        horizon_months=h,
        utilization=utilization,
        purchase_usd=purchase_usd,
        running_usd_per_month=running_usd_per_month,
        buy_cumulative_usd=buy,
        rents=tuple(lines),
        cheapest=cheapest,
        owned=owned,
        **tb.fields(),
    )
