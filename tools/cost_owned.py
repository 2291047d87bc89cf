"""Owned hardware (colocation / on-prem), buy-vs-rent break-even, and spot interruption exposure.

Owned cost per GPU-month (each input a named argument; callers pass catalog estimates):
    capex   = purchase_price x (1 + server_overhead_fraction) / amortization_months
    energy  = tdp_kw x node_power_factor x pue x usd_per_kwh x 730 h x (u + (1 - u) x idle_fraction)
    colo    = tdp_kw x node_power_factor x colo_usd_per_kw_month       (colocation only)
    ops     = ops_usd_per_gpu_month
    per used GPU-hour = (capex + energy + colo + ops) / (730 h x u)
Seed 000: bare metal/owned wins above ~70% sustained utilisation, cloud below ~30%.

Spot exposure (first-order renewal model): a job on `nodes` spot nodes is interrupted at
lambda = rate x nodes per hour; each interruption loses on average half a checkpoint interval of
work plus a restart overhead, so expected extra hours = T x lambda x (tau / 2 + R) / (1 - lambda x
(tau / 2 + R)). Young/Daly's optimal interval is sqrt(2 x checkpoint_write_hours / lambda).
"""

from __future__ import annotations

import math

from pydantic import Field

from tools.catalog.schema import Estimate
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import HOURS_PER_MONTH, watts_to_kw

# NVIDIA DGX H100 datasheet: 10.2 kW max system power for 8 x 700 W GPUs -> 1.82 x GPU TDP
# (CPUs, NVSwitches, NICs, fans, storage).
NODE_POWER_PER_GPU_TDP = 10.2 / (8 * 0.7)
NODE_POWER_SOURCE = "NVIDIA DGX H100 datasheet: 10.2 kW max for 8 x 700 W GPUs (1.82 x GPU TDP)"
# Seed 000: "InfiniBand adds roughly 10 to 20 percent to total cluster cost at smaller scales".
INFINIBAND_COST_FRACTION = Range(low=0.10, high=0.20)
INFINIBAND_COST_SOURCE = "seed 000: InfiniBand adds ~10-20% to cluster cost at small scale"
# An idle GPU server still draws power: roughly a quarter to a third of its maximum.
IDLE_POWER_FRACTION = 0.3
IDLE_POWER_SOURCE = "estimate: idle 8-GPU servers draw ~25-35% of max power"
RESIDUAL_VALUE_SOURCE = "assumption: straight-line amortisation to zero over the amortisation period"

# Spot interruptions per node-hour. Low: AWS Spot Instance Advisor's worst band (>20% of instances
# reclaimed per month) is ~1 per 3,600 instance-hours, GPU capacity runs tighter: 0.001. High: GCP
# preemptible VMs lived at most 24 h (~0.04 per hour); scarce H100 spot pools behave like that.
SPOT_INTERRUPTIONS_PER_NODE_HOUR = Range(low=0.001, high=0.04)
SPOT_INTERRUPTIONS_SOURCE = (
    "estimate: AWS Spot Instance Advisor frequency bands (<5% to >20% per month) "
    "to GCP preemptible VMs' 24 h cap"
)
# Lost hours are capped at 10 x the run: past that point nobody keeps restarting on spot.
SPOT_LOST_HOURS_CAP_FACTOR = 10.0
# Re-acquire capacity, pull the image, load the checkpoint and warm up.
SPOT_RESTART_OVERHEAD_HOURS = Range(low=0.1, high=0.5)
SPOT_RESTART_SOURCE = "estimate: capacity re-acquisition + container start + checkpoint load, 6-30 min"


def _check(**values: float) -> None:
    for name, v in values.items():
        if not (isinstance(v, int | float) and math.isfinite(v) and v >= 0):
            raise InputError(f"{name} must be a non-negative number, got {v!r}")


def _val(tb: TraceBuilder, name: str, x: float | Estimate, unit: str) -> float:
    if isinstance(x, Estimate):
        value, src = x.value, f"{x.source} (as of {x.as_of})"
    else:
        value, src = float(x), "caller"
    _check(**{name: value})
    tb.assume(name, value, unit, src)
    return value


def it_kw_per_gpu(tdp_w: float, node_power_factor: float = NODE_POWER_PER_GPU_TDP) -> float:
    """Server power per GPU, kW: GPU TDP x node_power_factor (NODE_POWER_SOURCE, DGX H100 datasheet)."""
    return watts_to_kw(tdp_w) * node_power_factor


def energy_usd_per_gpu_hour(it_kw: float, pue: float, usd_per_kwh: float) -> float:
    """One GPU-hour at full draw: it_kw x pue x usd_per_kwh (facility power = IT power x PUE)."""
    return it_kw * pue * usd_per_kwh


