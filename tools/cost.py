"""Data movement and TCO: egress, storage, managed premium, the four-row TCO per deployment.

Seed 001 section 5: TCO has four rows, compute (GPU-hours x rate), storage (GB-months x rate),
egress (dataset GB x pulls x tiered rate) and the managed-service premium (an estimate, ~30% of
compute). Prices and estimates come in as arguments (floats or catalog records); this module never
reads files. Owned hardware (colocation / on-prem), buy-vs-rent and spot exposure live in
tools.cost_owned and are re-exported here.

Egress schedule semantics (tools/catalog/costs.yaml): tier `up_to_gb` is the cumulative monthly
volume at which the tier ends; `free_gb_per_month` is waived first; the cost of this workload is
the marginal cost on top of the account's other egress that month.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from tools.catalog.schema import EgressSchedule, Estimate, PriceRecord, StoragePrice
from tools.cost_owned import (
    BreakEven,
    OwnedHourlyCost,
    SpotExposure,
    buy_vs_rent,
    owned_usd_per_gpu_hour,
    spot_exposure,
)
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, UntracedBuilder
from tools.units import bytes_to_gb

__all__ = [
    "RESERVED_DISCOUNT",
    "BreakEven",
    "DeploymentComparison",
    "DeploymentRate",
    "DeploymentTco",
    "EgressCost",
    "EgressScenarios",
    "OwnedHourlyCost",
    "SpotExposure",
    "StorageCost",
    "TcoTable",
    "buy_vs_rent",
    "checkpoint_size_gb",
    "compare_deployments",
    "egress_cost",
    "egress_scenarios",
    "estimate_value",
    "owned_usd_per_gpu_hour",
    "reserved_rate",
    "spot_exposure",
    "storage_cost",
    "tco",
]

# Seed 000: reserved/committed capacity "typically reduces cost by 30 to 50 percent vs. on-demand".
RESERVED_DISCOUNT = Range(low=0.30, high=0.50)
RESERVED_DISCOUNT_SOURCE = "seed 000: reserved 30-50% below on-demand (seed 004: RunPod 40-45%)"
# Checkpoint bytes per parameter: bf16 weights (2) + fp32 master weights, Adam m and v (4 + 4 + 4).
CHECKPOINT_BYTES_PER_WEIGHT = 2.0
CHECKPOINT_BYTES_PER_TRAINABLE_STATE = 12.0


def _finite_non_negative(**values: float) -> None:
    for name, v in values.items():
        if not (isinstance(v, int | float) and math.isfinite(v) and v >= 0):
            raise InputError(f"{name} must be a non-negative number, got {v!r}")


def estimate_value(x: float | Estimate, name: str) -> tuple[float, str]:
    """A float or a catalog Estimate -> (value, source) for an assumption record."""
    if isinstance(x, Estimate):
        return x.value, f"{x.source} (as of {x.as_of})"
    return float(x), "caller"


# --- egress -----------------------------------------------------------------------------------------


class EgressCost(Traced):
    """Egress for `pulls` reads of a dataset out of its cloud, spread over `months`."""

    dataset_gb: float
    pulls: float
    months: float
    monthly_gb: float
    other_egress_gb_per_month: float
    same_cloud: bool
    monthly_usd: float
    total_usd: float
    per_pull_usd: float | None = Field(description="total / pulls; None when pulls = 0")


class EgressScenarios(Traced):
    """Seed 001's two workflows: cache after the first pull vs pull on every run."""

    cached: EgressCost
    per_run: EgressCost
    difference_usd: float


def _tiered_usd(volume_gb: float, schedule: EgressSchedule) -> float:
    """Cost of a month's cumulative volume: free allowance first, then each tier's band."""
    cost, lower = 0.0, 0.0
    free = schedule.free_gb_per_month
    for tier in schedule.tiers:
        upper = tier.up_to_gb if tier.up_to_gb is not None else math.inf
        billable = max(0.0, min(volume_gb, upper) - max(lower, free))
        cost += billable * tier.usd_per_gb
        lower = upper
        if volume_gb <= upper:
            break
    return cost


