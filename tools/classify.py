"""Classification (seed 000): what kind of training job this is, and which deployment model fits.

Seed 000's tests, as named constants:
- "if the dataset is under ten billion tokens and the run completes in days rather than months, it
  maps closer to fine-tuning infrastructure than pre-training infrastructure";
- a model "trained further on a large vertical corpus" is continual pre-training (the middle ground);
- "at greater than 70% sustained GPU utilization, bare metal dedicated hardware typically becomes
  cheaper than cloud ... Below 30% or for highly intermittent workloads, the cloud premium is
  justified"; in between it depends on prices, horizon, operations capacity and job pattern.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from tools import present
from tools.errors import InputError
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import HOURS_PER_DAY, HOURS_PER_MONTH

WorkloadClass = Literal["fine_tuning", "continual_pretraining", "pretraining", "inference"]
InfrastructureClass = Literal["fine_tuning", "pretraining"]
DeploymentModel = Literal["cloud", "depends", "dedicated"]

FINE_TUNING_MAX_TOKENS = 10e9
FINE_TUNING_MAX_TOKENS_SOURCE = (
    "seed 000: dataset under ten billion tokens -> fine-tuning-class infrastructure"
)
# "Days rather than months": a run shorter than a month (30 days) counts as days.
FINE_TUNING_MAX_DURATION_HOURS = 30 * HOURS_PER_DAY
FINE_TUNING_MAX_DURATION_SOURCE = "seed 000: 'completes in days rather than months' (read as < 30 days)"
CLOUD_MAX_UTILIZATION = 0.30
DEDICATED_MIN_UTILIZATION = 0.70
UTILIZATION_SOURCE = "seed 000: cloud below ~30% sustained utilisation, bare metal/dedicated above ~70%"
SHORT_JOB_HOURS = 24.0
SHORT_JOB_SOURCE = "seed 000: jobs under 24 hours on an intermittent schedule -> cloud"
MULTI_QUARTER_MONTHS = 6.0
MULTI_QUARTER_SOURCE = (
    "seed 000: multi-quarter committed budget -> bare metal or reserved (30-50% below on-demand)"
)


class Classification(Traced):
    workload: WorkloadClass
    infrastructure_class: InfrastructureClass = Field(
        description="infrastructure the job needs: fine-tuning class (single node, no fabric) or pre-training"
    )
    reasons: list[str]


class DeploymentAdvice(Traced):
    model: DeploymentModel
    leaning: Literal["cloud", "dedicated"] | None = Field(
        default=None, description="within 30-70%: which side the given facts favour, None if they do not say"
    )
    options: list[str] = Field(description="deployment options worth pricing, best fit first")
    reasons: list[str]
    depends_on: list[str] = Field(default_factory=list, description="what decides it when model = depends")


def _word(
    tb: TraceBuilder, step: str, formula: str, output: str, **inputs: float | str | bool | None
) -> None:
    tb.steps.append(
        TraceStep(step=step, formula=formula, inputs=dict(inputs), output=output, source="seed 000")
    )


def classify_workload(
    *,
    dataset_tokens: float | None,
    duration_hours: float | None,
    method: str | None,
    from_scratch: bool = False,
) -> Classification:
    """Fine-tuning vs continual pre-training vs pre-training (seed 000), and the infrastructure class.

    dataset_tokens: tokens trained on (dataset x epochs). duration_hours: expected wall-clock (from
    tools.compute), None when unknown. method: full | lora | qlora | pretraining | inference.
    """
    for name, v in (("dataset_tokens", dataset_tokens), ("duration_hours", duration_hours)):
        if v is not None and not (isinstance(v, int | float) and math.isfinite(v) and v > 0):
            raise InputError(f"{name} must be a positive number or unknown, got {v!r}")
    if method is not None and method not in ("full", "lora", "qlora", "pretraining", "inference"):
        raise InputError(f"unknown method {method!r}: use full, lora, qlora, pretraining or inference")
    tb = TraceBuilder()
    tb.assume("fine_tuning_max_tokens", FINE_TUNING_MAX_TOKENS, "tokens", FINE_TUNING_MAX_TOKENS_SOURCE)
    tb.assume(
        "fine_tuning_max_duration_hours", FINE_TUNING_MAX_DURATION_HOURS, "h", FINE_TUNING_MAX_DURATION_SOURCE
    )
    reasons: list[str] = []
    if method == "inference":
        _word(tb, "workload", "method = inference", "inference")
        return Classification(
            workload="inference",
            infrastructure_class="fine_tuning",
            reasons=["serving, not training"],
            **tb.fields(),
        )

    big = dataset_tokens is not None and dataset_tokens >= FINE_TUNING_MAX_TOKENS
    long = duration_hours is not None and duration_hours >= FINE_TUNING_MAX_DURATION_HOURS
    workload: WorkloadClass
    if from_scratch or method == "pretraining":
        workload = "pretraining"
        reasons.append("trains a model from scratch")
    elif big:
        assert dataset_tokens is not None  # big is only true for a known token count
        workload = "continual_pretraining"
        how = (
            "adapters (LoRA/QLoRA)"
            if method in ("lora", "qlora")
            else "further training of an existing model"
        )
        reasons.append(
            f"{how} on {present.count(dataset_tokens)} tokens, at or above seed 000's 10B: continual "
            "pre-training / domain adaptation, the middle ground"
        )
    else:
        workload = "fine_tuning"
        if dataset_tokens is None:
            reasons.append("dataset size unknown: treated as fine-tuning until stated")
        else:
            tokens = present.count(dataset_tokens)
            reasons.append(f"{tokens} tokens is under seed 000's 10B fine-tuning bound")
    _word(
        tb,
        "workload",
        "pretraining if from scratch; continual_pretraining if tokens >= 10B; else fine_tuning",
        workload,
        dataset_tokens=dataset_tokens,
        method=method,
        from_scratch=from_scratch,
    )

    infra: InfrastructureClass = "pretraining" if (big or long) else "fine_tuning"
    if long:
        reasons.append(
            f"{duration_hours:,.0f} h runs for months, not days: pre-training-class infrastructure "
            "(fabric, checkpoint storage, reserved capacity)"
        )
    elif duration_hours is not None:
        reasons.append(f"{duration_hours:,.0f} h completes in days, not months")
    if not big and not long:
        reasons.append("under 10B tokens and days, not months: fine-tuning-class infrastructure (seed 000)")
    _word(
        tb,
        "infrastructure_class",
        "fine_tuning if tokens < 10B and duration < 30 days, else pretraining",
        infra,
        dataset_tokens=dataset_tokens,
        duration_hours=duration_hours,
    )
    return Classification(workload=workload, infrastructure_class=infra, reasons=reasons, **tb.fields())


def deployment_model(
    *,
    utilization: float,
    horizon_months: float | None = None,
    ops_capacity: Literal["none", "limited", "dedicated"] | None = None,
    job_hours: float | None = None,
    intermittent: bool | None = None,
    break_even_utilization: float | None = None,
) -> DeploymentAdvice:
    """Cloud below ~30% sustained utilisation, dedicated above ~70% (seed 000); in between it depends
    on the break-even utilisation at your prices (tools.cost.buy_vs_rent), the budget horizon, the
    team's operations capacity and the job pattern. Each of those, when given, shifts the leaning."""
    if not (isinstance(utilization, int | float) and math.isfinite(utilization) and 0 <= utilization <= 1):
        raise InputError(f"utilization must lie between 0 and 1 (e.g. 0.5 for 50%), got {utilization!r}")
    tb = TraceBuilder()
    tb.assume("cloud_max_utilization", CLOUD_MAX_UTILIZATION, "fraction", UTILIZATION_SOURCE)
    tb.assume("dedicated_min_utilization", DEDICATED_MIN_UTILIZATION, "fraction", UTILIZATION_SOURCE)
    reasons: list[str] = []
    no_ops = ops_capacity == "none"
    long_horizon = horizon_months is not None and horizon_months >= MULTI_QUARTER_MONTHS
    short_jobs = (job_hours is not None and job_hours < SHORT_JOB_HOURS) and intermittent is not False

    model: DeploymentModel
    leaning: Literal["cloud", "dedicated"] | None = None
    depends_on: list[str] = []
    if utilization < CLOUD_MAX_UTILIZATION:
        model = "cloud"
        reasons.append(
            f"{utilization:.0%} sustained utilisation is below ~30%: idle owned capacity would cost "
            "more than the cloud premium (seed 000)"
        )
        options = ["cloud on-demand", "cloud spot (short, checkpointed jobs)"]
        if no_ops:
            options.insert(0, "managed cloud (no infrastructure team)")
    elif utilization > DEDICATED_MIN_UTILIZATION:
        model = "dedicated"
        reasons.append(
            f"{utilization:.0%} sustained utilisation is above ~70%: dedicated capacity is cheaper "
            "per useful GPU-hour (seed 000)"
        )
        if no_ops:
            options = ["reserved cloud capacity", "colocation with managed services", "bare metal (managed)"]
            reasons.append(
                "no infrastructure operations team: prefer reserved or managed offers over "
                "self-run hardware (seed 000, question 5)"
            )
        else:
            options = ["bare metal / reserved", "colocation (owned hardware)", "on-prem (owned hardware)"]
    else:
        model = "depends"
        options = ["reserved cloud capacity", "cloud on-demand", "bare metal"]
        depends_on = [
            "the break-even utilisation at your actual rent and purchase prices (buy-vs-rent)",
            "the budget horizon: multi-quarter commitments make reserved capacity 30-50% cheaper (seed 000)",
            "operations capacity: without an infrastructure team, managed cloud or reserved capacity",
            "the job pattern: intermittent jobs under 24 hours favour on-demand cloud",
        ]
        votes: list[str] = []
        if break_even_utilization is not None:
            side = "dedicated" if utilization >= break_even_utilization else "cloud"
            votes.append(side)
            reasons.append(
                f"at your prices buying breaks even at {break_even_utilization:.0%} utilisation; "
                f"you expect {utilization:.0%}: {'owning' if side == 'dedicated' else 'renting'} "
                "is cheaper"
            )
        if long_horizon:
            votes.append("dedicated")
            reasons.append(f"{horizon_months:g}-month horizon: commit (reserved or bare metal)")
        if short_jobs:
            votes.append("cloud")
            reasons.append(f"jobs of {job_hours:g} h on an intermittent schedule: on-demand cloud")
        if no_ops:
            votes.append("cloud")
            reasons.append("no infrastructure team: managed or reserved cloud rather than owned hardware")
        if votes:
            # The price comparison outweighs the qualitative rules when it is known.
            leaning = votes[0] if break_even_utilization is not None else max(set(votes), key=votes.count)  # type: ignore[assignment]
        reasons.insert(0, f"{utilization:.0%} utilisation lies between ~30% and ~70% (seed 000): it depends")
    _word(
        tb,
        "deployment_model",
        "cloud if u < 0.30; dedicated if u > 0.70; else depends",
        model,
        utilization=utilization,
        horizon_months=horizon_months,
        ops_capacity=ops_capacity,
        break_even_utilization=break_even_utilization,
    )
    return DeploymentAdvice(
        model=model, leaning=leaning, options=options, reasons=reasons, depends_on=depends_on, **tb.fields()
    )