def _utilization(u: float) -> float:
    if not (isinstance(u, int | float) and math.isfinite(u) and 0 < u <= 1):
        raise InputError(f"utilization must lie in (0, 1] (a fraction of the month the GPUs work), got {u!r}")
    return float(u)


class OwnedHourlyCost(Traced):
    """Cost of an owned GPU per month and per GPU-hour actually used."""

    facility: str
    utilization: float
    capex_usd_per_gpu_month: float
    energy_usd_per_gpu_month: float
    colo_usd_per_gpu_month: float
    ops_usd_per_gpu_month: float
    total_usd_per_gpu_month: float
    usd_per_gpu_hour: float = Field(description="per used GPU-hour at this utilisation")


def owned_usd_per_gpu_hour(
    *,
    purchase_price_usd: float,
    utilization: float,
    tdp_w: float,
    amortization_months: float | Estimate,
    server_overhead_fraction: float | Estimate,
    pue: float | Estimate,
    power_usd_per_kwh: float | Estimate,
    ops_usd_per_gpu_month: float | Estimate,
    colo_usd_per_kw_month: float | Estimate | None = None,
    node_power_factor: float = NODE_POWER_PER_GPU_TDP,
    idle_power_fraction: float = IDLE_POWER_FRACTION,
    fabric_cost_fraction: float = 0.0,
) -> OwnedHourlyCost:
    """Owned GPU cost: colocation when colo_usd_per_kw_month is given, own facility (on-prem) otherwise.

    fabric_cost_fraction: share added to the hardware price for a multi-node fabric (0 for one node;
    INFINIBAND_COST_FRACTION, 0.10-0.20, for a small InfiniBand cluster, seed 000)."""
    u = _utilization(utilization)
    _check(purchase_price_usd=purchase_price_usd, tdp_w=tdp_w)
    tb = TraceBuilder()
    months = _val(tb, "hardware_amortization_months", amortization_months, "months")
    if months <= 0:
        raise InputError("hardware_amortization_months must be positive")
    overhead = _val(tb, "server_overhead_fraction", server_overhead_fraction, "fraction of GPU price")
    _check(fabric_cost_fraction=fabric_cost_fraction)
    if fabric_cost_fraction:
        tb.assume(
            "fabric_cost_fraction",
            fabric_cost_fraction,
            "fraction of hardware price",
            INFINIBAND_COST_SOURCE
            if INFINIBAND_COST_FRACTION.low <= fabric_cost_fraction <= INFINIBAND_COST_FRACTION.high
            else "caller",
        )
    pue_v = _val(tb, "pue", pue, "ratio")
    kwh = _val(tb, "power_usd_per_kwh", power_usd_per_kwh, "USD/kWh")
    ops = _val(tb, "ops_usd_per_gpu_month", ops_usd_per_gpu_month, "USD/GPU-month")
    tb.assume(
        "node_power_per_gpu_tdp",
        round(node_power_factor, 3),
        "x TDP",
        NODE_POWER_SOURCE if node_power_factor == NODE_POWER_PER_GPU_TDP else "caller",
    )
    tb.assume("idle_power_fraction", idle_power_fraction, "of max", IDLE_POWER_SOURCE)
    tb.assume("residual_value", 0, "USD", RESIDUAL_VALUE_SOURCE)

    capex = tb.step(
        "capex_usd_per_gpu_month",
        "purchase_price x (1 + server_overhead) x (1 + fabric) / amortization_months",
        purchase_price_usd * (1 + overhead) * (1 + fabric_cost_fraction) / months,
        "USD/GPU-month",
        purchase_price_usd=purchase_price_usd,
        server_overhead_fraction=overhead,
        fabric_cost_fraction=fabric_cost_fraction,
        amortization_months=months,
    )
    it_kw = tb.step(
        "it_kw_per_gpu",
        "tdp_kw x node_power_factor",
        it_kw_per_gpu(tdp_w, node_power_factor),
        "kW",
        tdp_w=tdp_w,
        node_power_factor=node_power_factor,
    )
    duty = u + (1 - u) * idle_power_fraction
    energy = tb.step(
        "energy_usd_per_gpu_month",
        "it_kw x pue x usd_per_kwh x 730 x (u + (1-u) x idle)",
        energy_usd_per_gpu_hour(it_kw, pue_v, kwh) * HOURS_PER_MONTH * duty,
        "USD/GPU-month",
        it_kw=it_kw,
        pue=pue_v,
        power_usd_per_kwh=kwh,
        utilization=u,
    )
    colo = 0.0
    facility = "on_prem"
    if colo_usd_per_kw_month is not None:
        facility = "colocation"
        colo_rate = _val(tb, "colo_usd_per_kw_month", colo_usd_per_kw_month, "USD/kW-month")
        colo = tb.step(
            "colo_usd_per_gpu_month",
            "it_kw x colo_usd_per_kw_month",
            it_kw * colo_rate,
            "USD/GPU-month",
            it_kw=it_kw,
            colo_usd_per_kw_month=colo_rate,
        )
    total = tb.step(
        "owned_usd_per_gpu_month",
        "capex + energy + colo + ops",
        capex + energy + colo + ops,
        "USD/GPU-month",
        capex=capex,
        energy=energy,
        colo=colo,
        ops=ops,
    )
    hourly = tb.step(
        "owned_usd_per_gpu_hour",
        "owned_usd_per_gpu_month / (730 x utilization)",
        total / (HOURS_PER_MONTH * u),
        "USD/GPU-hour",
        utilization=u,
    )
    return OwnedHourlyCost(
        facility=facility,
        utilization=u,
        capex_usd_per_gpu_month=capex,
        energy_usd_per_gpu_month=energy,
        colo_usd_per_gpu_month=colo,
        ops_usd_per_gpu_month=ops,
        total_usd_per_gpu_month=total,
        usd_per_gpu_hour=hourly,
        **tb.fields(),
    )