def egress_cost(
    *,
    dataset_gb: float,
    pulls: float,
    schedule: EgressSchedule | None,
    same_cloud: bool = False,
    other_egress_gb_per_month: float | None = None,
    months: float = 1.0,
) -> EgressCost:
    """Egress of `pulls` full reads of a `dataset_gb` dataset from its cloud to the GPUs.

    seed 001: monthly_egress_cost = dataset_GB x runs_per_month x egress_rate_per_GB, tiered by
    monthly volume. Same cloud: $0. other_egress_gb_per_month=None assumes the free allowance is
    already used by the account's other traffic (seed 001's $45 per 500 GB pull does); pass 0 to
    let this dataset use it.
    """
    _finite_non_negative(dataset_gb=dataset_gb, pulls=pulls)
    if not (isinstance(months, int | float) and math.isfinite(months) and months > 0):
        raise InputError(f"months must be a positive number, got {months!r}")
    tb = TraceBuilder()
    monthly_gb = tb.step(
        "monthly_egress_gb",
        "dataset_gb x pulls / months",
        dataset_gb * pulls / months,
        "GB",
        "seed 001",
        dataset_gb=dataset_gb,
        pulls=pulls,
        months=months,
    )
    if same_cloud:
        tb.step("egress_usd", "same cloud: no internet egress", 0.0, "USD", "seed 001 (SageMaker column: $0)")
        return EgressCost(
            dataset_gb=dataset_gb,
            pulls=pulls,
            months=months,
            monthly_gb=monthly_gb,
            other_egress_gb_per_month=other_egress_gb_per_month or 0.0,
            same_cloud=True,
            monthly_usd=0.0,
            total_usd=0.0,
            per_pull_usd=0.0 if pulls else None,
            **tb.fields(),
        )
    if schedule is None:
        raise InputError("egress needs the source cloud's price schedule (aws, gcp, azure) unless same-cloud")
    if other_egress_gb_per_month is None:
        other = schedule.free_gb_per_month
        tb.assume(
            "other_egress_gb_per_month",
            other,
            "GB/month",
            "seed 001: the free allowance is already used by other traffic ($0.09 on every GB)",
        )
    else:
        _finite_non_negative(other_egress_gb_per_month=other_egress_gb_per_month)
        other = other_egress_gb_per_month
        tb.assume("other_egress_gb_per_month", other, "GB/month", "caller")
    tiers = "; ".join(
        f"{'>' if t.up_to_gb is None else '<='}{t.up_to_gb or ''} GB ${t.usd_per_gb}/GB"
        for t in schedule.tiers
    )
    tb.assume(
        f"egress_schedule_{schedule.cloud}",
        f"free {schedule.free_gb_per_month} GB; {tiers}",
        "",
        f"{schedule.source} (as of {schedule.as_of})",
    )
    monthly = tb.step(
        "egress_usd_per_month",
        "tiered(other + monthly_gb) - tiered(other)",
        _tiered_usd(other + monthly_gb, schedule) - _tiered_usd(other, schedule),
        "USD/month",
        schedule.source,
        other_egress_gb_per_month=other,
        monthly_gb=monthly_gb,
        free_gb_per_month=schedule.free_gb_per_month,
    )
    total = tb.step("egress_usd", "egress_usd_per_month x months", monthly * months, "USD", months=months)
    per_pull = total / pulls if pulls else None
    if per_pull is not None:
        tb.step("egress_usd_per_pull", "egress_usd / pulls", per_pull, "USD", pulls=pulls)
    return EgressCost(
        dataset_gb=dataset_gb,
        pulls=pulls,
        months=months,
        monthly_gb=monthly_gb,
        other_egress_gb_per_month=other,
        same_cloud=False,
        monthly_usd=monthly,
        total_usd=total,
        per_pull_usd=per_pull,
        **tb.fields(),
    )