UTILIZATION_DISAGREEMENT_RATIO = 2.0
"""Stated utilisation at least this many times what the runs fill: say so (other work must fill it)."""


class UtilizationCheck(Traced):
    """The utilisation a training workload itself implies on one configuration, against the stated one."""

    stated_utilization: float
    implied_utilization: float = Field(
        description="runs_per_month x wall hours per run / hours per month (mid of the wall-clock range)"
    )
    implied_utilization_range: tuple[float, float] = Field(description="at the fast and slow ends")
    effective_utilization: float = Field(description="min(stated, implied): what owned hardware can count on")
    disagrees: bool = Field(description=f"stated >= {UTILIZATION_DISAGREEMENT_RATIO:g}x implied")
    note: str | None = None


def implied_utilization(
    *,
    runs_per_month: float,
    wall_hours_low: float,
    wall_hours_high: float,
    stated_utilization: float,
    hours_per_month: float = HOURS_PER_MONTH,
) -> UtilizationCheck:
    """How busy the runs keep one configuration: runs_per_month x wall hours per run / hours_per_month.

    Buying hardware pays only for hours it is busy (seed 000: bare metal above ~70% sustained use, cloud
    below ~30%). A stated utilisation the workload does not fill (8 one-hour runs a month on hardware
    'busy 80%') must come from other work; the lower of the two is what the purchase can count on."""
    for name, v in (
        ("runs_per_month", runs_per_month),
        ("wall_hours_low", wall_hours_low),
        ("wall_hours_high", wall_hours_high),
        ("hours_per_month", hours_per_month),
    ):
        if not (math.isfinite(v) and v >= 0):
            raise InputError(f"{name} must be a finite number >= 0, got {v!r}")
    if not (math.isfinite(stated_utilization) and 0 <= stated_utilization <= 1):
        raise InputError(
            f"utilization must lie between 0 and 1 (e.g. 0.5 for 50%), got {stated_utilization!r}"
        )
    tb = TraceBuilder()
    low = runs_per_month * wall_hours_low / hours_per_month
    high = runs_per_month * wall_hours_high / hours_per_month
    mid = tb.step(
        "implied_utilization",
        "runs_per_month x (wall_hours_low + wall_hours_high) / 2 / hours_per_month",
        runs_per_month * (wall_hours_low + wall_hours_high) / 2 / hours_per_month,
        "fraction",
        "issue 3 audit: the workload's own use of the hardware",
        runs_per_month=runs_per_month,
        wall_hours_low=wall_hours_low,
        wall_hours_high=wall_hours_high,
        hours_per_month=hours_per_month,
        low=low,
        high=high,
    )
    effective = tb.step(
        "effective_utilization",
        "min(stated_utilization, implied_utilization)",
        min(stated_utilization, mid),
        "fraction",
        "the purchase can count only on hours some work fills",
        stated_utilization=stated_utilization,
        implied_utilization=mid,
    )
    disagrees = stated_utilization >= UTILIZATION_DISAGREEMENT_RATIO * mid
    note = None
    if disagrees:
        filled = f"{mid:.1%}" if mid < 0.1 else f"{mid:.0%}"
        note = (
            f"you said {stated_utilization:.0%} busy; these runs ({runs_per_month:g} a month) fill {filled}: "
            "other work must fill the rest for buying to pay"
        )
    return UtilizationCheck(
        stated_utilization=stated_utilization,
        implied_utilization=mid,
        implied_utilization_range=(low, high),
        effective_utilization=effective,
        disagrees=disagrees,
        note=note,
        **tb.fields(),
    )
