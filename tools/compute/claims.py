"""Physics checks of training claims: the most tokens n GPUs can train on in H hours, and whether a
claimed 'D tokens in H hours on n GPUs' is impossible (above 100% MFU), implausible (faster than the
time estimate's optimistic end) or plausible. Both run tools.compute.training.estimate_training_time on
the same set-up, so a claim check and an estimate of the same run always agree.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tools import present
from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute.flops import check_positive, check_training_method
from tools.compute.training import TrainingTime, estimate_training_time
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import SECONDS_PER_HOUR, tflops_to_flops
from tools.vocabulary import Framework, Precision, TrainingMethod

Verdict = Literal["impossible", "implausible", "plausible"]


class MaxTokens(Traced):
    """How many tokens a GPU budget can train on."""

    tokens_at_peak: float = Field(description="at 100% MFU: no run can do more")
    tokens: Range = Field(description="at the MFU band")


class ClaimCheck(Traced):
    """Does a claimed 'D tokens in H hours on n GPUs' fit within physics and observed MFU?"""

    required_flops: float
    available_flops_at_peak: float
    implied_mfu: float = Field(description="required / available at peak; > 1 is impossible")
    exceeds_peak_by: float | None = Field(description="factor over the 100%-MFU bound, None when under it")
    mfu_band: Range
    verdict: Verdict
    message: str


def _same_run(
    *,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool,
    precision: Precision,
    flops_factor: float | None,
    mfu_range: Range | None = None,
    framework: Framework | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    batch_size: int | None = None,
    qlora_slowdown: Range | None = None,
    tokens: float = 1.0,
) -> TrainingTime:
    """The time estimate of the same set-up (its FLOPs per token, peak and effective MFU band)."""
    return estimate_training_time(
        active_params=active_params,
        tokens=tokens,
        method=method,
        grad_checkpointing=grad_checkpointing,
        gpu=gpu,
        n_gpus=n_gpus,
        precision=precision,
        mfu_range=mfu_range,
        flops_factor=flops_factor,
        framework=framework,
        arch=arch,
        seq_len=seq_len,
        batch_size=batch_size,
        qlora_slowdown=qlora_slowdown,
    )


def _available_flops_at_peak(*, peak_tflops: float, n_gpus: int, hours: float, tb: TraceBuilder) -> float:
    """FLOPs that n_gpus can do in `hours` at 100% MFU (dense datasheet peak; seed 001's bound)."""
    return tb.step(
        "available_flops_at_peak",
        "n_gpus x peak_flops x hours x 3600",
        n_gpus * tflops_to_flops(peak_tflops) * hours * SECONDS_PER_HOUR,
        "FLOPs",
        n_gpus=n_gpus,
        peak_tflops=peak_tflops,
        hours=hours,
    )


def max_training_tokens(
    *,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: Precision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
    framework: Framework | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    batch_size: int | None = None,
    qlora_slowdown: Range | None = None,
) -> MaxTokens:
    """Tokens n GPUs can train on in `hours`: at 100% MFU (a hard bound) and at the estimate's
    effective MFU band (the same model as estimate_training_time)."""
    method = check_training_method(method)
    check_positive(hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    run = _same_run(
        gpu=gpu,
        n_gpus=n_gpus,
        active_params=active_params,
        method=method,
        grad_checkpointing=grad_checkpointing,
        precision=precision,
        flops_factor=flops_factor,
        mfu_range=mfu_range,
        framework=framework,
        arch=arch,
        seq_len=seq_len,
        batch_size=batch_size,
        qlora_slowdown=qlora_slowdown,
    )
    tb = TraceBuilder()
    tb.extend(run, prefix="time model: ")
    available = _available_flops_at_peak(
        peak_tflops=run.peak_tflops_per_gpu, n_gpus=n_gpus, hours=hours, tb=tb
    )
    at_peak = tb.step(
        "tokens_at_peak",
        "available_flops / flops_per_token",
        available / run.flops_per_token,
        "tokens",
        flops_per_token=run.flops_per_token,
    )
    eff = run.effective_mfu
    tokens = Range(low=at_peak * eff.low, high=at_peak * eff.high)
    tb.step(
        "tokens_at_mfu_band",
        "tokens_at_peak x effective_mfu",
        tokens.mid,
        "tokens",
        low=tokens.low,
        high=tokens.high,
    )
    return MaxTokens(tokens_at_peak=at_peak, tokens=tokens, **tb.fields())


def check_claim(
    *,
    tokens: float,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: Precision = "bf16",
    flops_factor: float | None = None,
    mfu_range: Range | None = None,
    framework: Framework | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    batch_size: int | None = None,
    qlora_slowdown: Range | None = None,
) -> ClaimCheck:
    """Physics check of a claim 'trains `tokens` in `hours` on n x gpu'.

    implied MFU = required model FLOPs / (n x peak x hours). Above 1 the claim is impossible (by that
    factor); above the high end of the time estimate's effective MFU band (the same set-up through
    estimate_training_time) it is implausible, i.e. faster than the estimate's optimistic end;
    otherwise plausible. `mfu_band` is that effective band: implied / band.high x hours is the
    estimate's optimistic wall-clock time.
    """
    method = check_training_method(method)
    check_positive(tokens=tokens, hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    run = _same_run(
        gpu=gpu,
        n_gpus=n_gpus,
        active_params=active_params,
        method=method,
        grad_checkpointing=grad_checkpointing,
        precision=precision,
        flops_factor=flops_factor,
        mfu_range=mfu_range,
        framework=framework,
        arch=arch,
        seq_len=seq_len,
        batch_size=batch_size,
        qlora_slowdown=qlora_slowdown,
        tokens=tokens,
    )
    tb = TraceBuilder()
    tb.extend(run, prefix="time model: ")
    required = tb.step(
        "required_flops",
        "flops_per_token x tokens",
        run.flops,
        "FLOPs",
        flops_per_token=run.flops_per_token,
        tokens=tokens,
    )
    available = _available_flops_at_peak(
        peak_tflops=run.peak_tflops_per_gpu, n_gpus=n_gpus, hours=hours, tb=tb
    )
    implied = tb.step(
        "implied_mfu",
        "required_flops / available_flops_at_peak",
        required / available,
        "fraction of peak",
        required_flops=required,
        available_flops=available,
    )
    band = run.effective_mfu
    ceiling = band.high
    claim = f"{present.count(tokens)} tokens in {hours:g} h on {n_gpus}x {gpu.name}"
    if implied > 1.0:
        verdict: Verdict = "impossible"
        exceeds: float | None = implied
        msg = (
            f"{claim} is impossible: it needs {implied:.1f}x the GPUs' peak FLOPs even at 100% MFU "
            f"({present.scientific(required)} FLOPs needed, {present.scientific(available)} available)."
        )
    elif implied > ceiling:
        verdict, exceeds = "implausible", None
        msg = f"{claim} implies {implied:.0%} MFU, above the {ceiling:.0%} that such runs reach in practice."
    elif implied > band.low:
        verdict, exceeds = "plausible", None
        msg = (
            f"{claim} implies {implied:.0%} MFU: such runs reach {band.low:.0%}-{ceiling:.0%}, so it holds "
            f"only if yours runs at {implied:.0%} or better."
        )
    else:  # needs less than even the slow end of the band (rd5: "implies 1% MFU, within ... 18%-32%")
        verdict, exceeds = "plausible", None
        msg = (
            f"{claim} implies {implied:.0%} MFU, below the {band.low:.0%}-{ceiling:.0%} such runs reach: "
            "it holds with room to spare."
        )
    tb.steps.append(
        TraceStep(
            step="verdict",
            formula="impossible if implied_mfu > 1; implausible if > effective_mfu_high",
            inputs={"implied_mfu": implied, "mfu_high": ceiling},
            output=verdict,
        )
    )
    return ClaimCheck(
        required_flops=required,
        available_flops_at_peak=available,
        implied_mfu=implied,
        exceeds_peak_by=exceeds,
        mfu_band=band,
        verdict=verdict,
        message=msg,
        **tb.fields(),
    )