def egress_scenarios(
    *,
    dataset_gb: float,
    runs: float,
    schedule: EgressSchedule | None,
    same_cloud: bool = False,
    other_egress_gb_per_month: float | None = None,
    months: float = 1.0,
) -> EgressScenarios:
    """Cached (one pull, then read locally at the GPU provider) vs every run pulling fresh."""
    kw = dict(
        dataset_gb=dataset_gb,
        schedule=schedule,
        same_cloud=same_cloud,
        other_egress_gb_per_month=other_egress_gb_per_month,
        months=months,
    )
    cached = egress_cost(pulls=min(1.0, runs), **kw)  # type: ignore[arg-type]
    per_run = egress_cost(pulls=runs, **kw)  # type: ignore[arg-type]
    tb = TraceBuilder()
    tb.extend(cached, prefix="cached.")
    tb.extend(per_run, prefix="per_run.")
    diff = tb.step(
        "egress_difference_usd",
        "per_run - cached",
        per_run.total_usd - cached.total_usd,
        "USD",
        "seed 001: 'changes the egress line by $855'",
        per_run_usd=per_run.total_usd,
        cached_usd=cached.total_usd,
    )
    return EgressScenarios(cached=cached, per_run=per_run, difference_usd=diff, **tb.fields())


# --- storage ----------------------------------------------------------------------------------------


class StorageCost(Traced):
    stored_gb: float
    months: float
    usd_per_gb_month: float
    total_usd: float


def storage_cost(*, stored_gb: float, months: float, price: StoragePrice | float) -> StorageCost:
    """GB-months x rate (seed 001: 'exact given a provider's storage rate')."""
    _finite_non_negative(stored_gb=stored_gb, months=months)
    tb = TraceBuilder()
    if isinstance(price, StoragePrice):
        rate, src = (
            price.usd_per_gb_month,
            f"{price.provider} {price.tier}: {price.source} (as of {price.as_of})",
        )
    else:
        _finite_non_negative(usd_per_gb_month=price)
        rate, src = float(price), "caller"
    tb.assume("storage_usd_per_gb_month", rate, "USD/GB-month", src)
    total = tb.step(
        "storage_usd",
        "stored_gb x months x usd_per_gb_month",
        stored_gb * months * rate,
        "USD",
        "seed 001",
        stored_gb=stored_gb,
        months=months,
        usd_per_gb_month=rate,
    )
    return StorageCost(
        stored_gb=stored_gb, months=months, usd_per_gb_month=rate, total_usd=total, **tb.fields()
    )


def checkpoint_size_gb(*, total_params: float, trainable_params: float, method: str) -> float:
    """One resumable checkpoint: bf16 weights (full/pretraining only; LoRA keeps the base frozen and
    unsaved) + fp32 master weights and Adam m, v for the trainable parameters (2 + 12 B/param)."""
    _finite_non_negative(total_params=total_params, trainable_params=trainable_params)
    weights = total_params * CHECKPOINT_BYTES_PER_WEIGHT if method in ("full", "pretraining") else 0.0
    adapters = trainable_params * CHECKPOINT_BYTES_PER_WEIGHT if method in ("lora", "qlora") else 0.0
    return bytes_to_gb(weights + adapters + trainable_params * CHECKPOINT_BYTES_PER_TRAINABLE_STATE)


# --- TCO ----------------------------------------------------------------------------------------------


class TcoTable(Traced):
    """Seed 001's four rows plus their total. Compute and managed are Ranges (GPU-hours are)."""

    gpu_hours: Range
    usd_per_gpu_hour: float
    compute_usd: Range
    storage_usd: float
    egress_usd: float
    managed_usd: Range = Field(description="managed-service premium (an estimate); 0 when self-managed")
    managed_premium_fraction: float | None
    total_usd: Range
    usd_per_gpu_hour_high: float | None = Field(
        default=None,
        description="top of the price spread (spot, marketplace) the compute range's high end uses; "
        "None: the quoted price is firm",
    )