class BreakEven(Traced):
    """Buy vs rent over a horizon at a utilisation."""

    n_gpus: int
    utilization: float
    horizon_months: float
    rent_total_usd: float
    own_total_usd: float = Field(description="amortised capex share over the horizon + running costs")
    own_cash_usd: float = Field(description="full purchase up front + running costs over the horizon")
    cheaper: str = Field(description="'rent' or 'buy'")
    break_even_utilization: float | None = Field(
        description="utilisation above which buying wins; None if never"
    )
    break_even_months: float | None = Field(
        description="months until cumulative rent exceeds purchase + running"
    )


def buy_vs_rent(
    *,
    rent_usd_per_gpu_hour: float,
    utilization: float,
    horizon_months: float,
    purchase_price_usd: float,
    tdp_w: float,
    amortization_months: float | Estimate,
    server_overhead_fraction: float | Estimate,
    pue: float | Estimate,
    power_usd_per_kwh: float | Estimate,
    ops_usd_per_gpu_month: float | Estimate,
    colo_usd_per_kw_month: float | Estimate | None = None,
    n_gpus: int = 1,
    fabric_cost_fraction: float = 0.0,
) -> BreakEven:
    """Renting (pay per used hour) vs owning (capex + fixed + energy) over `horizon_months`.

    Break-even utilisation u* solves rent x 730 x u x H = capex x min(H, A) / A + (fixed + var x u) x H.
    Break-even months (cash view) = capex / (monthly rent - monthly running cost of owning).
    """
    u = _utilization(utilization)
    _check(rent_usd_per_gpu_hour=rent_usd_per_gpu_hour, horizon_months=horizon_months)
    if horizon_months <= 0:
        raise InputError("horizon_months must be positive")
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    common = dict(
        purchase_price_usd=purchase_price_usd,
        tdp_w=tdp_w,
        amortization_months=amortization_months,
        server_overhead_fraction=server_overhead_fraction,
        pue=pue,
        power_usd_per_kwh=power_usd_per_kwh,
        ops_usd_per_gpu_month=ops_usd_per_gpu_month,
        colo_usd_per_kw_month=colo_usd_per_kw_month,
        fabric_cost_fraction=fabric_cost_fraction,
    )
    at_u = owned_usd_per_gpu_hour(utilization=u, **common)  # type: ignore[arg-type]
    full = owned_usd_per_gpu_hour(utilization=1.0, **common)  # type: ignore[arg-type]
    tb = TraceBuilder()
    tb.extend(at_u, prefix="owned.")
    amort_months = _num(amortization_months)
    capex_total = at_u.capex_usd_per_gpu_month * amort_months  # per GPU, paid up front
    fixed = at_u.ops_usd_per_gpu_month + at_u.colo_usd_per_gpu_month
    e_full = full.energy_usd_per_gpu_month  # energy(u) = e_full x (idle + (1 - idle) x u)
    idle = e_full * IDLE_POWER_FRACTION
    var = e_full - idle
    rent_month = tb.step(
        "rent_usd_per_gpu_month",
        "rent_usd_per_gpu_hour x 730 x utilization",
        rent_usd_per_gpu_hour * HOURS_PER_MONTH * u,
        "USD/GPU-month",
        rent_usd_per_gpu_hour=rent_usd_per_gpu_hour,
        utilization=u,
    )
    h = horizon_months
    amort_share = at_u.capex_usd_per_gpu_month * min(h, amort_months)
    rent_total = tb.step(
        "rent_total_usd",
        "rent_usd_per_gpu_month x horizon x n_gpus",
        rent_month * h * n_gpus,
        "USD",
        horizon_months=h,
        n_gpus=n_gpus,
    )
    running = at_u.energy_usd_per_gpu_month + fixed
    own_total = tb.step(
        "own_total_usd",
        "(capex_per_month x min(horizon, amortization) + running x horizon) x n",
        (amort_share + running * h) * n_gpus,
        "USD",
        running_usd_per_gpu_month=running,
        amortization_months=amort_months,
    )
    own_cash = tb.step(
        "own_cash_usd",
        "(purchase x (1 + overhead) + running x horizon) x n",
        (capex_total + running * h) * n_gpus,
        "USD",
        capex_usd_per_gpu=capex_total,
    )
    denom = h * (rent_usd_per_gpu_hour * HOURS_PER_MONTH - var)
    u_star: float | None = None
    if denom > 0:
        u_star = (amort_share + (fixed + idle) * h) / denom
        if u_star > 1:
            u_star = None
    _word_or_number(
        tb,
        "break_even_utilization",
        "(capex share + (fixed + idle energy) x H) / (H x (rent x 730 - variable energy))",
        u_star,
        "fraction",
        "never within the horizon at any utilisation",
    )
    margin = rent_month - running
    months_star = capex_total / margin if margin > 0 else None
    _word_or_number(
        tb,
        "break_even_months",
        "purchase x (1 + overhead) / (rent per month - running per month)",
        months_star,
        "months",
        "never: owning costs more per month than renting at this utilisation",
    )
    cheaper = "buy" if own_total < rent_total else "rent"
    return BreakEven(
        n_gpus=n_gpus,
        utilization=u,
        horizon_months=h,
        rent_total_usd=rent_total,
        own_total_usd=own_total,
        own_cash_usd=own_cash,
        cheaper=cheaper,
        break_even_utilization=u_star,
        break_even_months=months_star,
        **tb.fields(),
    )