def _as_range(x: float | Range, name: str) -> Range:
    if isinstance(x, Range):
        _finite_non_negative(**{f"{name}_low": x.low, f"{name}_high": x.high})
        return x
    _finite_non_negative(**{name: x})
    return Range(low=float(x), high=float(x))


def tco(
    *,
    gpu_hours: float | Range,
    usd_per_gpu_hour: float | PriceRecord,
    storage_usd: float,
    egress_usd: float,
    managed_premium_fraction: float | Estimate | None = None,
    traced: bool = True,
    usd_per_gpu_hour_high: float | None = None,
) -> TcoTable:
    """compute = GPU-hours x rate; managed = compute x premium (None: self-managed, $0);
    total = compute + storage + egress + managed (seed 001 section 5). A PriceRecord as the rate
    records its provider, pricing model, date and source as an assumption. `traced=False`: the same
    numbers with an empty trace (tools.trace.UntracedBuilder), for callers that only compare totals.
    `usd_per_gpu_hour_high`: the top of a price spread (a spot or marketplace price that may rise);
    compute then runs from gpu_hours.low x rate (fast end, quoted price) to gpu_hours.high x
    usd_per_gpu_hour_high (slow end, high price). None or equal to the rate: the price is firm."""
    hours = _as_range(gpu_hours, "gpu_hours")
    tb = TraceBuilder() if traced else UntracedBuilder()
    if isinstance(usd_per_gpu_hour, PriceRecord):
        rec = usd_per_gpu_hour
        usd_per_gpu_hour = rec.usd_per_gpu_hour
        tb.assume(
            f"price {rec.provider} {rec.gpu} {rec.pricing}{' ' + rec.region if rec.region else ''}",
            usd_per_gpu_hour,
            "USD/GPU-hour",
            f"{rec.source} (as of {rec.as_of})",
        )
    _finite_non_negative(usd_per_gpu_hour=usd_per_gpu_hour, storage_usd=storage_usd, egress_usd=egress_usd)
    if usd_per_gpu_hour_high is None or usd_per_gpu_hour_high == usd_per_gpu_hour:
        usd_per_gpu_hour_high = None
        compute = hours.scale(usd_per_gpu_hour)
        tb.step(
            "compute_usd",
            "gpu_hours x usd_per_gpu_hour",
            compute.mid,
            "USD",
            "seed 001: exact",
            gpu_hours_low=hours.low,
            gpu_hours_high=hours.high,
            usd_per_gpu_hour=usd_per_gpu_hour,
            low=compute.low,
            high=compute.high,
        )
    else:
        _finite_non_negative(usd_per_gpu_hour_high=usd_per_gpu_hour_high)
        if usd_per_gpu_hour_high < usd_per_gpu_hour:
            raise InputError(
                f"usd_per_gpu_hour_high ({usd_per_gpu_hour_high:g}) is below usd_per_gpu_hour "
                f"({usd_per_gpu_hour:g}): give the top of the price range"
            )
        compute = Range(low=hours.low * usd_per_gpu_hour, high=hours.high * usd_per_gpu_hour_high)
        tb.step(
            "compute_usd",
            "low: gpu_hours_low x usd_per_gpu_hour; high: gpu_hours_high x usd_per_gpu_hour_high",
            compute.mid,
            "USD",
            "seed 001 (GPU-hours x rate) over the MFU range and the price spread (issue 3)",
            gpu_hours_low=hours.low,
            gpu_hours_high=hours.high,
            usd_per_gpu_hour=usd_per_gpu_hour,
            usd_per_gpu_hour_high=usd_per_gpu_hour_high,
            low=compute.low,
            high=compute.high,
        )
    fraction: float | None = None
    if managed_premium_fraction is None:
        managed = Range(low=0.0, high=0.0)
        tb.step("managed_usd", "self-managed: no premium", 0.0, "USD")
    else:
        fraction, src = estimate_value(managed_premium_fraction, "managed_premium_fraction")
        _finite_non_negative(managed_premium_fraction=fraction)
        tb.assume("managed_premium_fraction", fraction, "fraction of compute", src)
        managed = compute.scale(fraction)
        tb.step(
            "managed_usd",
            "compute_usd x managed_premium_fraction",
            managed.mid,
            "USD",
            "seed 001: 'roughly 30% over bare metal compute' (an estimate)",
            managed_premium_fraction=fraction,
            low=managed.low,
            high=managed.high,
        )
    tb.step("storage_usd", "from storage_cost", storage_usd, "USD")
    tb.step("egress_usd", "from egress_cost", egress_usd, "USD")
    total = Range(
        low=compute.low + managed.low + storage_usd + egress_usd,
        high=compute.high + managed.high + storage_usd + egress_usd,
    )
    tb.step(
        "total_usd",
        "compute + storage + egress + managed",
        total.mid,
        "USD",
        "seed 001: four rows",
        low=total.low,
        high=total.high,
    )
    return TcoTable(
        gpu_hours=hours,
        usd_per_gpu_hour=usd_per_gpu_hour,
        compute_usd=compute,
        storage_usd=storage_usd,
        egress_usd=egress_usd,
        managed_usd=managed,
        managed_premium_fraction=fraction,
        total_usd=total,
        usd_per_gpu_hour_high=usd_per_gpu_hour_high,
        **tb.fields(),
    )


def reserved_rate(*, on_demand_usd_per_gpu_hour: float, discount: Range | None = None) -> Range:
    """Reserved / committed price range from on-demand when no reserved record exists (seed 000)."""
    _finite_non_negative(on_demand_usd_per_gpu_hour=on_demand_usd_per_gpu_hour)
    d = discount or RESERVED_DISCOUNT
    if not (d.low >= 0 and d.high < 1):
        raise InputError(f"reserved discount must lie in [0, 1), got {d.low}-{d.high}")
    return Range(low=on_demand_usd_per_gpu_hour * (1 - d.high), high=on_demand_usd_per_gpu_hour * (1 - d.low))


class DeploymentRate(BaseModel):
    """One way to run the job: a price per GPU-hour and what else it implies."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="e.g. 'bare metal H100', 'SageMaker', 'colocation (owned)'")
    kind: str = Field(
        description="cloud_on_demand | cloud_spot | cloud_reserved | bare_metal | managed | "
        "colocation | on_prem"
    )
    usd_per_gpu_hour: float = Field(ge=0)
    managed_premium_fraction: float | None = Field(default=None, ge=0)
    egress_usd: float = Field(default=0.0, ge=0)
    storage_usd: float | None = Field(default=None, ge=0, description="overrides the shared storage_usd")


class DeploymentTco(BaseModel):
    model_config = ConfigDict(frozen=True)

    deployment: DeploymentRate
    table: TcoTable


class DeploymentComparison(Traced):
    rows: tuple[DeploymentTco, ...]
    cheapest: str = Field(description="name of the deployment with the lowest mid total")


def compare_deployments(
    *, gpu_hours: float | Range, storage_usd: float, deployments: Sequence[DeploymentRate]
) -> DeploymentComparison:
    """The four-row TCO for each deployment (seed 001's side-by-side table), cheapest by mid total."""
    if not deployments:
        raise InputError("compare_deployments needs at least one deployment")
    tb = TraceBuilder()
    rows = []
    for d in deployments:
        table = tco(
            gpu_hours=gpu_hours,
            usd_per_gpu_hour=d.usd_per_gpu_hour,
            storage_usd=d.storage_usd if d.storage_usd is not None else storage_usd,
            egress_usd=d.egress_usd,
            managed_premium_fraction=d.managed_premium_fraction,
        )
        tb.extend(table, prefix=f"{d.name}.")
        rows.append(DeploymentTco(deployment=d, table=table))
    best = min(rows, key=lambda r: r.table.total_usd.mid)
    tb.step("cheapest", f"min total_usd (mid): {best.deployment.name}", best.table.total_usd.mid, "USD")
    return DeploymentComparison(rows=tuple(rows), cheapest=best.deployment.name, **tb.fields())