def _word_or_number(
    tb: TraceBuilder, step: str, formula: str, value: float | None, unit: str, word: str
) -> None:
    """A step whose result may be 'never' (None): recorded as words, never as NaN."""
    tb.steps.append(
        TraceStep(step=step, formula=formula, output=value if value is not None else word, unit=unit)
    )


def _num(x: float | Estimate) -> float:
    return x.value if isinstance(x, Estimate) else float(x)


class SpotExposure(Traced):
    """Expected cost of spot interruptions for one long run."""

    wall_hours: float
    nodes: int
    interruptions_per_hour: Range = Field(description="for the whole job (any node lost restarts it)")
    expected_interruptions: Range
    probability_interrupted: Range = Field(description="P(at least one interruption)")
    lost_hours: Range = Field(description="expected extra wall-clock hours (rework + restarts)")
    lost_usd: Range
    spot_total_usd: Range
    on_demand_total_usd: float | None
    savings_usd: Range | None = Field(description="on-demand total - spot total; negative: spot costs more")
    optimal_checkpoint_interval_hours: Range | None = Field(description="Young/Daly sqrt(2 C / lambda)")
    viable: bool = Field(description="False when interruptions come faster than work is saved")


def spot_exposure(
    *,
    wall_hours: float,
    n_gpus: int,
    spot_usd_per_gpu_hour: float,
    checkpoint_interval_hours: float,
    gpus_per_node: int = 8,
    interruptions_per_node_hour: Range | None = None,
    restart_overhead_hours: Range | None = None,
    checkpoint_write_hours: float | None = None,
    on_demand_usd_per_gpu_hour: float | None = None,
) -> SpotExposure:
    """Expected lost work and restart overhead of a spot run, as a cost range (see module doc)."""
    _check(wall_hours=wall_hours, spot_usd_per_gpu_hour=spot_usd_per_gpu_hour)
    if not (isinstance(checkpoint_interval_hours, int | float) and checkpoint_interval_hours > 0):
        raise InputError(f"checkpoint_interval_hours must be positive, got {checkpoint_interval_hours!r}")
    for name, v in (("n_gpus", n_gpus), ("gpus_per_node", gpus_per_node)):
        if not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")
    tb = TraceBuilder()
    rate = interruptions_per_node_hour or SPOT_INTERRUPTIONS_PER_NODE_HOUR
    restart = restart_overhead_hours or SPOT_RESTART_OVERHEAD_HOURS
    tb.assume(
        "spot_interruptions_per_node_hour",
        f"{rate.low}-{rate.high}",
        "1/h",
        SPOT_INTERRUPTIONS_SOURCE if interruptions_per_node_hour is None else "caller",
    )
    tb.assume(
        "spot_restart_overhead_hours",
        f"{restart.low}-{restart.high}",
        "h",
        SPOT_RESTART_SOURCE if restart_overhead_hours is None else "caller",
    )
    nodes = math.ceil(n_gpus / gpus_per_node)
    lam = rate.scale(nodes)
    tb.step(
        "job_interruptions_per_hour",
        "rate_per_node_hour x nodes",
        lam.mid,
        "1/h",
        nodes=nodes,
        low=lam.low,
        high=lam.high,
    )
    tau = checkpoint_interval_hours
    loss_low = lam.low * (tau / 2 + restart.low)  # fraction of time lost per hour worked
    loss_high = lam.high * (tau / 2 + restart.high)
    viable = loss_high < 1
    cap = SPOT_LOST_HOURS_CAP_FACTOR * wall_hours
    extra = Range(
        low=min(cap, wall_hours * loss_low / (1 - loss_low)) if loss_low < 1 else cap,
        high=min(cap, wall_hours * loss_high / (1 - loss_high)) if loss_high < 1 else cap,
    )
    if not viable:
        tb.step(
            "spot_not_viable",
            "lambda x (tau/2 + R) >= 1: work lost faster than saved; lost hours capped at 10 x T",
            loss_high,
            "fraction",
            checkpoint_interval_hours=tau,
        )
    tb.step(
        "lost_hours",
        "T x lambda (tau/2 + R) / (1 - lambda (tau/2 + R))",
        extra.mid,
        "h",
        wall_hours=wall_hours,
        checkpoint_interval_hours=tau,
        low=extra.low,
        high=extra.high,
    )
    expected = Range(low=lam.low * (wall_hours + extra.low), high=lam.high * (wall_hours + extra.high))
    prob = Range(low=1 - math.exp(-lam.low * wall_hours), high=1 - math.exp(-lam.high * wall_hours))
    tb.step(
        "probability_interrupted",
        "1 - exp(-lambda x T)",
        prob.mid,
        "probability",
        low=prob.low,
        high=prob.high,
    )
    lost_usd = extra.scale(n_gpus * spot_usd_per_gpu_hour)
    tb.step(
        "lost_usd",
        "lost_hours x n_gpus x spot_usd_per_gpu_hour",
        lost_usd.mid,
        "USD",
        n_gpus=n_gpus,
        spot_usd_per_gpu_hour=spot_usd_per_gpu_hour,
        low=lost_usd.low,
        high=lost_usd.high,
    )
    base = wall_hours * n_gpus * spot_usd_per_gpu_hour
    spot_total = Range(low=base + lost_usd.low, high=base + lost_usd.high)
    od_total: float | None = None
    savings: Range | None = None
    if on_demand_usd_per_gpu_hour is not None:
        _check(on_demand_usd_per_gpu_hour=on_demand_usd_per_gpu_hour)
        od_total = wall_hours * n_gpus * on_demand_usd_per_gpu_hour
        savings = Range(low=od_total - spot_total.high, high=od_total - spot_total.low)
        tb.step(
            "spot_savings_usd",
            "on_demand_total - spot_total",
            savings.mid,
            "USD",
            on_demand_total_usd=od_total,
            low=savings.low,
            high=savings.high,
        )
    optimal: Range | None = None
    if checkpoint_write_hours is not None:
        _check(checkpoint_write_hours=checkpoint_write_hours)
        optimal = Range(
            low=math.sqrt(2 * checkpoint_write_hours / lam.high),
            high=math.sqrt(2 * checkpoint_write_hours / lam.low),
        )
        tb.step(
            "optimal_checkpoint_interval_hours",
            "sqrt(2 x checkpoint_write_hours / lambda)",
            optimal.mid,
            "h",
            "Young (1974) / Daly (2006)",
            checkpoint_write_hours=checkpoint_write_hours,
            low=optimal.low,
            high=optimal.high,
        )
    return SpotExposure(
        wall_hours=wall_hours,
        nodes=nodes,
        interruptions_per_hour=lam,
        expected_interruptions=expected,
        probability_interrupted=prob,
        lost_hours=extra,
        lost_usd=lost_usd,
        spot_total_usd=spot_total,
        on_demand_total_usd=od_total,
        savings_usd=savings,
        optimal_checkpoint_interval_hours=optimal,
        viable=viable,
        **tb.fields(),
    )
